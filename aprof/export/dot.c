/*
** dot.c -- --format=dot: the call graph for Graphviz, drawn as gprof2dot
** draws it (jrfonseca/gprof2dot, DotWriter and its "color" theme): boxes
** coloured from dark blue to red and edges widened by their share of the
** total, but every number exact, not propagated from averages.
*/
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "aprof/export/dot.h"
#include "aprof/util.h"

/* One of gprof2dot's HSL channels (the CSS3 algorithm). */
static double hue2rgb(double m1, double m2, double h)
{
	if (h < 0.0)
		h += 1.0;
	else if (h > 1.0)
		h -= 1.0;
	if (h * 6.0 < 1.0)
		return m1 + (m2 - m1) * h * 6.0;
	if (h * 2.0 < 1.0)
		return m2;
	if (h * 3.0 < 2.0)
		return m1 + (m2 - m1) * (2.0 / 3.0 - h) * 6.0;
	return m1;
}


/*
** gprof2dot's "color" theme: weight W in [0, 1] to "#rrggbb" in OUT, from
** (h, s, l) = (2/3, 0.8, 0.25), dark blue, to (0, 1, 0.5), red, gamma 1.
*/
static void weight_color(double w, char out[8])
{
	double h, s, l, m1, m2, c[3];
	int i, v[3];

	w = w < 0.0 ? 0.0 : (w > 1.0 ? 1.0 : w);
	h = (2.0 / 3.0) * (1.0 - w);
	s = 0.80 + 0.20 * w;
	l = 0.25 + 0.25 * w;
	m2 = l <= 0.5 ? l * (s + 1.0) : l + s - l * s;
	m1 = 2.0 * l - m2;
	c[0] = hue2rgb(m1, m2, h + 1.0 / 3.0);
	c[1] = hue2rgb(m1, m2, h);
	c[2] = hue2rgb(m1, m2, h - 1.0 / 3.0);
	for (i = 0; i < 3; i++)
		v[i] = c[i] <= 0.0 ? 0 : c[i] >= 1.0 ? 255 : (int)(255.0 * c[i] + 0.5);
	snprintf(out, 8, "#%02x%02x%02x", v[0], v[1], v[2]);
}


/* NAME as the inside of a dot string: '"' and '\' escaped. */
static void put_escaped(FILE *out, const char *name)
{
	for (; *name != '\0'; name++) {
		if (*name == '"' || *name == '\\')
			fputc('\\', out);
		fputc(*name, out);
	}
}


/* V's share of P's total, 0 to 1 (0 for an empty profile). */
static double share(const struct profile *p, uint64_t v)
{
	return p->total == 0 ? 0.0 : (double)v / (double)p->total;
}


/* The index of the routine of P whose entry is ADDR (a symbol's address), or -1. */
static int routine_at(const struct profile *p, uint64_t addr)
{
	int r;

	for (r = 0; r < p->nprocs; r++)
		if (p->procs[r].addr == addr)
			return r;
	return -1;
}


/* Appends to the label of arc FROM -> TO each traversed cycle of T[0..N) it lies on. */
static int put_traversals(FILE *out, const struct profile *p, int from, int to,
			  const struct traversal *t, int n)
{
	int x, on = 0;
	uint32_t k;

	for (x = 0; x < n; x++)
		for (k = 0; k < t[x].n; k++)
			if (routine_at(p, t[x].members[k]) == from &&
			    routine_at(p, t[x].members[(k + 1) % t[x].n]) == to) {
				fprintf(out, "\\ncycle %d: %" PRIu64 "\xc3\x97", x + 1, t[x].traversals);
				on = 1;
			}
	return on;
}


/* True if arc A is drawn: both its routines are, and it is not under THRESHOLD. */
static int arc_drawn(const struct profile *p, const struct prof_arc *a, const char *shown,
		     double threshold)
{
	return a->from != PROF_SPONTANEOUS && shown[a->from] && shown[a->to] &&
	       !profile_below(p, a->self1 + a->child1, threshold);
}


