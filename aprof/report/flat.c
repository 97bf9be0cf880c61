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

#include "aprof/report/flat.h"
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


/* The largest (self + child) / calls of any called routine of P, in P's values. */
static double top_per_call(const struct profile *p)
{
	double top = 0.0;
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
	return top;
}


/*
** The si_tab entry of the per-call columns, as hist_print chooses it: the
** first that puts the largest (self + child) / calls of any called routine,
** in seconds, in [1, 1000); 'T' (the first) when no called routine took any
** time.  Where none fits, the last entry (gprof reads past its table).
*/
static size_t si_scale(const struct profile *p)
{
	double top = top_per_call(p);
	size_t i;

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


/* How the per-call columns are shown: value * mul / div per call, headed "<unit>/call". */
struct per_call {
	double mul, div;
	char unit[16];
};


/*
** The per-call unit of P.  Time: gprof's SI prefix of seconds (si_scale).
** Bytes: B, KB, MB or GB (powers of 1024), the largest that keeps the top
** per-call value at 1 or more; allocations likewise al, Kal, Mal or Gal
** (powers of 1000).
*/
static void per_call_unit(const struct profile *p, struct per_call *pc)
{
	static const char *const bytes[] = { "B", "KB", "MB", "GB" };
	static const char *const allocs[] = { "al", "Kal", "Mal", "Gal" };
	double base = p->metric == PROF_ALLOCS ? 1000.0 : 1024.0;
	double top = top_per_call(p);
	int i;

	if (p->metric == PROF_TIME) {
		size_t si = si_scale(p);

		pc->mul = si_tab[si].scale;
		pc->div = p->scale;
		snprintf(pc->unit, sizeof(pc->unit), "%cs/call", si_tab[si].prefix);
		return;
	}
	pc->mul = 1.0;
	pc->div = 1.0;
	for (i = 0; i < 3 && top >= pc->div * base; i++)
		pc->div *= base;
	snprintf(pc->unit, sizeof(pc->unit), "%s/call",
		 p->metric == PROF_ALLOCS ? allocs[i] : bytes[i]);
}


/*
** The lines above the rows: the sample line and the two header lines, in
** gprof's layout for time.  A heap metric names itself over the percentage
** column, P->unit over the value columns, and says what one count is.
*/
static void print_header(FILE *out, const struct profile *p, const char *unit, int wider)
{
	static const char *const what[] = {
		[PROF_TIME] = "time", [PROF_BYTES] = "bytes", [PROF_ALLOCS] = "allocs",
		[PROF_KEPT] = "kept", [PROF_PEAK] = "peak",
	};

	if (p->metric == PROF_TIME) {
		fprintf(out, "\nEach sample counts as %g seconds.\n", 1.0 / p->scale);
	} else {
		fprintf(out, "\nEach sample counts as 1 %s",
			p->metric == PROF_ALLOCS ? "allocation" : "byte");
		if (p->scale != 1.0)
			fprintf(out, ", shown in %s of %g bytes", p->unit, p->scale);
		fputs(".\n", out);
	}
	if (p->total == 0)
		fprintf(out, " no %s accumulated\n\n", profile_noun(p));
	fprintf(out, "%5.5s %*s %*s %8.8s %8.8s %8.8s  %-8.8s\n",
		"%  ", 10 + wider, "cumulative", 8 + wider, "self  ", "", "self  ", "total ", "");
	if (p->metric == PROF_TIME)
		fprintf(out, "%5.5s %*s  %*s %8.8s %8.8s %8.8s  %-8.8s\n",
			"time", 9 + wider, "seconds", 8 + wider, "seconds", "calls", unit, unit,
			"name");
	else
		fprintf(out, "%6.6s%*.9s  %*.8s %8.8s %8.8s %8.8s  %-8.8s\n",
			what[p->metric], 9 + wider, p->unit, 8 + wider, p->unit, "calls", unit,
			unit, "name");
}


/*
** True if routine R of P has a row: gprof hides routines never called and
** never charged unless -z, and applies the -p (only) and -P (exclude)
** lists; PRINTED (profile_printed: -f, -e) and --threshold (on self) too.
*/
static int flat_shown(const struct profile *p, const struct prof_proc *r,
		      const struct report_options *o, const char *printed)
{
	if (!o->zero && r->calls == 0 && r->self == 0)
		return 0;
	if ((printed != NULL && !printed[r - p->procs]) || profile_below(p, r->self, o->threshold))
		return 0;
	if (o->flat_only.n > 0)
		return profile_matches(p, (int)(r - p->procs), &o->flat_only);
	return !profile_matches(p, (int)(r - p->procs), &o->flat_exclude);
}


/*
** Prints P's flat profile on OUT in gprof 2.40's layout (hist.c hist_print),
** without the blurb: title, sample line, the two header lines, then one row
** per routine O selects (-p, -P, -f, -e, --threshold, -z), by self value.  Values in P->unit (P's values /
** P->scale: seconds for time) with profile_decimals(P, O->decimals)
** decimals, the two value columns widened by the decimals beyond gprof's
** two (so --decimals=2 is gprof's layout); "% time" is relative to P->total; the
** per-call columns are (self) / calls and (self + child) / calls in the
** unit per_call_unit chooses (gprof's SI unit of seconds for time).
** Cannot fail.
*/
void flat_print(FILE *out, const struct profile *p, const struct report_options *o)
{
	const struct prof_proc **rows = xmalloc((size_t)p->nprocs * sizeof(*rows));
	char *printed = profile_printed(p, &o->print_only, &o->print_exclude);
	double hz = p->scale;
	double total = p->total > 0 ? (double)p->total : 1.0;
	int dec = profile_decimals(p, o->decimals), wider = dec > 2 ? dec - 2 : 0;
	struct per_call pc;
	uint64_t accum = 0;
	int k;

	per_call_unit(p, &pc);
	fputs("Flat profile:\n", out);
	print_header(out, p, pc.unit, wider);

	for (k = 0; k < p->nprocs; k++)
		rows[k] = &p->procs[k];
	qsort(rows, (size_t)p->nprocs, sizeof(*rows), cmp_time);
	for (k = 0; k < p->nprocs; k++) {
		const struct prof_proc *r = rows[k];

		if (!flat_shown(p, r, o, printed))
			continue;
		accum += r->self;
		fprintf(out, "%6.2f %*.*f %*.*f", 100.0 * (double)r->self / total, 9 + wider, dec,
			(double)accum / hz, 8 + wider, dec, (double)r->self / hz);
		if (r->calls != 0)
			fprintf(out, " %8" PRIu64 " %8.2f %8.2f  ", r->calls,
				pc.mul * (double)r->self / pc.div / (double)r->calls,
				pc.mul * (double)(r->self + r->child) / pc.div / (double)r->calls);
		else
			fprintf(out, " %8.8s %8.8s %8.8s  ", "", "", "");
		fputs(r->name, out);
		fputc('\n', out);
	}
	free(printed);
	free(rows);
}
