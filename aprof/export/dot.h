/*
** dot.h -- --format=dot: the call graph for Graphviz (doc/aprof.1, EXPORTS).
*/
#ifndef APROF_EXPORT_DOT_H
#define APROF_EXPORT_DOT_H

#include <stdio.h>

#include "aprof/model/profile.h"
#include "aprof/model/traversals.h"

/*
** Writes P's call graph as a dot digraph (UTF-8): one box per routine
** labelled with its name, total share (self + child) and self share of P's
** total and its calls; one edge per arc labelled with the arc's exact value
** (outgoing self1 + child1, in P's unit) and share, and its call count.
** Colours and pen widths follow the shares as gprof2dot's "color" theme.
** Routines and arcs under THRESHOLD percent of the total are left out
** (--threshold; 0 keeps all), and so is a routine left with none of the
** arcs it had (unless no other routine would be left).  Without T, each gprof cycle is a dashed
** cluster "<cycle N>" around its members; with T (--cycles: the NT cycles
** that were traversed, traversals_find), the arcs of each are dashed and
** labelled "cycle X: N×" with its traversals instead.
*/
void dot_write(FILE *out, const struct profile *p, double threshold, const struct traversal *t,
	       int nt);

#endif /* APROF_EXPORT_DOT_H */
