/*
** diff.c -- the --diff tables.  Both profiles' rows are keyed by name
** ("caller -> callee" for arcs), so a rebuilt program, whose addresses all
** moved, still matches; the copies of a static routine have names of
** their own (symbols.h), so each matches its copy.  Rows of equal keys
** (global routines of one name in two modules) are added.
*/
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/report/diff.h"
#include "aprof/util.h"

/* One row: a routine or an arc on each side (0 old, 1 new). */
struct row {
	char *key;           /* routine name, or "caller -> callee", malloc'd */
	uint64_t calls[2];
	double value[2];     /* seconds for time, else bytes or allocations */
};

/* The rows of both sides as they are collected and merged. */
struct rows {
	struct row *r;
	size_t n, cap;
};


/* V of P in the tables' unit: seconds for time, whole units for the heap metrics. */
static double shown(const struct profile *p, uint64_t v)
{
	return p->metric == PROF_TIME ? (double)v / p->scale : (double)v;
}


static void add_row(struct rows *rs, char *key, int side, uint64_t calls, double value)
{
	struct row *r;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 64;
		rs->r = xrealloc(rs->r, rs->cap * sizeof rs->r[0]);
	}
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof *r);
	r->key = key;
	r->calls[side] = calls;
	r->value[side] = value;
}


/* The routines (ARCS 0) or arcs (ARCS 1) of P as rows of SIDE. */
static void collect(struct rows *rs, const struct profile *p, int side, int arcs)
{
	const struct prof_arc *a;
	int i;

	for (i = 0; i < p->nprocs; i++) {
		if (!arcs) {
			add_row(rs, xstrdup(p->procs[i].name), side, p->procs[i].calls,
				shown(p, p->procs[i].self));
			continue;
		}
		for (a = p->procs[i].in; a != NULL; a = a->next_in) {
			const char *from = a->from == PROF_SPONTANEOUS ? "<spontaneous>"
								       : p->procs[a->from].name;
			char *key = xmalloc(strlen(from) + strlen(p->procs[i].name) + 5);

			sprintf(key, "%s -> %s", from, p->procs[i].name);
			add_row(rs, key, side, a->count, shown(p, a->self1 + a->child1));
		}
	}
}


static int row_by_key(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->key, ((const struct row *)b)->key);
}


/* By the absolute change in value, the largest first; then by key. */
static int row_by_change(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	double dx = fabs(x->value[1] - x->value[0]), dy = fabs(y->value[1] - y->value[0]);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->key, y->key);
}


static void print_table(FILE *out, const char *title, const struct profile *p,
			const struct profile *q, int arcs)
{
	struct rows rs = { NULL, 0, 0 };
	const char *unit = p->metric == PROF_TIME ? "seconds" : profile_export_unit(p);
	int places = p->metric == PROF_TIME ? 6 : 0;
	size_t i, k;

	collect(&rs, p, 0, arcs);
	collect(&rs, q, 1, arcs);
	qsort(rs.r, rs.n, sizeof rs.r[0], row_by_key);
	for (i = k = 0; i < rs.n; i++) {
		if (k > 0 && strcmp(rs.r[k - 1].key, rs.r[i].key) == 0) {
			struct row *r = &rs.r[k - 1];

			r->calls[0] += rs.r[i].calls[0];
			r->calls[1] += rs.r[i].calls[1];
			r->value[0] += rs.r[i].value[0];
			r->value[1] += rs.r[i].value[1];
			free(rs.r[i].key);
			continue;
		}
		rs.r[k++] = rs.r[i];
	}
	qsort(rs.r, k, sizeof rs.r[0], row_by_change);
	fprintf(out, "%s: new minus old, %s.\n\n", title, unit);
	fprintf(out, "%12s %10s %12s %12s %10s %10s\n", "change", "change", "old", "new", "old",
		"new");
	fprintf(out, "%12s %10s %12s %12s %10s %10s  %s\n", unit, "calls", unit, unit, "calls",
		"calls", arcs ? "caller -> callee" : "name");
	for (i = 0; i < k; i++) {
		const struct row *r = &rs.r[i];
		double change = r->value[1] - r->value[0];
		char calls[32];

		snprintf(calls, sizeof calls, "%s%" PRIu64, r->calls[1] >= r->calls[0] ? "+" : "-",
			 r->calls[1] >= r->calls[0] ? r->calls[1] - r->calls[0]
						    : r->calls[0] - r->calls[1]);
		fprintf(out, "%+12.*f %10s %12.*f %12.*f %10" PRIu64 " %10" PRIu64 "  %s\n", places,
			change == 0 ? 0.0 : change, calls, places, r->value[0], places, r->value[1],
			r->calls[0], r->calls[1], r->key);
		free(r->key);
	}
	free(rs.r);
}


void diff_print(FILE *out, const struct profile *old_p, const struct profile *new_p)
{
	print_table(out, "Flat profile difference (self)", old_p, new_p, 0);
	fputs("\f\n", out);
	print_table(out, "Call graph difference (arcs: outgoing self1 + child1)", old_p, new_p, 1);
}
