/*
** cycles.c -- strongly connected components (Tarjan, iterative so that a
** deep call graph cannot overflow the C stack).
*/
#include <config.h>

#include <stdlib.h>

#include "aprof/model/cycles.h"
#include "aprof/util.h"

/* Tarjan's per-routine state. */
struct tarjan {
	int *index, *low, *onstack;
	int *stack, sp;             /* the component stack */
	int *walk;                  /* explicit DFS stack: the routines */
	struct prof_arc **walk_arc;  /* and the next arc of each to follow */
	int next_index;
	int *component;             /* component number of each routine */
	int ncomponents;
};


static void strongconnect(struct profile *p, struct tarjan *t, int root)
{
	int depth = 0;

	t->walk[0] = root;
	t->walk_arc[0] = p->procs[root].out;
	t->index[root] = t->low[root] = t->next_index++;
	t->stack[t->sp++] = root;
	t->onstack[root] = 1;
	while (depth >= 0) {
		int v = t->walk[depth];
		struct prof_arc *a = t->walk_arc[depth];

		if (a != NULL) {
			int w = a->to;

			t->walk_arc[depth] = a->next_out;
			if (w == v)
				continue;
			if (t->index[w] < 0) {
				t->index[w] = t->low[w] = t->next_index++;
				t->stack[t->sp++] = w;
				t->onstack[w] = 1;
				depth++;
				t->walk[depth] = w;
				t->walk_arc[depth] = p->procs[w].out;
			} else if (t->onstack[w] && t->index[w] < t->low[v]) {
				t->low[v] = t->index[w];
			}
			continue;
		}
		if (t->low[v] == t->index[v]) {
			int w;

			do {
				w = t->stack[--t->sp];
				t->onstack[w] = 0;
				t->component[w] = t->ncomponents;
			} while (w != v);
			t->ncomponents++;
		}
		depth--;
		if (depth >= 0 && t->low[v] < t->low[t->walk[depth]])
			t->low[t->walk[depth]] = t->low[v];
	}
}


static const struct profile *sort_profile; /* for qsort's comparator */

static int cycle_cmp(const void *a, const void *b)
{
	const struct prof_cycle *x = a, *y = b;
	const struct prof_proc *px = &sort_profile->procs[x->members[0]];
	const struct prof_proc *py = &sort_profile->procs[y->members[0]];

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return px->addr < py->addr ? -1 : px->addr > py->addr;
}


void cycles_find(struct profile *p)
{
	struct tarjan t;
	int *size, i, c;

	t.index = xmalloc((size_t)p->nprocs * sizeof(int));
	t.low = xmalloc((size_t)p->nprocs * sizeof(int));
	t.onstack = xcalloc((size_t)p->nprocs, sizeof(int));
	t.stack = xmalloc((size_t)p->nprocs * sizeof(int));
	t.walk = xmalloc((size_t)p->nprocs * sizeof(int));
	t.walk_arc = xmalloc((size_t)p->nprocs * sizeof(struct prof_arc *));
	t.component = xmalloc((size_t)p->nprocs * sizeof(int));
	t.sp = 0;
	t.next_index = 0;
	t.ncomponents = 0;
	for (i = 0; i < p->nprocs; i++)
		t.index[i] = -1;
	for (i = 0; i < p->nprocs; i++)
		if (t.index[i] < 0)
			strongconnect(p, &t, i);

	/* Components of two or more routines are cycles. */
	size = xcalloc((size_t)t.ncomponents, sizeof(int));
	for (i = 0; i < p->nprocs; i++)
		size[t.component[i]]++;
	p->ncycles = 0;
	p->cycles = xcalloc((size_t)t.ncomponents, sizeof(struct prof_cycle));
	for (c = 0; c < t.ncomponents; c++) {
		if (size[c] < 2)
			continue;
		p->cycles[p->ncycles].members = xmalloc((size_t)size[c] * sizeof(int));
		for (i = 0; i < p->nprocs; i++)
			if (t.component[i] == c) {
				struct prof_cycle *y = &p->cycles[p->ncycles];

				y->members[y->nmembers++] = i;
				y->self += p->procs[i].self;
			}
		p->ncycles++;
	}
	sort_profile = p;
	qsort(p->cycles, (size_t)p->ncycles, sizeof p->cycles[0], cycle_cmp);
	for (c = 0; c < p->ncycles; c++) {
		struct prof_cycle *y = &p->cycles[c];

		y->number = c + 1;
		for (i = 0; i < y->nmembers; i++)
			p->procs[y->members[i]].cycle = y->number;
	}
	/* Calls into the cycle from outside it, and between its members. */
	for (c = 0; c < p->ncycles; c++) {
		struct prof_cycle *y = &p->cycles[c];

		for (i = 0; i < y->nmembers; i++) {
			const struct prof_arc *a;

			for (a = p->procs[y->members[i]].in; a != NULL; a = a->next_in) {
				if (a->from == a->to)
					continue;
				if (a->from != PROF_SPONTANEOUS && p->procs[a->from].cycle == y->number)
					y->internal += a->count;
				else
					y->calls += a->count;
			}
		}
	}
	free(size);
	free(t.index);
	free(t.low);
	free(t.onstack);
	free(t.stack);
	free(t.walk);
	free(t.walk_arc);
	free(t.component);
}
