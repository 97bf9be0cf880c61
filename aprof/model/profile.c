/*
** profile.c -- charging contexts to routines and arcs, after Spivey,
** "Presenting the results".  Each context's time goes once to every routine
** active in it (self to the running one, child to the others) and to the arcs
** of its marked items, so no time is ever divided by call counts.
*/
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/model/cycles.h"
#include "aprof/model/merge.h"
#include "aprof/model/profile.h"
#include "aprof/util.h"

/* Arcs by (from, to): open addressing, a power-of-two table kept half empty. */
struct arc_table {
	struct prof_arc **slot;
	size_t mask, used;
};


static int map_lookup(const struct addr_map *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->addr[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return m->proc[lo]; /* every history address is in the map */
}


/*
** Gives every distinct history address a routine: its symbol's, or a
** routine of its own named by the address if no symbol holds it.
*/
static void map_routines(struct profile *p, struct addr_map *m, const struct amon_data *d,
			 const struct symbols *syms)
{
	size_t i;

	m->addr = histories_addresses(d, &m->n);
	m->proc = xmalloc(m->n * sizeof m->proc[0]);
	p->procs = xcalloc(m->n, sizeof p->procs[0]);
	for (i = 0; i < m->n; i++) {
		const struct symbol *s = symbols_find(syms, d, m->addr[i]);
		uint64_t key = s != NULL ? s->addr : m->addr[i];

		/* Addresses are sorted, so those of one symbol are adjacent. */
		if (p->nprocs > 0 && p->procs[p->nprocs - 1].addr == key) {
			m->proc[i] = p->nprocs - 1;
			continue;
		}
		p->procs[p->nprocs].name = s != NULL ? s->name : symbols_name(syms, d, m->addr[i]);
		p->procs[p->nprocs].sym = s;
		p->procs[p->nprocs].addr = key;
		m->proc[i] = p->nprocs++;
	}
}


static size_t arc_hash(const struct arc_table *t, int from, int to)
{
	uint64_t k = ((uint64_t)(uint32_t)from << 32) | (uint32_t)to;

	return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & t->mask;
}


/* The arc FROM -> TO, created empty if new. */
static struct prof_arc *arc_get(struct profile *p, struct arc_table *t, int from, int to)
{
	size_t i;
	struct prof_arc *a;

	if (2 * (t->used + 1) > t->mask + 1) {
		struct arc_table bigger = { xcalloc(2 * (t->mask + 1), sizeof(void *)),
					    2 * (t->mask + 1) - 1, t->used };

		for (i = 0; i <= t->mask; i++)
			if (t->slot[i] != NULL) {
				size_t j = arc_hash(&bigger, t->slot[i]->from, t->slot[i]->to);

				while (bigger.slot[j] != NULL)
					j = (j + 1) & bigger.mask;
				bigger.slot[j] = t->slot[i];
			}
		free(t->slot);
		*t = bigger;
	}
	for (i = arc_hash(t, from, to); t->slot[i] != NULL; i = (i + 1) & t->mask)
		if (t->slot[i]->from == from && t->slot[i]->to == to)
			return t->slot[i];
	a = t->slot[i] = xcalloc(1, sizeof *a);
	t->used++;
	a->from = from;
	a->to = to;
	a->next_in = p->procs[to].in;
	p->procs[to].in = a;
	if (from != PROF_SPONTANEOUS) {
		a->next_out = p->procs[from].out;
		p->procs[from].out = a;
	}
	return a;
}


/*
** Charges one context (history H of N routines, marks M) with its value T and
** CALLS, REC (Spivey, "Presenting the results").  Every active routine has
** exactly one marked entry, so each is charged once.
*/
static void charge(struct profile *p, struct arc_table *arcs, const int *h, const char *m,
		   uint32_t n, uint64_t t, uint64_t calls, uint64_t rec)
{
	int running = h[n - 1];
	uint32_t i;

	p->procs[running].calls += calls;
	p->procs[running].rec += rec;
	p->procs[running].self += t;
	p->total += t;
	for (i = 0; i < n; i++) {
		struct prof_arc *in;

		if (!m[i])
			continue;
		if (i + 1 < n) { /* outgoing arc of item s_{i-1}[s_i]s_{i+1} */
			struct prof_arc *out = arc_get(p, arcs, h[i], h[i + 1]);

			if (h[i + 1] == running)
				out->self1 += t;
			else
				out->child1 += t;
			p->procs[h[i]].child += t;
		}
		in = arc_get(p, arcs, i > 0 ? h[i - 1] : PROF_SPONTANEOUS, h[i]);
		if (h[i] == running)
			in->self2 += t;
		else
			in->child2 += t;
		if (i + 1 == n)
			in->count += calls;
	}
}


/* Adds to each cycle the value of every context in which any member is active. */
static void cycle_times(struct profile *p, const int *h, const char *m, uint32_t n, uint64_t t,
			int *seen)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		int c = p->procs[h[i]].cycle;

		if (m[i] && c != 0 && seen[c - 1] == 0) {
			seen[c - 1] = 1;
			p->cycles[c - 1].child += t;
		}
	}
	for (i = 0; i < n; i++)
		if (p->procs[h[i]].cycle != 0)
			seen[p->procs[h[i]].cycle - 1] = 0;
}


