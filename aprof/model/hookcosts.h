/*
** hookcosts.h -- the hooks' cost model: the runtime's own ticks in each context,
** taken off once, right after reading (hookcosts.c).
*/
#ifndef APROF_MODEL_HOOKCOSTS_H
#define APROF_MODEL_HOOKCOSTS_H

#include "aprof/read/amon_read.h"

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

#endif /* APROF_MODEL_HOOKCOSTS_H */
