/*
** sum.c -- adding profiles of one executable, context by context.  Each
** file's histories are first moved into the address space of the first
** file, then each thread's contexts are sorted by history and equal ones
** added, so the sum has exactly the contexts of the union.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aprof/model/merge.h"
#include "aprof/model/sum.h"
#include "aprof/util.h"

/* A context being summed: its counters and its history moved into the sum's addresses. */
struct item {
	struct amon_context_info c;
	uint64_t *history;          /* c.depth entries, malloc'd; c.sites moved too, owned */
	size_t order;               /* first appearance, for the listing's order */
};

/* The threads of the sum as they are gathered. */
struct gather {
	struct item *items;
	size_t n;
	struct amon_thread_info info;
};


/* V ticks of a clock at RATE times the sum's rate, in the sum's ticks (rounded). */
static uint64_t rescale(uint64_t v, long double rate)
{
	return (uint64_t)((long double)v * rate + 0.5L);
}


/* True if modules A and B are the same object: equal build-ids, or equal paths without. */
static int same_module(const struct amon_module_info *a, const struct amon_module_info *b)
{
	if (a->build_id_length != 0 || b->build_id_length != 0)
		return a->build_id_length == b->build_id_length &&
		       memcmp(a->build_id, b->build_id, a->build_id_length) == 0;
	return strcmp(a->path, b->path) == 0;
}


/*
** The sum's module for M, added (above every module already there, so
** address ranges never overlap) if new; its index.
*/
static int place_module(struct amon_data *s, const struct amon_module_info *m)
{
	struct amon_module_info *n;
	uint64_t top = 0, shift;
	int k;

	for (k = 0; k < s->nmodules; k++) {
		if (same_module(&s->modules[k], m))
			return k;
		if (s->modules[k].end > top)
			top = s->modules[k].end;
	}
	top = (top + 0xfffff) & ~(uint64_t)0xfffff;
	shift = s->nmodules == 0 || m->start >= top ? 0 : top - m->start;
	s->modules = xrealloc(s->modules, (size_t)(s->nmodules + 1) * sizeof s->modules[0]);
	n = &s->modules[s->nmodules];
	*n = *m;
	n->path = xstrdup(m->path);
	n->load_bias = m->load_bias + shift;
	n->start = m->start + shift;
	n->end = m->end + shift;
	return s->nmodules++;
}


/* ADDR of file D moved to the sum S's addresses (MAP: D's module -> S's). */
static uint64_t move(const struct amon_data *s, const struct amon_data *d, const int *map,
		     uint64_t entry)
{
	uint64_t addr = AMON_ADDR(entry);
	int k;

	for (k = 0; k < d->nmodules; k++)
		if (addr >= d->modules[k].start && addr < d->modules[k].end)
			return addr - d->modules[k].load_bias + s->modules[map[k]].load_bias +
			       (entry & AMON_MARK);
	return entry;
}


static int item_by_history(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int r = histories_cmp(&x->c, &y->c);

	return r != 0 ? r : (x->order < y->order ? -1 : x->order > y->order);
}


static int item_by_order(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return x->order < y->order ? -1 : x->order > y->order;
}


/* Gathers thread TI of file D (ticks times RATE) into G, its histories moved by MAP. */
static void gather_thread(struct gather *g, const struct amon_data *s, const struct amon_data *d,
			  const int *map, const struct amon_thread_info *ti, long double rate)
{
	size_t i;
	uint32_t k;
	struct amon_type_site *sites;

	if (g->n == 0 && g->items == NULL) {
		g->info = *ti;
		g->info.runtime_ticks = rescale(ti->runtime_ticks, rate);
		g->info.entry_cost = g->info.exit_cost = g->info.heap_cost = 0;
		memset(g->info.probes, 0, sizeof g->info.probes);
	} else {
		g->info.flags |= ti->flags;
		g->info.transitions += ti->transitions;
		g->info.resyncs += ti->resyncs;
		g->info.dropped += ti->dropped;
		g->info.unmatched += ti->unmatched;
		g->info.memory += ti->memory;
		g->info.runtime_ticks += rescale(ti->runtime_ticks, rate);
	}
	g->items = xrealloc(g->items, (g->n + ti->ncontexts + 1) * sizeof g->items[0]);
	for (i = 0; i < ti->ncontexts; i++) {
		struct item *it = &g->items[g->n];

		it->c = ti->contexts[i];
		it->c.ticks = rescale(it->c.ticks, rate);
		it->history = xmalloc((it->c.depth + 1) * sizeof it->history[0]);
		for (k = 0; k < it->c.depth; k++)
			it->history[k] = move(s, d, map, ti->contexts[i].history[k]);
		it->c.history = it->history;
		sites = xmalloc((it->c.nsites + 1) * sizeof sites[0]);
		for (k = 0; k < it->c.nsites; k++) {
			int j;

			sites[k] = ti->contexts[i].sites[k];
			for (j = 0; j < AMON_CANDIDATES && sites[k].candidate[j] != 0; j++)
				sites[k].candidate[j] = move(s, d, map, sites[k].candidate[j]);
		}
		it->c.sites = sites;
		it->c.sites_owned = 1;
		it->order = g->n++;
	}
}


