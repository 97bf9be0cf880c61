/*
** util.c -- error reporting and checked allocation for the analyser.
*/
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/util.h"

const char *util_progname = "aprof";


/* One line on stderr: "aprof: ", KIND, then FMT with AP; stdout flushed first. */
static void say(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", util_progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}


void util_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
	exit(1);
}


void util_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}


void util_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}


void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		util_die("out of memory (%zu bytes)", size);
	return p;
}


void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		util_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}


void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (p == NULL)
		util_die("out of memory (%zu bytes)", size);
	return p;
}


char *xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}
