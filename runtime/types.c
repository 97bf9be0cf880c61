/*
** types.c -- constructor candidates of allocations (types.h).  All of it
** runs in the hooks' slow path or in the malloc wrappers, never in the
** hooks' common case: an allocation diverts the next hook the way a jump
** does (nonlocal.c), by the probe countdown with the CPU's counter or by the
** jump word while sampling, and each watched hook diverts the next one.
*/
#include <config.h>

#include <string.h>

#include "clock.h"
#include "heap.h"
#include "thread.h"
#include "types.h"


/* Sends T's next hook to the slow path (hooks.c), once. */
APROF_NOINSTR static void divert(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;

	if (w->diverted)
		return;
	w->diverted = 1;
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE) {
		t->jumped |= APROF_JUMP_WATCH;
	} else {
		w->probe = t->probe;
		t->probe = 1;
	}
}


APROF_NOINSTR void aprof_types_resume(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;

	w->diverted = 0;
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
		t->jumped &= ~APROF_JUMP_WATCH;
	else if (t->probe <= 1) /* not redrawn meanwhile (a jump redraws it) */
		t->probe = w->probe;
}


/* Counts the watched allocation at its (size, candidates) site of W's context. */
APROF_NOINSTR static void record(struct aprof_thread *t, const struct aprof_types_watch *w)
{
	struct aprof_type_site *s, **link = &w->heap->sites;
	uint64_t cand[AMON_CANDIDATES] = { 0 };
	uint32_t k, n = 0;

	for (k = 0; k < w->n; k++)
		cand[k] = w->candidate[k];
	for (; (s = *link) != NULL; link = &s->next, n++)
		if (s->s.size == w->size && memcmp(s->s.candidate, cand, sizeof cand) == 0) {
			APROF_ADD(s->s.allocs, 1);
			return;
		}
	if (n >= AMON_SITES_MAX)
		return; /* its type will be unknown (amon.h) */
	s = aprof_arena_alloc(&t->machine.arena, sizeof *s, 8);
	if (s == NULL) {
		APROF_PUT(t->machine.full, 1);
		return;
	}
	s->next = NULL;
	s->s.size = w->size;
	s->s.allocs = 1;
	memcpy(s->s.candidate, cand, sizeof cand);
	__atomic_store_n(link, s, __ATOMIC_RELEASE);
}


/* Ends T's watch, counting its allocation if it saw a candidate. */
APROF_NOINSTR static void finish(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;

	if (w->n > 0)
		record(t, w);
	w->ctx = NULL;
}


APROF_NOINSTR void aprof_types_allocated(struct aprof_thread *t, struct aprof_context *c,
					 struct aprof_heap_counts *h, uint64_t size)
{
	struct aprof_types_watch *w = &t->types;

	aprof_busy = 1; /* a signal handler's hooks must not see the watch half made */
	if (w->ctx != NULL)
		finish(t);
	w->ctx = c;
	w->heap = h;
	w->sp = t->sp;
	w->size = size;
	w->n = 0;
	w->budget = AMON_WATCH_HOOKS;
	divert(t);
	aprof_busy = 0;
}


APROF_NOINSTR void aprof_types_hook(struct aprof_thread *t, int entry)
{
	struct aprof_types_watch *w = &t->types;

	if (w->ctx == NULL)
		return;
	if (entry ? t->sp <= w->sp : t->sp < w->sp) {
		finish(t); /* the allocating context was left (a return, a jump) */
		return;
	}
	if (entry && t->sp == w->sp + 1 && t->stack[w->sp].ctx == w->ctx)
		w->candidate[w->n++] = t->stack[w->sp].fn;
	if (w->n == AMON_CANDIDATES || --w->budget == 0)
		finish(t);
	else
		divert(t);
}


APROF_NOINSTR void aprof_types_reset(struct aprof_heap_counts *h)
{
	struct aprof_type_site *s;

	for (s = __atomic_load_n(&h->sites, __ATOMIC_ACQUIRE); s != NULL;
	     s = __atomic_load_n(&s->next, __ATOMIC_ACQUIRE))
		APROF_PUT(s->s.allocs, 0);
}
