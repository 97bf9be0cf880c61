/*
** types.c -- constructor candidates of allocations (types.h).  All of it
** runs in the hooks' slow path or in the malloc wrappers, never in the
** hooks' common case: an allocation makes the shadow stack look full at the
** allocating depth (its limit lowered, thread.h), so that only an entry from that
** depth takes the slow path, and a candidate's exit too (its entry marked
** APROF_FN_WATCHED, so that the exit does not match it), to watch on.
*/
#include <config.h>

#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>

#include "clock.h"
#include "heap.h"
#include "thread.h"
#include "types.h"


APROF_HIDDEN int aprof_types_on = 1;


/* 1 if the program has an interpreter (PT_INTERP): linked dynamically. */
APROF_NOINSTR static int linked_dynamically(void)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long k, n = getauxval(AT_PHNUM);

	for (k = 0; ph != NULL && k < n; k++)
		if (ph[k].p_type == PT_INTERP)
			return 1;
	return 0;
}


APROF_NOINSTR void aprof_types_init(void)
{
	aprof_types_on = dlsym(RTLD_DEFAULT, "_Znwm") != NULL || !linked_dynamically();
}


/*
** Sends T's next entry from depth W->sp to the slow path (hooks.c), once:
** the common case takes the slow path when the shadow stack looks full, so
** its limit is lowered to that depth, for both clocks.  Entries deeper or
** shallower, and every exit, keep the common case.
*/
APROF_NOINSTR static void divert(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;

	if (t->diverted || aprof_thread_depth(t) > w->sp)
		return;
	t->diverted = 1;
	aprof_thread_ends(t)->limit = t->stack + w->sp;
}


/*
** A site for watch W's allocation, counted once, appended to its context's
** at LINK, the list's end.  Apart, so that aprof_types_record, which finds
** a site nearly always, makes no call and saves no register.
*/
APROF_NOINSTR __attribute__((noinline)) static void site_new(struct aprof_thread *t,
							     const struct aprof_types_watch *w,
							     struct aprof_type_site **link)
{
	struct aprof_type_site *s = aprof_arena_alloc(&t->machine.arena, sizeof *s, 8);

	if (s == NULL) {
		APROF_PUT(t->machine.full, 1);
		return;
	}
	s->next = NULL;
	s->s.size = w->size;
	s->s.allocs = 1;
	memcpy(s->s.candidate, w->candidate, sizeof s->s.candidate);
	__atomic_store_n(link, s, __ATOMIC_RELEASE);
}


/*
** The watched allocation counted at its (size, candidates) site of the
** watch's context.  The watch's candidates past its count are set to 0
** first, as a site keeps them (amon.h), so that the sites compare with the
** watch's own candidates, not a copy (a fixed count, which GCC unrolls: up
** to its count it made a call).
*/
APROF_NOINSTR void aprof_types_record(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;
	struct aprof_type_site *s, **link = &w->heap->sites;
	uint32_t k, n = 0;

	for (k = 1; k < AMON_CANDIDATES; k++) /* W->n is 1 at least */
		if (k >= w->n)
			w->candidate[k] = 0;
	for (; (s = *link) != NULL; link = &s->next, n++)
		if (s->s.size == w->size &&
		    memcmp(s->s.candidate, w->candidate, sizeof s->s.candidate) == 0) {
			APROF_ADD(s->s.allocs, 1);
			return;
		}
	if (n < AMON_SITES_MAX) /* else its type will be unknown (amon.h) */
		site_new(t, w, link);
}


/*
** T's watch of the allocation of SIZE bytes it has just made in context C,
** whose counters are H, begun under the guard.  A signal handler's hooks
** must not see the watch half made; the fences keep the guard's stores,
** which nothing here reads, where they are.
*/
APROF_NOINSTR static inline void watch_begin(struct aprof_thread *t, struct aprof_context *c,
					     struct aprof_heap_counts *h, uint64_t size)
{
	struct aprof_types_watch *w = &t->types;
	struct aprof_ends *e = aprof_thread_ends(t);

	aprof_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	w->ctx = c;
	w->heap = h;
	w->sp = aprof_thread_depth(t);
	w->frame = e->top->frame;
	w->size = size;
	w->n = 0;
	/* divert(), at this depth, whatever depth an earlier watch lowered the limit to */
	t->diverted = 1;
	e->limit = e->top;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	aprof_busy = 0;
}


/*
** aprof_types_allocated after a watch that saw a candidate: counted first,
** under the guard.  The one end of a watch that may find its last
** candidate still running, marked (this allocation made inside it): it is
** unmarked, as its exit will not be watched.  (An entry that ends a watch
** is not a candidate, or is its last, unmarked; one of a shallower depth
** finds the candidates' entries popped.)
*/
APROF_NOINSTR __attribute__((noinline)) static void allocated_after(struct aprof_thread *t,
								    struct aprof_context *c,
								    struct aprof_heap_counts *h,
								    uint64_t size)
{
	struct aprof_types_watch *w = &t->types;
	uintptr_t last = w->candidate[w->n - 1];

	aprof_busy = 1;
	if (w->sp < aprof_thread_depth(t) && t->stack[w->sp + 1].fn == (last | APROF_FN_WATCHED))
		t->stack[w->sp + 1].fn = last;
	aprof_types_finish(t, w);
	watch_begin(t, c, h, size);
}


APROF_NOINSTR void aprof_types_allocated(struct aprof_thread *t, struct aprof_context *c,
					 struct aprof_heap_counts *h, uint64_t size)
{
	struct aprof_types_watch *w = &t->types;

	/* A call only after a candidate, so that the common case saves no registers. */
	if (APROF_UNLIKELY(w->n > 0)) {
		if (w->n != APROF_TYPES_OFF)
			allocated_after(t, c, h, size);
		return;
	}
	watch_begin(t, c, h, size);
}


APROF_NOINSTR void aprof_types_hook(struct aprof_thread *t, int entry)
{
	struct aprof_types_watch *w = &t->types;
	struct aprof_frame *f;
	size_t depth = aprof_thread_depth(t);

	if (w->ctx == NULL)
		return;
	if (depth <= w->sp) {
		if (depth < w->sp) /* the allocating routine returned (or a jump left it) */
			aprof_types_finish(t, w);
		else
			divert(t); /* back from a candidate: the next one */
		return;
	}
	if (!entry || depth != w->sp + 1)
		return;
	f = aprof_thread_ends(t)->top;
	if (aprof_types_note(w, f[-1].ctx, f[-1].frame, f->fn))
		f->fn |= APROF_FN_WATCHED; /* its exit does not match, to watch on */
	else
		aprof_types_finish(t, w);
}


/* An exit of FN on T, before its work: a candidate's entry marked by aprof_types_hook is unmarked. */
APROF_NOINSTR void aprof_types_exit(struct aprof_thread *t, uintptr_t fn)
{
	struct aprof_types_watch *w = &t->types;

	if (w->ctx != NULL && w->sp < aprof_thread_depth(t) &&
	    t->stack[w->sp + 1].fn == (fn | APROF_FN_WATCHED))
		t->stack[w->sp + 1].fn = fn;
}


APROF_NOINSTR void aprof_types_reset(struct aprof_heap_counts *h)
{
	struct aprof_type_site *s;

	for (s = __atomic_load_n(&h->sites, __ATOMIC_ACQUIRE); s != NULL;
	     s = __atomic_load_n(&s->next, __ATOMIC_ACQUIRE))
		APROF_PUT(s->s.allocs, 0);
}
