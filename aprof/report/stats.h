/*
** stats.h -- the size of a profile (--stats): the columns of Table I of
** Spivey's paper, for comparing aprof's data with the paper's and with
** other runs.
*/
#ifndef APROF_REPORT_STATS_H
#define APROF_REPORT_STATS_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"

/*
** Prints, one "name value" line each: routines called, calls, contexts,
** transitions, average and maximum history length (entries, marked and
** unmarked), profiling memory (bytes the runtime took for contexts,
** histories, heap counters and transition tables: amon.out's threads'
** memory, summed), amon.out's size in
** bytes, threads, and the run's time in seconds.  Then for each thread a
** "thread TID" line and, indented, one "name value" line for each of its
** hooks' costs, probes and runtime samples.  P is D's time profile.
*/
void stats_print(FILE *out, const struct amon_data *d, const struct profile *p);

#endif /* APROF_REPORT_STATS_H */
