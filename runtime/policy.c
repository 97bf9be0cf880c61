/*
** policy.c -- when the profile is written: at exit, before an exec,
** _exit or daemon replaces or ends the process, on a signal that ends it (a crash,
** SIGINT, SIGTERM, SIGHUP, SIGPIPE...: then the default action) and on
** APROF_DUMP_SIGNAL, every so many allocations (autosave),
** and when the program says so (<aprof.h>, after mprof's mprof_stop,
** mprof_restart and set_mprof_autosave); and what a fork's child starts
** with.  How it is written is the writer's (writer.c).
*/
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aprof.h"
#include "clock.h"
#include "cost.h"
#include "diag.h"
#include "heap.h"
#include "interpose.h"
#include "policy.h"
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
APROF_API int daemon(int nochdir, int noclose);
APROF_API void _Exit(int status) __attribute__((noreturn));

/*
** The signals whose default action ends the process: with a core (a crash,
** abort, Ctrl-\, a CPU or file size limit), or without (Ctrl-C, timeout(1),
** a service manager, a closed terminal, a reader gone from the pipe as in
** "prog | head", an alarm).  Where their disposition is the default, the
** profile is written first, then the default action happens.  SIGUSR1 and
** SIGUSR2 are left to the program (or APROF_DUMP_SIGNAL), SIGPROF to
** sampling, SIGTRAP to debuggers.
*/
static const int ending_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT,
				      SIGXCPU, SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGPIPE,
				      SIGALRM, SIGVTALRM };

static int stopped;                   /* aprof_stop: nothing to write at exit */
static unsigned long autosave_every;  /* aprof_set_autosave; 0: off */
static unsigned long autosave_left;   /* allocations until the next autosave */


/*
** Writes the profile so far, the calling thread's interval charged first;
** WAIT 0 (a signal handler's last word) gives up if a write is under way.
** Returns 0, or -1 on failure (reported by the writer).
*/
APROF_NOINSTR static int write_profile(int wait)
{
	struct aprof_thread *self = aprof_self;
	int r;

	aprof_busy++;
	if (self != NULL)
		aprof_charge_now(self);
	r = aprof_writer_write(wait);
	aprof_busy--;
	return r;
}


/*
** The hooks' calibration again, the CPU warm now (cost.h), charged to no
** context: the calling thread's interval charged up to it, and started
** again after it, so that no export counts the runtime's own time.
*/
APROF_NOINSTR static void calibrate_uncharged(void)
{
	struct aprof_thread *self = aprof_self;

	if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
		return;
	aprof_busy++;
	if (self != NULL)
		aprof_charge_now(self);
	aprof_hooks_calibrate();
	if (self != NULL)
		self->last = aprof_clock_read();
	aprof_busy--;
}


APROF_NOINSTR void aprof_policy_exit(void)
{
	if (__atomic_load_n(&stopped, __ATOMIC_ACQUIRE))
		return;
	calibrate_uncharged();
	write_profile(1);
}


/* A crash or a dump signal: the profile so far, unless stopped; it must not wait. */
APROF_NOINSTR static void write_crash(void)
{
	if (!__atomic_load_n(&stopped, __ATOMIC_ACQUIRE))
		write_profile(0);
}


/* ---- the program's own control (<aprof.h>) ------------------------------- */

APROF_API int aprof_dump(void)
{
	return __atomic_load_n(&aprof_started, __ATOMIC_ACQUIRE) ? write_profile(1) : 0;
}


APROF_API int aprof_stop(void)
{
	int r = aprof_dump();

	__atomic_store_n(&stopped, 1, __ATOMIC_RELEASE);
	aprof_heap_on_set(0);
	return r;
}


APROF_API void aprof_restart(const char *file)
{
	struct aprof_thread *t;

	aprof_heap_reset();
	/* Counts from before the restart are forgotten, time included. */
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
		aprof_machine_zero(&t->machine);
	if (file != NULL && *file != '\0')
		aprof_writer_set_path(file);
	__atomic_store_n(&stopped, 0, __ATOMIC_RELEASE);
	aprof_heap_on_set(1);
}