/*
** Unsets SHOWN for the routines --threshold cut loose: those that had an
** arc to or from another routine and have no drawn arc left, a box with
** nothing to tell where it sits.  A routine that never had one (a thread's
** start routine that called nothing) stays, and so do they all if no
** other routine would be left (a graph of one box).
*/
static void drop_orphans(const struct profile *p, char *shown, double threshold)
{
	char *linked = xcalloc((size_t)p->nprocs + 1, 1), *drawn = xcalloc((size_t)p->nprocs + 1, 1);
	const struct prof_arc *a;
	int r, left = 0;

	for (r = 0; r < p->nprocs; r++)
		for (a = p->procs[r].out; a != NULL; a = a->next_out) {
			linked[a->from] = linked[a->to] = 1;
			if (arc_drawn(p, a, shown, threshold))
				drawn[a->from] = drawn[a->to] = 1;
		}
	for (r = 0; r < p->nprocs; r++)
		left += shown[r] && (drawn[r] || !linked[r]);
	for (r = 0; r < p->nprocs && left > 0; r++)
		if (linked[r] && !drawn[r])
			shown[r] = 0;
	free(linked);
	free(drawn);
}


void dot_write(FILE *out, const struct profile *p, double threshold, const struct traversal *t,
	       int nt)
{
	const struct prof_arc *a;
	char color[8];
	int r, c, k;
	char *shown = xmalloc((size_t)p->nprocs + 1);

	fputs("digraph {\n\ttooltip=\" \"\n"
	      "\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25];\n"
	      "\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, style=filled, "
	      "width=0];\n\tedge [fontname=Arial];\n", out);
	for (r = 0; r < p->nprocs; r++)
		shown[r] = !profile_below(p, p->procs[r].self + p->procs[r].child, threshold);
	drop_orphans(p, shown, threshold);
	/* A cycle (gprof's, with its members) as a cluster around them, unless traversed ones are drawn. */
	for (c = 0; c < p->ncycles && t == NULL; c++) {
		fprintf(out, "\tsubgraph cluster_cycle%d {\n\t\tlabel=\"<cycle %d>\"; "
			"style=dashed;\n", p->cycles[c].number, p->cycles[c].number);
		for (k = 0; k < p->cycles[c].nmembers; k++)
			if (shown[p->cycles[c].members[k]])
				fprintf(out, "\t\tn%d;\n", p->cycles[c].members[k]);
		fputs("\t}\n", out);
	}
	for (r = 0; r < p->nprocs; r++) {
		const struct prof_proc *f = &p->procs[r];
		double w = share(p, f->self + f->child);

		if (!shown[r])
			continue;
		weight_color(w, color);
		fprintf(out, "\tn%d [color=\"%s\", fontcolor=\"#ffffff\", fontsize=\"10.00\", "
			"label=\"", r, color);
		put_escaped(out, f->name);
		fprintf(out, "\\n%.2f%%\\n(%.2f%%)\\n%" PRIu64 "\xc3\x97\"];\n", 100.0 * w,
			100.0 * share(p, f->self), f->calls);
	}
	for (r = 0; r < p->nprocs; r++)
		for (a = p->procs[r].out; a != NULL; a = a->next_out) {
			uint64_t v = a->self1 + a->child1;
			double w = share(p, v), pen = 4.0 * w < 0.5 ? 0.5 : 4.0 * w;

			if (!arc_drawn(p, a, shown, threshold))
				continue;
			weight_color(w, color);
			fprintf(out, "\tn%d -> n%d [arrowsize=\"%.2f\", color=\"%s\", "
				"fontcolor=\"%s\", fontsize=\"10.00\", label=\"%.6g %s\\n%.2f%%\\n%"
				PRIu64 "\xc3\x97", a->from, a->to, 0.5 * sqrt(pen), color, color,
				(double)v / p->scale, p->unit, 100.0 * w, a->count);
			fprintf(out, "\", labeldistance=\"%.2f\", penwidth=\"%.2f\"%s];\n", pen, pen,
				put_traversals(out, p, a->from, a->to, t, nt) ? ", style=dashed" : "");
		}
	fputs("}\n", out);
	free(shown);
}
