/*
** contexts.c -- the context listing (-S).
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/contexts.h"
#include "aprof/util.h"

/* A context with its position in the listing, for merging equal histories. */
struct entry {
	const struct amon_context_info *c;
	size_t order;
	uint64_t calls, rec, ticks;   /* summed over the threads that share the history */
};


static int history_cmp(const struct amon_context_info *x, const struct amon_context_info *y)
{
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return memcmp(x->history, y->history, x->depth * sizeof x->history[0]);
}


static int entry_by_history(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int r = history_cmp(x->c, y->c);

	return r != 0 ? r : (x->order < y->order ? -1 : x->order > y->order);
}


static int entry_by_order(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}


void contexts_print_history(FILE *out, const struct amon_context_info *c,
			    const struct amon_data *d, const struct symbols *syms)
{
	uint32_t k;

	if (c->depth == 0) {
		fputs("<no routine active>", out);
		return;
	}
	for (k = 0; k < c->depth; k++) {
		char *name = symbols_name(syms, d, AMON_ADDR(c->history[k]));
		int marked = AMON_MARKED(c->history[k]);

		fprintf(out, "%s%s%s%s", k > 0 ? " > " : "", marked ? "" : "(", name,
			marked ? "" : ")");
		free(name);
	}
}


void contexts_print(FILE *out, const struct amon_data *d, const struct symbols *syms)
{
	struct entry *e;
	size_t n = 0, i, k;
	int t;

	for (t = 0; t < d->nthreads; t++)
		n += d->threads[t].ncontexts;
	e = xmalloc(n * sizeof e[0]);
	for (t = 0, n = 0; t < d->nthreads; t++)
		for (i = 0; i < d->threads[t].ncontexts; i++) {
			e[n].c = &d->threads[t].contexts[i];
			e[n].order = n;
			e[n].calls = e[n].c->calls;
			e[n].rec = e[n].c->rec;
			e[n].ticks = e[n].c->ticks;
			n++;
		}
	/* Merge equal histories into a copy each, keeping the first one's place. */
	qsort(e, n, sizeof e[0], entry_by_history);
	fprintf(out, "Contexts:\n\n");
	fprintf(out, " %-6s %12s %12s %11s  %s\n", "number", "calls", "recursive", "seconds",
		"history");
	for (i = k = 0; i < n; i++) {
		if (k > 0 && history_cmp(e[k - 1].c, e[i].c) == 0) {
			e[k - 1].calls += e[i].calls;
			e[k - 1].rec += e[i].rec;
			e[k - 1].ticks += e[i].ticks;
			continue;
		}
		e[k++] = e[i];
	}
	qsort(e, k, sizeof e[0], entry_by_order);
	for (i = 0; i < k; i++) {
		fprintf(out, " %-6zu %12" PRIu64 " %12" PRIu64 " %11.6f  ", i + 1, e[i].calls, e[i].rec,
			(double)e[i].ticks / d->header.ticks_per_second);
		contexts_print_history(out, e[i].c, d, syms);
		fputc('\n', out);
	}
	fprintf(out, "\n%zu contexts.  An entry in parentheses is unmarked (Spivey's m_i = F):\n"
		"an older activation kept only to give its neighbours their arcs.\n", k);
	free(e);
}
