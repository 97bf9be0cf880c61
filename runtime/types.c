/*
** types.c -- constructor candidates of allocations (types.h).  All of it
** runs in the hooks' slow path or in the malloc wrappers, never in the
** hooks' common case: an allocation makes the shadow stack look full at the
** allocating depth (its limit lowered, thread.h), so that only an entry from that
** depth takes the slow path, and a candidate's exit too (its entry marked
** APROF_FN_WATCHED, so that the exit does not match it), to watch on.
*/
#include <config.h>

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


/*
** C++'s operator new(size_t), weak: null unless an object loaded with the
** program defines it.  Not dlsym, which when it fails leaves an error
** message allocated with the program's malloc, freed by the program's next
** dlsym or dlerror with its free: calls the program would not make.
*/
extern void *_Znwm(size_t size) __attribute__((weak));


APROF_NOINSTR void aprof_types_init(void)
{
	aprof_types_on = _Znwm != NULL || !linked_dynamically();
}


/*
** Sends T's next entry from W->at's depth to the slow path (hooks.c), once:
** the common case takes the slow path when the shadow stack looks full, so
** its limit is lowered to that depth, for both clocks.  Entries deeper or
** shallower, and every exit, keep the common case.
*/
APROF_NOINSTR static void divert(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;

	if (t->diverted || aprof_thread_ends(t)->top > w->at)
		return;
	t->diverted = 1;
	aprof_thread_ends(t)->limit = w->at;
}


/*
** A site for watch W's allocation of SIZE bytes, counted once, appended to
** its context's at LINK, the list's end.  Apart, so that site_count's
** callers, which find a site nearly always, make no call and save no
** register there.
*/
APROF_NOINSTR __attribute__((noinline)) static void site_new(struct aprof_thread *t,
							     struct aprof_types_watch *w,
							     uint64_t size,
							     struct aprof_type_site **link)
{
	struct aprof_type_site *s = aprof_arena_alloc(&t->machine.arena, sizeof *s, 8);

	if (s != NULL) {
		s->next = NULL;
		s->s.size = size;
		s->s.allocs = 1;
		memcpy(s->s.candidate, w->candidate, sizeof s->s.candidate);
		__atomic_store_n(link, s, __ATOMIC_RELEASE);
	} else
		APROF_PUT(t->machine.full, 1);
	memset(&w->candidate[1], 0, sizeof w->candidate - sizeof w->candidate[0]);
}


/*
** An allocation of SIZE bytes in context C, whose N candidates (1 at
** least) are watch W's, counted at its (size, candidates) site of C, if
** it has one: NULL; else the list's end, where site_new is to append it,
** or NULL if C has AMON_SITES_MAX (its type will be unknown, amon.h).
** The watch's candidates past N are 0, as a site keeps them (amon.h), so
** that the sites compare with the watch's own candidates, not a copy (a
** fixed count, which GCC unrolls: up to its count it made a call): every
** watch's count leaves them 0 past the first (here, or site_new where it
** makes a site), which the next watch writes first, as the thread's state
** began (mapped), rather than set those past N before it, which took 3
** stores where it saw 1 (JsonCpp small.json headers excluded: nearly
** every watch counted; allocated_after and aprof_types_end 1 instruction
** fewer each, as laid out).  C, SIZE and N given apart:
** allocated_after has begun its next watch.
*/
APROF_NOINSTR static inline struct aprof_type_site **site_count(struct aprof_types_watch *w,
								const struct aprof_context *c,
								uint64_t size, uint32_t n)
{
	struct aprof_type_site *s, **link = &c->heap->sites;
	uint32_t k, sites;

	for (sites = 0; (s = *link) != NULL; link = &s->next, sites++)
		if (s->s.size == size &&
		    memcmp(s->s.candidate, w->candidate, sizeof s->s.candidate) == 0) {
			APROF_ADD(s->s.allocs, 1);
			break;
		}
	if (s == NULL && sites < AMON_SITES_MAX)
		return link; /* site_new sets them 0 */
	if (n > 1) /* a fixed count: N's made a call of memset */
		for (k = 1; k < AMON_CANDIDATES; k++)
			w->candidate[k] = 0;
	return NULL;
}


APROF_NOINSTR void aprof_types_record(struct aprof_thread *t)
{
	struct aprof_types_watch *w = &t->types;
	struct aprof_type_site **link = site_count(w, w->ctx, w->size, w->n);

	if (link != NULL)
		site_new(t, w, w->size, link);
}


/*
** T's watch of the allocation of SIZE bytes it has just made in context C,
** at the shadow stack's top TOP (its ends E), begun, the guard set
** (watch_begin), its count of candidates already 0 (the callers know it,
** or set it).
*/
APROF_NOINSTR static inline void watch_set(struct aprof_thread *t, struct aprof_context *c,
					   uint64_t size, struct aprof_ends *e,
					   struct aprof_frame *top)
{
	struct aprof_types_watch *w = &t->types;

	w->ctx = c;
	w->at = top;
	w->frame = top->frame;
	w->size = size;
	/* divert(), at this depth, whatever depth an earlier watch lowered the limit to */
	t->diverted = 1;
	e->limit = top;
}


