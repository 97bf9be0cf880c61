/*
** mprof.h -- --heap: mprof's four tables (B. Zorn and P. Hilfinger, "A
** Memory Allocation Profiler for C and Lisp Programs", USENIX 1988; mprof(1)
** of 4.4BSD contrib) computed from amon.out's contexts, which make the
** leak paths whole and the allocation call graph exact under recursion.
*/
#ifndef APROF_REPORT_MPROF_H
#define APROF_REPORT_MPROF_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"
#include "aprof/read/symbols.h"
#include "aprof/read/typeinfo.h"

/* Which rows the bin and leak tables show (mprof -normal, -verbose, -terse). */
enum mprof_verbosity {
	MPROF_NORMAL,  /* bins with 0.5% or more of the bytes, leaks with 0.5% of the kept */
	MPROF_VERBOSE, /* every bin and every leak */
	MPROF_TERSE,   /* 1% or more */
};

/* What --heap prints, from the command line. */
struct mprof_options {
	enum mprof_verbosity verbosity; /* --heap-verbosity; MPROF_NORMAL by default, as mprof */
	int no_leaks;                   /* --no-leaks: no leak table (mprof -noleaktable) */
	int selected;                   /* -F, -E or --elide chose the contexts: say that the
					 * bins, recorded for the whole run, are not filtered */
};

/*
** Prints mprof's four tables on OUT, in mprof's order, each after a title
** line, the first three followed by "\f": (1) allocation bins, from D's
** whole-run bins, with mprof's types column from TI (NULL: empty); (2) memory leaks, one row per history (threads merged)
** that kept bytes, the path being the whole history, unless O->no_leaks;
** (3) direct allocation per routine, with mprof's s/m/l/x size breakdowns;
** (4) the allocation call graph: BYTES (a profile of D in PROF_BYTES) in
** gprof's call-graph layout, routines and arcs that allocated nothing left
** out.
** Bytes and counts are exact integers.  Names come from SYMS.  D must have
** heap data (AMON_HEAP_ON); cannot fail otherwise.
*/
void mprof_print(FILE *out, const struct amon_data *d, const struct symbols *syms,
		 const struct profile *bytes, const struct typeinfo *ti,
		 const struct mprof_options *o);

#endif /* APROF_REPORT_MPROF_H */
