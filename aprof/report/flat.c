/*
** flat.c -- the flat profile: one row per routine, sorted by self time, in
** GNU gprof 2.40's layout (gprof/hist.c: hist_print, print_header,
** print_line, cmp_time), but for the first line, which says what the clock
** was, and the per-call unit, chosen to show every routine's time.
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
** Over every called routine of P, the largest (self + child) / calls, and
** in *LEAST the smallest non-zero self / calls or (self + child) / calls
** (0 if none), in P's values.
*/
static double top_per_call(const struct profile *p, double *least)
{
	double top = 0.0;
	int k;

	*least = 0.0;
	for (k = 0; k < p->nprocs; k++) {
		const struct prof_proc *r = &p->procs[k];
		double self, total;

		if (r->calls == 0)
			continue;
		self = (double)r->self / (double)r->calls;
		total = (double)(r->self + r->child) / (double)r->calls;
		if (total > top)
			top = total;
		if (self > 0.0 && (*least == 0.0 || self < *least))
			*least = self;
		if (total > 0.0 && (*least == 0.0 || total < *least))
			*least = total;
	}
	return top;
}


/*
** How the per-call columns are shown: value * mul / div per call, headed
** "<unit>/call", in columns width wide.
*/
struct per_call {
	double mul, div;
	char unit[16];
	int width;
};


/*
** The per-call unit of P.  Time: the largest of s, ms, us and ns in which
** the smallest non-zero per-call time of any called routine is 1 or more,
** so that every routine that took time shows it with three digits or more
** (gprof's unit, chosen by the largest, shows most of a real program's
** routines as 0.00); ns below that, s when no routine took any time.
** Bytes: B, KB, MB or GB (powers of 1024), the largest that keeps the top
** per-call value at 1 or more; allocations likewise al, Kal, Mal or Gal
** (powers of 1000).
*/
static void per_call_unit(const struct profile *p, struct per_call *pc)
{
	static const char *const times[] = { "s", "ms", "us", "ns" };
	static const char *const bytes[] = { "B", "KB", "MB", "GB" };
	static const char *const allocs[] = { "al", "Kal", "Mal", "Gal" };
	double base = p->metric == PROF_ALLOCS ? 1000.0 : 1024.0;
	double least, top = top_per_call(p, &least);
	int i;

	if (p->metric == PROF_TIME) {
		pc->mul = 1.0;
		pc->div = p->scale;
		for (i = 0; i < 3 && least > 0.0 && least * pc->mul / pc->div < 1.0; i++)
			pc->mul *= 1000.0;
		snprintf(pc->unit, sizeof(pc->unit), "%s/call", times[i]);
	} else {
		pc->mul = 1.0;
		pc->div = 1.0;
		for (i = 0; i < 3 && top >= pc->div * base; i++)
			pc->div *= base;
		snprintf(pc->unit, sizeof(pc->unit), "%s/call",
			 p->metric == PROF_ALLOCS ? allocs[i] : bytes[i]);
	}
	/* gprof's 8 columns, wider if the top value needs it: the unit is for the least. */
	pc->width = snprintf(NULL, 0, "%.2f", top * pc->mul / pc->div);
	if (pc->width < 8)
		pc->width = 8;
}


/*
** The flat profile's first line for a time profile P: what one tick of the
** clock that made the ticks is (gprof's "Each sample counts as 0.01
** seconds."), a sample of the thread's CPU time or a counter's tick read at
** every entry and exit.
*/
static void print_clock(FILE *out, const struct profile *p)
{
	char tick[32];

	gprof_duration(tick, sizeof tick, 1.0 / p->scale);
	switch (p->clock) {
	case AMON_CLOCK_SAMPLE:
		fprintf(out, "\nEach sample counts as %s of the thread's CPU time (sampling at %g Hz).\n",
			tick, p->scale);
		break;
	case AMON_CLOCK_TSC:
		fprintf(out, "\nEach tick counts as %s of wall-clock time (the cycle counter, TSC at "
			"%.3g GHz, read at every entry and exit; nothing sampled).\n", tick,
			p->scale / 1e9);
		break;
	case AMON_CLOCK_CNTVCT:
		fprintf(out, "\nEach tick counts as %s of wall-clock time (the virtual counter, "
			"CNTVCT_EL0 at %.3g MHz, read at every entry and exit; nothing sampled).\n",
			tick, p->scale / 1e6);
		break;
	case AMON_CLOCK_MONOTONIC:
		fprintf(out, "\nEach tick counts as %s of wall-clock time (CLOCK_MONOTONIC, read at "
			"every entry and exit; nothing sampled).\n", tick);
		break;
	default:
		fprintf(out, "\nEach tick counts as %s.\n", tick);
	}
}


/*
** The lines above the rows: the clock's line and the two header lines, in
** gprof's layout for time.  A heap metric names itself over the percentage
** column, P->unit over the value columns, and says what one count is.
** The per-call columns are PC's.
*/
static void print_header(FILE *out, const struct profile *p, const struct per_call *pc,
			 int wider)
{
	static const char *const what[] = {
		[PROF_TIME] = "time", [PROF_BYTES] = "bytes", [PROF_ALLOCS] = "allocs",
		[PROF_KEPT] = "kept", [PROF_PEAK] = "peak",
	};

	if (p->metric == PROF_TIME) {
		print_clock(out, p);
	} else {
		fprintf(out, "\nEach sample counts as 1 %s",
			p->metric == PROF_ALLOCS ? "allocation" : "byte");
		if (p->scale != 1.0)
			fprintf(out, ", shown in %s of %g bytes", p->unit, p->scale);
		fputs(".\n", out);
	}
	if (p->total == 0)
		fprintf(out, " no %s accumulated\n\n", profile_noun(p));
	fprintf(out, "%5.5s %*s %*s %8.8s %*s %*s  %-8.8s\n", "%  ", 10 + wider, "cumulative",
		8 + wider, "self  ", "", pc->width, "self  ", pc->width, "total ", "");
	if (p->metric == PROF_TIME)
		fprintf(out, "%5.5s %*s  %*s %8.8s %*s %*s  %-8.8s\n", "time", 9 + wider, "seconds",
			8 + wider, "seconds", "calls", pc->width, pc->unit, pc->width, pc->unit,
			"name");
	else
		fprintf(out, "%6.6s%*.9s  %*.8s %8.8s %*s %*s  %-8.8s\n", what[p->metric],
			9 + wider, p->unit, 8 + wider, p->unit, "calls", pc->width, pc->unit,
			pc->width, pc->unit, "name");
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
** without the blurb: title, the clock's line, the two header lines, then one
** row per routine O selects (-p, -P, -f, -e, --threshold, -z), by self
** value.  Values in P->unit (P's values / P->scale: seconds for time) with
** profile_decimals(P, O->decimals) decimals, the two value columns widened
** by the decimals beyond gprof's two (so --decimals=2 is gprof's layout);
** "% time" is relative to P->total; the per-call columns are (self) / calls
** and (self + child) / calls in the unit per_call_unit chooses (s, ms, us or
** ns per call for time), widened if their largest value needs it.
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
	print_header(out, p, &pc, wider);

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
			fprintf(out, " %8" PRIu64 " %*.2f %*.2f  ", r->calls, pc.width,
				pc.mul * (double)r->self / pc.div / (double)r->calls, pc.width,
				pc.mul * (double)(r->self + r->child) / pc.div / (double)r->calls);
		else
			fprintf(out, " %8.8s %*s %*s  ", "", pc.width, "", pc.width, "");
		fputs(r->name, out);
		fputc('\n', out);
	}
	free(printed);
	free(rows);
}
