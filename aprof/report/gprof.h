/*
** gprof.h -- what the gprof-format reports (flat.c, callgraph.c) print and
** how; filled from the command line by main.c.
*/
#ifndef APROF_REPORT_GPROF_H
#define APROF_REPORT_GPROF_H

#include <stddef.h>
#include <stdio.h>

#include "aprof/model/profile.h"
#include "aprof/read/symspec.h"

/* Report selection and layout, as gprof's options (gprof(1)). */
struct report_options {
	int flat;                    /* print the flat profile (-p; default on) */
	int graph;                   /* print the call graph and its index (-q; default on) */
	int brief;                   /* -b: leave out the blurbs */
	int zero;                    /* -z: also list routines never called and never charged */
	struct symspec flat_only;    /* -pNAME: flat profile of these routines only */
	struct symspec flat_exclude; /* -PNAME: leave these out of the flat profile */
	struct symspec graph_only;   /* -qNAME: call-graph entries of these only */
	struct symspec graph_exclude;/* -QNAME: leave these entries out of the call graph */
	struct symspec print_only;   /* -f: print only these and their descendants */
	struct symspec print_exclude;/* -e: do not print these nor what only they call */
	double threshold;            /* --threshold: leave out entries and arcs under this
				      * percentage of the total (0: none) */
	int charged_only;            /* graph: only what was charged something (mprof's table 4) */
	int decimals;                /* --decimals=N: decimals of the value columns; 0: as the
				      * run needs (profile_decimals) */
};

/*
** SECONDS as a short duration in BUF (SIZE bytes): three significant
** digits in the largest of s, ms, us and ns that keeps it at 1 or more
** ("1 ms", "100 us", "0.385 ns"), for the lines that say what a tick is.
*/
void gprof_duration(char *buf, size_t size, double seconds);

/*
** Prints the reports O selects in GNU gprof 2.40's layout: the flat profile
** and its blurb, then "\f", the call graph and its blurb, then "\f" and the
** index by function name; with -f or -e, first a note saying which entries
** they leave printed, that the values are the whole run's, and what an
** index in parentheses means.  Values in P->unit (P's value / P->scale): seconds
** for time, bytes, Kbytes, Mbytes or allocs for the heap metrics, whose
** explanations start with a note saying so.
*/
void report_gprof(FILE *out, const struct profile *p, const struct report_options *o);

#endif /* APROF_REPORT_GPROF_H */
