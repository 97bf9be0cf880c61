/*
** folded.h -- --format=folded: folded stacks for flamegraph.pl, speedscope
** and inferno (doc/aprof.1, EXPORTS).
*/
#ifndef APROF_EXPORT_FOLDED_H
#define APROF_EXPORT_FOLDED_H

#include <stdio.h>

#include "aprof/model/profile.h"

/*
** Writes one line per context path of D: the history's routines (P's names)
** from the outermost joined by ';', a space, and the context's self value in
** P's metric as a whole number of profile_export_unit(P).  Contexts of equal
** paths (threads, or histories that differ in marks only) are merged; the
** root context, charged to no routine, is left out, so the values add up to
** P's total exactly (profile_export's running rounding).  Sorted by path.
*/
void folded_write(FILE *out, const struct amon_data *d, const struct profile *p);

/*
** --diff with --format=folded: the two-column form flamegraph.pl's
** differential mode reads (difffolded.pl's output): "PATH OLD NEW" for every
** path of either profile, 0 on the side that lacks it.
*/
void folded_diff(FILE *out, const struct amon_data *old_d, const struct profile *old_p,
		 const struct amon_data *new_d, const struct profile *new_p);

#endif /* APROF_EXPORT_FOLDED_H */
