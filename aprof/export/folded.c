/*
** folded.c -- --format=folded: folded stacks, one line per context path,
** the input of flamegraph.pl, speedscope and inferno (Brendan Gregg's
** FlameGraph, stackcollapse output).  A context's history is a partial copy
** of its call stack, so each becomes one stack with its exact self value;
** the tools add the widths up.
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/export/folded.h"
#include "aprof/util.h"

/* One stack: a context's routines from the outermost, and its value. */
struct stack {
	char *path;     /* "main;a;work", malloc'd */
	uint64_t value; /* in the profile's metric, summed over equal paths */
};


static int stack_cmp(const void *a, const void *b)
{
	return strcmp(((const struct stack *)a)->path, ((const struct stack *)b)->path);
}


/*
** The path of C: its routines' names joined by ';', a ';' inside a name
** (no tool has an escape for it) written as ':'.
*/
static char *stack_path(const struct amon_context_info *c, const struct profile *p)
{
	size_t len = 0, k;
	char *path, *s;

	for (k = 0; k < c->depth; k++)
		len += strlen(p->procs[profile_routine(p, c->history[k])].name) + 1;
	path = s = xmalloc(len);
	for (k = 0; k < c->depth; k++) {
		const char *name = p->procs[profile_routine(p, c->history[k])].name;

		if (k > 0)
			*s++ = ';';
		for (; *name != '\0'; name++)
			*s++ = *name == ';' ? ':' : *name;
	}
	*s = '\0';
	return path;
}


/*
** The stacks of D's contexts (the root, charged to no routine, left out),
** equal paths merged, sorted by path; their number in *N.
*/
static struct stack *stacks(const struct amon_data *d, const struct profile *p, size_t *n)
{
	struct stack *st;
	struct amon_each e = AMON_EACH(d);
	const struct amon_context_info *c;
	size_t total = amon_ncontexts(d), i, k = 0;

	st = xmalloc((total + 1) * sizeof st[0]);
	while ((c = amon_each_next(&e)) != NULL) {
		if (c->depth == 0)
			continue;
		st[k].path = stack_path(c, p);
		st[k++].value = profile_value(c, p->metric);
	}
	qsort(st, k, sizeof st[0], stack_cmp);
	for (i = total = 0; i < k; i++) {
		if (total > 0 && strcmp(st[total - 1].path, st[i].path) == 0) {
			st[total - 1].value += st[i].value;
			free(st[i].path);
			continue;
		}
		st[total++] = st[i];
	}
	*n = total;
	return st;
}


static void stacks_free(struct stack *st, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(st[i].path);
	free(st);
}


void folded_write(FILE *out, const struct amon_data *d, const struct profile *p)
{
	size_t n, i;
	struct stack *st = stacks(d, p, &n);
	uint64_t running = 0;

	for (i = 0; i < n; i++)
		fprintf(out, "%s %" PRIu64 "\n", st[i].path, profile_export(p, st[i].value, &running));
	stacks_free(st, n);
}


void folded_diff(FILE *out, const struct amon_data *old_d, const struct profile *old_p,
		 const struct amon_data *new_d, const struct profile *new_p)
{
	size_t nx, ny, i = 0, j = 0;
	struct stack *x = stacks(old_d, old_p, &nx), *y = stacks(new_d, new_p, &ny);
	uint64_t rx = 0, ry = 0;

	/* The union of both sides' paths, in order; a path missing on one side counts 0. */
	while (i < nx || j < ny) {
		int c = i == nx ? 1 : j == ny ? -1 : strcmp(x[i].path, y[j].path);
		uint64_t vx = c <= 0 ? profile_export(old_p, x[i].value, &rx) : 0;
		uint64_t vy = c >= 0 ? profile_export(new_p, y[j].value, &ry) : 0;

		fprintf(out, "%s %" PRIu64 " %" PRIu64 "\n", c <= 0 ? x[i].path : y[j].path, vx, vy);
		i += c <= 0;
		j += c >= 0;
	}
	stacks_free(x, nx);
	stacks_free(y, ny);
}
