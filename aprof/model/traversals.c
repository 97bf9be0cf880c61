/*
** traversals.c -- the cycles of recursion that happened (--cycles).
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/model/traversals.h"
#include "aprof/util.h"

/* Everything found so far. */
struct found {
	struct traversal *cycles;
	int n;
};


/* The routine of history entry E: its symbol's address, or its own. */
static uint64_t routine_of(const struct amon_data *d, const struct symbols *syms, uint64_t e)
{
	const struct symbol *s = symbols_find(syms, d, AMON_ADDR(e));

	return s != NULL ? s->addr : AMON_ADDR(e);
}


/* KEY := the N routines at W rotated to start at the smallest. */
static void rotate_min(uint64_t *key, const uint64_t *w, uint32_t n)
{
	uint32_t k, start = 0;

	for (k = 1; k < n; k++)
		if (w[k] < w[start])
			start = k;
	for (k = 0; k < n; k++)
		key[k] = w[(start + k) % n];
}


/* The cycle with members W (N of them, entered at W[0]), added if new. */
static struct traversal *cycle_get(struct found *f, const uint64_t *w, uint32_t n)
{
	uint64_t *key = xmalloc(n * sizeof key[0]);
	struct traversal *c;
	int i;

	rotate_min(key, w, n);
	for (i = 0; i < f->n; i++)
		if (f->cycles[i].n == n && memcmp(f->cycles[i].key, key, n * sizeof key[0]) == 0) {
			free(key);
			return &f->cycles[i];
		}
	f->cycles = xrealloc(f->cycles, (size_t)(f->n + 1) * sizeof f->cycles[0]);
	c = &f->cycles[f->n++];
	memset(c, 0, sizeof *c);
	c->members = xmalloc(n * sizeof c->members[0]);
	memcpy(c->members, w, n * sizeof w[0]);
	c->n = n;
	c->key = key;
	return c;
}


/* True if routine R is one of C's members. */
static int member(const struct traversal *c, uint64_t r)
{
	uint32_t k;

	for (k = 0; k < c->n; k++)
		if (c->members[k] == r)
			return 1;
	return 0;
}


/* The index of the first of H[0..N) that is one of the W[0..M), or N. */
static uint32_t first_of(const uint64_t *h, uint32_t n, const uint64_t *w, uint32_t m)
{
	uint32_t e, k;

	for (e = 0; e < n; e++)
		for (k = 0; k < m; k++)
			if (h[e] == w[k])
				return e;
	return n;
}


/*
** Finds the cycles of context C, whose routines are H (N of them): for
** every routine that also appears earlier as an unmarked entry (Spivey's
** states "where the running routine P also appears as an unmarked entry
** earlier in the history"), the walk from that appearance, if every entry
** after it is marked (an unmarked entry in between stands for calls the
** history left out), started at the member that comes first in the
** history (the one the cycle was entered by).  Each cycle found is charged
** C's time and bytes once, and C's calls if C's running routine closes it
** at that member: came back to the member it was entered by.
*/
static void scan(struct found *f, const struct amon_context_info *c, const uint64_t *h,
		 uint32_t n)
{
	uint64_t *w = xmalloc((n + 1) * sizeof w[0]);
	int *hit = xmalloc((n + 1) * sizeof hit[0]);
	uint32_t i, j, k, m, start;
	int nhit = 0, x;

	for (j = 1; j < n; j++) {
		struct traversal *cy;

		for (i = j; i > 0 && h[i - 1] != h[j] && AMON_MARKED(c->history[i - 1]); i--)
			continue;
		if (i == 0 || h[i - 1] != h[j] || AMON_MARKED(c->history[i - 1]) ||
		    !AMON_MARKED(c->history[j]))
			continue;
		i--; /* h[i] == h[j], unmarked, and all after it marked */
		m = j - i;
		start = first_of(h, n, h + i, m);
		for (k = 0; h[i + k] != h[start]; k++)
			continue;
		for (x = 0; x < (int)m; x++)
			w[x] = h[i + (k + (uint32_t)x) % m];
		cy = cycle_get(f, w, m);
		for (x = 0; x < nhit && hit[x] != cy - f->cycles; x++)
			continue;
		if (x == nhit) {
			hit[nhit++] = (int)(cy - f->cycles);
			cy->ticks += c->ticks;
			cy->bytes += c->alloc_bytes;
		}
		if (j + 1 == n && h[j] == h[start])
			cy->traversals += c->calls;
	}
	free(hit);
	free(w);
}


/*
** Counts C's calls as entries into every cycle of F its running routine
** (the last of H, N of them) belongs to while no member of the cycle is
** active before it (every active routine is in the history): calls from
** outside the cycle that start it, not calls into a member while it is
** under way (from a routine outside it that a member called, say).
*/
static void entries(struct found *f, const struct amon_context_info *c, const uint64_t *h,
		    uint32_t n)
{
	uint64_t caller = n >= 2 ? h[n - 2] : 0;
	uint32_t k;
	int i, e;

	for (i = 0; i < f->n && c->calls > 0; i++) {
		struct traversal *cy = &f->cycles[i];

		for (k = 0; k + 1 < n && !member(cy, h[k]); k++)
			continue;
		if (k + 1 < n || !member(cy, h[n - 1]))
			continue;
		for (e = 0; e < cy->nentrants && cy->entrants[e].routine != caller; e++)
			continue;
		if (e == cy->nentrants) {
			cy->entrants = xrealloc(cy->entrants, (size_t)(e + 1) * sizeof cy->entrants[0]);
			cy->entrants[e].routine = caller;
			cy->entrants[e].calls = 0;
			cy->nentrants++;
		}
		cy->entrants[e].calls += c->calls;
	}
}


