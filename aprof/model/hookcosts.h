/*
** hookcosts.h -- the hooks' cost model: the runtime's own ticks in each context,
** taken off once, right after reading (hookcosts.c).
*/
#ifndef APROF_MODEL_HOOKCOSTS_H
#define APROF_MODEL_HOOKCOSTS_H

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"

/*
** The runtime's own ticks to take off every context of thread TI, from TH,
** its record as written: entry_cost and exit_cost per interval ending in an
** entry or an exit, heap_cost per heap-tracking call.  The start-up
** calibration scaled to the CPU's speed in the run and corrected by the
** in-run probes (runtime/amon.h); never below 0.
*/
void amon_own_costs(const struct amon_thread *th, struct amon_thread_info *ti);

/*
** Takes the runtime's own ticks off every context of D (amon_own_costs per
** thread): D then holds the ticks charged, and no events left to charge.
** Once per profile, before any other stage.
*/
void hookcosts_apply(struct amon_data *d);

/*
** What the instrumentation costs thread T of D, in ticks per call (an
** entry and an exit hook, and the instructions around them in the routine
** called), after hookcosts_apply.  With a clock, the cost model's
** entry_cost + exit_cost, taken off every context: its calibration times
** a routine with its hook calls against the same routine without.
** Sampling, twice the samples that landed in the runtime's own code
** (runtime_ticks, heap tracking's too) spread over the thread's calls:
** the hooks' bodies, and as much again for the calls' own instructions
** in the routine (arguments set up, registers saved around the hook
** calls), which sampling charges to the routine and which cost about
** what the hooks' bodies do (runtime/cost.c's calibration says what
** empty hooks cost).  0 for a thread that made no call.
*/
double hookcosts_per_call(const struct amon_data *d, const struct amon_thread_info *t);

/* The hooks' cost over a whole run (hookcosts_total). */
struct hookcosts_total {
	uint64_t calls;   /* calls through the hooks, every thread's, recursive ones too */
	double own;       /* ticks the instrumentation took: each thread's calls x
			     hookcosts_per_call */
	double all;       /* ticks measured: every context's, and the runtime's own
			     charged to none (with a clock own, the cost taken off;
			     sampling runtime_ticks) */
};

/* Fills *T with D's hooks' cost, after hookcosts_apply. */
void hookcosts_total(const struct amon_data *d, struct hookcosts_total *t);

/*
** The hooks' ticks of each routine of P, a profile of D's contexts: in
** OWN[k] (P->nprocs of them, set here) routine k's calls, recursive ones
** too, in every context it runs in, each times its thread's
** hookcosts_per_call.  What leaving the routine uninstrumented would save.
*/
void hookcosts_by_routine(const struct amon_data *d, const struct profile *p, double *own);

#endif /* APROF_MODEL_HOOKCOSTS_H */
