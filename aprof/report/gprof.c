/*
** gprof.c -- the gprof-format reports: which sections to print, in which
** order, with which separators and blurbs (GNU gprof 2.40's gprof.c main,
** hist.c hist_print and cg_print.c cg_print / cg_print_index).
*/
#include <config.h>

#include <stdio.h>

#include "aprof/report/blurbs.h"
#include "aprof/report/callgraph.h"
#include "aprof/report/flat.h"
#include "aprof/report/gprof.h"

/* What a heap metric charges, for the note before the blurbs (--metric). */
static const char *metric_what(enum prof_metric m)
{
	switch (m) {
	case PROF_ALLOCS:
		return "heap allocations";
	case PROF_KEPT:
		return "heap bytes allocated and never freed";
	case PROF_PEAK:
		return "heap bytes live at the run's peak";
	default:
		return "heap bytes allocated";
	}
}


void gprof_duration(char *buf, size_t size, double seconds)
{
	static const struct {
		const char *name;
		double per_second;
	} units[] = { { "s", 1 }, { "ms", 1e3 }, { "us", 1e6 }, { "ns", 1e9 } };
	size_t i = 0;

	while (i + 1 < sizeof units / sizeof units[0] && seconds * units[i].per_second < 1.0)
		i++;
	snprintf(buf, size, "%.3g %s", seconds * units[i].per_second, units[i].name);
}


/*
** Prints BLURB on OUT, after a note saying what P charges instead of time
** if it is a heap metric (the blurbs are gprof's, written for time).
*/
static void print_blurb(FILE *out, const struct profile *p, const char *blurb)
{
	if (p->metric != PROF_TIME)
		fprintf(out, blurb_metric_note, metric_what(p->metric), p->unit);
	fputs(blurb, out);
}


/* S's items as given, ", " between them. */
static void print_specs(FILE *out, const struct symspec *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		fprintf(out, "%s%s", i > 0 ? ", " : "", s->items[i].text);
}


/*
** What -f and -e (O's print_only, print_exclude) leave printed, before the
** reports, when either is given: gprof's options of those names choose
** entries, not values, which stay the whole run's, so a caller of a
** printed routine is still a parent line, with an index in parentheses.
*/
static void print_selection(FILE *out, const struct report_options *o)
{
	if (o->print_only.n == 0 && o->print_exclude.n == 0)
		return;
	if (o->print_only.n > 0) {
		fputs("-f: only the entries of ", out);
		print_specs(out, &o->print_only);
		fputs(" and of the routines they call, at any depth\n", out);
	}
	if (o->print_exclude.n > 0) {
		fputs("-e: no entry of ", out);
		print_specs(out, &o->print_exclude);
		fputs(" nor of the routines only they call\n", out);
	}
	fputs("Values are the whole run's, as gprof's -f and -e print them (-F and -E\n"
	      "select the contexts instead).  A name followed by (N), not [N], is a\n"
	      "routine whose entry is not printed.\n\n", out);
}


/*
** Prints the reports O selects on OUT in gprof 2.40's layout: the flat
** profile (O->flat), then the call graph and its index (O->graph), each
** report followed by its blurb unless O->brief; before them, if -f or -e
** was given, a note on what they leave printed.  Every section after the
** first starts with "\f\n"; the index always does, even with -b, as in
** gprof (gprof2dot stops reading the call graph at that line).  Values in
** P->unit: P's values / P->scale (seconds for time).  Dies only if P is
** inconsistent (a routine in a cycle P does not have).
*/
void report_gprof(FILE *out, const struct profile *p, const struct report_options *o)
{
	print_selection(out, o);
	if (o->flat) {
		flat_print(out, p, o);
		if (!o->brief)
			print_blurb(out, p, blurb_flat);
	}
	if (o->graph) {
		struct order *ord = order_make(p, o); /* once, for the graph and its index */

		if (o->flat)
			fputs("\f\n", out);
		callgraph_print(out, p, o, ord);
		if (!o->brief)
			print_blurb(out, p, blurb_callgraph);
		callgraph_index(out, p, o, ord);
		order_free(ord);
	}
}
