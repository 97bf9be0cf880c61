/*
** perthread.h -- the per-thread view (--threads) and the runtime's notes on
** what it had to repair (resynchronisations, dropped hooks), from the
** thread records of amon.out.
*/
#ifndef APROF_REPORT_PERTHREAD_H
#define APROF_REPORT_PERTHREAD_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"
#include "aprof/report/gprof.h"
#include "aprof/read/symbols.h"

/*
** The report header's notes: one line each, only when non-zero, for shadow
** stack entries resynchronised after non-local exits (longjmp, exceptions),
** hook calls dropped because they re-entered the runtime (signal handlers),
** exits that matched no entry, and threads that ran out of memory.
** Returns the number of lines printed.
*/
int perthread_notes(FILE *out, const struct amon_data *d);

/*
** --threads: a table of the threads (tid, name, contexts, calls, the
** metric's total, resyncs, dropped), then each thread's own flat profile
** in METRIC, with the options of O.
*/
void perthread_print(FILE *out, const struct amon_data *d, const struct symbols *syms,
		   enum prof_metric metric, const struct report_options *o);

#endif /* APROF_REPORT_PERTHREAD_H */
