/*
** s-split.c -- one routine, work, called from two callers that ask for
** different amounts of it: a calls it 10 times for ten-elevenths of its
** work, b 90 times for the rest, so the arc a -> work carries ten times the
** time of b -> work although b calls it nine times as often (gprof's
** reading, by call counts, would be 1:9).  The two take turns, a once and b
** nine times in each of 10 rounds, and each times its calls of work in the
** thread's CPU time, the time aprof samples: on a busy machine the same
** work may take more CPU time at one moment than at another (other
** processes on the same core, cache or memory), and the program prints the
** ratio it measured, which aprof's arcs must show (tests/e2e-split.sh).
**
** usage: s-split [N]   work(N) is one unit; a asks for 900 units, b for 90.
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static double in_a, in_b; /* CPU seconds in work's calls from a, from b */

void work(unsigned long n);
void a(unsigned long unit);
void b(unsigned long unit);


/* Seconds of the thread's CPU time (not profiled: no hooks, no entry in the report). */
static double now(void) __attribute__((no_instrument_function));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


/* N iterations of a loop that stays in work's own code. */
void work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}


/* One call of 90 units. */
void a(unsigned long unit)
{
	double t0 = now();

	work(90 * unit);
	in_a += now() - t0;
}


/* 9 calls of 1 unit each. */
void b(unsigned long unit)
{
	int i;

	for (i = 0; i < 9; i++) {
		double t0 = now();

		work(unit);
		in_b += now() - t0;
	}
}


int main(int argc, char **argv)
{
	unsigned long unit = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	int round;

	for (round = 0; round < 10; round++) {
		a(unit);
		b(unit);
	}
	printf("measured a:b %.4f\n", in_a / in_b);
	return 0;
}
