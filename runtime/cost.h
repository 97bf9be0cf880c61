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
** line hot in the cache.  Zero in sampling mode, which reads no clock.
*/
struct aprof_hook_cost {
	uint64_t exit;          /* in one interval between two hooks that ends in an exit */
	uint64_t entry;         /* in one that ends in an entry */
	uint64_t probe_entry;   /* what an in-run probe (thread.h) measures of such an entry */
	uint64_t probe_exit;    /* and of such an exit */
	uint64_t probe_empty;   /* what a probe measures of no work: two reads back to back */
};

extern APROF_HIDDEN struct aprof_hook_cost aprof_hook_cost;

/*
** Measures aprof_hook_cost by calling the hooks as instrumented code does,
** on a thread state of its own (the calling thread's is left as it was): at
** start-up and again before the profile is written at exit, keeping the
** calibration that found the CPU fastest.  Nothing in sampling mode.
*/
APROF_HIDDEN void aprof_hooks_calibrate(void);

#endif /* APROF_RUNTIME_COST_H */
