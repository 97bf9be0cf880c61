/*
** flat.c -- the flat profile: one row per routine, sorted by self time, in
** GNU gprof 2.40's layout (gprof/hist.c: hist_print, print_header,
** print_line, cmp_time and the SItab of per-call units).
*/
#include <config.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/flat.h"
#include "aprof/util.h"

/* SI prefixes of the per-call columns, largest unit first (hist.c SItab). */
static const struct {
	char prefix;
	double scale;
} si_tab[] = {
	{ 'T', 1e-12 }, { 'G', 1e-09 }, { 'M', 1e-06 }, { 'K', 1e-03 },
	{ ' ', 1e+00 }, { 'm', 1e+03 }, { 'u', 1e+06 }, { 'n', 1e+09 },
	{ 'p', 1e+12 }, { 'f', 1e+15 }, { 'a', 1e+18 },
};


#define SI_COUNT (sizeof(si_tab) / sizeof(si_tab[0]))

/* Self time descending, then calls descending, then name (hist.c cmp_time). */
static int cmp_time(const void *lp, const void *rp)
{
	const struct prof_proc *l = *(const struct prof_proc *const *)lp;
	const struct prof_proc *r = *(const struct prof_proc *const *)rp;

	if (l->self != r->self)
		return l->self < r->self ? 1 : -1;
	if (l->calls != r->calls)
		return l->calls < r->calls ? 1 : -1;
	return strcmp(l->name, r->name);
}


/*
** The si_tab entry of the per-call columns, as hist_print chooses it: the
** first that puts the largest (self + child) / calls of any called routine,
** in seconds, in [1, 1000); 'T' (the first) when no called routine took any
** time.  Where none fits, the last entry (gprof reads past its table).
*/
static size_t si_scale(const struct profile *p)
{
	double top = 0.0;
	size_t i;
	int k;

	for (k = 0; k < p->nprocs; k++) {
		const struct prof_proc *r = &p->procs[k];
		double t;

		if (r->calls == 0)
			continue;
		t = (double)(r->self + r->child) / (double)r->calls;
		if (t > top)
			top = t;
	}
	if (top <= 0.0)
		return 0;
	top /= p->scale;
	for (i = 0; i < SI_COUNT - 1; i++) {
		double v = si_tab[i].scale * top;

		if (v >= 1.0 && v < 1000.0)
			break;
	}
	return i;
}


/*
** True if routine R has a row: gprof hides routines never called and never
** charged unless -z, and applies the -p (only) and -P (exclude) lists.
*/
static int flat_shown(const struct prof_proc *r, const struct report_options *o)
{
	if (!o->zero && r->calls == 0 && r->self == 0)
		return 0;
	if (o->flat_only.n > 0)
		return symspec_has(&o->flat_only, r->name);
	return !symspec_has(&o->flat_exclude, r->name);
}


/*
** Prints P's flat profile on OUT in gprof 2.40's layout (hist.c hist_print),
** without the blurb: title, sample period (1 / P->scale), the
** two header lines, then one row per routine O selects, by self time.
** Times in seconds; "% time" is relative to P->total; the per-call columns
** are (self) / calls and (self + child) / calls in the SI unit gprof would
** choose.  Cannot fail.
*/
void flat_print(FILE *out, const struct profile *p, const struct report_options *o)
{
	const struct prof_proc **rows = xmalloc((size_t)p->nprocs * sizeof(*rows));
	double hz = p->scale;
	double total = p->total > 0 ? (double)p->total : 1.0;
	size_t si = si_scale(p);
	double scale = si_tab[si].scale;
	uint64_t accum = 0;
	char unit[16];
	int k;

	fputs("Flat profile:\n", out);
	fprintf(out, "\nEach sample counts as %g seconds.\n", 1.0 / hz);
	if (p->total == 0)
		fputs(" no time accumulated\n\n", out);
	snprintf(unit, sizeof(unit), "%cs/call", si_tab[si].prefix);
	fprintf(out, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n",
		"%  ", "cumulative", "self  ", "", "self  ", "total ", "");
	fprintf(out, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n",
		"time", "seconds", "seconds", "calls", unit, unit, "name");

	for (k = 0; k < p->nprocs; k++)
		rows[k] = &p->procs[k];
	qsort(rows, (size_t)p->nprocs, sizeof(*rows), cmp_time);
	for (k = 0; k < p->nprocs; k++) {
		const struct prof_proc *r = rows[k];

		if (!flat_shown(r, o))
			continue;
		accum += r->self;
		fprintf(out, "%6.2f %9.2f %8.2f", 100.0 * (double)r->self / total,
			(double)accum / hz, (double)r->self / hz);
		if (r->calls != 0)
			fprintf(out, " %8" PRIu64 " %8.2f %8.2f  ", r->calls,
				scale * (double)r->self / hz / (double)r->calls,
				scale * (double)(r->self + r->child) / hz / (double)r->calls);
		else
			fprintf(out, " %8.8s %8.8s %8.8s  ", "", "", "");
		fputs(r->name, out);
		fputc('\n', out);
	}
	free(rows);
}