/*
** Walks every context of D with its history mapped to routines: pass 0
** charges routines and arcs, pass 1 (cycles known) charges cycles.
*/
static void each_context(struct profile *p, const struct amon_data *d, const struct addr_map *map,
			 int pass, struct arc_table *arcs, int *seen)
{
	struct amon_each e = AMON_EACH(d), again = AMON_EACH(d);
	const struct amon_context_info *c;
	uint32_t maxdepth = 0, k;
	int *h;
	char *m;

	while ((c = amon_each_next(&e)) != NULL)
		if (c->depth > maxdepth)
			maxdepth = c->depth;
	h = xmalloc((maxdepth + 1) * sizeof h[0]);
	m = xmalloc(maxdepth + 1);
	while ((c = amon_each_next(&again)) != NULL) {
		if (c->depth == 0) {
			if (pass == 0)
				p->root += profile_value(c, p->metric);
			continue;
		}
		for (k = 0; k < c->depth; k++) {
			h[k] = map_lookup(map, AMON_ADDR(c->history[k]));
			m[k] = AMON_MARKED(c->history[k]);
		}
		if (pass == 0)
			charge(p, arcs, h, m, c->depth, profile_value(c, p->metric), c->calls, c->rec);
		else
			cycle_times(p, h, m, c->depth, profile_value(c, p->metric), seen);
	}
	free(h);
	free(m);
}


uint64_t profile_value(const struct amon_context_info *c, enum prof_metric metric)
{
	switch (metric) {
	case PROF_BYTES:
		return c->alloc_bytes;
	case PROF_ALLOCS:
		return c->allocs;
	case PROF_KEPT:
		return c->alloc_bytes - c->free_bytes;
	case PROF_PEAK:
		return c->peak_bytes;
	case PROF_TIME:
	default:
		return c->ticks;
	}
}


/* The unit values are shown in: seconds for time, bytes scaled to stay short. */
static void choose_unit(struct profile *p, const struct amon_data *d)
{
	p->scale = 1;
	switch (p->metric) {
	case PROF_TIME:
		p->scale = d->header.ticks_per_second;
		p->unit = "seconds";
		break;
	case PROF_ALLOCS:
		p->unit = "allocs";
		break;
	default:
		p->unit = "bytes";
		if (p->total >= 100000) {
			p->scale = 1024;
			p->unit = "Kbytes";
		}
		if (p->total >= 100000ull * 1024) {
			p->scale = 1024 * 1024;
			p->unit = "Mbytes";
		}
	}
}


struct profile *profile_build(const struct amon_data *d, const struct symbols *syms,
			      enum prof_metric metric)
{
	struct profile *p = xcalloc(1, sizeof *p);
	struct addr_map map = { NULL, NULL, 0 };
	struct arc_table arcs = { xcalloc(64, sizeof(void *)), 63, 0 };
	int *seen, c;

	p->metric = metric;
	p->clock = d->header.clock;
	p->syms = syms;
	map_routines(p, &map, d, syms);
	each_context(p, d, &map, 0, &arcs, NULL);
	choose_unit(p, d);
	cycles_find(p);
	/* A cycle's active time comes from the contexts; its child time is the rest. */
	seen = xcalloc((size_t)p->ncycles + 1, sizeof(int));
	each_context(p, d, &map, 1, NULL, seen);
	for (c = 0; c < p->ncycles; c++)
		p->cycles[c].child -= p->cycles[c].self;
	free(seen);
	free(arcs.slot);
	p->map = map;
	return p;
}


void profile_free(struct profile *p)
{
	int i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nprocs; i++) {
		struct prof_arc *a = p->procs[i].in, *next;

		for (; a != NULL; a = next) { /* every arc is in its callee's list, once */
			next = a->next_in;
			free(a);
		}
		if (p->procs[i].sym == NULL) /* named by map_routines with symbols_name */
			free((char *)p->procs[i].name);
	}
	for (i = 0; i < p->ncycles; i++)
		free(p->cycles[i].members);
	free(p->cycles);
	free(p->procs);
	free(p->map.addr);
	free(p->map.proc);
	free(p);
}


