/*
** thread.c -- lazy creation of the runtime and of each thread's state.
*/
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "thread.h"
#include "writer.h"

#define STACK_INITIAL 4096 /* shadow-stack entries; doubled on demand, no cap */

APROF_HIDDEN __thread struct aprof_thread *aprof_self __attribute__((tls_model("initial-exec")));
APROF_HIDDEN struct aprof_thread *aprof_threads;
APROF_HIDDEN __thread int aprof_busy __attribute__((tls_model("initial-exec")));
APROF_HIDDEN int aprof_started;

static pthread_once_t runtime_once = PTHREAD_ONCE_INIT;


/*
** Runs once, at the first hook call of the process: possibly inside another
** object's constructor, before main and before our own constructor.
*/
APROF_NOINSTR static void runtime_start(void)
{
	const char *clock = secure_getenv("APROF_CLOCK");

	aprof_clock_init(clock != NULL && strcmp(clock, "monotonic") == 0);
	aprof_heap_init();
	aprof_writer_init();
	atexit(aprof_writer_at_exit);
	__atomic_store_n(&aprof_started, 1, __ATOMIC_RELEASE);
}


APROF_NOINSTR struct aprof_thread *aprof_thread_start(void)
{
	struct aprof_thread *t;

	aprof_busy++;
	pthread_once(&runtime_once, runtime_start);
	t = aprof_map(sizeof *t);
	if (t == NULL || aprof_machine_init(&t->machine) != 0 ||
	    (t->stack = aprof_map(STACK_INITIAL * sizeof t->stack[0])) == NULL) {
		aprof_busy--;
		return NULL;
	}
	t->cap = STACK_INITIAL;
	t->cur = t->machine.root;
	t->tid = (uint64_t)syscall(SYS_gettid);
	prctl(PR_GET_NAME, t->name);
	t->next = __atomic_load_n(&aprof_threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&aprof_threads, &t->next, t, 0, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	aprof_self = t;
	aprof_busy--;
	t->last = aprof_clock_read();
	return t;
}


APROF_NOINSTR int aprof_thread_grow_stack(struct aprof_thread *t)
{
	struct aprof_context **s = aprof_map(2 * t->cap * sizeof s[0]);

	if (s == NULL)
		return -1;
	memcpy(s, t->stack, t->sp * sizeof s[0]);
	aprof_unmap(t->stack, t->cap * sizeof s[0]);
	t->stack = s;
	t->cap *= 2;
	return 0;
}
