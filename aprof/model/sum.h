/*
** sum.h -- profiles of one executable added context by context: what
** "aprof prog FILE..." reports and what -s writes to amon.sum (as gprof's -s
** sums gmon.out files into gmon.sum; gprof(1)).
*/
#ifndef APROF_MODEL_SUM_H
#define APROF_MODEL_SUM_H

#include "aprof/read/amon_read.h"

/*
** The sum of the N profiles D[0..N-1], a new amon_data of the same shape
** that amon_free frees.  Dies with one line on stderr if a profile was
** written by another executable than D[0]'s (their recorded build-ids
** differ) or with another clock.
**
** Modules are matched by build-id (by path when they have none) and every
** history address is moved to the module's place in D[0], so runs with
** different load addresses (PIE, ASLR) add up; a module only later files
** loaded is placed above the others.  Threads are matched by their order of
** start (the main thread with the main thread), and in each, contexts of
** equal histories are added: calls, recursive calls, ticks, heap counts and
** bytes exactly, peaks as a sum.  Ticks of a file whose clock ran at another
** calibrated rate are converted to D[0]'s (rounded).  The runtime's own costs
** are already taken off every context, so the sum records none.
*/
struct amon_data *sum_profiles(struct amon_data *const *d, int n);

#endif /* APROF_MODEL_SUM_H */
