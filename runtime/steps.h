/*
** steps.h -- the steps of the hooks' work, inline, that their common case
** (hooks.c) and their second cases and slow paths (slowpath.c) share: the
** charge, the count, the push and the pop.
*/
#ifndef APROF_RUNTIME_STEPS_H
#define APROF_RUNTIME_STEPS_H

#include <stdint.h>

#include "clock.h"
#include "internal.h"
#include "thread.h"
#include "transition.h"

/* Charges T's interval up to clock reading NOW to context C; it ends in an entry if ENTRY. */
APROF_NOINSTR static inline void charge_at(struct aprof_thread *t, struct aprof_context *c,
					   int entry, uint64_t now)
{
	aprof_charge(t, c, now);
	if (entry)
		APROF_INC(c->events);
}


/* charge() in the hooks' common case: the clock is the CPU's counter (KIND) or samples. */
APROF_NOINSTR static inline void charge_counter(struct aprof_thread *t, struct aprof_context *c,
						int entry, uint32_t kind)
{
	if (kind == APROF_CLOCK_COUNTER)
		charge_at(t, c, entry, aprof_counter_read());
}


/*
** Counts a call through way W of the current context, in the way itself
** (transition.h: the callee's context untouched).  One instruction
** (APROF_INC), so that a signal handler's hooks may interrupt it.
*/
APROF_NOINSTR static inline void count(struct aprof_way *w)
{
	APROF_INC(w->calls);
}


/*
** Pushes the entry of FN (hook frame FRAME) in context NEXT above TOP, the
** top of the shadow stack whose top and limit are E (aprof_thread_ends),
** which has room,
** making NEXT current: the one store of E->top, an add to memory
** (APROF_STEP: one instruction fewer than a store of F).  Safe without the
** guard, wherever a signal handler's hooks interrupt it (their pushes go
** above the top they find, and they leave it as they found it; the stack
** never moves, thread.h), and wherever a jump out of the handler abandons
** it: the entry's context is written before that store, so that a handler
** finds it there, and again after it, with the other fields, in case a
** handler's push just before the store wrote its own entry there.  An
** entry abandoned before its other fields are written holds an earlier
** entry's: a jump's resync pops it all the same.
*/
APROF_NOINSTR static inline void push_above(struct aprof_ends *e, struct aprof_frame *top,
					    struct aprof_context *next, uintptr_t fn, uintptr_t frame,
					    uintptr_t site)
{
	struct aprof_frame *f = top + 1;

	f->ctx = next;
	__atomic_signal_fence(__ATOMIC_RELEASE);
	APROF_STEP(e->top, 1);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	f->ctx = next;
	f->fn = fn;
	f->frame = frame;
	f->site = site;
}


/*
** The entry of FN (hook frame FRAME) on T in CUR, AT the halved offset of
** the way of its successor (aprof_way_at), with clock KIND (the CPU's
** counter or sampling): the common case's work, a probe counted down, the
** call counted and charged, a push above TOP, T's top (push).
*/
APROF_NOINSTR static inline void enter_above(struct aprof_thread *t, struct aprof_context *cur,
					     size_t at, struct aprof_frame *top, uintptr_t fn,
					     uintptr_t frame, uintptr_t site, uint32_t kind)
{
	if (kind != AMON_CLOCK_SAMPLE)
		t->probe--;
	/*
	** AT made opaque (no instruction) before each access, so that GCC
	** addresses each by CUR and AT scaled, as the test of the way did,
	** rather than keep their common address in a register: one lea more.
	*/
	__asm__("" : "+r"(at));
	count(aprof_way_at(cur, at));
	charge_counter(t, cur, 1, kind);
	__asm__("" : "+r"(at));
	push_above(aprof_thread_ends_of(t, kind), top, aprof_way_at(cur, at)->to, fn, frame, site);
}


/*
** The exit matching T's top entry TOP, with clock KIND (the CPU's counter,
** guard set, or sampling): a probe counted down, the interval charged, a
** pop, the one store of T's top (APROF_STEP: an add to memory, one
** instruction fewer than a store of TOP - 1), which makes the caller's
** context current.
** Sampling's needs no guard: a handler's hooks before that store find the
** entry still on top and push above it.
*/
APROF_NOINSTR static inline void leave_known(struct aprof_thread *t, struct aprof_frame *top,
					     uint32_t kind)
{
	if (kind != AMON_CLOCK_SAMPLE)
		t->probe--;
	charge_counter(t, top->ctx, 0, kind);
	APROF_STEP(aprof_thread_ends_of(t, kind)->top, -1);
}

#endif /* APROF_RUNTIME_STEPS_H */