int profile_decimals(const struct profile *p, int forced)
{
	double total = (double)p->total / p->scale;
	int d = 3; /* digits before the point of a total in [1, 10) leave three */

	if (forced > 0)
		return forced;
	if (total <= 0.0)
		return 2;
	for (; total >= 10.0 && d > 2; total /= 10.0)
		d--;
	for (; total < 1.0 && d < 9; total *= 10.0)
		d++;
	return d;
}


/* Sets REACHED for every routine reachable from those already set, never entering AVOID's. */
static void reach(const struct profile *p, char *reached, const char *avoid)
{
	int *stack = xmalloc(((size_t)p->nprocs + 1) * sizeof stack[0]);
	int top = 0, i;

	for (i = 0; i < p->nprocs; i++)
		if (reached[i])
			stack[top++] = i;
	while (top > 0) {
		const struct prof_arc *a;

		for (a = p->procs[stack[--top]].out; a != NULL; a = a->next_out)
			if (!reached[a->to] && !avoid[a->to]) {
				reached[a->to] = 1;
				stack[top++] = a->to;
			}
	}
	free(stack);
}


char *profile_printed(const struct profile *p, const struct symspec *only,
		      const struct symspec *exclude)
{
	char *printed, *avoid;
	int i;

	if (only->n == 0 && exclude->n == 0)
		return NULL;
	printed = xcalloc((size_t)p->nprocs + 1, 1);
	avoid = xcalloc((size_t)p->nprocs + 1, 1);
	for (i = 0; i < p->nprocs; i++) {
		const struct prof_proc *r = &p->procs[i];
		const struct prof_arc *a;

		avoid[i] = (char)profile_matches(p, i, exclude);
		if (only->n > 0) {
			printed[i] = (char)profile_matches(p, i, only);
		} else if (!avoid[i]) {
			for (a = r->in; a != NULL && a->from != PROF_SPONTANEOUS; a = a->next_in)
				continue;
			printed[i] = r->in == NULL || a != NULL;
		}
		printed[i] = (char)(printed[i] && !avoid[i]);
	}
	reach(p, printed, avoid);
	free(avoid);
	return printed;
}


const char *profile_file(const struct profile *p, int proc)
{
	const struct symbol *s = p->procs[proc].sym;

	return s != NULL && p->syms != NULL ? symbols_file(p->syms, s) : NULL;
}


const char *profile_unit(const struct profile *p, int proc)
{
	const struct symbol *s = p->procs[proc].sym;

	return s != NULL && p->syms != NULL ? symbols_unit(p->syms, s) : NULL;
}


const char *profile_base_name(const struct profile *p, int proc)
{
	const struct symbol *s = p->procs[proc].sym;

	return s != NULL && s->bare != NULL ? s->bare : p->procs[proc].name;
}


int profile_matches(const struct profile *p, int proc, const struct symspec *s)
{
	const struct symbol *sym = p->procs[proc].sym;

	if (sym != NULL && p->syms != NULL)
		return symspec_has_symbol(s, p->syms, sym);
	return symspec_has(s, p->procs[proc].name, NULL);
}


int profile_below(const struct profile *p, uint64_t v, double percent)
{
	return percent > 0.0 && 100.0 * (double)v < percent * (double)p->total;
}


const char *profile_noun(const struct profile *p)
{
	switch (p->metric) {
	case PROF_TIME:
		return "time";
	case PROF_ALLOCS:
		return "allocations";
	default:
		return "bytes";
	}
}


/* V, a value of P's metric (or a sum of them), in export units, rounded. */
static uint64_t export_units(const struct profile *p, long double v)
{
	return p->metric == PROF_TIME ? (uint64_t)(v * 1e9L / (long double)p->scale + 0.5L)
				      : (uint64_t)v;
}


uint64_t profile_export(const struct profile *p, uint64_t v, uint64_t *running)
{
	uint64_t before;

	if (running == NULL)
		return export_units(p, v);
	before = export_units(p, *running);
	*running += v;
	return export_units(p, *running) - before;
}


const char *profile_export_unit(const struct profile *p)
{
	return p->metric == PROF_TIME ? "ns" : p->metric == PROF_ALLOCS ? "allocs" : "bytes";
}


int profile_routine(const struct profile *p, uint64_t addr)
{
	return map_lookup(&p->map, AMON_ADDR(addr));
}


struct prof_arc *profile_arc(const struct profile *p, int from, int to)
{
	struct prof_arc *a;

	for (a = p->procs[to].in; a != NULL; a = a->next_in)
		if (a->from == from)
			return a;
	return NULL;
}
