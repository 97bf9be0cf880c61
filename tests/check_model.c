/*
** check_model.c -- the model's stages on hand-built profiles: the selection
** (-F, -E, --elide), the sum of two runs, gprof's cycles, the call graph's
** order and the --diff tables.  The contexts are those of Spivey's
** Main -> P -> Q -> R -> P -> S with ticks in powers of two, so that every
** sum names the contexts it holds.
*/
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"
#include "aprof/model/select.h"
#include "aprof/model/sum.h"
#include "aprof/report/diff.h"
#include "aprof/report/order.h"
#include "tests/check_aprof.h"

#include "tests/check_spivey.h"

/* The root (no routine active), then one context per history above. */
static const struct amon_context_info contexts_init[] = {
	{ .depth = 0, .ticks = 128, .history = NULL },
	{ .depth = 1, .calls = 1, .ticks = 1, .history = h0 },
	{ .depth = 2, .calls = 1, .ticks = 2, .history = h1 },
	{ .depth = 3, .calls = 1, .ticks = 4, .history = h2 },
	{ .depth = 4, .calls = 1, .ticks = 8, .history = h3 },
	{ .depth = 5, .calls = 1, .ticks = 16, .history = h4 },
	{ .depth = 6, .calls = 1, .ticks = 32, .history = h5 },
};
#define NCONTEXTS ((int)(sizeof contexts_init / sizeof contexts_init[0]))

static struct symbol syms[] = {
	{ .addr = MAIN, .name = (char *)"Main" }, { .addr = P, .name = (char *)"P" },
	{ .addr = Q, .name = (char *)"Q" }, { .addr = R, .name = (char *)"R" },
	{ .addr = S, .name = (char *)"S" },
};
static struct symbols symbols = { syms, 5, NULL, NULL };
static struct amon_module_info module = { 0, 0x1000, 0x6000, NULL, 0, (char *)"x", 1 };

/* One run: its own copy of the contexts, ticks times SCALE. */
struct run {
	struct amon_context_info contexts[NCONTEXTS];
	struct amon_thread_info thread;
	struct amon_data data;
};

static void run_init(struct run *r, uint64_t scale)
{
	int i;

	memset(r, 0, sizeof *r);
	memcpy(r->contexts, contexts_init, sizeof r->contexts);
	for (i = 0; i < NCONTEXTS; i++)
		r->contexts[i].ticks *= scale;
	r->thread.ncontexts = NCONTEXTS;
	r->thread.contexts = r->contexts;
	r->data.path = "amon.out";
	r->data.header.ticks_per_second = 1;
	r->data.modules = &module;
	r->data.nmodules = 1;
	r->data.threads = &r->thread;
	r->data.nthreads = 1;
}

static const struct prof_proc *proc_of(const struct profile *p, const char *name)
{
	int i;

	for (i = 0; i < p->nprocs; i++)
		if (strcmp(p->procs[i].name, name) == 0)
			return &p->procs[i];
	return NULL;
}

/* The ticks of D's contexts whose running routine is FN (root: 0). */
static uint64_t ticks_running(const struct amon_data *d, uint64_t fn)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < d->threads[0].ncontexts; i++) {
		const struct amon_context_info *c = &d->threads[0].contexts[i];
		uint64_t running = c->depth > 0 ? c->history[c->depth - 1] & ~(uint64_t)M : 0;

		if (running == fn)
			sum += c->ticks;
	}
	return sum;
}


/* -F Q: the contexts in which Q is active (h2 to h5), the root dropped. */
START_TEST(test_select_focus)
{
	struct run r;
	struct selection s = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	struct amon_data *kept;
	struct profile *p;

	run_init(&r, 1);
	symspec_add(&s.focus, "Q");
	kept = select_contexts(&r.data, &symbols, &s);
	ck_assert_ptr_ne(kept, &r.data);
	ck_assert_uint_eq(kept->threads[0].ncontexts, 4);
	p = profile_build(kept, &symbols, PROF_TIME);
	ck_assert_uint_eq(p->total, 4 + 8 + 16 + 32);
	ck_assert_uint_eq(p->root, 0);
	ck_assert_uint_eq(proc_of(p, "P")->self, 16); /* h1's 2 was P's without Q */
	ck_assert_uint_eq(proc_of(p, "Q")->self, 4);
	profile_free(p);
	select_free(kept, &r.data);
	symspec_free(&s.focus);
}
END_TEST


/* -E S: every context but S's (h5); the root stays. */
START_TEST(test_select_exclude)
{
	struct run r;
	struct selection s = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	struct amon_data *kept;
	struct profile *p;

	run_init(&r, 1);
	symspec_add(&s.exclude, "S");
	kept = select_contexts(&r.data, &symbols, &s);
	ck_assert_uint_eq(kept->threads[0].ncontexts, NCONTEXTS - 1);
	p = profile_build(kept, &symbols, PROF_TIME);
	ck_assert_uint_eq(p->total, 1 + 2 + 4 + 8 + 16);
	ck_assert_uint_eq(p->root, 128);
	ck_assert_ptr_null(proc_of(p, "S"));
	profile_free(p);
	select_free(kept, &r.data);
	symspec_free(&s.exclude);
}
END_TEST


