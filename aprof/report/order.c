/*
** order.c -- the call graph's order, computed once per report for the call
** graph and its index (gprof/cg_arcs.c apart from cg_print.c): entries, a
** routine or a cycle each, sorted by gprof's cmp_total and numbered 1... in
** that order, and gprof's print flags (-q, -Q), with -f, -e and --threshold.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aprof/report/order.h"
#include "aprof/util.h"


/*
** gprof's cmp_total: time descending, a cycle before a routine, names not
** starting with '_' before those that do, calls descending, then strcmp.
** Ties gprof leaves to qsort are broken by cycle number or routine index.
*/
static int cmp_total(const void *lp, const void *rp)
{
	const struct cg_entry *l = lp;
	const struct cg_entry *r = rp;
	int c;

	if (l->time != r->time)
		return l->time < r->time ? 1 : -1;
	if (l->name == NULL || r->name == NULL) {
		if (l->name != NULL)
			return 1;
		if (r->name != NULL)
			return -1;
		return l->number - r->number;
	}
	if ((l->name[0] == '_') != (r->name[0] == '_'))
		return l->name[0] == '_' ? 1 : -1;
	if (l->calls != r->calls)
		return l->calls < r->calls ? 1 : -1;
	c = strcmp(l->name, r->name);
	return c != 0 ? c : l->proc - r->proc;
}


const struct prof_cycle *order_cycle_of(const struct order *g, const struct profile *p, int proc)
{
	int n = p->procs[proc].cycle;

	return n != 0 ? &p->cycles[g->cycle_pos[n]] : NULL;
}


int order_same_cycle(const struct profile *p, int a, int b)
{
	return a != b && p->procs[a].cycle != 0 && p->procs[a].cycle == p->procs[b].cycle;
}


/* True if a routine outside cycle C calls one of its members. */
static int called_from_outside(const struct profile *p, const struct prof_cycle *c)
{
	const struct prof_arc *a;
	int m;

	for (m = 0; m < c->nmembers; m++)
		for (a = p->procs[c->members[m]].in; a != NULL; a = a->next_in)
			if (a->from != PROF_SPONTANEOUS && p->procs[a->from].cycle != c->number)
				return 1;
	return 0;
}


/*
** Hides what -f, -e (profile_printed) and --threshold leave out: routines
** not printed or under the threshold, and cycles with no member printed or
** themselves under it.
*/
static void unprint(struct order *g, const struct profile *p, const struct report_options *o)
{
	char *printed = profile_printed(p, &o->print_only, &o->print_exclude);
	int i, k, m;

	for (i = 0; i < p->nprocs; i++)
		if ((printed != NULL && !printed[i]) ||
		    profile_below(p, p->procs[i].self + p->procs[i].child, o->threshold))
			g->proc_shown[i] = 0;
	for (k = 0; k < p->ncycles; k++) {
		const struct prof_cycle *c = &p->cycles[k];
		int any = 0;

		for (m = 0; m < c->nmembers; m++)
			any |= printed == NULL || printed[c->members[m]];
		if (!any || profile_below(p, c->self + c->child, o->threshold))
			g->cycle_shown[k] = 0;
	}
	free(printed);
}


