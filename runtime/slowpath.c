/*
** slowpath.c -- the hooks' second cases and slow paths, reached by a tail
** call from their common case (hooks.c): the guard set (a hook
** interrupting the runtime: passed through and counted), the thread's first
** hook, a probe due, a jump to recover from (nonlocal.c lowers T's limit
** and marks the top entry to send the next hook here; a jump's resync is
** never timed), an entry or exit watched after an allocation (types.c: a
** shadow stack made to look full), a transition not cached, a full shadow
** stack, an exit that does not match the top entry; and any clock but the
** CPU's counter and sampling.  Never linked into the program apart from
** the rest of the runtime (libaprof_hooks.a holds the common case alone).
*/
#include <config.h>

#include "clock.h"
#include "cost.h"
#include "slowpath.h"
#include "startup.h"
#include "steps.h"
#include "thread.h"
#include "types.h"


/* Charges the interval since T's last hook to context C, with any clock (none when sampling). */
APROF_NOINSTR static inline void charge(struct aprof_thread *t, struct aprof_context *c, int entry)
{
	if (APROF_LIKELY(aprof_clock_kind != AMON_CLOCK_SAMPLE))
		charge_at(t, c, entry, aprof_clock_read());
}


/*
** push_above E's top.  Callers that have loaded the top already pass it to
** push_above, so that GCC does not load it again after the stores between
** (the counter's common case, after its charge: one instruction fewer an
** entry, JsonCpp small.json 930.85M -> 913.19M; the watched entry): the
** top is the one loaded, wherever a signal handler's hooks interrupt in
** between, as they leave it as they found it.
*/
APROF_NOINSTR static inline void push(struct aprof_ends *e, struct aprof_context *next,
				      uintptr_t fn, uintptr_t frame, uintptr_t site)
{
	push_above(e, e->top, next, fn, frame, site);
}


/*
** The common case's work for an entry through way W of CUR (its ways' or
** its spill's) leading to NEXT, at hand (just cached, or read by the
** caller).
*/
APROF_NOINSTR static inline void enter_cached(struct aprof_thread *t, struct aprof_context *cur,
					      struct aprof_way *w, struct aprof_context *next,
					      uintptr_t fn, uintptr_t frame, uintptr_t site, uint32_t kind)
{
	if (kind != AMON_CLOCK_SAMPLE)
		t->probe--;
	count(w);
	charge_counter(t, cur, 1, kind);
	push(aprof_thread_ends_of(t, kind), next, fn, frame, site);
}


/* The entry of FN from SITE on thread T (guard set): Spivey's B1-B3, a push. */
APROF_NOINSTR static inline void enter(struct aprof_thread *t, uintptr_t fn, uintptr_t site,
				       uintptr_t frame)
{
	struct aprof_ends *e = aprof_thread_ends(t);
	struct aprof_context *cur = e->top->ctx;
	struct aprof_way *w;

	if (APROF_UNLIKELY(t->jumped))
		cur = aprof_thread_land(t, frame, site);
	w = aprof_successor(cur, fn);
	if (APROF_UNLIKELY(w == NULL) &&
	    (cur->spill == NULL || (w = aprof_spill_find(cur->spill, fn)) == NULL))
		w = aprof_successor_miss(&t->machine, cur, fn);
	count(w);
	charge(t, cur, 1);
	if (APROF_UNLIKELY(e->top == t->end) && aprof_thread_grow_stack(t) != 0) {
		APROF_ADD(t->lost, 1);
		return;
	}
	push(e, w->to, fn, frame, site);
}


/* The exit of FN back to SITE on thread T (guard set), hook frame FRAME: a pop. */
APROF_NOINSTR static inline void leave(struct aprof_thread *t, uintptr_t fn, uintptr_t site,
				       uintptr_t frame)
{
	struct aprof_ends *e = aprof_thread_ends(t);
	const struct aprof_frame *top = e->top;

	if (APROF_LIKELY(top->fn == fn && !t->jumped)) {
		charge(t, top->ctx, 0);
		e->top--;
	} else {
		/* After a jump: the interval belongs to FN's context, found by the resync. */
		charge(t, aprof_thread_exit_slow(t, fn, site, frame), 0);
	}
}


