/*
** check_history.c -- steps A1-A5 and B1-B3 on the example of Spivey's paper,
** Main -> (P -> Q -> R)^n -> P -> S, driving a thread's machine directly with
** made-up entry addresses (odd ones: -O0 code is not aligned); and the
** successor ways' counts, given up when a way is reused and added at a write.
*/
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "runtime/history.h"
#include "runtime/transition.h"
#include "tests/check_aprof.h"

enum { MAIN = 0x1001, P = 0x2003, Q = 0x3005, R = 0x4007, S = 0x5009 };

static struct aprof_machine m;


static const char *name_of(uint64_t a)
{
	switch (a) {
	case MAIN: return "Main";
	case P: return "P";
	case Q: return "Q";
	case R: return "R";
	case S: return "S";
	default: return "?";
	}
}


/* "Main (P) Q R P": unmarked entries (m_i = F) in parentheses. */
static const char *show(const uint64_t *h, uint32_t n)
{
	static char buf[256];
	uint32_t k;

	buf[0] = '\0';
	for (k = 0; k < n; k++) {
		const char *f = AMON_MARKED(h[k]) ? "%s%s" : "%s(%s)";

		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), f, k ? " " : "",
			 name_of(AMON_ADDR(h[k])));
	}
	return buf;
}


/* C's history, shown. */
static const char *history_of(const struct aprof_context *c)
{
	uint64_t h[16];

	ck_assert_uint_le(c->depth, 16);
	aprof_context_history(c, h);
	return show(h, c->depth);
}


/* A call from context FROM: the cached successor or the machine's, counted as the hook does. */
static struct aprof_context *call(struct aprof_context *from, uintptr_t proc)
{
	struct aprof_way *w = aprof_successor(from, proc);

	if (w == NULL)
		w = aprof_successor_miss(&m, from, proc);
	w->calls++;
	return w->to;
}


/* C's calls as the writer finds them (all contexts tallied), and its direct recursive ones. */
static uint64_t calls_of(const struct aprof_context *c)
{
	aprof_machine_tally(&m, m.contexts);
	return c->calls + c->through;
}


/* Runs Main -> (P -> Q -> R)^N -> P -> S on a fresh machine; returns the last context. */
static struct aprof_context *run(int n)
{
	struct aprof_context *c;
	int i;

	ck_assert_int_eq(aprof_machine_init(&m), 0);
	c = call(m.root, MAIN);
	for (i = 0; i < n; i++) {
		c = call(c, P);
		c = call(c, Q);
		c = call(c, R);
	}
	c = call(c, P);
	return call(c, S);
}


/* The histories of all contexts but the root, in creation order, one per line. */
static const char *all_histories(void)
{
	static char buf[1024];
	const struct aprof_context *c;

	buf[0] = '\0';
	for (c = m.first->next; c != NULL; c = c->next)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n", history_of(c));
	return buf;
}


/* Figure 2 of the paper: C0 = Main, C1..C6, and S called from C1 and from C4. */
static const char *const figure2[] = {
	/* n = 0 */
	"Main\nMain P\nMain P S\n",
	/* n = 1 */
	"Main\nMain P\nMain P Q\nMain P Q R\nMain (P) Q R P\nMain (P) Q R P S\n",
	/* n >= 2: C5 and C6 appear, and C6 -P-> C4 closes the cycle */
	"Main\nMain P\nMain P Q\nMain P Q R\nMain (P) Q R P\nMain (P) (Q) R P Q\n"
	"Main (P) (R) P Q R\nMain (P) Q R P S\n",
};

START_TEST(test_figure2_histories)
{
	run(_i);
	ck_assert_str_eq(all_histories(), figure2[_i < 2 ? _i : 2]);
}
END_TEST


START_TEST(test_contexts_stop_growing)
{
	size_t contexts, transitions;

	run(2);
	contexts = m.contexts;
	transitions = m.transitions;
	ck_assert_uint_eq(contexts, 9); /* root + 8 */
	/* One transition per context but the root, plus C6 -P-> C4 found by B2. */
	ck_assert_uint_eq(transitions, 9);
	run(_i);
	ck_assert_uint_eq(m.contexts, contexts);
	ck_assert_uint_eq(m.transitions, transitions);
}
END_TEST


/* C6 -P-> C4 is the context made by C3 -P->: the same object, reached through B2. */
START_TEST(test_cycle_closes_through_b2)
{
	struct aprof_context *c1, *c2, *c3, *c4, *c5, *c6;

	ck_assert_int_eq(aprof_machine_init(&m), 0);
	c1 = call(call(m.root, MAIN), P);
	c2 = call(c1, Q);
	c3 = call(c2, R);
	c4 = call(c3, P);
	c5 = call(c4, Q);
	c6 = call(c5, R);
	ck_assert_ptr_eq(call(c6, P), c4);
	ck_assert_ptr_eq(call(c4, Q), c5); /* B1 from now on */
	ck_assert_str_eq(history_of(c6), "Main (P) (R) P Q R");
	/* Stored as the longest prefix that is a context's history, and the rest. */
	ck_assert_ptr_eq(c2->prefix, c1);
	ck_assert_uint_eq(c2->own, 1);
	ck_assert_ptr_eq(c4->prefix, c1->prefix); /* Main; "Main (P)" is no context */
	ck_assert_uint_eq(c4->own, 4);
	ck_assert_uint_eq(calls_of(c4), 2);
	ck_assert_uint_eq(calls_of(c5), 2);
	ck_assert_uint_eq(calls_of(c6), 1);
}
END_TEST


