/*
** s-ways.c -- known call counts through more routines than a context caches
** successors for (runtime/transition.h: APROF_WAYS ways, whose counts go to
** their successors when reused and are added at every write), for
** tests/e2e-ways.sh.  rounds() calls r0..r39 in turn, ROUNDS times: r_i
** 1 + (i + round) % 5 times a round, each call recursing i % 3 times.
** Twenty rounds, aprof_dump() (amon.out), aprof_restart("amon2.out"), ten
** more: about 40 ways given up a round, so that rounds() gets a spill
** (APROF_SPILL_AFTER) after seven or so, and its counts are dumped and
** zeroed with the ways'.
*/
#include <aprof.h>

static volatile unsigned long sink;

#define R(i)                                  \
	void r##i(int depth);                 \
	void r##i(int depth)                  \
	{                                     \
		sink++;                       \
		if (depth > 0)                \
			r##i(depth - 1);      \
	}
#define R10(d) R(d##0) R(d##1) R(d##2) R(d##3) R(d##4) R(d##5) R(d##6) R(d##7) R(d##8) R(d##9)
R10() R10(1) R10(2) R10(3)

#define P(i) r##i,
#define P10(d) P(d##0) P(d##1) P(d##2) P(d##3) P(d##4) P(d##5) P(d##6) P(d##7) P(d##8) P(d##9)
static void (*const routine[40])(int) = { P10() P10(1) P10(2) P10(3) };

void rounds(int first, int n);

/* Rounds FIRST .. FIRST + N - 1. */
void rounds(int first, int n)
{
	int r, i, k;

	for (r = first; r < first + n; r++)
		for (i = 0; i < 40; i++)
			for (k = 0; k <= (i + r) % 5; k++)
				routine[i](i % 3);
}

int main(void)
{
	rounds(0, 20);
	aprof_dump();
	aprof_restart("amon2.out");
	rounds(20, 10);
	return 0;
}
