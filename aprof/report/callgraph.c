/*
** callgraph.c -- the call graph and its index by function name in GNU gprof
** 2.40's layout (gprof/cg_print.c), in the order, with the indexes and print
** flags, that order.c computed once for both (gprof/cg_arcs.c).  The numbers are aprof's, not
** gprof's propagated shares: a routine's exact self and children times,
** on a parent line the times of the arc into the routine (self2/child2),
** on a child line those of the arc out of it (self1/child1).
*/
#include <config.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/report/callgraph.h"
#include "aprof/report/order.h"
#include "aprof/util.h"

/* The line that ends every entry (cg_print). */
#define CG_RULE "-----------------------------------------------\n"

/* gprof's default output width (-w); the index has three columns of it. */
#define INDEX_WIDTH 80

/* What the printers share: the profile, the options, the order, the columns. */
struct cg {
	const struct profile *p;
	const struct report_options *o;
	const struct order *ord;  /* entries, their indexes and print flags (order.c) */
	int dec;                  /* decimals of the value columns (profile_decimals) */
	int width;                /* their width: gprof's 7, plus the decimals beyond 2 */
};


/* One parent or child line: an arc and its sort keys (cmp_arc). */
struct cg_line {
	const struct prof_arc *arc;
	int other;          /* the routine at the other end */
	int index;          /* its call-graph index */
	int intra;          /* an arc between two members of one cycle */
	uint64_t time;      /* the arc's self + children for this side */
};


/* A cycle member and its sort keys (cmp_member). */
struct cg_member {
	int proc;
	int pos;            /* position in the cycle's member list */
	uint64_t time;      /* self + child */
	uint64_t calls;     /* calls + rec */
};


/*
** gprof's cmp_arc in parent order (ascending): arcs within a cycle first, by
** count; then the others by time, then count.  Remaining ties put the
** routine with the smaller index (the bigger one) last, next to the
** primary line.  Child lines are printed in the reverse order.
*/
static int cmp_line(const void *lp, const void *rp)
{
	const struct cg_line *l = lp;
	const struct cg_line *r = rp;

	if (l->intra != r->intra)
		return l->intra ? -1 : 1;
	if (!l->intra && l->time != r->time)
		return l->time < r->time ? -1 : 1;
	if (l->arc->count != r->arc->count)
		return l->arc->count < r->arc->count ? -1 : 1;
	return r->index - l->index;
}


/* gprof's cmp_member: time descending, then calls descending, then as listed. */
static int cmp_member(const void *lp, const void *rp)
{
	const struct cg_member *l = lp;
	const struct cg_member *r = rp;

	if (l->time != r->time)
		return l->time < r->time ? 1 : -1;
	if (l->calls != r->calls)
		return l->calls < r->calls ? 1 : -1;
	return l->pos - r->pos;
}


/*
** False if R gets no entry for lack of calls and time, -z being off
** (cg_print); with O->charged_only, for lack of time (or bytes) alone.
*/
static int proc_nonzero(const struct prof_proc *r, const struct report_options *o)
{
	if (o->charged_only)
		return r->self != 0 || r->child != 0;
	return o->zero || r->calls != 0 || r->rec != 0 || r->self != 0 || r->child != 0;
}


/* The same for cycle C. */
static int cycle_nonzero(const struct prof_cycle *c, const struct report_options *o)
{
	if (o->charged_only)
		return c->self != 0 || c->child != 0;
	return o->zero || c->calls != 0 || c->internal != 0 || c->self != 0 || c->child != 0;
}


/* "name[ <cycle N>] [i]", or "(i)" if hidden, as gprof's print_name. */
static void print_name(FILE *out, const struct cg *g, int proc)
{
	const struct prof_proc *r = &g->p->procs[proc];

	fputs(r->name, out);
	if (r->cycle != 0)
		fprintf(out, " <cycle %d>", r->cycle);
	fprintf(out, g->ord->proc_shown[proc] ? " [%d]" : " (%d)", g->ord->proc_index[proc]);
}


/* gprof's self-call line: a bare count of PROC's direct recursive calls. */
static void print_rec_line(FILE *out, const struct cg *g, int proc)
{
	fprintf(out, "%6.6s %5.5s %*s %*s %7" PRIu64 " %7.7s     ",
		"", "", g->width, "", g->width, "", g->p->procs[proc].rec, "");
	print_name(out, g, proc);
	fputc('\n', out);
}


/*
** The parent or child line of L: SELF and CHILD in the profile's unit, then the
** arc's count/TOTAL, or its bare count for an arc within a cycle, then the
** routine at the other end.
*/
static void print_arc_line(FILE *out, const struct cg *g, uint64_t self, uint64_t child,
			   const struct cg_line *l, uint64_t total)
{
	double hz = g->p->scale;

	fprintf(out, "%6.6s %5.5s %*.*f %*.*f %7" PRIu64, "", "", g->width, g->dec,
		(double)self / hz, g->width, g->dec, (double)child / hz, l->arc->count);
	if (l->intra)
		fprintf(out, " %7.7s     ", "");
	else
		fprintf(out, "/%-7" PRIu64 "     ", total);
	print_name(out, g, l->other);
	fputc('\n', out);
}


