/*
** check_profile.c -- charging contexts to routines, arcs and cycles (Spivey,
** "Presenting the results"), on the contexts of Main -> P -> Q -> R -> P -> S
** with hand-chosen ticks (powers of two, so every sum names its contexts);
** and the runtime's own cost that the reader takes off the ticks, and the
** runtime's arithmetic behind it (runtime/cost.h).
*/
#include <config.h>

#include <string.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/hookcosts.h"
#include "aprof/model/profile.h"
#include "runtime/cost.h"
#include "tests/check_aprof.h"

#include "tests/check_spivey.h"

/* depth, calls, rec, ticks, history */
static struct amon_context_info contexts[] = {
	{ .depth = 0, .calls = 0, .rec = 0, .ticks = 100, .history = NULL }, /* root: not charged to any routine */
	{ .depth = 1, .calls = 1, .rec = 0, .ticks = 1, .history = h0 },
	{ .depth = 2, .calls = 1, .rec = 0, .ticks = 2, .history = h1 },
	{ .depth = 3, .calls = 1, .rec = 0, .ticks = 4, .history = h2 },
	{ .depth = 4, .calls = 1, .rec = 0, .ticks = 8, .history = h3 },
	{ .depth = 5, .calls = 1, .rec = 0, .ticks = 16, .history = h4 },
	{ .depth = 6, .calls = 1, .rec = 0, .ticks = 32, .history = h5 },
};

static struct symbol syms[] = {
	{ .addr = MAIN, .name = (char *)"Main" }, { .addr = P, .name = (char *)"P" },
	{ .addr = Q, .name = (char *)"Q" }, { .addr = R, .name = (char *)"R" },
	{ .addr = S, .name = (char *)"S" },
};

static struct profile *prof;
static struct amon_thread_info thread;
static struct amon_data data;


static void setup(void)
{
	static struct amon_module_info module = { 0, 0x1000, 0x6000, NULL, 0, (char *)"x", 1 };
	static struct symbols symbols = { syms, 5, NULL, NULL };

	thread.ncontexts = sizeof contexts / sizeof contexts[0];
	thread.contexts = contexts;
	data.header.ticks_per_second = 1;
	data.modules = &module;
	data.nmodules = 1;
	data.threads = &thread;
	data.nthreads = 1;
	prof = profile_build(&data, &symbols, PROF_TIME);
}


static const struct prof_proc *proc(const char *name)
{
	int i;

	for (i = 0; i < prof->nprocs; i++)
		if (strcmp(prof->procs[i].name, name) == 0)
			return &prof->procs[i];
	ck_abort_msg("no routine %s", name);
	return NULL;
}


static const struct prof_arc *arc(const char *from, const char *to)
{
	int f = from ? (int)(proc(from) - prof->procs) : PROF_SPONTANEOUS;
	const struct prof_arc *a = profile_arc(prof, f, (int)(proc(to) - prof->procs));

	ck_assert_msg(a != NULL, "no arc %s -> %s", from ? from : "<spontaneous>", to);
	return a;
}


/* Self and child: the time each routine ran, and was active, counted once. */
START_TEST(test_routines)
{
	ck_assert_uint_eq(prof->total, 63);
	ck_assert_uint_eq(prof->root, 100);
	ck_assert_uint_eq(proc("Main")->self, 1);
	ck_assert_uint_eq(proc("Main")->child, 62);
	ck_assert_uint_eq(proc("P")->self, 2 + 16);
	ck_assert_uint_eq(proc("P")->child, 4 + 8 + 32);
	ck_assert_uint_eq(proc("Q")->self, 4);
	ck_assert_uint_eq(proc("Q")->child, 8 + 16 + 32);
	ck_assert_uint_eq(proc("R")->self, 8);
	ck_assert_uint_eq(proc("R")->child, 16 + 32);
	ck_assert_uint_eq(proc("S")->self, 32);
	ck_assert_uint_eq(proc("P")->calls, 2);
}
END_TEST


