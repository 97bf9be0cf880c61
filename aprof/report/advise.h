/*
** advise.h -- what the instrumentation cost the run, and what to leave
** uninstrumented (--advise): the routines whose calls through the hooks
** cost more than their own work, and the compiler flags that leave them
** out (advise.c).
*/
#ifndef APROF_REPORT_ADVISE_H
#define APROF_REPORT_ADVISE_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"

/*
** The share of the run the hooks took (hookcosts_total's own / all) at and
** above which the flat profile and the call graph start with advise_note's
** line: a tenth, where the instrumentation starts to be a large part of
** what was timed.
*/
#define ADVISE_NOTE_SHARE 0.10

/*
** The least share of the run, in percent, a routine's hooks must cost to
** be advised out when --threshold says none: leaving out a routine whose
** calls cost less would not show.
*/
#define ADVISE_MIN_PERCENT 0.1

/*
** Prints on OUT the --advise report of D (after hookcosts_apply), whose
** time profile is P: the calls through the hooks, per second of the run;
** what a call cost the hooks and their whole cost, with its share of the
** run; the routines whose hooks cost (their calls, recursive ones too,
** times their thread's hookcosts_per_call) more than their self time and
** at least MIN_PERCENT of the run, by that cost; their share of the run;
** and the flags that leave them uninstrumented, GCC's exclusion list ready
** to paste (names as GCC matches them: the demangled name without its
** parameters, each a substring of what it excludes; a name it cannot hold,
** with a comma, is said apart, and so is a routine another listed name
** would exclude too), clang's and GCC's instrumentation after inlining,
** with the hooks' cost they would save.  Times in seconds with DECIMALS
** decimals (profile_decimals).  Cannot fail.
*/
void advise_print(FILE *out, const struct amon_data *d, const struct profile *p,
		  double min_percent, int decimals);

/*
** Prints on OUT one line pointing to --advise if the hooks took
** ADVISE_NOTE_SHARE of D's run or more (hookcosts_total), with their share,
** calls and cost a call: the first line over gprof's reports.  Returns the
** lines printed (0 or 1).
*/
int advise_note(FILE *out, const struct amon_data *d);

#endif /* APROF_REPORT_ADVISE_H */
