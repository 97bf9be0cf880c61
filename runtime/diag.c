/*
** diag.c -- the runtime's one-line messages on stderr, and the APROF_*
** variables read with them (diag.h).
*/
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "diag.h"


APROF_NOINSTR void aprof_say(const char *format, ...)
{
	char line[4608];
	va_list ap;
	int n = snprintf(line, sizeof line, "aprof: ");

	va_start(ap, format);
	n += vsnprintf(line + n, sizeof line - (size_t)n - 1, format, ap);
	va_end(ap);
	if ((size_t)n > sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	(void)!write(STDERR_FILENO, line, (size_t)n);
}


/*
** The environment as the process started with it: libaprof's constructor
** may run before libc's has set environ (ld.so's -z initfirst), so it gives
** the environment it was called with.
*/
static char **environment;


APROF_NOINSTR void aprof_env_from(char **envp)
{
	environment = envp;
}


APROF_NOINSTR const char *aprof_env(const char *name)
{
	char **e = environment != NULL ? environment : environ;
	size_t n = strlen(name);

	if (getauxval(AT_SECURE)) /* secure_getenv's rule, without libc's start-up */
		return NULL;
	for (; e != NULL && *e != NULL; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return (*e)[n + 1] != '\0' ? *e + n + 1 : NULL;
	return NULL;
}


APROF_NOINSTR void aprof_env_reject(const char *name, const char *value, const char *expected)
{
	aprof_say("%s=%s: %s", name, value, expected);
}