/*
** An entry timed from its start to its clock read (an in-run probe): the
** transition, the push and the read itself; and an empty probe, two reads.
** Not in sampling mode, which reads no clock.
*/
APROF_NOINSTR __attribute__((noinline)) static void enter_probed(struct aprof_thread *t,
								 uintptr_t fn, uintptr_t site,
								 uintptr_t frame)
{
	uint64_t before, start;

	if (aprof_clock_kind == AMON_CLOCK_SAMPLE) {
		aprof_probe_reset(t);
		enter(t, fn, site, frame);
		return;
	}
	/* Two reads back to back first: the speed of the CPU now, against calibration's. */
	before = aprof_clock_read();
	__asm__ __volatile__("" ::: "memory");
	start = aprof_clock_read();
	APROF_ADD(t->probes.empty_ticks, aprof_probe_ticks(start - before, aprof_probe_bound));
	enter(t, fn, site, frame);
	APROF_ADD(t->probes.entries, 1);
	APROF_ADD(t->probes.entry_ticks, aprof_probe_ticks(t->last - start, aprof_probe_bound));
	aprof_probe_reset(t);
}


/* An exit timed from its clock read to its end: the pop (and any resync). */
APROF_NOINSTR __attribute__((noinline)) static void leave_probed(struct aprof_thread *t,
								 uintptr_t fn, uintptr_t site,
								 uintptr_t frame)
{
	uint64_t end;

	if (aprof_clock_kind == AMON_CLOCK_SAMPLE) {
		aprof_probe_reset(t);
		leave(t, fn, site, frame);
		return;
	}
	leave(t, fn, site, frame);
	end = aprof_clock_read();
	APROF_ADD(t->probes.exits, 1);
	APROF_ADD(t->probes.exit_ticks, aprof_probe_ticks(end - t->last, aprof_probe_bound));
	aprof_probe_reset(t);
}


/*
** The slow path's start on T (guard set): the limit back to the stack's end,
** no longer the watch's (T->diverted), and the top entry unmarked (a jump's:
** the common case has not run since), the jump and the watch kept in
** T->jumped and T->types.
*/
APROF_NOINSTR static inline void slow_start(struct aprof_thread *t)
{
	struct aprof_ends *e = aprof_thread_ends(t);

	t->diverted = 0;
	e->limit = t->end;
	e->top->fn &= ~APROF_FN_JUMPED;
	if (t->jumped)
		aprof_probe_reset(t);
}

/*
** A hook that interrupted the runtime (a signal handler's), passed through
** and counted.  An entry still pushes, in the current context, marked
** (APROF_FN_DROPPED), where there is room: sampling's common case of an
** exit runs whatever the guard, and it would otherwise pop the top entry
** of the routine the runtime interrupted if the handler's exit was of that
** same routine.  The exit passed through pops it (an exit's common case
** never matches it).  Both as the common case pushes and pops, which is
** safe wherever the hook interrupted the runtime (SAMPLE_UNGUARDED).
*/
APROF_NOINSTR static void enter_dropped(struct aprof_thread *t, uintptr_t fn, uintptr_t frame,
					uintptr_t site)
{
	struct aprof_ends *e = aprof_thread_ends(t);

	APROF_ADD(t->dropped, 1);
	if (e->top != t->end)
		push(e, e->top->ctx, fn | APROF_FN_DROPPED, frame, site);
}

APROF_NOINSTR static void leave_dropped(struct aprof_thread *t, uintptr_t fn)
{
	struct aprof_ends *e = aprof_thread_ends(t);

	APROF_ADD(t->dropped, 1);
	if (e->top->fn == (fn | APROF_FN_DROPPED))
		e->top--;
}