/*
** Collects the arcs of routine PROC into *LINES, sorted in parent order:
** the arcs into it (PARENTS) or out of it.  Leaves out the spontaneous arc
** (sets *SPONT), any arc from PROC to itself, with charged_only any arc
** charged nothing on this side, and any under --threshold on this side.  Returns their number.
*/
static int collect_lines(const struct cg *g, int proc, int parents, struct cg_line **lines,
			 int *spont)
{
	const struct prof_proc *r = &g->p->procs[proc];
	const struct prof_arc *a;
	int n = 0;

	*spont = 0;
	for (a = parents ? r->in : r->out; a != NULL; a = parents ? a->next_in : a->next_out)
		n++;
	*lines = xmalloc((size_t)n * sizeof(**lines));
	n = 0;
	for (a = parents ? r->in : r->out; a != NULL; a = parents ? a->next_in : a->next_out) {
		struct cg_line *l = &(*lines)[n];
		uint64_t time = parents ? a->self2 + a->child2 : a->self1 + a->child1;

		if ((g->o->charged_only && time == 0) || profile_below(g->p, time, g->o->threshold))
			continue;
		if (a->from == PROF_SPONTANEOUS) {
			*spont = 1;
			continue;
		}
		if (a->from == a->to)
			continue;
		l->arc = a;
		l->other = parents ? a->from : a->to;
		l->index = g->ord->proc_index[l->other];
		l->intra = order_same_cycle(g->p, a->from, a->to);
		l->time = time;
		n++;
	}
	qsort(*lines, (size_t)n, sizeof(**lines), cmp_line);
	return n;
}


/*
** The lines above PROC's primary line (print_parents): <spontaneous> if it
** was entered with no caller (or has no parent at all), its self-call line,
** then its callers, biggest last, with the incoming times self2/child2 and
** count/calls, calls being those of PROC's cycle if it is in one.
*/
static void print_parents(FILE *out, const struct cg *g, int proc)
{
	const struct prof_proc *r = &g->p->procs[proc];
	const struct prof_cycle *c = order_cycle_of(g->ord, g->p, proc);
	struct cg_line *lines;
	int spont, i;
	int n = collect_lines(g, proc, 1, &lines, &spont);

	if (spont || (n == 0 && r->rec == 0))
		fprintf(out, "%6.6s %5.5s %*s %*s %7.7s %7.7s     <spontaneous>\n",
			"", "", g->width, "", g->width, "", "", "");
	if (r->rec != 0)
		print_rec_line(out, g, proc);
	for (i = 0; i < n; i++)
		print_arc_line(out, g, lines[i].arc->self2, lines[i].arc->child2, &lines[i],
			       c != NULL ? c->calls : r->calls);
	free(lines);
}


/*
** The lines below PROC's primary line (print_children): its callees,
** biggest first, with the outgoing times self1/child1 and count/calls of
** the callee (of its cycle if PROC is outside it), then its self-call line.
*/
static void print_children(FILE *out, const struct cg *g, int proc)
{
	struct cg_line *lines;
	int spont, i;
	int n = collect_lines(g, proc, 0, &lines, &spont);

	for (i = n - 1; i >= 0; i--) {
		const struct prof_arc *a = lines[i].arc;
		const struct prof_cycle *c = order_cycle_of(g->ord, g->p, a->to);

		print_arc_line(out, g, a->self1, a->child1, &lines[i],
			       c != NULL ? c->calls : g->p->procs[a->to].calls);
	}
	if (g->p->procs[proc].rec != 0)
		print_rec_line(out, g, proc);
	free(lines);
}


/* The percentage of the profile's total V is (cg_print's print_time). */
static double percent(const struct profile *p, uint64_t v)
{
	return 100.0 * (double)v / (p->total > 0 ? (double)p->total : 1.0);
}


/* PROC's primary line (print_line): [i], % time, self, children, called, name. */
static void print_primary(FILE *out, const struct cg *g, int proc)
{
	const struct prof_proc *r = &g->p->procs[proc];
	double hz = g->p->scale;
	char buf[16];

	snprintf(buf, sizeof(buf), "[%d]", g->ord->proc_index[proc]);
	fprintf(out, "%-6.6s %5.1f %*.*f %*.*f", buf, percent(g->p, r->self + r->child),
		g->width, g->dec, (double)r->self / hz, g->width, g->dec, (double)r->child / hz);
	if (r->calls + r->rec != 0) {
		fprintf(out, " %7" PRIu64, r->calls);
		if (r->rec != 0)
			fprintf(out, "+%-7" PRIu64 " ", r->rec);
		else
			fprintf(out, " %7.7s ", "");
	} else {
		fprintf(out, " %7.7s %7.7s ", "", "");
	}
	print_name(out, g, proc);
	fputc('\n', out);
}