/* self1/child1 (outgoing) and self2/child2 (incoming) of every arc. */
START_TEST(test_arcs)
{
	const struct prof_arc *a;

	a = arc(NULL, "Main");
	ck_assert_uint_eq(a->count, 1);
	ck_assert_uint_eq(a->self2, 1);
	ck_assert_uint_eq(a->child2, 62);
	a = arc("Main", "P");
	ck_assert_uint_eq(a->count, 1);
	ck_assert_uint_eq(a->self1, 2 + 16);    /* P running under Main's call, any activation */
	ck_assert_uint_eq(a->child1, 4 + 8 + 32);
	ck_assert_uint_eq(a->self2, 2);         /* P's most recent activation called by Main */
	ck_assert_uint_eq(a->child2, 4 + 8);
	a = arc("P", "Q");                      /* differs: mutual recursion */
	ck_assert_uint_eq(a->self1, 4);
	ck_assert_uint_eq(a->child1, 8);
	ck_assert_uint_eq(a->self2, 4);
	ck_assert_uint_eq(a->child2, 8 + 16 + 32);
	a = arc("Q", "R");
	ck_assert_uint_eq(a->self1, 8);
	ck_assert_uint_eq(a->child1, 16 + 32);
	ck_assert_uint_eq(a->self2, 8);
	ck_assert_uint_eq(a->child2, 16 + 32);
	a = arc("R", "P");
	ck_assert_uint_eq(a->count, 1);
	ck_assert_uint_eq(a->self1, 16);
	ck_assert_uint_eq(a->child1, 32);
	ck_assert_uint_eq(a->self2, 16);
	ck_assert_uint_eq(a->child2, 32);
	a = arc("P", "S");
	ck_assert_uint_eq(a->self1, 32);
	ck_assert_uint_eq(a->self2, 32);
	ck_assert_uint_eq(a->child1 + a->child2, 0);
}
END_TEST


/* P, Q, R form gprof's cycle 1; its times are exact, not propagated. */
START_TEST(test_cycle)
{
	const struct prof_cycle *c;

	ck_assert_int_eq(prof->ncycles, 1);
	c = &prof->cycles[0];
	ck_assert_int_eq(c->nmembers, 3);
	ck_assert_int_eq(proc("P")->cycle, 1);
	ck_assert_int_eq(proc("S")->cycle, 0);
	ck_assert_uint_eq(c->self, 18 + 4 + 8);
	ck_assert_uint_eq(c->child, 32);        /* active 62 = 2 + 4 + 8 + 16 + 32 */
	ck_assert_uint_eq(c->calls, 1);
	ck_assert_uint_eq(c->internal, 3);
}
END_TEST


/*
** The runtime's own cost (aprof/model/hookcosts.c): the calibration scaled by the
** CPU's speed in the run (empty probes 30 per entry probe against 20 at
** calibration: k = 1.5), plus what the in-run probes found beyond the
** calibrated probes, scaled alike; the heap's probes less an empty one.
*/
START_TEST(test_own_costs)
{
	struct amon_thread th;
	struct amon_thread_info ti;

	memset(&th, 0, sizeof th);
	memset(&ti, 0, sizeof ti);
	th.entry_ticks = 40;
	th.exit_ticks = 30;
	th.entry_probe_base = 20;
	th.exit_probe_base = 10;
	th.probe_empty = 20;
	th.entry_probes = 4;
	th.entry_probe_ticks = 4 * 50;    /* 50 - 1.5 * 20 = 20 more per entry */
	th.empty_probe_ticks = 4 * 30;
	th.exit_probes = 2;
	th.exit_probe_ticks = 2 * 12;     /* 12 - 1.5 * 10 = 3 less per exit */
	th.heap_probes = 5;
	th.heap_probe_ticks = 5 * 100;
	amon_own_costs(&th, &ti);
	ck_assert_double_eq(ti.entry_cost, 1.5 * 40 + 20 - 3);
	ck_assert_double_eq(ti.exit_cost, 1.5 * 30);
	ck_assert_double_eq(ti.heap_cost, 100 - 30);
	ck_assert_uint_eq(ti.probes[0], 4);
	ck_assert_uint_eq(ti.probes[2], 5);

	/* No probes (sampling mode, or a short run): the calibration as it is. */
	th.entry_probes = th.exit_probes = th.heap_probes = 0;
	amon_own_costs(&th, &ti);
	ck_assert_double_eq(ti.entry_cost, 40);
	ck_assert_double_eq(ti.exit_cost, 30);
	ck_assert_double_eq(ti.heap_cost, 0);

	/* Never below 0: probes that found the hooks cheaper than calibration did. */
	th.entry_probes = 1;
	th.entry_probe_ticks = 0;
	th.empty_probe_ticks = 20;
	amon_own_costs(&th, &ti);
	ck_assert_double_eq(ti.entry_cost, 40 - 20);
	th.entry_ticks = 10;
	amon_own_costs(&th, &ti);
	ck_assert_double_eq(ti.entry_cost, 0);
}
END_TEST