/*
** An entry's slow path: passed through if the guard is set, else the guard
** set, the thread started at its first hook, the limit and the top's mark
** put back (slow_start), the entry made (timed if a probe is due), and the
** types watch told.
*/
APROF_NOINSTR __attribute__((noinline)) void aprof_enter_slow(uintptr_t fn, uintptr_t site,
							      uintptr_t frame)
{
	struct aprof_thread *t = aprof_self;

	if (APROF_UNLIKELY(aprof_busy)) {
		if (t != NULL)
			enter_dropped(t, fn, frame, site);
		return;
	}
	aprof_busy = 1;
	if (APROF_LIKELY(t != NULL) || (t = aprof_startup_thread()) != NULL) {
		slow_start(t);
		if (--t->probe != 0)
			enter(t, fn, site, frame);
		else
			enter_probed(t, fn, site, frame);
		aprof_types_hook(t, 1);
	}
	aprof_busy = 0;
}


/*
** Its frame is the exit hook's, which reaches it by a tail call, as
** leave_watched does (below it if by a call, which aprof_thread_exit_slow
** allows: it looks upwards from there), so that the hook's common case
** computes no frame.
*/
APROF_NOINSTR __attribute__((noinline)) void aprof_leave_slow(uintptr_t fn, uintptr_t site)
{
	struct aprof_thread *t = aprof_self;
	uintptr_t frame = (uintptr_t)__builtin_dwarf_cfa();

	if (APROF_UNLIKELY(aprof_busy || t == NULL)) {
		if (t != NULL)
			leave_dropped(t, fn);
		return;
	}
	aprof_busy = 1;
	slow_start(t);
	aprof_types_exit(t, fn);
	if (--t->probe != 0)
		leave(t, fn, site, frame);
	else
		leave_probed(t, fn, site, frame);
	aprof_types_hook(t, 0);
	aprof_busy = 0;
}


/*
** aprof_NAME_sampled and aprof_NAME_counted (declared with PER_CLOCK_DECLARE,
** slowpath.h): out-of-line copies of the inline NAME, whose last parameter is
** the clock, for sampling and for the CPU's counter, so that the hooks
** tail-call the one for the clock they know (PARAMS: NAME's other
** parameters; the arguments after it: the same, passed on).
*/
#define PER_CLOCK(name, params, ...)                                   \
	APROF_NOINSTR __attribute__((noinline)) void aprof_##name##_sampled params \
	{                                                               \
		name(__VA_ARGS__, AMON_CLOCK_SAMPLE);                    \
	}                                                               \
	APROF_NOINSTR __attribute__((noinline)) void aprof_##name##_counted params \
	{                                                               \
		name(__VA_ARGS__, APROF_CLOCK_COUNTER);                  \
	}


/*
** An entry of FN (hook frame FRAME) from CUR through way W of its spill, due
** to move to its ways (aprof_spill_promote), moved, and the common case's
** work.  Tail-called by enter_uncached, which holds the guard, released
** here: out of line, so that enter_uncached saves no register for it.  One
** copy for each clock KIND, as enter_uncached.
*/
APROF_NOINSTR static inline void enter_promoted(struct aprof_context *cur, struct aprof_way *w,
						uintptr_t fn, uintptr_t frame, uintptr_t site,
						uint32_t kind)
{
	struct aprof_thread *t = aprof_self;

	w = aprof_spill_promote(cur, w, fn);
	enter_cached(t, cur, w, w->to, fn, frame, site, kind);
	aprof_busy = 0;
}

APROF_NOINSTR APROF_HIDDEN void aprof_enter_promoted_sampled(struct aprof_context *cur,
							     struct aprof_way *w, uintptr_t fn,
							     uintptr_t frame, uintptr_t site);
APROF_NOINSTR APROF_HIDDEN void aprof_enter_promoted_counted(struct aprof_context *cur,
							     struct aprof_way *w, uintptr_t fn,
							     uintptr_t frame, uintptr_t site);
