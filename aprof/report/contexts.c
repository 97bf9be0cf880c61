/*
** contexts.c -- the context listing (-S).
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/report/contexts.h"
#include "aprof/model/merge.h"
#include "aprof/util.h"

/* A context with its position in the listing, for merging equal histories. */
struct entry {
	struct history_item key;
	uint64_t calls, rec, ticks;   /* summed over the threads that share the history */
};


static void entry_add(void *into, const void *from)
{
	struct entry *x = into;
	const struct entry *y = from;

	x->calls += y->calls;
	x->rec += y->rec;
	x->ticks += y->ticks;
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
	struct amon_each each = AMON_EACH(d);
	const struct amon_context_info *c;
	struct entry *e = xmalloc((amon_ncontexts(d) + 1) * sizeof e[0]);
	size_t n = 0, i, k;

	while ((c = amon_each_next(&each)) != NULL) {
		struct entry x = { { c, n }, c->calls, c->rec, c->ticks };

		e[n++] = x;
	}
	k = histories_merge(e, n, sizeof e[0], entry_add);
	fprintf(out, "Contexts:\n\n");
	fprintf(out, " %-6s %12s %12s %11s  %s\n", "number", "calls", "recursive", "seconds",
		"history");
	for (i = 0; i < k; i++) {
		fprintf(out, " %-6zu %12" PRIu64 " %12" PRIu64 " %11.6f  ", i + 1, e[i].calls, e[i].rec,
			(double)e[i].ticks / d->header.ticks_per_second);
		contexts_print_history(out, e[i].key.c, d, syms);
		fputc('\n', out);
	}
	fprintf(out, "\n%zu contexts.  An entry in parentheses is unmarked (Spivey's m_i = F):\n"
		"an older activation kept only to give its neighbours their arcs.\n", k);
	free(e);
}