/*
** The entry of cycle K as a whole (print_cycle, print_members): its header
** line, then one line per member, biggest first, with the member's times,
** calls and direct recursive calls.
*/
static void print_cycle(FILE *out, const struct cg *g, int k)
{
	const struct prof_cycle *c = &g->p->cycles[k];
	double hz = g->p->scale;
	struct cg_member *mem = xmalloc((size_t)c->nmembers * sizeof(*mem));
	char buf[16];
	int m;

	snprintf(buf, sizeof(buf), "[%d]", g->ord->cycle_index[k]);
	fprintf(out, "%-6.6s %5.1f %*.*f %*.*f %7" PRIu64, buf, percent(g->p, c->self + c->child),
		g->width, g->dec, (double)c->self / hz, g->width, g->dec, (double)c->child / hz,
		c->calls);
	if (c->internal != 0)
		fprintf(out, "+%-7" PRIu64, c->internal);
	else
		fprintf(out, " %7.7s", "");
	fprintf(out, " <cycle %d as a whole> [%d]\n", c->number, g->ord->cycle_index[k]);

	for (m = 0; m < c->nmembers; m++) {
		const struct prof_proc *r = &g->p->procs[c->members[m]];

		mem[m].proc = c->members[m];
		mem[m].pos = m;
		mem[m].time = r->self + r->child;
		mem[m].calls = r->calls + r->rec;
	}
	qsort(mem, (size_t)c->nmembers, sizeof(*mem), cmp_member);
	for (m = 0; m < c->nmembers; m++) {
		const struct prof_proc *r = &g->p->procs[mem[m].proc];

		fprintf(out, "%6.6s %5.5s %*.*f %*.*f %7" PRIu64, "", "", g->width, g->dec,
			(double)r->self / hz, g->width, g->dec, (double)r->child / hz, r->calls);
		if (r->rec != 0)
			fprintf(out, "+%-7" PRIu64, r->rec);
		else
			fprintf(out, " %7.7s", "");
		fputs("     ", out);
		print_name(out, g, mem[m].proc);
		fputc('\n', out);
	}
	free(mem);
}


/*
** Prints P's call graph on OUT in gprof 2.40's layout (cg_print.c cg_print,
** print_header), without the blurb.  The title says "(explanation follows)"
** unless O->brief.  The granularity line gives 100 / P->total as the
** percentage of one sample (byte, allocation), or the tick of a counter
** read at every entry and exit, and P->total in P->unit, or "no time
** propagated" ("no bytes propagated"...).  For a heap metric the
** header's "% time" is a bare "%", which gprof2dot also accepts.  Values
** have profile_decimals(P, O->decimals) decimals, their columns (and the
** header's "self" and "children") widened by the decimals beyond gprof's
** two: --decimals=2 is gprof's layout byte for byte; gprof2dot reads any.
** Entries come in cmp_total order; -z, -q and -Q select them as in gprof.
** A cycle's entry has no parent lines, as in gprof: its callers are on its
** members' entries.  Dies only if P names a cycle it does not have.
*/
/* The printers' view of P under O in order ORD. */
static struct cg cg_of(const struct profile *p, const struct report_options *o,
		       const struct order *ord)
{
	struct cg g;

	g.p = p;
	g.o = o;
	g.ord = ord;
	g.dec = profile_decimals(p, o->decimals);
	g.width = 7 + (g.dec > 2 ? g.dec - 2 : 0);
	return g;
}


/*
** The line under the call graph's title: gprof's "granularity: each sample
** hit covers 1 byte(s) for 1.04% of 0.96 seconds", or " no time
** propagated".  In time, not gprof's words, which are about its histogram
** of addresses, but what one tick is: a sample's share of the total, or a
** counter's tick, read at every entry and exit, which is no share.
*/
static void print_granularity(FILE *out, const struct cg *g)
{
	const struct profile *p = g->p;
	char tick[32];

	if (p->metric != PROF_TIME) {
		fputs("\ngranularity: each sample hit covers 1 byte(s)", out);
	} else {
		gprof_duration(tick, sizeof tick, 1.0 / p->scale);
		if (p->clock == AMON_CLOCK_SAMPLE)
			fprintf(out, "\ngranularity: each sample, %s,", tick);
		else
			fprintf(out, "\ngranularity: each entry and exit timed, to %s,", tick);
	}
	if (p->total == 0)
		fprintf(out, " no %s propagated\n\n", profile_noun(p));
	else if (p->metric != PROF_TIME || p->clock == AMON_CLOCK_SAMPLE)
		fprintf(out, " %s %.2f%% of %.*f %s\n\n", p->metric != PROF_TIME ? "for" : "is",
			100.0 / (double)p->total, g->dec, (double)p->total / p->scale, p->unit);
	else
		fprintf(out, " of %.*f %s\n\n", g->dec, (double)p->total / p->scale, p->unit);
}