PER_CLOCK(enter_promoted,
	  (struct aprof_context *cur, struct aprof_way *w, uintptr_t fn, uintptr_t frame,
	   uintptr_t site),
	  cur, w, fn, frame, site)


/*
** An entry that the common case found with its successor not cached (a way
** holding another routine's): the context's spill if it has one, else
** the transition table (B1) and the successor cached, in the spill if
** there is one, and the common case's work, without the slow path's
** calls; the slow path if the table does not know the transition or the
** way must put one in it or a spill is due (aprof_successor_cache).  Real
** programs miss the cache on a few percent of calls, mostly from contexts
** that call more routines than their ways hold (aprof_spill;
** benchmarks/CHOICES.md, "Successor cache").
** Tail-called by the hook, which has checked all else.  The guard is set
** around the table, which a signal handler's slow path may grow
** (transition.c).  One copy for each clock KIND (the CPU's counter or
** sampling), which the hook knows: no load nor test of the clock's kind
** (always inlined: GCC kept one copy that tests KIND once the way's table
** test grew it, 1.4 million more instructions on JsonCpp small.json).
*/
APROF_NOINSTR static inline __attribute__((always_inline)) void
enter_uncached(uintptr_t fn, uintptr_t site, uintptr_t frame, uint32_t kind)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_context *cur = aprof_thread_ends_of(t, kind)->top->ctx, *next;
	struct aprof_way *w;
	size_t at;

	aprof_busy = 1;
	if (cur->spill != NULL && (w = aprof_spill_find(cur->spill, fn)) != NULL) {
		if (APROF_UNLIKELY((w->calls & (APROF_SPILL_PROMOTE - 1)) ==
				   APROF_SPILL_PROMOTE - 1)) {
			PER_CLOCK_CALL(enter_promoted, kind, cur, w, fn, frame, site);
			return;
		}
		enter_cached(t, cur, w, w->to, fn, frame, site, kind);
		aprof_busy = 0;
		return;
	}
	next = aprof_transition_known(&aprof_self->machine, cur, fn);
	if (APROF_UNLIKELY(next == NULL))
		goto slow;
	/* The spill read again, not kept across the table's probe: a register fewer to save. */
	if (APROF_GET(cur->spill) != NULL)
		w = aprof_spill_put(cur->spill, cur, fn, next);
	else if ((at = aprof_successor_cache(cur, fn, next)) != APROF_NO_WAY)
		w = aprof_way_at(cur, at);
	else
		goto slow;
	enter_cached(t, cur, w, next, fn, frame, site, kind);
	aprof_busy = 0;
	return;
slow:
	aprof_busy = 0;
	aprof_enter_slow(fn, site, frame);
}

PER_CLOCK(enter_uncached, (uintptr_t fn, uintptr_t site, uintptr_t frame), fn, site, frame)


/*
** An entry of FN that the common case stopped at a depth watched after
** an allocation (types.c lowers the limit there; a few percent of a C++
** program's entries): the watch's limit given back, whether the entry is a candidate
** (from the allocating activation, the top entry) found before the push, so
** that the push writes its entry marked, and the common case's work; a
** call only when a watch that saw candidates ends (aprof_types_end), and
** without the slow path's tests and calls; the slow path if the successor
** is not cached (so that this saves few registers).  Tail-called by the
** hook, which has checked all else (entry_watched).  One copy for each
** clock KIND (the CPU's counter or sampling), which the hook knows: no
** load nor test of the clock's kind.  The thread from the clock's
** thread-local pointer, not a parameter: GCC then moves fewer of the
** hook's arguments out of the registers the successor's lookup takes (one
** instruction fewer a watched entry).  The top entry TOP and its context
** CUR as the hook's common case loaded them, in the registers it left them
** in, and the hook's frame as leave_slow finds it (reached by a tail call),
** not computed by the hook and passed: 2 instructions fewer a watched
** entry, 3 where it is no candidate (JsonCpp small.json headers
** excluded: 700,974 of them, 355,922 no candidate); CUR before TOP, and
** the push above TOP (enter_above), so that GCC moves neither and loads
** the top no more: one fewer.
*/
APROF_NOINSTR static inline void enter_watched(uintptr_t fn, uintptr_t site, struct aprof_context *cur,
					       struct aprof_frame *top, uint32_t kind)
{
	struct aprof_thread *t = kind == AMON_CLOCK_SAMPLE ? aprof_sampled : aprof_counted;
	struct aprof_types_watch *w = &t->types;
	struct aprof_ends *e = aprof_thread_ends_of(t, kind);
	uintptr_t frame = (uintptr_t)__builtin_dwarf_cfa();
	size_t way = aprof_successor_at(cur, fn);