/* Counts one allocation charged towards the next autosave, and writes the profile when it is due. */
APROF_NOINSTR static void autosave_count(void)
{
	unsigned long every = __atomic_load_n(&autosave_every, __ATOMIC_RELAXED);

	if (every != 0 && __atomic_sub_fetch(&autosave_left, 1, __ATOMIC_RELAXED) == 0) {
		__atomic_store_n(&autosave_left, every, __ATOMIC_RELAXED);
		write_profile(1);
	}
}


/* The heap calls autosave_count after each allocation charged, while COUNT is not 0 (heap.h). */
APROF_API void aprof_set_autosave(unsigned long count)
{
	__atomic_store_n(&autosave_left, count, __ATOMIC_RELAXED);
	__atomic_store_n(&autosave_every, count, __ATOMIC_RELEASE);
	aprof_heap_autosave_set(count != 0 ? autosave_count : NULL);
}


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

	aprof_heap_fork_child();
	aprof_writer_fork_child();
	aprof_threads = self;
	if (self != NULL) {
		self->next = NULL;
		self->tid = (uint64_t)getpid();
		aprof_machine_zero(&self->machine);
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

/* Before the process image is replaced or ends without exit(): write the profile. */
APROF_NOINSTR static void write_first(void)
{
	if (__atomic_load_n(&aprof_started, __ATOMIC_ACQUIRE))
		aprof_policy_exit();
}


/*
** Before an exec: the profile written, and the calling thread's sampling
** stopped.  A sample due while the kernel loads the new image would be
** pending in it before it has any handler, and end it (SIGPROF's default
** action): about one exec in five at 1,000 samples a second.  The thread
** that execs is the one left in the new image.
*/
APROF_NOINSTR static void exec_first(void)
{
	struct aprof_thread *t = aprof_self;

	write_first();
	if (t != NULL && aprof_clock_kind == AMON_CLOCK_SAMPLE)
		aprof_sample_thread_end(t);
}

/* After an exec that failed: sampling started again, errno as the exec left it. */
APROF_NOINSTR static int exec_failed(int r)
{
	struct aprof_thread *t = aprof_self;
	int e = errno;

	if (t != NULL && aprof_clock_kind == AMON_CLOCK_SAMPLE)
		aprof_sample_thread_start(t);
	errno = e;
	return r;
}


typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef void (*exit_fn)(int) __attribute__((noreturn));


APROF_API int execve(const char *path, char *const argv[], char *const envp[])
{
	static void *real;

	exec_first();
	return exec_failed(((execve_fn)aprof_next_definition(&real, "execve"))(path, argv, envp));
}


APROF_API int execv(const char *path, char *const argv[])
{
	static void *real;

	exec_first();
	return exec_failed(((execv_fn)aprof_next_definition(&real, "execv"))(path, argv));
}


APROF_API int execvp(const char *file, char *const argv[])
{
	static void *real;

	exec_first();
	return exec_failed(((execv_fn)aprof_next_definition(&real, "execvp"))(file, argv));
}


APROF_API int execvpe(const char *file, char *const argv[], char *const envp[])
{
	static void *real;

	exec_first();
	return exec_failed(((execve_fn)aprof_next_definition(&real, "execvpe"))(file, argv, envp));
}


APROF_API int fexecve(int fd, char *const argv[], char *const envp[])
{
	static void *real;

	exec_first();
	return exec_failed(((fexecve_fn)aprof_next_definition(&real, "fexecve"))(fd, argv, envp));
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


/* execl, execle and execlp: exec_list of the arguments after ARG. */
#define EXEC_LIST(name, search, with_env)                               \
	APROF_API int name(const char *file, const char *arg, ...)       \
	{                                                                \
		va_list ap;                                              \
		int r;                                                   \
									 \
		va_start(ap, arg);                                       \
		r = exec_list(search, file, arg, ap, with_env);          \
		va_end(ap);                                              \
		return r;                                                \
	}

EXEC_LIST(execl, 0, 0)
EXEC_LIST(execle, 0, 1)
EXEC_LIST(execlp, 1, 0)


APROF_API void _exit(int status)
{
	static void *real;

	write_first();
	/* In a program linked -static, libc's _exit is not there: its system call is. */
	if (aprof_next_definition_or_null(&real, "_exit") == NULL)
		for (;;)
			syscall(SYS_exit_group, status);
	((exit_fn)real)(status);
}


APROF_API void _Exit(int status)
{
	_exit(status);
}


/*
** glibc's daemon forks and leaves the parent through its own _exit, which
** the interposed one never sees: the parent's profile is written first.
** The child goes on as any forked child, to its own file.
*/
APROF_API int daemon(int nochdir, int noclose)
{
	static void *real;

	write_first();
	return ((int (*)(int, int))aprof_next_definition(&real, "daemon"))(nochdir, noclose);
}


/* ---- signals --------------------------------------------------------------------- */

/* A fatal or terminating signal: write what we have, then let the default action happen. */
APROF_NOINSTR static void on_fatal(int sig)
{
	write_crash();
	signal(sig, SIG_DFL);
	raise(sig);
}


/* APROF_DUMP_SIGNAL: a snapshot, and the program runs on. */
APROF_NOINSTR static void on_dump(int sig)
{
	(void)sig;
	write_crash();
}


/*
** The signal V names, as kill -l prints them, with or without "SIG", in any
** case: "USR1", "SIGTERM", "RTMIN", "RTMIN+3", "SIGRTMAX-2", or a number
** ("10"); 0 if none.  glibc's sigabbrev_np knows every name but the
** real-time signals' and IO, which it calls POLL.
*/
APROF_NOINSTR static int signal_number(const char *v)
{
	char *end;
	long n;
	int sig, base;

	if (strncasecmp(v, "SIG", 3) == 0)
		v += 3;
	if (*v >= '0' && *v <= '9') {
		n = strtol(v, &end, 10);
		return *end == '\0' && n > 0 && n < NSIG ? (int)n : 0;
	}
	for (sig = 1; sig < NSIG; sig++)
		if (sigabbrev_np(sig) != NULL && strcasecmp(v, sigabbrev_np(sig)) == 0)
			return sig;
	if (strcasecmp(v, "IO") == 0)
		return SIGIO;
	if (strncasecmp(v, "RTMIN", 5) == 0)
		base = SIGRTMIN;
	else if (strncasecmp(v, "RTMAX", 5) == 0)
		base = SIGRTMAX;
	else
		return 0;
	v += 5;
	if (*v == '\0')
		return base;
	if (*v != (base == SIGRTMIN ? '+' : '-') || v[1] < '0' || v[1] > '9')
		return 0;
	n = strtol(v, &end, 10);
	sig = base + (int)n;
	return *end == '\0' && sig >= SIGRTMIN && sig <= SIGRTMAX ? sig : 0;
}


/*
** Installs HANDLER for SIG unless the program already handles or ignores it;
** returns -1 if SIG cannot be caught (SIGKILL, SIGSTOP).
*/
APROF_NOINSTR static int catch_signal(int sig, void (*handler)(int), int flags)
{
	struct sigaction old, sa;

	if (sigaction(sig, NULL, &old) != 0)
		return -1;
	if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}


/*
** 1 if SIG is a fault's (or abort's, or a breakpoint's): a dump handler
** returning from a fault returns to the faulting instruction, which faults
** again, and the profile would be written forever; such signals are left
** to the crash handler (on_fatal), which writes once and ends the process.
*/
APROF_NOINSTR static int fault_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGABRT || sig == SIGTRAP;
}


/* APROF_DUMP_SIGNAL's handler, first: the signal may be one that would otherwise end the process. */
APROF_NOINSTR static void catch_dump_signal(void)
{
	const char *v = aprof_env("APROF_DUMP_SIGNAL");
	int sig;

	if (v == NULL)
		return;
	sig = signal_number(v);
	if (sig == 0)
		aprof_env_reject("APROF_DUMP_SIGNAL", v,
				 "not a signal name (as kill -l prints it) or number: no dump signal");
	else if (fault_signal(sig))
		aprof_env_reject("APROF_DUMP_SIGNAL", v,
				 "a fault's signal, which returns to the fault: no dump signal");
	else if (catch_signal(sig, on_dump, SA_RESTART) != 0)
		aprof_env_reject("APROF_DUMP_SIGNAL", v, "a signal that cannot be caught: no dump signal");
}


APROF_NOINSTR void aprof_policy_init(void)
{
	size_t i;

	pthread_atfork(fork_prepare, fork_parent, fork_child);
	catch_dump_signal();
	for (i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++)
		catch_signal(ending_signals[i], on_fatal, SA_RESETHAND | SA_NODEFER);
}
