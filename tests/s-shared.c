/*
** s-shared.c -- a routine shared by two callers that make the same number of
** calls but ask for 9:1 work.  gprof splits shared's time 1:1 between them
** (the average-time assumption); aprof must show 9:1 on the two arcs.  The
** callers take turns, 200 times each, so that a burst of load on the machine
** falls on both alike, and the program times each call itself with
** CLOCK_MONOTONIC and prints the ratio it saw, "measured big:small R": the
** ground truth the test holds aprof's arcs to when the machine is busy.
*/
#include <stdio.h>
#include <time.h>

static volatile unsigned long sink;

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
	shared(1125000);
}


void small(void)
{
	shared(125000);
}


static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


int main(void)
{
	double t, big_s = 0, small_s = 0;
	int i;

	for (i = 0; i < 200; i++) {
		t = now();
		big();
		big_s += now() - t;
		t = now();
		small();
		small_s += now() - t;
	}
	printf("measured big:small %.4f\n", big_s / small_s);
	return 0;
}