/* Calls PASS(F, C, ROUTINES, DEPTH) for every context of D with a routine active. */
static void each_context(struct found *f, const struct amon_data *d, const struct symbols *syms,
			 void (*pass)(struct found *, const struct amon_context_info *,
				      const uint64_t *, uint32_t))
{
	struct amon_each e = AMON_EACH(d);
	const struct amon_context_info *c;
	uint32_t k;

	while ((c = amon_each_next(&e)) != NULL) {
		uint64_t *h;

		if (c->depth == 0)
			continue;
		h = xmalloc(c->depth * sizeof h[0]);
		for (k = 0; k < c->depth; k++)
			h[k] = routine_of(d, syms, c->history[k]);
		pass(f, c, h, c->depth);
		free(h);
	}
}


/* Time spent while active, descending, then traversals, then length. */
static int by_time(const void *a, const void *b)
{
	const struct traversal *x = a, *y = b;

	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? 1 : -1;
	if (x->traversals != y->traversals)
		return x->traversals < y->traversals ? 1 : -1;
	return (x->n > y->n) - (x->n < y->n);
}


static void print_name(FILE *out, const struct amon_data *d, const struct symbols *syms,
		       uint64_t routine)
{
	char *name = symbols_name(syms, d, routine);

	fputs(name, out);
	free(name);
}


struct traversal *traversals_find(const struct amon_data *d, const struct symbols *syms, int *n)
{
	struct found f = { NULL, 0 };

	each_context(&f, d, syms, scan);
	each_context(&f, d, syms, entries);
	if (f.n > 0) /* f.cycles is NULL without cycles: not qsort's to be given */
		qsort(f.cycles, (size_t)f.n, sizeof f.cycles[0], by_time);
	*n = f.n;
	return f.cycles;
}


struct traversal *traversals_context(const struct amon_data *d, const struct symbols *syms,
				     const struct amon_context_info *c, int *n)
{
	struct found f = { NULL, 0 };
	uint64_t *h;
	uint32_t k;

	if (c->depth > 0) {
		h = xmalloc(c->depth * sizeof h[0]);
		for (k = 0; k < c->depth; k++)
			h[k] = routine_of(d, syms, c->history[k]);
		scan(&f, c, h, c->depth);
		free(h);
	}
	*n = f.n;
	return f.cycles;
}


void traversals_free(struct traversal *cycles, int n)
{
	int x;

	for (x = 0; x < n; x++) {
		free(cycles[x].members);
		free(cycles[x].key);
		free(cycles[x].entrants);
	}
	free(cycles);
}


/* An entrant as printed: its calls and its name. */
struct entrant_line {
	uint64_t calls;
	char *name;
};


/* By calls, the most first, then by name. */
static int by_calls(const void *a, const void *b)
{
	const struct entrant_line *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->name, y->name);
}


/* "N time" or "N times". */
static void print_times(FILE *out, uint64_t n)
{
	fprintf(out, "%" PRIu64 " time%s", n, n == 1 ? "" : "s");
}


/* CY's entrants, by calls (then by name), one line each: "entered from NAME: N times". */
static void print_entrants(FILE *out, const struct amon_data *d, const struct symbols *syms,
			   const struct traversal *cy)
{
	struct entrant_line *l = xmalloc(((size_t)cy->nentrants + 1) * sizeof l[0]);
	int e;

	for (e = 0; e < cy->nentrants; e++) {
		l[e].calls = cy->entrants[e].calls;
		l[e].name = cy->entrants[e].routine == 0 ? xstrdup("<spontaneous>")
			    : symbols_name(syms, d, cy->entrants[e].routine);
	}
	if (cy->nentrants > 0)
		qsort(l, (size_t)cy->nentrants, sizeof l[0], by_calls);
	for (e = 0; e < cy->nentrants; e++) {
		fprintf(out, "    entered from %s: ", l[e].name);
		print_times(out, l[e].calls);
		fputc('\n', out);
		free(l[e].name);
	}
	free(l);
}


void traversals_print(FILE *out, const struct amon_data *d, const struct symbols *syms)
{
	double hz = d->header.ticks_per_second;
	struct amon_each each = AMON_EACH(d);
	const struct amon_context_info *c;
	uint64_t run = 0;
	uint32_t k;
	int x, n;
	struct traversal *cycles = traversals_find(d, syms, &n);

	while ((c = amon_each_next(&each)) != NULL)
		if (c->depth > 0)
			run += c->ticks;
	fputs("Cycles traversed:\n\n", out);
	for (x = 0; x < n; x++) {
		struct traversal *cy = &cycles[x];

		for (k = 0; k <= cy->n; k++) {
			fputs(k > 0 ? " -> " : "", out);
			print_name(out, d, syms, cy->members[k % cy->n]);
		}
		fputs("\n    traversed ", out);
		print_times(out, cy->traversals);
		fprintf(out, "; active %.6f seconds (%.1f%% of the run), %" PRIu64 " bytes "
			"allocated\n", (double)cy->ticks / hz,
			run > 0 ? 100.0 * (double)cy->ticks / (double)run : 0.0, cy->bytes);
		print_entrants(out, d, syms, cy);
		fputc('\n', out);
	}
	fprintf(out, "%d cycle%s.  A cycle is listed when a context's running routine is also\n"
		"active earlier in its history: the recursion that happened, not gprof's\n"
		"<cycle N> of the static call graph.  It is traversed each time a call\n"
		"comes back to the member it was entered by, and entered by a call from\n"
		"outside it into a member while none of its members is active.\n",
		n, n == 1 ? "" : "s");
	traversals_free(cycles, n);
}
