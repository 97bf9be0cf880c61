/*
** thread.c -- each thread's state: made at its first hook or allocation
** (startup.c), its shadow stack grown on demand, and resynchronised after a
** jump (longjmp, a caught exception) left entries without their exits.
*/
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arena.h"
#include "thread.h"

#define STACK_INITIAL 4096 /* shadow-stack entries; doubled on demand, no cap */

APROF_HIDDEN __thread struct aprof_thread *aprof_self __attribute__((tls_model("initial-exec")));
APROF_HIDDEN struct aprof_thread *aprof_threads;
APROF_HIDDEN __thread int aprof_busy __attribute__((tls_model("initial-exec")));
APROF_HIDDEN int aprof_started;

/* The calling thread's stack, so that frames on another stack are told apart. */
APROF_NOINSTR static void stack_bounds(struct aprof_thread *t)
{
	pthread_attr_t a;
	void *lo;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &lo, &size) == 0) {
		t->stack_lo = (uintptr_t)lo;
		t->stack_hi = (uintptr_t)lo + size;
	}
	pthread_attr_destroy(&a);
}


APROF_NOINSTR struct aprof_thread *aprof_thread_new(void)
{
	struct aprof_thread *t;

	aprof_busy++;
	t = aprof_map(sizeof *t);
	if (t == NULL || aprof_machine_init(&t->machine) != 0 ||
	    (t->stack = aprof_map(STACK_INITIAL * sizeof t->stack[0])) == NULL) {
		aprof_busy--;
		return NULL;
	}
	t->cap = STACK_INITIAL;
	t->cur = t->machine.root;
	stack_bounds(t);
	t->tid = (uint64_t)syscall(SYS_gettid);
	prctl(PR_GET_NAME, t->name);
	t->next = __atomic_load_n(&aprof_threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&aprof_threads, &t->next, t, 0, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	aprof_self = t;
	aprof_busy--;
	t->last = aprof_clock_read();
	aprof_probe_reset(t);
	t->heap_probe = t->probe;
	return t;
}


APROF_NOINSTR int aprof_thread_grow_stack(struct aprof_thread *t)
{
	struct aprof_frame *s = aprof_map(2 * t->cap * sizeof s[0]);

	if (s == NULL)
		return -1;
	memcpy(s, t->stack, t->sp * sizeof s[0]);
	aprof_unmap(t->stack, t->cap * sizeof s[0]);
	t->stack = s;
	t->cap *= 2;
	return 0;
}


/*
** True if C is the frame of a shadow-stack entry: the stack pointer of a
** routine (in its enter hook) that is still there.
*/
APROF_NOINSTR static int is_entry_frame(const struct aprof_thread *t, uintptr_t c)
{
	size_t k = t->sp;

	while (k > 0 && t->stack[k - 1].frame < c)
		k--;
	return k > 0 && t->stack[k - 1].frame == c;
}


APROF_NOINSTR struct aprof_context *aprof_thread_land(struct aprof_thread *t, uintptr_t frame,
						      uintptr_t site)
{
	uintptr_t p, first = 0, caller_sp = 0;

	t->jumped = 0;
	if (frame < t->stack_lo || frame >= t->stack_hi)
		return t->cur; /* another stack (a signal's, a coroutine's): nothing to compare */
	/*
	** The routine being entered was called from SITE, so its return address
	** is on the stack above FRAME, just below the caller's stack pointer.
	** Stale copies may lie in dead stack memory on the way: the right one
	** is the first whose caller's stack pointer is the frame of an entry
	** (the caller's own: its stack pointer when its enter hook ran).
	*/
	for (p = frame & ~(uintptr_t)7; p + sizeof(uintptr_t) <= t->stack_hi;
	     p += sizeof(uintptr_t)) {
		if (*(const uintptr_t *)p != site)
			continue;
		if (first == 0)
			first = p + sizeof(uintptr_t);
		if (is_entry_frame(t, p + sizeof(uintptr_t))) {
			caller_sp = p + sizeof(uintptr_t);
			break;
		}
	}
	if (caller_sp == 0)
		caller_sp = first; /* the caller moved its stack pointer (alloca): the nearest */
	/* Every routine the caller called before, and all below them, is gone. */
	while (caller_sp != 0 && t->sp != 0 && t->stack[t->sp - 1].frame < caller_sp) {
		t->cur = t->stack[--t->sp].ctx;
		APROF_ADD(t->resyncs, 1);
	}
	return t->cur;
}


APROF_NOINSTR struct aprof_context *aprof_thread_exit_slow(struct aprof_thread *t, uintptr_t fn,
							   uintptr_t site)
{
	struct aprof_context *running = t->cur;
	size_t k;

	t->jumped = 0;
	if (t->lost != 0) { /* an entry the full stack could not take */
		APROF_PUT(t->lost, t->lost - 1);
		return running;
	}
	/* FN's entry: the nearest with SITE too, else the nearest with FN (a split-off part). */
	for (k = t->sp; k > 0; k--)
		if (t->stack[k - 1].fn == fn && t->stack[k - 1].site == site)
			break;
	if (k == 0)
		for (k = t->sp; k > 0; k--)
			if (t->stack[k - 1].fn == fn)
				break;
	if (k == 0) {
		APROF_ADD(t->unmatched, 1);
		return running;
	}
	/* Entries above FN's were abandoned; FN's own context is the next one up. */
	if (k < t->sp)
		running = t->stack[k].ctx;
	APROF_ADD(t->resyncs, t->sp - k);
	t->sp = k - 1;
	t->cur = t->stack[t->sp].ctx;
	return running;
}
