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

#include "aprof/dot.h"

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


void dot_write(FILE *out, const struct profile *p)
{
	const struct prof_arc *a;
	char color[8];
	int r, c, k;

	fputs("digraph {\n\ttooltip=\" \"\n"
	      "\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25];\n"
	      "\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, style=filled, "
	      "width=0];\n\tedge [fontname=Arial];\n", out);
	/* A cycle (gprof's, with its members) as a cluster around them. */
	for (c = 0; c < p->ncycles; c++) {
		fprintf(out, "\tsubgraph cluster_cycle%d {\n\t\tlabel=\"<cycle %d>\"; "
			"style=dashed;\n", p->cycles[c].number, p->cycles[c].number);
		for (k = 0; k < p->cycles[c].nmembers; k++)
			fprintf(out, "\t\tn%d;\n", p->cycles[c].members[k]);
		fputs("\t}\n", out);
	}
	for (r = 0; r < p->nprocs; r++) {
		const struct prof_proc *f = &p->procs[r];
		double w = share(p, f->self + f->child);

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

			weight_color(w, color);
			fprintf(out, "\tn%d -> n%d [arrowsize=\"%.2f\", color=\"%s\", "
				"fontcolor=\"%s\", fontsize=\"10.00\", label=\"%.6g %s\\n%.2f%%\\n%"
				PRIu64 "\xc3\x97\", labeldistance=\"%.2f\", penwidth=\"%.2f\"];\n",
				a->from, a->to, 0.5 * sqrt(pen), color, color, (double)v / p->scale,
				p->unit, 100.0 * w, a->count, pen, pen);
		}
	fputs("}\n", out);
}