	if (APROF_UNLIKELY(way == APROF_NO_WAY)) {
		aprof_enter_slow(fn, site, frame); /* the watch still to see the entry */
		return;
	}
	aprof_busy = 1;
	t->diverted = 0;
	e->limit = t->end;
	/*
	 * Two pushes, one for a candidate: merged, with the entry's routine
	 * chosen by a flag, GCC kept the flag in a register and tested it
	 * after the push (3 or 4 instructions more a watched entry).
	 */
	if (aprof_types_note(w, cur, &top->frame, fn)) {
		/* A candidate's exit does not match its entry: leave_watched. */
		enter_above(t, cur, way, top, fn | APROF_FN_WATCHED, frame, site, kind);
		aprof_busy = 0;
		return;
	}
	enter_above(t, cur, way, top, fn, frame, site, kind);
	if (w->n != 0) {
		aprof_types_end();
		return;
	}
	w->ctx = NULL; /* the allocating activation left, no candidate seen */
	aprof_busy = 0;
}

PER_CLOCK(enter_watched, (uintptr_t fn, uintptr_t site, struct aprof_context *cur, struct aprof_frame *top),
	  fn, site, cur, top)


/*
** An exit of FN on T that does not match the top entry, which the common
** case leaves here rather than to the slow path, so that it does not test
** the mark itself.  The common case is a candidate's entry (marked by the
** watch; JsonCpp, one in two allocations): its work, the entry unmarked
** first, then the limit lowered again at the watched depth, now the top,
** for the next candidate, without the slow path's tests and calls.  The
** slow path for any other entry.  The mark tells a live watch with its
** candidate running, just above the allocating activation, so that
** neither its count, its limit nor its depth is tested again: only a
** watched entry marks (the watch then live, its limit given back), at
** that depth (enter_watched, aprof_types_hook), and every end of a watch
** that may find its candidate running unmarks it (allocated_after); a
** push overwrites a mark above the top, and a push a jump abandoned is
** marked by the jump.  (Were it not so, the limit lowered here would only
** send the next entry at that depth to enter_watched, which gives it
** back.  The depth's test cost 4 instructions a candidate's exit, JsonCpp
** small.json headers excluded 245,011 of them, and never failed there nor
** with every routine instrumented.)
** Tail-called by the hook, which has checked all else (leave_fast).  One
** copy for each clock KIND, as enter_watched.
*/
APROF_NOINSTR static inline void leave_watched(uintptr_t fn, uintptr_t site, struct aprof_thread *t,
					       uint32_t kind)
{
	struct aprof_ends *e = aprof_thread_ends_of(t, kind);
	struct aprof_frame *top = e->top;

	if (APROF_UNLIKELY(top->fn != (fn | APROF_FN_WATCHED))) {
		aprof_leave_slow(fn, site);
		return;
	}
	aprof_busy = 1;
	top->fn = fn; /* a push interrupted by a jump may find it (push) */
	leave_known(t, top, kind);
	t->diverted = 1;
	e->limit = top - 1;
	__atomic_signal_fence(__ATOMIC_RELEASE); /* the watch whole before the guard goes */
	aprof_busy = 0;
}

PER_CLOCK(leave_watched, (uintptr_t fn, uintptr_t site, struct aprof_thread *t), fn, site, t)
