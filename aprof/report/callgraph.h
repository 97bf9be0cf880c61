/*
** callgraph.h -- the call graph and its index by function name in GNU gprof
** 2.40's layout (gprof/cg_print.c), with aprof's measured arc times.
*/
#ifndef APROF_REPORT_CALLGRAPH_H
#define APROF_REPORT_CALLGRAPH_H

#include <stdio.h>

#include "aprof/report/order.h"
#include "aprof/model/profile.h"
#include "aprof/report/gprof.h"

/*
** Prints P's call graph on OUT as gprof 2.40's cg_print() does, without the
** blurb (gprof.c adds it): title, granularity line, header, then one entry
** per routine or cycle O selects, in ORD (order_make(P, O): gprof's
** cmp_total order), each ending in 47 dashes.  Values in P->unit (P's
** values / P->scale).
*/
void callgraph_print(FILE *out, const struct profile *p, const struct report_options *o,
		     const struct order *ord);

/*
** Prints the index by function name on OUT as gprof 2.40's cg_print_index()
** does: "\f", the title, then the routines by name and the cycles, in three
** columns, each with its call-graph index (ORD, as callgraph_print's).
*/
void callgraph_index(FILE *out, const struct profile *p, const struct report_options *o,
		     const struct order *ord);

#endif /* APROF_REPORT_CALLGRAPH_H */
