/*
** diff.h -- --diff=OLD: what changed from one profile to another, of the
** same program or of a rebuilt one (routines matched by name).
*/
#ifndef APROF_REPORT_DIFF_H
#define APROF_REPORT_DIFF_H

#include <stdio.h>

#include "aprof/model/profile.h"

/*
** Prints two tables of NEW minus OLD (both in the same metric): per routine
** the change in self value and in calls, per arc (caller -> callee, matched
** by both names) the change in its value (outgoing self1 + child1) and in
** calls; signed ("+4", "-0.012300"), each with both sides' values, sorted by
** the absolute change in the metric, the largest first.  Time is in seconds
** (each side by its own clock rate), the heap metrics in whole bytes or
** allocations.  Rows that did not change come last, with +0.
*/
void diff_print(FILE *out, const struct profile *old_p, const struct profile *new_p);

#endif /* APROF_REPORT_DIFF_H */