/*
** --elide Q: Q taken out of every history, so its self time goes to its
** caller P (h2 merges into h1: 2 + 4) and R is called by P; nothing else
** changes, and no selection at all returns the profile itself.
*/
START_TEST(test_select_elide)
{
	struct run r;
	struct selection s = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	struct amon_data *kept;
	struct profile *p;

	run_init(&r, 1);
	ck_assert_ptr_eq(select_contexts(&r.data, &symbols, &s), &r.data);
	ck_assert_int_eq(select_any(&s), 0);
	symspec_add(&s.elide, "Q");
	ck_assert_int_ne(select_any(&s), 0);
	kept = select_contexts(&r.data, &symbols, &s);
	ck_assert_uint_eq(kept->threads[0].ncontexts, NCONTEXTS - 1);
	ck_assert_uint_eq(ticks_running(kept, P), 2 + 4 + 16);
	ck_assert_uint_eq(ticks_running(kept, Q), 0);
	p = profile_build(kept, &symbols, PROF_TIME);
	ck_assert_uint_eq(p->total, 63);
	ck_assert_ptr_null(proc_of(p, "Q"));
	ck_assert_uint_eq(proc_of(p, "P")->self, 2 + 4 + 16);
	ck_assert_ptr_nonnull(profile_arc(p, (int)(proc_of(p, "P") - p->procs),
					  (int)(proc_of(p, "R") - p->procs)));
	profile_free(p);
	select_free(kept, &r.data);
	symspec_free(&s.elide);
}
END_TEST


/* Two runs, the second with three times the ticks: every context added. */
START_TEST(test_sum)
{
	struct run a, b;
	struct amon_data *both[2], *sum;
	struct profile *p;
	size_t i;

	run_init(&a, 1);
	run_init(&b, 3);
	both[0] = &a.data;
	both[1] = &b.data;
	sum = sum_profiles(both, 2);
	ck_assert_int_eq(sum->nthreads, 1);
	ck_assert_uint_eq(sum->threads[0].ncontexts, NCONTEXTS);
	for (i = 0; i < sum->threads[0].ncontexts; i++) {
		const struct amon_context_info *c = &sum->threads[0].contexts[i];

		ck_assert_uint_eq(c->calls, c->depth > 0 ? 2 : 0);
	}
	ck_assert_uint_eq(ticks_running(sum, S), 4 * 32);
	ck_assert_uint_eq(ticks_running(sum, 0), 4 * 128);
	p = profile_build(sum, &symbols, PROF_TIME);
	ck_assert_uint_eq(p->total, 4 * 63);
	ck_assert_uint_eq(proc_of(p, "P")->calls, 4);
	profile_free(p);
	amon_free(sum);
}
END_TEST


/*
** Two cycles, numbered by their members' self time, the larger first:
** Main -> A -> B -> A (8 ticks in A and B) and Main -> C -> D -> C (48).
*/
START_TEST(test_cycles)
{
	enum { A = 0x2001, B = 0x3001, C = 0x4001, D = 0x5001 };
	static const uint64_t m[] = { MAIN | M };
	static const uint64_t ma[] = { MAIN | M, A | M };
	static const uint64_t mab[] = { MAIN | M, A | M, B | M };
	static const uint64_t maba[] = { MAIN | M, A, B | M, A | M };
	static const uint64_t mc[] = { MAIN | M, C | M };
	static const uint64_t mcd[] = { MAIN | M, C | M, D | M };
	static const uint64_t mcdc[] = { MAIN | M, C, D | M, C | M };
	static struct amon_context_info cs[] = {
		{ .depth = 0, .history = NULL },
		{ .depth = 1, .calls = 1, .ticks = 1, .history = m },
		{ .depth = 2, .calls = 1, .ticks = 2, .history = ma },
		{ .depth = 3, .calls = 1, .ticks = 4, .history = mab },
		{ .depth = 4, .calls = 1, .ticks = 2, .history = maba },
		{ .depth = 2, .calls = 1, .ticks = 16, .history = mc },
		{ .depth = 3, .calls = 2, .ticks = 16, .history = mcd },
		{ .depth = 4, .calls = 2, .ticks = 16, .history = mcdc },
	};
	static struct symbol s4[] = {
		{ .addr = MAIN, .name = (char *)"Main" }, { .addr = A, .name = (char *)"A" },
		{ .addr = B, .name = (char *)"B" }, { .addr = C, .name = (char *)"C" },
		{ .addr = D, .name = (char *)"D" },
	};
	struct symbols sy = { s4, 5, NULL, NULL };
	struct run r;
	struct profile *p;
	const struct prof_cycle *c1, *c2;

	run_init(&r, 1);
	r.thread.contexts = cs;
	r.thread.ncontexts = sizeof cs / sizeof cs[0];
	p = profile_build(&r.data, &sy, PROF_TIME);
	ck_assert_int_eq(p->ncycles, 2);
	c1 = p->cycles[0].number == 1 ? &p->cycles[0] : &p->cycles[1];
	c2 = c1 == &p->cycles[0] ? &p->cycles[1] : &p->cycles[0];
	ck_assert_int_eq(c1->number, 1);
	ck_assert_int_eq(c2->number, 2);
	ck_assert_int_eq(proc_of(p, "C")->cycle, 1);
	ck_assert_int_eq(proc_of(p, "D")->cycle, 1);
	ck_assert_int_eq(proc_of(p, "A")->cycle, 2);
	ck_assert_int_eq(proc_of(p, "B")->cycle, 2);
	ck_assert_int_eq(proc_of(p, "Main")->cycle, 0);
	ck_assert_int_eq(c1->nmembers, 2);
	ck_assert_uint_eq(c1->self, 48);
	ck_assert_uint_eq(c2->self, 8);
	ck_assert_uint_eq(c1->calls, 1);    /* Main -> C */
	ck_assert_uint_eq(c1->internal, 4); /* C -> D 2, D -> C 2 */
	ck_assert_uint_eq(c2->internal, 2);
	profile_free(p);
}
END_TEST