/*
** Sets gprof's print flags (cg_arcs.c propagate_flags, inherit_flags): a
** routine is shown if it is in the -q list, or, unless it is in the -Q list,
** if no -q list was given or a shown routine outside its cycle calls it (or
** any member of its cycle).  A cycle is shown if a shown routine outside it
** calls a member.  Unlike gprof, a cycle with no caller outside it at all is
** shown when no -q list was given, so that its members' tags have an entry.
** Then -f, -e and --threshold hide more (unprint).
*/
static void cg_flags(struct order *g, const struct profile *p, const struct report_options *o)
{
	int only = o->graph_only.n > 0;
	char *excl = xcalloc((size_t)p->nprocs, 1);
	int *stack = xmalloc((size_t)p->nprocs * sizeof(*stack));
	int top = 0;
	int i, k, m;

	g->proc_shown = xcalloc((size_t)p->nprocs, 1);
	g->cycle_shown = xcalloc((size_t)p->ncycles, 1);
	for (i = 0; i < p->nprocs; i++) {
		excl[i] = (char)profile_matches(p, i, &o->graph_exclude);
		if (profile_matches(p, i, &o->graph_only) || (!only && !excl[i])) {
			g->proc_shown[i] = 1;
			stack[top++] = i;
		}
	}
	while (top > 0) {
		int from = stack[--top];
		const struct prof_arc *a;

		for (a = p->procs[from].out; a != NULL; a = a->next_out) {
			const struct prof_cycle *c;

			if (a->to == from || order_same_cycle(p, from, a->to))
				continue;
			c = order_cycle_of(g, p, a->to);
			if (c == NULL) {
				if (!g->proc_shown[a->to] && !excl[a->to]) {
					g->proc_shown[a->to] = 1;
					stack[top++] = a->to;
				}
				continue;
			}
			if (g->cycle_shown[c - p->cycles])
				continue;
			g->cycle_shown[c - p->cycles] = 1;
			for (m = 0; m < c->nmembers; m++) {
				int t = c->members[m];

				if (!g->proc_shown[t] && !excl[t]) {
					g->proc_shown[t] = 1;
					stack[top++] = t;
				}
			}
		}
	}
	for (k = 0; k < p->ncycles && !only; k++)
		if (!called_from_outside(p, &p->cycles[k]))
			g->cycle_shown[k] = 1;
	free(stack);
	free(excl);
	unprint(g, p, o);
}


struct order *order_make(const struct profile *p, const struct report_options *o)
{
	struct order *g = xcalloc(1, sizeof *g);
	int i, k, n = 0;

	g->max_cycle = 0;
	for (k = 0; k < p->ncycles; k++)
		if (p->cycles[k].number > g->max_cycle)
			g->max_cycle = p->cycles[k].number;
	g->cycle_pos = xmalloc(((size_t)g->max_cycle + 1) * sizeof(*g->cycle_pos));
	for (k = 0; k <= g->max_cycle; k++)
		g->cycle_pos[k] = -1;
	for (k = 0; k < p->ncycles; k++)
		g->cycle_pos[p->cycles[k].number] = k;
	for (i = 0; i < p->nprocs; i++) {
		int c = p->procs[i].cycle;

		if (c < 0 || c > g->max_cycle || (c != 0 && g->cycle_pos[c] < 0))
			util_die("profile: routine %s is in cycle %d, which does not exist",
				 p->procs[i].name, c);
	}

	g->nentries = p->nprocs + p->ncycles;
	g->entries = xmalloc((size_t)g->nentries * sizeof(*g->entries));
	for (i = 0; i < p->nprocs; i++) {
		const struct prof_proc *r = &p->procs[i];
		struct cg_entry e = { i, -1, r->name, r->self + r->child, r->calls, 0 };

		g->entries[n++] = e;
	}
	for (k = 0; k < p->ncycles; k++) {
		const struct prof_cycle *c = &p->cycles[k];
		struct cg_entry e = { -1, k, NULL, c->self + c->child, c->calls, c->number };

		g->entries[n++] = e;
	}
	qsort(g->entries, (size_t)n, sizeof(*g->entries), cmp_total);

	g->proc_index = xmalloc((size_t)p->nprocs * sizeof(*g->proc_index));
	g->cycle_index = xmalloc((size_t)p->ncycles * sizeof(*g->cycle_index));
	for (i = 0; i < n; i++) {
		if (g->entries[i].proc >= 0)
			g->proc_index[g->entries[i].proc] = i + 1;
		else
			g->cycle_index[g->entries[i].cyc] = i + 1;
	}
	cg_flags(g, p, o);
	return g;
}


void order_free(struct order *g)
{
	free(g->entries);
	free(g->proc_index);
	free(g->cycle_index);
	free(g->proc_shown);
	free(g->cycle_shown);
	free(g->cycle_pos);
	free(g);
}


