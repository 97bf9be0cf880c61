/*
** startup.c -- the runtime's start-up, in the order its modules need:
** clock, then sampling or the hooks' calibration, heap, writer, and the write
** policy (signals, fork); then each thread's state, its end, and the
** process's exit, where the profile is written.  Like uftrace's
** mcount_startup, it runs when libaprof is loaded, or at the first hook
** that comes before (an instrumented object's constructor run first).
*/
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "cost.h"
#include "diag.h"
#include "heap.h"
#include "policy.h"
#include "sample.h"
#include "startup.h"
#include "thread.h"
#include "types.h"
#include "writer.h"

static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key; /* its destructor sees each thread end */


/*
** A thread ends: charge its last interval, keep its name (set with
** pthread_setname_np, perhaps after its first hook) and give back the
** shadow stack's unused address space.  Hooks called after this (other
** destructors) still work on the state.
*/
APROF_NOINSTR static void thread_end(void *state)
{
	struct aprof_thread *t = state;

	if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
		aprof_sample_thread_end(t);
	aprof_charge_now(t);
	prctl(PR_GET_NAME, t->name);
	aprof_thread_stack_trim(t);
}


/* The exit handler: the profile written, unless stopped (policy.c). */
APROF_NOINSTR static void at_exit(void)
{
	aprof_policy_exit();
}


/* Runs once, with the guard set, at the process's first hook or allocation after start. */
APROF_NOINSTR static void runtime_start(void)
{
	aprof_clock_init();
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
		aprof_sample_init();
	else
		aprof_hooks_calibrate();
	aprof_heap_init(aprof_startup_thread);
	aprof_types_init();
	aprof_writer_init();
	aprof_policy_init();
	pthread_key_create(&thread_key, thread_end);
	atexit(at_exit);
	__atomic_store_n(&aprof_started, 1, __ATOMIC_RELEASE);
}


/*
** libaprof's constructor: the runtime starts when libaprof is loaded and the
** loading thread gets its state, so allocations made before the first hook
** (other objects' constructors, libstdc++'s emergency exception pool) are
** charged to the root context, <no routine active>.  libaprof.so is linked
** with -z initfirst, so ld.so runs this before every other object's
** constructors; linked into the program (libaprof.a) it runs at priority
** 101, before the program's own, but after its shared objects'.
*/
APROF_NOINSTR __attribute__((constructor(101))) static void at_load(int argc, char **argv,
									 char **envp)
{
	(void)argc;
	(void)argv;
	aprof_env_from(envp);
	if (aprof_self == NULL && !aprof_busy)
		aprof_startup_thread();
}


APROF_NOINSTR struct aprof_thread *aprof_startup_thread(void)
{
	struct aprof_thread *t;

	aprof_busy++;
	pthread_once(&runtime_once, runtime_start);
	t = aprof_thread_new();
	if (t != NULL) {
		/* Before its first allocation: aprof_busy passes them through until then. */
		aprof_types_thread(&t->types);
		pthread_setspecific(thread_key, t);
		if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
			aprof_sample_thread_start(t);
	}
	aprof_busy--;
	return t;
}


/*
** glibc's gprof start-up, which a program linked with -pg calls from its
** start files (gcrt1.o) before its constructors, found here first.  Such
** a program would run gprof's gmon beside libaprof: its mcount calls and
** its own profile, from objects built -pg without -mfentry, which
** libaprof does not follow.  Refused in one line, before either runs: a
** -pg -mfentry build is to be linked without -pg.  The process ends by
** the system call itself: libaprof's _exit would write a profile.
*/
APROF_API void __monstartup(unsigned long lowpc, unsigned long highpc);
APROF_API void __monstartup(unsigned long lowpc, unsigned long highpc)
{
	(void)lowpc;
	(void)highpc;
	aprof_say("the program is linked with -pg (gprof's gmon.out): link it without -pg "
		  "to profile it with libaprof");
	syscall(SYS_exit_group, 1);
	abort();
}