/*
** The hooks' cost over the run and per routine (hookcosts_total,
** hookcosts_by_routine) on figure 2's six calls, P's two among them: with
** a clock, the cost model's 2 + 1 ticks a call; sampling, twice the
** runtime's 12 samples over the six calls, of which only the 12 were
** measured apart from the contexts.
*/
START_TEST(test_hookcosts)
{
	struct hookcosts_total t;
	double own[5];

	data.header.clock = AMON_CLOCK_TSC;
	thread.entry_cost = 2;
	thread.exit_cost = 1;
	thread.runtime_ticks = 12;
	ck_assert_double_eq(hookcosts_per_call(&data, &thread), 3);
	hookcosts_total(&data, &t);
	ck_assert_uint_eq(t.calls, 6);
	ck_assert_double_eq(t.own, 18);
	ck_assert_double_eq(t.all, 18 + 100 + 63);
	ck_assert_int_eq(prof->nprocs, 5);
	hookcosts_by_routine(&data, prof, own);
	ck_assert_double_eq(own[proc("P") - prof->procs], 6);
	ck_assert_double_eq(own[proc("S") - prof->procs], 3);
	ck_assert_double_eq(own[proc("Main") - prof->procs], 3);

	data.header.clock = AMON_CLOCK_SAMPLE;
	ck_assert_double_eq(hookcosts_per_call(&data, &thread), 4);
	hookcosts_total(&data, &t);
	ck_assert_double_eq(t.own, 24);
	ck_assert_double_eq(t.all, 12 + 100 + 63);
	hookcosts_by_routine(&data, prof, own);
	ck_assert_double_eq(own[proc("P") - prof->procs], 8);
	data.header.clock = 0;
	thread.entry_cost = thread.exit_cost = 0;
	thread.runtime_ticks = 0;
}
END_TEST


/*
** The calibration's arithmetic (runtime/cost.h): ticks per call rounded to the
** nearest, less the uninstrumented loop's; the bound on one probe, and a
** probe an interrupt lengthened counted at the bound.
*/
START_TEST(test_calibration_arithmetic)
{
	struct aprof_hook_cost cost = { .probe_entry = 25, .probe_exit = 31 };

	ck_assert_uint_eq(aprof_cost_per_call(49000, 0, 2000), 25);     /* 24.5: up */
	ck_assert_uint_eq(aprof_cost_per_call(48999, 0, 2000), 24);     /* 24.4995: down */
	ck_assert_uint_eq(aprof_cost_per_call(49000, 7000, 2000), 21);  /* 24.5 - 3.5 */
	ck_assert_uint_eq(aprof_cost_per_call(7000, 7000, 2000), 0);
	ck_assert_uint_eq(aprof_cost_per_call(6000, 7000, 2000), 0);    /* never below 0 */
	ck_assert_uint_eq(aprof_probe_bound_of(&cost), 64 * 32);
	cost.probe_exit = 0;
	ck_assert_uint_eq(aprof_probe_bound_of(&cost), 64 * 26);
	ck_assert_uint_eq(aprof_probe_ticks(33, 2048), 33);
	ck_assert_uint_eq(aprof_probe_ticks(2048, 2048), 2048);
	ck_assert_uint_eq(aprof_probe_ticks(142194, 2048), 2048);       /* 55 us of an interrupt */
	/* Zero ticks calibrated (a coarse clock): the bound still lets a tick through. */
	memset(&cost, 0, sizeof cost);
	ck_assert_uint_eq(aprof_probe_ticks(1, aprof_probe_bound_of(&cost)), 1);
}
END_TEST


/*
** A heap log's replay taken out of the interval it ran in (runtime/cost.h):
** the thread's last clock moved on by its ticks, unless a hook moved it
** meanwhile (a signal handler's), which leaves it as the hook set it.
*/
START_TEST(test_interval_skip)
{
	uint64_t last = 1000;

	ck_assert_uint_eq(aprof_interval_skip(&last, 1000, 891), 891);
	ck_assert_uint_eq(last, 1891);  /* the next hook at 2000 charges 109 */
	ck_assert_uint_eq(aprof_interval_skip(&last, 1891, 0), 0);
	ck_assert_uint_eq(last, 1891);
	last = 1500;                    /* a handler's hooks ran during the replay */
	ck_assert_uint_eq(aprof_interval_skip(&last, 1000, 891), 0);
	ck_assert_uint_eq(last, 1500);
}
END_TEST


Suite *suite_profile(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("figure2");
	TCase *own = tcase_create("own-costs");

	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_routines);
	tcase_add_test(tc, test_arcs);
	tcase_add_test(tc, test_cycle);
	tcase_add_test(tc, test_hookcosts);
	suite_add_tcase(s, tc);
	tcase_add_test(own, test_own_costs);
	tcase_add_test(own, test_calibration_arithmetic);
	tcase_add_test(own, test_interval_skip);
	suite_add_tcase(s, own);
	return s;
}
