/*
** cycles.h -- gprof's cycles: the strongly connected components of the call
** graph, found so that aprof's output reads like gprof's.  Unlike gprof,
** aprof never lumps a cycle's members together: each keeps its own exact entry.
*/
#ifndef APROF_MODEL_CYCLES_H
#define APROF_MODEL_CYCLES_H

#include "aprof/model/profile.h"

/*
** Finds P's cycles (Tarjan's algorithm over arcs between distinct routines),
** numbers them 1... by decreasing self time of their members, sets each
** member's 'cycle', and fills each cycle's members, self, calls and internal.
** The cycle's child time needs the contexts and is left to the caller.
*/
void cycles_find(struct profile *p);

#endif /* APROF_MODEL_CYCLES_H */
