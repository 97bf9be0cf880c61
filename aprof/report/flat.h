/*
** flat.h -- the flat profile in GNU gprof 2.40's layout (gprof/hist.c).
*/
#ifndef APROF_REPORT_FLAT_H
#define APROF_REPORT_FLAT_H

#include <stdio.h>

#include "aprof/model/profile.h"
#include "aprof/report/gprof.h"

/*
** Prints P's flat profile on OUT as gprof 2.40's hist_print() does, without
** the blurb (gprof.c adds it), but that its first line says what the clock
** was.  Values in P->unit (P's values / P->scale: seconds for time); the
** per-call columns in a unit that shows every routine's (ns/call...).
*/
void flat_print(FILE *out, const struct profile *p, const struct report_options *o);

#endif /* APROF_REPORT_FLAT_H */