/*
** The call graph's order: by self + child, the largest first (gprof's
** cmp_total), a cycle as a whole before its members; every entry shown
** without options, -Q S hides S's entry only.
*/
START_TEST(test_order)
{
	struct run r;
	struct profile *p;
	struct report_options o;
	struct order *g;
	int i, shown = 0;

	run_init(&r, 1);
	p = profile_build(&r.data, &symbols, PROF_TIME);
	memset(&o, 0, sizeof o);
	o.graph = 1;
	g = order_make(p, &o);
	ck_assert_int_eq(g->nentries, 6); /* 5 routines and cycle 1 (P, Q, R) */
	ck_assert_str_eq(g->entries[0].name, "Main");
	ck_assert_uint_eq(g->entries[0].time, 63);
	ck_assert_int_eq(g->entries[1].proc, -1);
	ck_assert_int_eq(g->entries[1].number, 1);
	ck_assert_uint_eq(g->entries[1].time, 62);
	for (i = 1; i < g->nentries; i++)
		ck_assert_uint_ge(g->entries[i - 1].time, g->entries[i].time);
	ck_assert_int_eq(g->proc_index[proc_of(p, "Main") - p->procs], 1);
	ck_assert_int_eq(g->cycle_index[0], 2);
	for (i = 0; i < p->nprocs; i++)
		shown += g->proc_shown[i];
	ck_assert_int_eq(shown, 5);
	ck_assert_int_ne(order_same_cycle(p, (int)(proc_of(p, "P") - p->procs),
					  (int)(proc_of(p, "R") - p->procs)), 0);
	ck_assert_int_eq(order_same_cycle(p, (int)(proc_of(p, "P") - p->procs),
					  (int)(proc_of(p, "S") - p->procs)), 0);
	order_free(g);

	symspec_add(&o.graph_exclude, "S");
	g = order_make(p, &o);
	ck_assert_int_eq(g->proc_shown[proc_of(p, "S") - p->procs], 0);
	ck_assert_int_eq(g->proc_shown[proc_of(p, "P") - p->procs], 1);
	order_free(g);
	symspec_free(&o.graph_exclude);
	profile_free(p);
}
END_TEST


/* --diff: a run with twice the ticks of every context, against one. */
START_TEST(test_diff)
{
	struct run a, b;
	struct profile *old_p, *new_p;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	run_init(&a, 1);
	run_init(&b, 2);
	old_p = profile_build(&a.data, &symbols, PROF_TIME);
	new_p = profile_build(&b.data, &symbols, PROF_TIME);
	diff_print(out, old_p, new_p);
	fclose(out);
	/* Every change, new minus old, the largest first; the calls unchanged. */
	ck_assert_msg(strstr(text,
			     "  +32.000000         +0    32.000000    64.000000          1          1  S\n"
			     "  +18.000000         +0    18.000000    36.000000          2          2  P\n"
			     "   +8.000000         +0     8.000000    16.000000          1          1  R\n"
			     "   +4.000000         +0     4.000000     8.000000          1          1  Q\n"
			     "   +1.000000         +0     1.000000     2.000000          1          1  Main\n")
		      != NULL, "routines' changes not as expected in:\n%s", text);
	ck_assert_msg(strstr(text,
			     "  +62.000000         +0    62.000000   124.000000          1          1  Main -> P\n"
			     "  +56.000000         +0    56.000000   112.000000          1          1  Q -> R\n")
		      != NULL, "arcs' changes not as expected in:\n%s", text);
	free(text);
	profile_free(old_p);
	profile_free(new_p);
}
END_TEST


Suite *suite_model(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("stages");

	tcase_add_test(tc, test_select_focus);
	tcase_add_test(tc, test_select_exclude);
	tcase_add_test(tc, test_select_elide);
	tcase_add_test(tc, test_sum);
	tcase_add_test(tc, test_cycles);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_diff);
	suite_add_tcase(s, tc);
	return s;
}
