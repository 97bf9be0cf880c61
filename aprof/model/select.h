/*
** select.h -- the selection stage: which contexts the reports see (-F, -E,
** --elide), applied to amon.out's contexts before anything is charged, so
** the flat profile, call graph, -S, --heap, --threads, --stats and the
** exports all read the same filtered profile (Spivey, "Presenting the
** results": accumulate only the states in which the chosen routines are
** active).
*/
#ifndef APROF_MODEL_SELECT_H
#define APROF_MODEL_SELECT_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"
#include "aprof/read/symbols.h"
#include "aprof/read/symspec.h"

/* The filters, from the command line. */
struct selection {
	struct symspec focus;   /* -F: keep contexts in which one of these is active */
	struct symspec exclude; /* -E: drop contexts in which one of these is active */
	struct symspec elide;   /* --elide: take these out of every history */
};

/* True if S filters anything. */
int select_any(const struct selection *s);

/*
** The contexts of D that S keeps, as an amon_data of the same shape (same
** header, modules, heap record and bins; each thread's contexts replaced):
**   -F: those in whose history (marked entry or not) a focused routine is;
**       the root context (no routine active) goes;
**   -E: those in whose history no excluded routine is;
**   --elide: every elided routine taken out of every history, so that its
**       self time and bytes go to its caller and its callees become its
**       caller's; a context whose running routine was elided keeps no calls
**       (they were calls of the elided routine), one left with the same
**       routine twice at its end counts them as direct recursion; contexts
**       whose histories became equal are merged (merge.c).
** Routines are matched by symbol (symspec.c; addresses without a symbol by
** their printed name).  Returns D itself when S filters nothing; else a new
** amon_data sharing D's modules, heap record and unelided histories, which
** lives as long as the program (as D does).
*/
struct amon_data *select_contexts(const struct amon_data *d, const struct symbols *syms,
				  const struct selection *s);

/*
** Frees OUT, what select_contexts returned for D: nothing if it is D; else
** its threads' contexts, the type sites merged into them and the elided
** histories (D's own stay D's).
*/
void select_free(struct amon_data *out, const struct amon_data *d);

/*
** The report's first line under -F or -E: what was focused on or left out
** and the share of the run's METRIC that KEPT holds, as
**   "focus on a: 1.234567 s of 1.503000 s, 82.1%"
**   "excluding b: 1024 bytes of 4096 bytes, 25.0%"
** (the run's total being what all routines were charged, the root context
** aside), or "focus on a: no context kept (...)" when KEPT has no context
** with a routine active.  Prints nothing without -F or -E.  Returns 0 if
** -F or -E kept no such context (there is nothing to report), else 1.
*/
int select_print_share(FILE *out, const struct amon_data *all, const struct amon_data *kept,
		       const struct selection *s, enum prof_metric metric);

#endif /* APROF_MODEL_SELECT_H */
