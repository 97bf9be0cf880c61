/*
** check_history.c -- steps A1-A5 and B1-B3 on the example of Spivey's paper,
** Main -> (P -> Q -> R)^n -> P -> S, driving a thread's machine directly with
** made-up entry addresses (odd ones: -O0 code is not aligned).
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


/* A call from context FROM: the machine's transition, counted as the hook does. */
static struct aprof_context *call(struct aprof_context *from, uintptr_t proc)
{
	struct aprof_context *to = aprof_transition(&m, from, proc);

	if (to == from)
		from->rec++;
	else
		to->calls++;
	return to;
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
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n",
			 show(c->history, c->depth));
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
	ck_assert_str_eq(show(c6->history, c6->depth), "Main (P) (R) P Q R");
	ck_assert_uint_eq(c4->calls, 2);
	ck_assert_uint_eq(c5->calls, 2);
	ck_assert_uint_eq(c6->calls, 1);
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
	ck_assert_uint_eq(c1->rec, 3);
	ck_assert_uint_eq(c1->calls, 1);
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
	suite_add_tcase(s, tc);
	return s;
}
