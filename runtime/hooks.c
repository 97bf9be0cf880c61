/*
** hooks.c -- GCC's -finstrument-functions hooks: the profiling monitor's hot
** path.  No locks, no malloc, no system calls, no atomic instructions and no
** division on the common path: on entry one clock read, one of the current
** context's cached successors and a push; on exit one clock read, a
** comparison and a pop.
**
** One clock read per hook, at the end of an entry (the transition done) and
** at the start of an exit, so an interval between two reads holds the hooks'
** own work, and more of it when it ends in an entry.  That work is measured
** at start-up (aprof_hooks_calibrate, cost.c) for each kind of interval, and each
** context counts the intervals ending in an entry charged to it ('events';
** those ending in an exit are its calls + rec), so aprof can take the hooks'
** own cost off a context's ticks: Spivey's "charged" versus "total" time.
** About one hook in a thousand is also timed from its start to its end (an
** in-run probe, thread.h), so the reader can correct the calibration with
** what the hooks cost in the run itself.
** In sampling mode (APROF_CLOCK=sample) the hooks read no clock at all: a
** per-thread CPU-time timer charges the current context.
*/
#include <config.h>

#include "aprof.h"
#include "clock.h"
#include "cost.h"
#include "startup.h"
#include "thread.h"
#include "types.h"


/* Charges T's interval up to clock reading NOW to context C; it ends in an entry if ENTRY. */
APROF_NOINSTR static inline void charge_at(struct aprof_thread *t, struct aprof_context *c,
					   int entry, uint64_t now)
{
	aprof_charge(t, c, now);
	if (entry)
		APROF_INC(c->events);
}


/* Charges the interval since T's last hook to context C, with any clock (none when sampling). */
APROF_NOINSTR static inline void charge(struct aprof_thread *t, struct aprof_context *c, int entry)
{
	if (APROF_LIKELY(aprof_clock_kind != AMON_CLOCK_SAMPLE))
		charge_at(t, c, entry, aprof_clock_read());
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
					    struct aprof_context *next, uintptr_t fn, uintptr_t frame)
{
	struct aprof_frame *f = top + 1;

	f->ctx = next;
	__atomic_signal_fence(__ATOMIC_RELEASE);
	APROF_STEP(e->top, 1);
	__atomic_signal_fence(__ATOMIC_RELEASE);
	f->ctx = next;
	f->fn = fn;
	f->frame = frame;
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
				      uintptr_t fn, uintptr_t frame)
{
	push_above(e, e->top, next, fn, frame);
}


/*
** The entry of FN (hook frame FRAME) on T in CUR, AT the halved offset of
** the way of its successor (aprof_way_at), with clock KIND (the CPU's
** counter or sampling): the common case's work, a probe counted down, the
** call counted and charged, a push above TOP, T's top (push).
*/
APROF_NOINSTR static inline void enter_above(struct aprof_thread *t, struct aprof_context *cur,
					     size_t at, struct aprof_frame *top, uintptr_t fn,
					     uintptr_t frame, uint32_t kind)
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
	push_above(aprof_thread_ends_of(t, kind), top, aprof_way_at(cur, at)->to, fn, frame);
}

/* enter_above the top of T's shadow stack with clock KIND, loaded here (push). */
APROF_NOINSTR static inline void enter_known(struct aprof_thread *t, struct aprof_context *cur,
					     size_t at, uintptr_t fn, uintptr_t frame, uint32_t kind)
{
	enter_above(t, cur, at, aprof_thread_ends_of(t, kind)->top, fn, frame, kind);
}

