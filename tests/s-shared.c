/*
** s-shared.c -- a routine shared by two callers that make the same number of
** calls but ask for 9:1 work.  gprof splits shared's time 1:1 between them
** (the average-time assumption); aprof must show 9:1 on the two arcs.  The
** callers take turns, 200 times each, so that a burst of load on the machine
** falls on both alike, and the program times each call of shared itself
** with CLOCK_MONOTONIC, inside its caller, and prints the ratio it saw,
** "measured big:small R": the ground truth the test holds aprof's arcs to
** when the machine is busy.  (Timed around big and small instead, it also
** counted what the hooks of their entries did, which aprof charges to big
** and small themselves: once, a first call's new context waited 10 ms for
** the CPU there, and the ratios differed threefold.)
*/
#include <stdio.h>
#include <time.h>

static volatile unsigned long sink;
static double big_s, small_s;   /* seconds in shared, by caller */

static double now(void) __attribute__((no_instrument_function));

void shared(long n);
void big(void);
void small(void);


void shared(long n)
{
	long i;

	for (i = 0; i < n; i++)
		sink += (unsigned long)i;
}


void big(void)
{
	double t = now();

	shared(1125000);
	big_s += now() - t;
}


void small(void)
{
	double t = now();

	shared(125000);
	small_s += now() - t;
}


/* Seconds on the monotonic clock (no hooks: no routine of the profile). */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


int main(void)
{
	int i;

	for (i = 0; i < 200; i++) {
		big();
		small();
	}
	printf("measured big:small %.4f\n", big_s / small_s);
	return 0;
}