/*
** watch_set under the guard, T's ends E.  A signal handler's hooks must not
** see the watch half made; the fences keep the guard's stores, which
** nothing here reads, where they are.  The top read before the guard (a
** handler's hooks leave it as they found it), so that the fence does not
** make GCC read it again.
*/
APROF_NOINSTR static inline void watch_begin(struct aprof_thread *t, struct aprof_context *c,
					     uint64_t size, struct aprof_ends *e)
{
	struct aprof_frame *top = e->top;

	aprof_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	watch_set(t, c, size, e, top);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	aprof_busy = 0;
}


/*
** The end of allocated_after and aprof_types_end where the last watch's
** allocation of SIZE bytes has a new site, at LINK: the guard cleared.
** Returns P.
*/
APROF_NOINSTR __attribute__((noinline)) static void *new_site_released(struct aprof_thread *t,
								       uint64_t size, void *p,
								       struct aprof_type_site **link)
{
	site_new(t, &t->types, size, link);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	aprof_busy = 0;
	return p;
}


/*
** aprof_types_allocated after a watch that saw a candidate: counted first,
** under the guard.  The one end of a watch that may find its last
** candidate still running, marked (this allocation made inside it): it is
** unmarked, as its exit will not be watched.  (An entry that ends a watch
** is not a candidate, or is its last, unmarked; one of a shallower depth
** finds the candidates' entries popped.)  The next watch is begun first,
** and the last one's context, size and count kept, so that few values
** stay live across the count and it saves no register (the count's
** candidates stay: a watch begins with none, and the guard keeps
** handlers' hooks from noting any meanwhile); no call but a tail call,
** where the site is new (new_site_released).
*/
APROF_NOINSTR __attribute__((noinline)) static void *allocated_after(struct aprof_thread *t,
								     struct aprof_context *c,
								     uint64_t size, void *p)
{
	struct aprof_types_watch *w = &t->types;
	uintptr_t last = w->candidate[w->n - 1];
	struct aprof_frame *f = w->at + 1;
	const struct aprof_context *last_ctx;
	uint64_t last_size;
	uint32_t n;
	struct aprof_type_site **link;

	aprof_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (f <= aprof_thread_ends(t)->top && f->fn == (last | APROF_FN_WATCHED))
		f->fn = last;
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* (the loads below after it: fewer registers) */
	last_ctx = w->ctx;
	last_size = w->size;
	n = w->n;
	w->n = 0;
	watch_set(t, c, size, aprof_thread_ends(t), aprof_thread_ends(t)->top);
	link = site_count(w, last_ctx, last_size, n);
	if (APROF_UNLIKELY(link != NULL))
		return new_site_released(t, last_size, p, link);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	aprof_busy = 0;
	return p;
}


APROF_NOINSTR void aprof_types_end(void)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_types_watch *w = &t->types;
	const struct aprof_context *c = w->ctx;
	uint64_t size = w->size;
	uint32_t n = w->n;
	struct aprof_type_site **link;

	/* ended first, its count after it (the guard held): no register live across it */
	w->ctx = NULL;
	w->n = 0;
	link = site_count(w, c, size, n);
	if (APROF_UNLIKELY(link != NULL)) {
		new_site_released(t, size, NULL, link);
		return;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	aprof_busy = 0;
}


APROF_NOINSTR void *aprof_types_allocated(struct aprof_thread *t, struct aprof_context *c,
					  uint64_t size, void *p)
{
	struct aprof_types_watch *w = &t->types;

	/* A call only after a candidate, so that the common case saves no registers. */
	if (APROF_UNLIKELY(w->n > 0)) {
		if (w->n != APROF_TYPES_OFF)
			return allocated_after(t, c, size, p);
		return p;
	}
	watch_begin(t, c, size, aprof_thread_ends(t));
	return p;
}


APROF_NOINSTR void aprof_types_hook(struct aprof_thread *t, int entry)
{
	struct aprof_types_watch *w = &t->types;
	struct aprof_frame *f = aprof_thread_ends(t)->top;

	if (w->ctx == NULL)
		return;
	if (f <= w->at) {
		if (f < w->at) /* the allocating routine returned (or a jump left it) */
			aprof_types_finish(t, w);
		else
			divert(t); /* back from a candidate: the next one */
		return;
	}
	if (!entry || f != w->at + 1)
		return;
	if (aprof_types_note(w, f[-1].ctx, &f[-1].frame, f->fn))
		f->fn |= APROF_FN_WATCHED; /* its exit does not match, to watch on */
	else
		aprof_types_finish(t, w);
}


/* An exit of FN on T, before its work: a candidate's entry marked by aprof_types_hook is unmarked. */
APROF_NOINSTR void aprof_types_exit(struct aprof_thread *t, uintptr_t fn)
{
	struct aprof_types_watch *w = &t->types;

	if (w->ctx != NULL && w->at < aprof_thread_ends(t)->top && w->at[1].fn == (fn | APROF_FN_WATCHED))
		w->at[1].fn = fn;
}


APROF_NOINSTR void aprof_types_reset(struct aprof_heap_counts *h)
{
	struct aprof_type_site *s;

	for (s = __atomic_load_n(&h->sites, __ATOMIC_ACQUIRE); s != NULL;
	     s = __atomic_load_n(&s->next, __ATOMIC_ACQUIRE))
		APROF_PUT(s->s.allocs, 0);
}