/* Makes G's items, equal histories added, into thread T of S. */
static void make_thread(struct amon_data *s, struct gather *g, int t)
{
	struct amon_thread_info *ti = &s->threads[t];
	size_t i, k, words = 0;
	uint64_t *h;

	qsort(g->items, g->n, sizeof g->items[0], item_by_history);
	for (i = k = 0; i < g->n; i++) {
		if (k > 0 && histories_cmp(&g->items[k - 1].c, &g->items[i].c) == 0) {
			histories_add(&g->items[k - 1].c, &g->items[i].c);
			histories_add_sites(&g->items[k - 1].c, &g->items[i].c);
			free(g->items[i].history);
			free((void *)g->items[i].c.sites);
			continue;
		}
		g->items[k++] = g->items[i];
	}
	qsort(g->items, k, sizeof g->items[0], item_by_order);
	*ti = g->info;
	ti->ncontexts = k;
	ti->contexts = xcalloc(k + 1, sizeof ti->contexts[0]);
	for (i = 0; i < k; i++)
		words += g->items[i].c.depth;
	h = ti->histories = xmalloc((words + 1) * sizeof h[0]);
	for (i = 0; i < k; i++) {
		ti->contexts[i] = g->items[i].c;
		memcpy(h, g->items[i].history, g->items[i].c.depth * sizeof h[0]);
		ti->contexts[i].history = h;
		h += g->items[i].c.depth;
		free(g->items[i].history);
	}
	free(g->items);
}


/* Adds file D's heap record into S's (bins merged by size). */
static void add_heap(struct amon_data *s, const struct amon_data *d, long double rate)
{
	struct amon_heap_bin *bins;
	uint32_t i = 0, j = 0, n = 0;
	uint64_t peak_ticks = rescale(d->heap.peak_ticks, rate);

	s->heap.flags |= d->heap.flags;
	s->heap.peak_bytes += d->heap.peak_bytes;
	if (peak_ticks > s->heap.peak_ticks)
		s->heap.peak_ticks = peak_ticks;
	s->heap.untracked += d->heap.untracked;
	bins = xcalloc((size_t)s->heap.nbins + d->heap.nbins + 1, sizeof bins[0]);
	while (i < s->heap.nbins || j < d->heap.nbins) {
		const struct amon_heap_bin *x = i < s->heap.nbins ? &s->bins[i] : NULL;
		const struct amon_heap_bin *y = j < d->heap.nbins ? &d->bins[j] : NULL;

		if (y == NULL || (x != NULL && x->bin < y->bin)) {
			bins[n++] = *x;
			i++;
		} else if (x == NULL || y->bin < x->bin) {
			bins[n++] = *y;
			j++;
		} else {
			bins[n] = *x;
			bins[n].allocs += y->allocs;
			bins[n].alloc_bytes += y->alloc_bytes;
			bins[n].frees += y->frees;
			bins[n++].free_bytes += y->free_bytes;
			i++;
			j++;
		}
	}
	free(s->bins);
	s->bins = bins;
	s->heap.nbins = n;
}


/* Dies unless D was written by the executable that wrote FIRST, with its clock. */
static void check_same(const struct amon_data *first, const struct amon_data *d)
{
	if (!same_module(&first->modules[0], &d->modules[0]))
		util_die("%s: written by another executable than %s (build-ids differ)",
			 d->path, first->path);
	if (d->header.clock != first->header.clock)
		util_die("%s: written with another clock than %s", d->path, first->path);
}


/* The sum's build-ids, copied into one block (the sum's image) they point into. */
static void own_build_ids(struct amon_data *s)
{
	int k;

	s->image = xmalloc((size_t)s->nmodules * AMON_BUILD_ID_MAX + 1);
	for (k = 0; k < s->nmodules; k++) {
		uint8_t *id = s->image + (size_t)k * AMON_BUILD_ID_MAX;

		memcpy(id, s->modules[k].build_id, s->modules[k].build_id_length);
		s->modules[k].build_id = id;
	}
}


struct amon_data *sum_profiles(struct amon_data *const *d, int n)
{
	struct amon_data *s = xcalloc(1, sizeof *s);
	struct gather *g = NULL;
	int f, k, t;

	s->path = d[0]->path;
	s->header = d[0]->header;
	s->header.total_ticks = 0;
	s->header.pid = 0; /* no one process's */
	for (f = 0; f < n; f++) {
		long double rate = d[0]->header.ticks_per_second / d[f]->header.ticks_per_second;
		int *map = xmalloc((size_t)d[f]->nmodules * sizeof map[0]);

		check_same(d[0], d[f]);
		s->header.total_ticks += rescale(d[f]->header.total_ticks, rate);
		for (k = 0; k < d[f]->nmodules; k++)
			map[k] = place_module(s, &d[f]->modules[k]);
		if (d[f]->nthreads > s->nthreads) {
			g = xrealloc(g, (size_t)d[f]->nthreads * sizeof g[0]);
			memset(g + s->nthreads, 0, (size_t)(d[f]->nthreads - s->nthreads) * sizeof g[0]);
			s->nthreads = d[f]->nthreads;
		}
		for (t = 0; t < d[f]->nthreads; t++)
			gather_thread(&g[t], s, d[f], map, &d[f]->threads[t], rate);
		add_heap(s, d[f], rate);
		free(map);
	}
	s->threads = xcalloc((size_t)s->nthreads + 1, sizeof s->threads[0]);
	for (t = 0; t < s->nthreads; t++)
		make_thread(s, &g[t], t);
	free(g);
	own_build_ids(s);
	return s;
}
