/*
** select.c -- the selection stage (-F, -E, --elide): amon.out's contexts in,
** the contexts the reports are to see out, in the same shape.
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/model/merge.h"
#include "aprof/model/select.h"
#include "aprof/util.h"

/* What S says of one routine address. */
enum { FOCUSED = 1, EXCLUDED = 2, ELIDED = 4 };

/* Every distinct address of the histories, sorted, with its flags. */
struct flags_map {
	uint64_t *addr;
	unsigned char *flags;
	size_t n;
};

/* A context of the new thread, for merging equal histories. */
struct item {
	struct history_item key;      /* key.c: the context in the new array */
	size_t index;                 /* its place there */
	struct amon_context_info *all; /* the new array */
};


int select_any(const struct selection *s)
{
	return s->focus.n > 0 || s->exclude.n > 0 || s->elide.n > 0;
}


static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}


/* True if the routine at ADDR matches SPEC: by its symbol, else by its printed name. */
static int matches(const struct symspec *spec, const struct symbols *syms,
		   const struct amon_data *d, uint64_t addr)
{
	const struct symbol *sym;
	char *name;
	int r;

	if (spec->n == 0)
		return 0;
	sym = symbols_find(syms, d, addr);
	if (sym != NULL)
		return symspec_has_symbol(spec, syms, sym);
	name = symbols_name(syms, d, addr);
	r = symspec_has(spec, name, NULL);
	free(name);
	return r;
}


static void map_flags(struct flags_map *m, const struct amon_data *d, const struct symbols *syms,
		      const struct selection *s)
{
	size_t i;

	m->addr = histories_addresses(d, &m->n);
	m->flags = xmalloc(m->n + 1);
	for (i = 0; i < m->n; i++)
		m->flags[i] = (unsigned char)((matches(&s->focus, syms, d, m->addr[i]) ? FOCUSED : 0) |
					      (matches(&s->exclude, syms, d, m->addr[i]) ? EXCLUDED : 0) |
					      (matches(&s->elide, syms, d, m->addr[i]) ? ELIDED : 0));
}


static unsigned flags_of(const struct flags_map *m, uint64_t addr)
{
	const uint64_t *p = bsearch(&addr, m->addr, m->n, sizeof m->addr[0], u64_cmp);

	return p != NULL ? m->flags[p - m->addr] : 0;
}


/* True if context C stays: a focused routine in its history (with -F), no excluded one. */
static int kept(const struct amon_context_info *c, const struct flags_map *m,
		const struct selection *s)
{
	unsigned all = 0;
	uint32_t k;

	for (k = 0; k < c->depth; k++)
		all |= flags_of(m, AMON_ADDR(c->history[k]));
	if (s->focus.n > 0 && !(all & FOCUSED))
		return 0;
	return !(all & EXCLUDED);
}


/*
** Writes C's history without its elided routines into H (room for
** C->depth entries) and its counters into *OUT, as select_contexts says.
*/
static void elide(struct amon_context_info *out, uint64_t *h, const struct amon_context_info *c,
		  const struct flags_map *m)
{
	uint32_t k, n = 0;
	int running_elided = 0, collapsed = 0;

	*out = *c;
	for (k = 0; k < c->depth; k++) {
		uint64_t e = c->history[k];

		if (flags_of(m, AMON_ADDR(e)) & ELIDED) {
			running_elided = k + 1 == c->depth;
			continue;
		}
		if (n > 0 && AMON_ADDR(h[n - 1]) == AMON_ADDR(e)) {
			/* The same routine twice in a row: one entry, marked if either was. */
			h[n - 1] |= e & AMON_MARK;
			collapsed = k + 1 == c->depth;
			continue;
		}
		h[n++] = e;
	}
	out->depth = n;
	out->history = h;
	if (running_elided) {
		out->calls = 0;
		out->rec = 0;
	} else if (collapsed) {
		out->rec += out->calls;
		out->calls = 0;
	}
}


/* Adds context FROM into INTO, their type sites too (select_free frees them). */
static void item_add(void *into, const void *from)
{
	const struct item *x = into, *y = from;

	histories_add(&x->all[x->index], &y->all[y->index]);
	histories_add_sites(&x->all[x->index], &y->all[y->index]);
}