START_TEST(test_direct_recursion)
{
	struct aprof_context *c1, *c;
	size_t contexts;

	ck_assert_int_eq(aprof_machine_init(&m), 0);
	c1 = call(call(m.root, MAIN), P);
	contexts = m.contexts;
	c = call(call(call(c1, P), P), P);
	ck_assert_ptr_eq(c, c1);            /* A1: P -> P keeps the context */
	ck_assert_uint_eq(m.contexts, contexts);
	ck_assert_uint_eq(aprof_context_rec(c1), 3);
	ck_assert_uint_eq(calls_of(c1), 1);
}
END_TEST


/*
** Routine I of the ways test: 40 routines at 16-byte strides, more than a
** context has ways (APROF_WAYS), so that calls from one context reuse ways
** and give their counts up to their successors.
*/
enum { ROUTINES = 40 };
#define ROUTINE(i) ((uintptr_t)0x10000 + 16 * (uintptr_t)(i))

/*
** ROUNDS rounds of calls from MAIN_CTX: routine I 1 + (I + R) % 5 times in
** round R, each recursing I % 3 times; counted into CALLS[I] and REC[I].
*/
static void call_rounds(struct aprof_context *main_ctx, int rounds, uint64_t *calls, uint64_t *rec)
{
	int r, i, k, j;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < ROUTINES; i++)
			for (k = 0; k <= (i + r) % 5; k++) {
				struct aprof_context *c = call(main_ctx, ROUTINE(i));

				calls[i]++;
				for (j = 0; j < i % 3; j++, rec[i]++)
					ck_assert_ptr_eq(call(c, ROUTINE(i)), c);
			}
}

/* B1: FROM's successor on a call of PROC, in a way of FROM or else in the table; NULL if none. */
static struct aprof_context *successor_of(struct aprof_context *from, uintptr_t proc)
{
	struct aprof_way *w = aprof_successor(from, proc);

	return w != NULL ? w->to : aprof_transition_known(&m, from, proc);
}


/* The counts of Main -> routine I are CALLS[I] and REC[I], as the writer adds them up. */
static void check_rounds(struct aprof_context *main_ctx, const uint64_t *calls, const uint64_t *rec)
{
	int i;

	for (i = 0; i < ROUTINES; i++) {
		struct aprof_context *c = successor_of(main_ctx, ROUTINE(i));

		ck_assert_ptr_nonnull(c);
		ck_assert_uint_eq(calls_of(c), calls[i]);
		ck_assert_uint_eq(aprof_context_rec(c), rec[i]);
	}
}

START_TEST(test_ways_counted)
{
	uint64_t calls[ROUTINES] = { 0 }, rec[ROUTINES] = { 0 }, given_up = 0;
	struct aprof_context *main_ctx;
	const struct aprof_context *c;
	size_t transitions;

	ck_assert_int_eq(aprof_machine_init(&m), 0);
	main_ctx = call(m.root, MAIN);
	call_rounds(main_ctx, 7, calls, rec);
	check_rounds(main_ctx, calls, rec);
	for (c = m.first; c != NULL; c = c->next)
		given_up += c->calls;
	ck_assert_uint_gt(given_up, 0); /* ways were reused: counts in contexts and in ways */
	check_rounds(main_ctx, calls, rec); /* a second write finds the same */
	/* The table kept what the ways gave up: B2-B3 made no transition twice. */
	ck_assert_uint_gt(m.used, 0);
	transitions = m.transitions;
	call_rounds(main_ctx, 2, calls, rec);
	ck_assert_uint_eq(m.transitions, transitions);
	check_rounds(main_ctx, calls, rec);

	/* A restart forgets every count, the ways' too; counting goes on from zero. */
	aprof_machine_zero(&m);
	memset(calls, 0, sizeof calls);
	memset(rec, 0, sizeof rec);
	check_rounds(main_ctx, calls, rec);
	call_rounds(main_ctx, 3, calls, rec);
	check_rounds(main_ctx, calls, rec);
}
END_TEST


/* A4 and A5 one step at a time, on the paper's worked transitions. */
START_TEST(test_history_steps)
{
	const uint64_t M = AMON_MARK;
	uint64_t c4[] = { MAIN | M, P, Q | M, R | M, P | M };
	uint64_t c5[] = { MAIN | M, P, Q, R | M, P | M, Q | M };
	uint64_t c6[] = { MAIN | M, P, R, P | M, Q | M, R | M };
	uint64_t out[8];
	uint32_t n;

	n = aprof_history_next(c4, 5, Q, out);  /* no deletion */
	ck_assert_str_eq(show(out, n), "Main (P) (Q) R P Q");
	n = aprof_history_next(c5, 6, R, out);  /* A4 drops the middle (Q) */
	ck_assert_str_eq(show(out, n), "Main (P) (R) P Q R");
	n = aprof_history_next(c6, 6, P, out);  /* A4 drops (R), A5 one of (P) (P) */
	ck_assert_str_eq(show(out, n), "Main (P) Q R P");
	ck_assert_uint_eq(aprof_history_next(c4, 5, P, out), 0); /* A1 */
	ck_assert_uint_eq(aprof_history_next(NULL, 0, MAIN, out), 1);
}
END_TEST


Suite *suite_history(void)
{
	Suite *s = suite_create("history");
	TCase *tc = tcase_create("figure2");

	tcase_add_loop_test(tc, test_figure2_histories, 0, 6);
	tcase_add_loop_test(tc, test_contexts_stop_growing, 2, 6);
	tcase_add_test(tc, test_cycle_closes_through_b2);
	tcase_add_test(tc, test_direct_recursion);
	tcase_add_test(tc, test_history_steps);
	tcase_add_test(tc, test_ways_counted);
	suite_add_tcase(s, tc);
	return s;
}
