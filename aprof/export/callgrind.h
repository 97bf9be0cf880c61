/*
** callgrind.h -- --format=callgrind: a callgrind profile for KCachegrind and
** callgrind_annotate (doc/aprof.1, EXPORTS).
*/
#ifndef APROF_EXPORT_CALLGRIND_H
#define APROF_EXPORT_CALLGRIND_H

#include <stdio.h>

#include "aprof/model/profile.h"

/*
** Writes the profiles PS[0..NP-1] of D (one per event, PS[0] the --metric's;
** the same routines and arcs, built from the same contexts in different
** metrics) as one callgrind profile of program EXE: events in PS's order,
** in whole profile_export units (ns for time, bytes, allocs); one fn= block
** per routine with its self cost, and per outgoing arc a cfn=/calls= pair
** with the exact call count and the inclusive cost self1 + child1.  ob= is
** the routine's module, fl= its source file ("???" if unknown).  A
** routine's self cost is at its first line (symbols_line; 0 if unknown),
** and so are its calls' costs (amon.out has no call sites), each call
** targeting the callee's first line.  summary: and totals: are each
** profile's total; the self costs add up to them exactly.  Linear in the
** routines and arcs.
*/
void callgrind_write(FILE *out, const char *exe, const struct amon_data *d,
		     struct profile *const *ps, int np);

#endif /* APROF_EXPORT_CALLGRIND_H */