void callgraph_print(FILE *out, const struct profile *p, const struct report_options *o,
		     const struct order *ord)
{
	struct cg g = cg_of(p, o, ord);
	int i;

	fputs(o->brief ? "\t\t\tCall graph\n\n" : "\t\t     Call graph (explanation follows)\n\n",
	      out);
	print_granularity(out, &g);
	/* gprof's header, its "self" and "children" moved right with their columns. */
	fprintf(out, "%s%*s%*s    called     name\n",
		p->metric == PROF_TIME ? "index % time" : "index      %", g.width + 1, "self",
		g.width + 3, "children");

	for (i = 0; i < g.ord->nentries; i++) {
		const struct cg_entry *e = &g.ord->entries[i];

		if (e->proc < 0) {
			if (!g.ord->cycle_shown[e->cyc] || !cycle_nonzero(&p->cycles[e->cyc], o))
				continue;
			print_cycle(out, &g, e->cyc);
		} else {
			if (!g.ord->proc_shown[e->proc] || !proc_nonzero(&p->procs[e->proc], o))
				continue;
			print_parents(out, &g, e->proc);
			print_primary(out, &g, e->proc);
			print_children(out, &g, e->proc);
		}
		fputs(CG_RULE, out);
	}
}


/* Routine names in strcmp order, then by index (cg_print.c cmp_name). */
static int cmp_name(const void *lp, const void *rp)
{
	const struct prof_proc *l = *(const struct prof_proc *const *)lp;
	const struct prof_proc *r = *(const struct prof_proc *const *)rp;
	int c = strcmp(l->name, r->name);

	return c != 0 ? c : (l > r) - (l < r);
}


/*
** Prints the index by function name on OUT in gprof 2.40's layout
** (cg_print.c cg_print_index): "\f", the title, then the routines that
** were called or charged (all with -z) sorted by name, then the cycles as
** "<cycle N>", filled column by column into three columns of
** (80 - 1) / 3 characters.  Each item is padded to its column start + 5
** counting only the width of "[i]" (gprof's quirk), then " [i] " and the
** name; "(i)" marks an entry -q/-Q hid.  Dies only as callgraph_print.
*/
void callgraph_index(FILE *out, const struct profile *p, const struct report_options *o,
		     const struct order *ord)
{
	const int column_width = (INDEX_WIDTH - 1) / 3;
	const struct prof_proc **names = xmalloc((size_t)p->nprocs * sizeof(*names));
	int *cycles = xmalloc((size_t)p->ncycles * sizeof(*cycles));
	struct cg g = cg_of(p, o, ord);
	int nnames = 0, ncycles = 0, todo, rows, i, j, k;

	for (i = 0; i < p->nprocs; i++)
		if (o->zero || p->procs[i].calls != 0 || p->procs[i].self != 0)
			names[nnames++] = &p->procs[i];
	qsort(names, (size_t)nnames, sizeof(*names), cmp_name);
	for (k = 1; k <= g.ord->max_cycle; k++)
		if (g.ord->cycle_pos[k] >= 0)
			cycles[ncycles++] = g.ord->cycle_pos[k];
	todo = nnames + ncycles;

	fputs("\f\nIndex by function name\n\n", out);
	rows = (todo + 2) / 3;
	for (i = 0; i < rows; i++) {
		int col = 0, start = 0;

		for (j = i; j < todo; j += rows) {
			char buf[32];
			int shown, index;

			if (j < nnames) {
				int proc = (int)(names[j] - p->procs);

				shown = g.ord->proc_shown[proc];
				index = g.ord->proc_index[proc];
			} else {
				shown = g.ord->cycle_shown[cycles[j - nnames]];
				index = g.ord->cycle_index[cycles[j - nnames]];
			}
			snprintf(buf, sizeof(buf), shown ? "[%d]" : "(%d)", index);
			col += (int)strlen(buf);
			for (; col < start + 5; col++)
				fputc(' ', out);
			fprintf(out, " %s ", buf);
			if (j < nnames) {
				fputs(names[j]->name, out);
				col += (int)strlen(names[j]->name);
			} else {
				snprintf(buf, sizeof(buf), "<cycle %d>",
					 p->cycles[cycles[j - nnames]].number);
				fputs(buf, out);
				col += (int)strlen(buf);
			}
			start += column_width;
		}
		fputc('\n', out);
	}
	free(cycles);
	free(names);
}
