/*
** process.c -- the profile across the life of the process: fork (the child
** starts a profile of its own), the exec family and _exit (the profile so
** far is written first), fatal signals (written before the default action)
** and APROF_DUMP_SIGNAL (a snapshot on demand).
*/
#include <config.h>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aprof.h"
#include "clock.h"
#include "heap.h"
#include "process.h"
#include "sample.h"
#include "thread.h"
#include "writer.h"

APROF_API int execve(const char *path, char *const argv[], char *const envp[]);
APROF_API int execv(const char *path, char *const argv[]);
APROF_API int execvp(const char *file, char *const argv[]);
APROF_API int execvpe(const char *file, char *const argv[], char *const envp[]);
APROF_API int execl(const char *path, const char *arg, ...);
APROF_API int execle(const char *path, const char *arg, ...);
APROF_API int execlp(const char *file, const char *arg, ...);
APROF_API int fexecve(int fd, char *const argv[], char *const envp[]);
APROF_API void _exit(int status) __attribute__((noreturn));
APROF_API void _Exit(int status) __attribute__((noreturn));

/* The signals whose default action ends the process with a core: write first. */
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };


/* ---- fork ------------------------------------------------------------------ */

APROF_NOINSTR static void fork_prepare(void)
{
	aprof_writer_fork_prepare();
	aprof_heap_fork_prepare();
}


APROF_NOINSTR static void fork_parent(void)
{
	aprof_heap_fork_parent();
	aprof_writer_fork_parent();
}


/*
** The child: only the forking thread goes on, in the middle of its calls, so
** its shadow stack and contexts stay; every count so far is the parent's and
** is forgotten, and the profile goes to the child's own path.
*/
APROF_NOINSTR static void fork_child(void)
{
	struct aprof_thread *self = aprof_self;
	struct aprof_context *c;

	aprof_heap_fork_child();
	aprof_writer_fork_child();
	aprof_threads = self;
	if (self != NULL) {
		self->next = NULL;
		self->tid = (uint64_t)getpid();
		for (c = self->machine.first; c != NULL; c = c->next)
			c->ticks = c->events = c->heap_events = c->calls = c->rec = 0;
		self->resyncs = self->dropped = self->unmatched = 0;
	}
	aprof_heap_reset();
	aprof_clock_restart();
	if (self != NULL) {
		self->last = aprof_clock_start;
		if (aprof_clock_kind == AMON_CLOCK_SAMPLE) /* timers are not inherited */
			aprof_sample_thread_start(self);
	}
}


/* ---- exec and _exit: write first --------------------------------------------- */

APROF_NOINSTR void *aprof_next_definition(void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (f == NULL) {
		aprof_busy++; /* dlsym may allocate */
		f = dlsym(RTLD_NEXT, name);
		aprof_busy--;
		__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	}
	return f;
}


/* Before the process image is replaced or ends without exit(): write the profile. */
APROF_NOINSTR static void write_now(void)
{
	if (aprof_started)
		aprof_writer_at_exit();
}


typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef void (*exit_fn)(int) __attribute__((noreturn));


APROF_API int execve(const char *path, char *const argv[], char *const envp[])
{
	static void *real;

	write_now();
	return ((execve_fn)aprof_next_definition(&real, "execve"))(path, argv, envp);
}


APROF_API int execv(const char *path, char *const argv[])
{
	static void *real;

	write_now();
	return ((execv_fn)aprof_next_definition(&real, "execv"))(path, argv);
}


APROF_API int execvp(const char *file, char *const argv[])
{
	static void *real;

	write_now();
	return ((execv_fn)aprof_next_definition(&real, "execvp"))(file, argv);
}


APROF_API int execvpe(const char *file, char *const argv[], char *const envp[])
{
	static void *real;

	write_now();
	return ((execve_fn)aprof_next_definition(&real, "execvpe"))(file, argv, envp);
}


APROF_API int fexecve(int fd, char *const argv[], char *const envp[])
{
	static void *real;

	write_now();
	return ((fexecve_fn)aprof_next_definition(&real, "fexecve"))(fd, argv, envp);
}


/*
** execl, execle and execlp: the arguments after ARG, up to the NULL, become
** an argv array; for execle the environment follows the NULL.  SEARCH says
** whether FILE is looked up in PATH (execlp).
*/
APROF_NOINSTR static int exec_list(int search, const char *file, const char *arg, va_list ap,
				   int with_env)
{
	va_list count;
	size_t n = 0, i;

	va_copy(count, ap);
	while (va_arg(count, const char *) != NULL)
		n++;
	va_end(count);
	{
		const char *argv[n + 2];
		char *const *envp = environ;

		argv[0] = arg;
		for (i = 1; i <= n + 1; i++)
			argv[i] = va_arg(ap, const char *);
		if (with_env)
			envp = va_arg(ap, char *const *);
		return search ? execvpe(file, (char *const *)argv, envp)
			      : execve(file, (char *const *)argv, envp);
	}
}


APROF_API int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = exec_list(0, path, arg, ap, 0);
	va_end(ap);
	return r;
}


APROF_API int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = exec_list(0, path, arg, ap, 1);
	va_end(ap);
	return r;
}


APROF_API int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = exec_list(1, file, arg, ap, 0);
	va_end(ap);
	return r;
}


APROF_API void _exit(int status)
{
	static void *real;

	write_now();
	((exit_fn)aprof_next_definition(&real, "_exit"))(status);
}


APROF_API void _Exit(int status)
{
	_exit(status);
}


/* ---- signals --------------------------------------------------------------------- */

/* A fatal signal: write what we have, then let the default action happen. */
APROF_NOINSTR static void on_fatal(int sig)
{
	aprof_writer_dump_crash();
	signal(sig, SIG_DFL);
	raise(sig);
}


/* APROF_DUMP_SIGNAL: a snapshot, and the program runs on. */
APROF_NOINSTR static void on_dump(int sig)
{
	(void)sig;
	aprof_writer_dump_crash();
}


/* The signal APROF_DUMP_SIGNAL names ("USR1", "SIGUSR1" or a number), 0 if none. */
APROF_NOINSTR static int dump_signal(void)
{
	const char *v = secure_getenv("APROF_DUMP_SIGNAL");
	static const struct { const char *name; int sig; } names[] = {
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
		{ "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "URG", SIGURG },
	};
	size_t i;

	if (v == NULL || *v == '\0')
		return 0;
	if (strncmp(v, "SIG", 3) == 0)
		v += 3;
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(v, names[i].name) == 0)
			return names[i].sig;
	i = (size_t)strtoul(v, NULL, 10);
	return i > 0 && i < NSIG ? (int)i : 0;
}


/* Installs HANDLER for SIG unless the program already handles it. */
APROF_NOINSTR static void catch_signal(int sig, void (*handler)(int), int flags)
{
	struct sigaction old, sa;

	if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
	    (old.sa_flags & SA_SIGINFO))
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}


APROF_NOINSTR void aprof_process_init(void)
{
	size_t i;
	int sig = dump_signal();

	pthread_atfork(fork_prepare, fork_parent, fork_child);
	for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
		catch_signal(fatal_signals[i], on_fatal, SA_RESETHAND | SA_NODEFER);
	if (sig != 0)
		catch_signal(sig, on_dump, SA_RESTART);
}
