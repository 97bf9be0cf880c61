/*
** cost.h -- the hooks' cost model: what one hook costs, in ticks of the
** clock (clock.h), measured at start-up and again at exit on a routine with
** an empty body.  Written in every THREAD record of amon.out; the reader
** takes it off each context's ticks (Spivey's "charged" versus "total"
** time), corrected by the in-run probes (thread.h).
*/
#ifndef APROF_RUNTIME_COST_H
#define APROF_RUNTIME_COST_H

#include <stdint.h>

#include "internal.h"

/*
** The hooks' own cost, in ticks, measured by aprof_hooks_calibrate with every
** line hot in the cache, each per call rounded to the nearest tick.  Zero in
** sampling mode, which reads no clock.
*/
struct aprof_hook_cost {
	uint64_t exit;          /* in one interval between two hooks that ends in an exit */
	uint64_t entry;         /* in one that ends in an entry, less the call and return
				   the uninstrumented routine makes too */
	uint64_t probe_entry;   /* what an in-run probe (thread.h) measures of such an entry */
	uint64_t probe_exit;    /* and of such an exit */
	uint64_t probe_empty;   /* what a probe measures of no work: two reads back to back */
};

extern APROF_HIDDEN struct aprof_hook_cost aprof_hook_cost;

/*
** Measures aprof_hook_cost by calling the hooks as instrumented code does,
** on a thread state of its own (the calling thread's is left as it was), and
** the same loop's calls of the routine uninstrumented: at start-up and again
** before the profile is written at exit, keeping the calibration that found
** the CPU fastest; then sets aprof_probe_bound.  Nothing in sampling mode.
*/
APROF_HIDDEN void aprof_hooks_calibrate(void);

/*
** TOTAL ticks over N calls less BASE ticks over as many, per call, rounded to
** the nearest tick (not down: half a tick is 1% of a hook's cost, and the
** reader compares the probes' means with these); 0 if BASE is the more.
*/
APROF_NOINSTR static inline uint64_t aprof_cost_per_call(uint64_t total, uint64_t base, uint64_t n)
{
	return total > base ? (total - base + n / 2) / n : 0;
}

/*
** The most ticks one in-run probe (thread.h) counts: aprof_probe_bound_of the
** calibration kept; UINT64_MAX until the first.  A probe that an interrupt, a
** page fault or the host's preemption of a virtual CPU lands in times that
** too, and the probes' mean is taken off every call: one preempted probe
** among thousands can raise the mean by a third of a short routine's own
** time per call (benchmarks/CHOICES.md, "Probe bounds").  Clamped, one such
** probe moves a mean by at most aprof_probe_bound / probes; the hooks' own
** slow paths (a new context, a resync) stay under the bound but for the
** rarest.
*/
extern APROF_HIDDEN uint64_t aprof_probe_bound;

/* The bound for calibration COST: APROF_PROBE_CLAMP times its slower probe, plus one tick. */
#define APROF_PROBE_CLAMP 64
APROF_NOINSTR static inline uint64_t aprof_probe_bound_of(const struct aprof_hook_cost *cost)
{
	uint64_t slower = cost->probe_entry > cost->probe_exit ? cost->probe_entry : cost->probe_exit;

	return APROF_PROBE_CLAMP * (slower + 1);
}

/* TICKS, one probe's, as the probes' sums count them: at most BOUND (aprof_probe_bound). */
APROF_NOINSTR static inline uint64_t aprof_probe_ticks(uint64_t ticks, uint64_t bound)
{
	return ticks < bound ? ticks : bound;
}

/*
** Takes TICKS of the runtime's own work, a heap log's replay timed exactly
** (heap.c), out of the interval it ran in: *LAST, a thread's clock at its
** last hook (thread.h), which was BEFORE when that work began, moved on by
** TICKS, so that the next hook charges the context all but the replay.
** Left as it is if it changed meanwhile (a signal handler's hooks charged up
** to their own time: moved on, it could pass the clock and the next
** interval wrap around).  Returns the ticks taken out: TICKS or 0.
*/
APROF_NOINSTR static inline uint64_t aprof_interval_skip(uint64_t *last, uint64_t before,
							 uint64_t ticks)
{
	if (*last != before)
		return 0;
	*last = before + ticks;
	return ticks;
}

#endif /* APROF_RUNTIME_COST_H */