/* Fills TO (a copy of FROM) with the contexts of thread FROM that S keeps. */
static void select_thread(struct amon_thread_info *to, const struct amon_thread_info *from,
			  const struct flags_map *m, const struct selection *s)
{
	size_t words = 0, i, n = 0, used = 0;
	struct item *items;

	for (i = 0; i < from->ncontexts; i++)
		words += from->contexts[i].depth;
	to->contexts = xmalloc((from->ncontexts + 1) * sizeof to->contexts[0]);
	/* Elided histories are new; the others stay where they are, in D's image. */
	to->histories = s->elide.n > 0 ? xmalloc((words + 1) * sizeof to->histories[0]) : NULL;
	for (i = 0; i < from->ncontexts; i++) {
		const struct amon_context_info *c = &from->contexts[i];

		if (!kept(c, m, s))
			continue;
		if (s->elide.n > 0) {
			elide(&to->contexts[n], to->histories + used, c, m);
			used += to->contexts[n].depth;
		} else {
			to->contexts[n] = *c;
		}
		to->contexts[n].sites_owned = 0; /* the sites are the profile's */
		n++;
	}
	if (s->elide.n > 0) { /* histories may now be equal: one context each */
		struct amon_context_info *merged;
		size_t k;

		items = xmalloc((n + 1) * sizeof items[0]);
		for (i = 0; i < n; i++) {
			items[i].key.c = &to->contexts[i];
			items[i].key.order = i;
			items[i].index = i;
			items[i].all = to->contexts;
		}
		k = histories_merge(items, n, sizeof items[0], item_add);
		merged = xmalloc((k + 1) * sizeof merged[0]);
		for (i = 0; i < k; i++)
			merged[i] = to->contexts[items[i].index];
		free(items);
		free(to->contexts);
		to->contexts = merged;
		n = k;
	}
	to->ncontexts = n;
}


struct amon_data *select_contexts(const struct amon_data *d, const struct symbols *syms,
				  const struct selection *s)
{
	struct amon_data *out;
	struct flags_map m;
	int t;

	if (!select_any(s))
		return (struct amon_data *)d;
	map_flags(&m, d, syms, s);
	out = xmalloc(sizeof *out);
	*out = *d;
	out->threads = xmalloc(((size_t)d->nthreads + 1) * sizeof out->threads[0]);
	for (t = 0; t < d->nthreads; t++) {
		out->threads[t] = d->threads[t];
		select_thread(&out->threads[t], &d->threads[t], &m, s);
	}
	free(m.addr);
	free(m.flags);
	return out;
}


void select_free(struct amon_data *out, const struct amon_data *d)
{
	size_t i;
	int t;

	if (out == NULL || out == d)
		return;
	for (t = 0; t < out->nthreads; t++) {
		for (i = 0; i < out->threads[t].ncontexts; i++)
			if (out->threads[t].contexts[i].sites_owned)
				free((void *)out->threads[t].contexts[i].sites);
		free(out->threads[t].contexts);
		free(out->threads[t].histories);
	}
	free(out->threads);
	free(out);
}


/*
** What the routines of D were charged in METRIC: every context but the
** root's.  *N: how many contexts that is.
*/
static uint64_t charged(const struct amon_data *d, enum prof_metric metric, size_t *n)
{
	struct amon_each e = AMON_EACH(d);
	const struct amon_context_info *c;
	uint64_t sum = 0;

	*n = 0;
	while ((c = amon_each_next(&e)) != NULL)
		if (c->depth > 0) {
			sum += profile_value(c, metric);
			(*n)++;
		}
	return sum;
}


/* "a, b, c": the texts of S's items. */
static void print_names(FILE *out, const struct symspec *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		fprintf(out, "%s%s", i > 0 ? ", " : "", s->items[i].text);
}


/* V in METRIC's units as the share line shows it. */
static void print_value(FILE *out, const struct amon_data *d, uint64_t v, enum prof_metric metric)
{
	if (metric == PROF_TIME)
		fprintf(out, "%.6f s", (double)v / d->header.ticks_per_second);
	else
		fprintf(out, "%" PRIu64 " %s", v, metric == PROF_ALLOCS ? "allocations" : "bytes");
}


int select_print_share(FILE *out, const struct amon_data *all, const struct amon_data *kept,
		       const struct selection *s, enum prof_metric metric)
{
	size_t nall, nkept;
	uint64_t total = charged(all, metric, &nall), part = charged(kept, metric, &nkept);

	if (s->focus.n == 0 && s->exclude.n == 0)
		return 1;
	if (s->focus.n > 0) {
		fputs("focus on ", out);
		print_names(out, &s->focus);
	}
	if (s->exclude.n > 0) {
		fputs(s->focus.n > 0 ? ", excluding " : "excluding ", out);
		print_names(out, &s->exclude);
	}
	if (nkept == 0) {
		fputs(": no context kept (no routine was active in one)\n", out);
		return 0;
	}
	fputs(": ", out);
	print_value(out, all, part, metric);
	fputs(" of ", out);
	print_value(out, all, total, metric);
	fprintf(out, ", %.1f%%\n", total > 0 ? 100.0 * (double)part / (double)total : 0.0);
	return 1;
}