/*
** The common case's work for an entry through way W of CUR (its ways' or
** its spill's) leading to NEXT, at hand (just cached, or read by the
** caller).
*/
APROF_NOINSTR static inline void enter_cached(struct aprof_thread *t, struct aprof_context *cur,
					      struct aprof_way *w, struct aprof_context *next,
					      uintptr_t fn, uintptr_t frame, uint32_t kind)
{
	if (kind != AMON_CLOCK_SAMPLE)
		t->probe--;
	count(w);
	charge_counter(t, cur, 1, kind);
	push(aprof_thread_ends_of(t, kind), next, fn, frame);
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
	push(e, w->to, fn, frame);
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
** The hooks' slow paths, reached by a tail call from their common case:
** the guard set (a hook interrupting the runtime: passed through and
** counted), the thread's first hook, a probe due, a jump to recover from
** (nonlocal.c lowers T's limit and marks the top entry to send the next
** hook here; a jump's resync is never timed), an entry or exit watched
** after an allocation (types.c: a shadow stack made to look full), a
** transition not cached, a full shadow stack, an exit that does not match
** the top entry; and any clock but the CPU's counter and sampling.
*/

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
APROF_NOINSTR static void enter_dropped(struct aprof_thread *t, uintptr_t fn, uintptr_t frame)
{
	struct aprof_ends *e = aprof_thread_ends(t);

	APROF_ADD(t->dropped, 1);
	if (e->top != t->end)
		push(e, e->top->ctx, fn | APROF_FN_DROPPED, frame);
}

APROF_NOINSTR static void leave_dropped(struct aprof_thread *t, uintptr_t fn)
{
	struct aprof_ends *e = aprof_thread_ends(t);

	APROF_ADD(t->dropped, 1);
	if (e->top->fn == (fn | APROF_FN_DROPPED))
		e->top--;
}


APROF_NOINSTR __attribute__((noinline)) static void enter_slow(uintptr_t fn, uintptr_t site,
							       uintptr_t frame)
{
	struct aprof_thread *t = aprof_self;

	if (APROF_UNLIKELY(aprof_busy)) {
		if (t != NULL)
			enter_dropped(t, fn, frame);
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
APROF_NOINSTR __attribute__((noinline)) static void leave_slow(uintptr_t fn, uintptr_t site)
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
** NAME_sampled and NAME_counted: out-of-line copies of the inline NAME, whose
** last parameter is the clock, for sampling and for the CPU's counter, so
** that the hooks tail-call the one for the clock they know (PARAMS: NAME's
** other parameters; the arguments after it: the same, passed on).
*/
#define PER_CLOCK(name, params, ...)                                                  \
	APROF_NOINSTR __attribute__((noinline)) static void name##_sampled params      \
	{                                                                              \
		name(__VA_ARGS__, AMON_CLOCK_SAMPLE);                                   \
	}                                                                              \
	APROF_NOINSTR __attribute__((noinline)) static void name##_counted params      \
	{                                                                              \
		name(__VA_ARGS__, APROF_CLOCK_COUNTER);                                 \
	}

/* NAME's copy (PER_CLOCK) for clock KIND, a constant where inlined, given the other arguments. */
#define PER_CLOCK_CALL(name, kind, ...) \
	((kind) == AMON_CLOCK_SAMPLE ? name##_sampled(__VA_ARGS__) : name##_counted(__VA_ARGS__))


/*
** An entry of FN (hook frame FRAME) from CUR through way W of its spill, due
** to move to its ways (aprof_spill_promote), moved, and the common case's
** work.  Tail-called by enter_uncached, which holds the guard, released
** here: out of line, so that enter_uncached saves no register for it.  One
** copy for each clock KIND, as enter_uncached.
*/
APROF_NOINSTR static inline void enter_promoted(struct aprof_context *cur, struct aprof_way *w,
						uintptr_t fn, uintptr_t frame, uint32_t kind)
{
	struct aprof_thread *t = aprof_self;

	w = aprof_spill_promote(cur, w, fn);
	enter_cached(t, cur, w, w->to, fn, frame, kind);
	aprof_busy = 0;
}

PER_CLOCK(enter_promoted,
	  (struct aprof_context *cur, struct aprof_way *w, uintptr_t fn, uintptr_t frame),
	  cur, w, fn, frame)


/*
** An entry that the common case found with its successor not cached (a way
** holding another routine's): the context's spill if it has one, else
** the transition table (B1) and the successor cached, in the spill if
** there is one, and the common case's work, without the slow path's
** calls; the slow path if the table does not know the transition or the
** way must put one in it or a spill is due (aprof_successor_cache).  Lua's
** calls miss the cache 6-8% of the time (parser.lua, strings.lua,
** binary-trees.lua), SQLite speedtest1's 8.9%, mostly from contexts that
** call more routines than their ways hold (aprof_spill).
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
			PER_CLOCK_CALL(enter_promoted, kind, cur, w, fn, frame);
			return;
		}
		enter_cached(t, cur, w, w->to, fn, frame, kind);
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
	enter_cached(t, cur, w, next, fn, frame, kind);
	aprof_busy = 0;
	return;
slow:
	aprof_busy = 0;
	enter_slow(fn, site, frame);
}

PER_CLOCK(enter_uncached, (uintptr_t fn, uintptr_t site, uintptr_t frame), fn, site, frame)


/*
** An entry of FN that the common case stopped at a depth watched after
** an allocation (types.c lowers the limit there; JsonCpp, 3.6% of its
** entries): the watch's limit given back, whether the entry is a candidate
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
		enter_slow(fn, site, frame); /* the watch still to see the entry */
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
		enter_above(t, cur, way, top, fn | APROF_FN_WATCHED, frame, kind);
		aprof_busy = 0;
		return;
	}
	enter_above(t, cur, way, top, fn, frame, kind);
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
		leave_slow(fn, site);
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


/*
** Whether the entry hook's common case, with clock KIND (the CPU's counter
** or sampling) on T, stopped only at a depth watched after an allocation:
** no jump to recover from, room on the shadow stack, no probe due.
*/
APROF_NOINSTR static inline int entry_watched(const struct aprof_thread *t, uint32_t kind)
{
	return aprof_thread_diverted(t) && aprof_thread_ends_of(t, kind)->top != t->end &&
	       (kind == AMON_CLOCK_SAMPLE || (kind == APROF_CLOCK_COUNTER && t->probe > 1));
}


/*
** The common cases, for clock KIND: the CPU's counter or sampling, a
** constant where they are inlined, so each clock has its own copy.  They
** call nothing and need so few registers that the hooks save none on the
** way (the transition table is probed on the slow path: inline here it
** made both hooks save three registers on every call); they return 0,
** having done nothing, when the slow path must run: an entry with the top
** at the limit (a jump to recover from, a watched depth, a full shadow
** stack: thread.h), a probe due (with the counter; sampling times nothing),
** an exit that does not match the top entry (or finds it marked by a
** jump); an entry whose successor is not cached returns -1, for
** enter_uncached, and an exit that does not match the top entry -1, for
** leave_watched (the entry may be a candidate's, types.h).  Sampling's need
** no guard where a count is one instruction (push, count, and the exit's
** pop: leave_known).
*/
APROF_NOINSTR static inline int enter_fast(struct aprof_thread *t, uintptr_t fn, uintptr_t frame,
					   uint32_t kind)
{
	const struct aprof_ends *e = aprof_thread_ends_of(t, kind);
	struct aprof_context *cur = e->top->ctx;
	size_t at;
	int guard = kind != AMON_CLOCK_SAMPLE || !APROF_INC_ONE;

	if (e->top == e->limit || (kind != AMON_CLOCK_SAMPLE && t->probe <= 1))
		return 0;
	at = aprof_successor_at(cur, fn);
	if (APROF_UNLIKELY(at == APROF_NO_WAY))
		return -1;
	if (guard)
		aprof_busy = 1;
	enter_known(t, cur, at, fn, frame, kind);
	if (guard)
		aprof_busy = 0;
	return 1;
}


APROF_NOINSTR static inline int leave_fast(struct aprof_thread *t, uintptr_t fn, uint32_t kind)
{
	struct aprof_frame *top = aprof_thread_ends_of(t, kind)->top;

	if (kind != AMON_CLOCK_SAMPLE && t->probe <= 1)
		return 0;
	if (APROF_UNLIKELY(top->fn != fn)) /* the sentinel's never matches, nor a jump's mark */
		return -1;
	if (kind == AMON_CLOCK_SAMPLE) {
		leave_known(t, top, kind);
		return 1;
	}
	aprof_busy = 1;
	leave_known(t, top, kind);
	aprof_busy = 0;
	return 1;
}


/*
** Whether sampling's common case may run on a thread whose guard is as it
** is: always where it needs no guard (APROF_INC_ONE), so that it need not
** test it.  A hook that interrupts the runtime (a signal handler's) is then
** followed as any call, which is safe: the common case is safe wherever a
** handler's hooks interrupt it, and the runtime changes the shadow stack and
** the current context only as the common case does (push, pop, resync: the
** handler's push goes above the top it finds, which it leaves as it found
** it) or in one store (the limit, a mark), and the common case changes
** nothing else the runtime may be changing.
*/
#define SAMPLE_UNGUARDED() (APROF_INC_ONE || !aprof_busy)


/*
** After the common case with clock KIND on T (NULL: no thread with that
** clock) found DONE (0 or -1, enter_fast): enter_uncached, enter_watched
** or enter_slow by a tail call.  Inlined with KIND a constant, so that each
** clock's path tests nothing of the other's; the hook's frame computed
** here, where a path passes it, not by the hook before (one instruction
** fewer on sampling's way to enter_watched, which finds it itself, and to
** enter_uncached: JsonCpp small.json headers excluded 1.03M, all routines
** instrumented 2.73M, Lua parser.lua 700 0.35M; always inlined: GCC
** otherwise lays the sampling paths out as before, the frame first).
*/
APROF_NOINSTR static inline __attribute__((always_inline)) void
enter_other(struct aprof_thread *t, uintptr_t fn, uintptr_t site, int done, uint32_t kind)
{
	if (t != NULL && !aprof_busy) {
		if (done < 0) {
			PER_CLOCK_CALL(enter_uncached, kind, fn, site, (uintptr_t)__builtin_dwarf_cfa());
			return;
		}
		if (entry_watched(t, kind)) {
			struct aprof_frame *top = aprof_thread_ends_of(t, kind)->top;

			PER_CLOCK_CALL(enter_watched, kind, fn, site, top->ctx, top);
			return;
		}
	}
	enter_slow(fn, site, (uintptr_t)__builtin_dwarf_cfa());
}

/* The same for an exit (leave_fast) on T: leave_watched or leave_slow by a tail call. */
APROF_NOINSTR static inline void leave_other(struct aprof_thread *t, uintptr_t fn, uintptr_t site,
					     int done, uint32_t kind)
{
	if (done < 0 && !aprof_busy) {
		PER_CLOCK_CALL(leave_watched, kind, fn, site, t);
		return;
	}
	leave_slow(fn, site);
}


/*
** Entry to FN, called from SITE (its return address): enter_fast, or
** enter_uncached, enter_watched or enter_slow by a tail call.  Sampling,
** the everyday mode, is tested first (the counter's common case is long
** enough that the tests more are lost in it), with no load nor test of the
** clock's kind: sampling's on the thread-local top and limit, without a
** test of the guard (SAMPLE_UNGUARDED) nor of a thread, for which they do
** nothing (aprof_thread_ends), nor its address; the counter's on
** aprof_counted.
*/
APROF_API void __cyg_profile_func_enter(void *fn, void *site)
{
	struct aprof_thread *t;
	int done = 0;

	/*
	** The frame computed where each path needs it: computed once, first,
	** it made GCC move SITE on every call out of the register in which the
	** slow paths take it (libaprof.so: 20 instructions and ret, not 19).
	*/
	if (SAMPLE_UNGUARDED())
		done = enter_fast(NULL, (uintptr_t)fn, (uintptr_t)__builtin_dwarf_cfa(),
				  AMON_CLOCK_SAMPLE);
	if (APROF_LIKELY(done > 0))
		return;
	if ((t = aprof_sampled) != NULL) {
		enter_other(t, (uintptr_t)fn, (uintptr_t)site, done, AMON_CLOCK_SAMPLE);
		return;
	}
	done = 0;
	if ((t = aprof_counted) != NULL && !aprof_busy)
		done = enter_fast(t, (uintptr_t)fn, (uintptr_t)__builtin_dwarf_cfa(),
				  APROF_CLOCK_COUNTER);
	if (APROF_LIKELY(done > 0))
		return;
	enter_other(t, (uintptr_t)fn, (uintptr_t)site, done, APROF_CLOCK_COUNTER);
}


/*
** Exit from FN, back to SITE: leave_fast (each clock by its own thread
** pointer, as on entry), or leave_watched or leave_slow by a tail call.
** The top entry matches by FN alone: GCC may reach this by a tail call (so
** the frame here says nothing), and from a split-off part of FN (FN.part.0,
** called from elsewhere than FN's caller) with another SITE than the
** entry's.  After a jump FN's return address, SITE, found on the stack
** above the hook's frame, picks the right activation of a recursive FN
** (aprof_thread_exit_slow).
*/
APROF_API void __cyg_profile_func_exit(void *fn, void *site)
{
	struct aprof_thread *t;
	int done = 0;

	if (SAMPLE_UNGUARDED())
		done = leave_fast(NULL, (uintptr_t)fn, AMON_CLOCK_SAMPLE);
	if (APROF_LIKELY(done > 0))
		return;
	if ((t = aprof_sampled) != NULL) {
		leave_other(t, (uintptr_t)fn, (uintptr_t)site, done, AMON_CLOCK_SAMPLE);
		return;
	}
	done = 0;
	if ((t = aprof_counted) != NULL && !aprof_busy)
		done = leave_fast(t, (uintptr_t)fn, APROF_CLOCK_COUNTER);
	if (APROF_LIKELY(done > 0))
		return;
	leave_other(t, (uintptr_t)fn, (uintptr_t)site, done, APROF_CLOCK_COUNTER);
}
