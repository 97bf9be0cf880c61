/*
** s-focus.c -- focus, exclusion and elision (-F, -E, --elide) measured
** against what the program knows.  x is called under a (few calls, much
** work) and under b (many calls, little work); a runs both from main and
** from c.  Every routine allocates known bytes, freed at once:
**   main 1000, a 100 per call (5 calls), b 10 (4 calls), c 3 (2 calls),
**   x 7 (10 calls under a, 200 under b).
** So -F a keeps 5 * 100 + 10 * 7 = 570 bytes, --elide=x gives a 570 and b
** 4 * 10 + 200 * 7 = 1440 of self bytes.  gprof's rescaling by call counts
** would give a 10/210 of x's time; a's ten calls really do 99% of x's work
** (20,000,000 steps against b's 200,000).  a and b take turns, so a burst of
** load on the machine falls on both alike, and the program times x's calls
** under each itself and prints "measured x under a S, under b S": the ground
** truth when the machine is busy.
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static double under_a, under_b;   /* seconds in x, by caller */

void x(long n);
void a(void);
void b(void);
void c(void);
void unused(void);


/* SIZE bytes allocated and freed, charged to the caller: no hooks here. */
static void allocate(size_t size) __attribute__((no_instrument_function));

static void allocate(size_t size)
{
	char *volatile p = malloc(size);

	free(p);
}


/* Seconds on the monotonic clock (no hooks: no routine of the profile). */
static double now(void) __attribute__((no_instrument_function));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


void x(long n)
{
	long i;

	allocate(7);
	for (i = 0; i < n; i++)
		sink += (unsigned long)i;
}


void a(void)
{
	double t;

	allocate(100);
	t = now();
	x(2000000);
	x(2000000);
	under_a += now() - t;
}


void b(void)
{
	double t;
	int i;

	allocate(10);
	t = now();
	for (i = 0; i < 50; i++)
		x(1000);
	under_b += now() - t;
}


void c(void)
{
	allocate(3);
	a();
}


/* Never called: a focus on it keeps no context. */
void unused(void)
{
	sink = 0;
}


int main(void)
{
	char line[128];
	int i, n;

	allocate(1000);
	for (i = 0; i < 4; i++) {
		if (i < 3)
			a();
		b();
	}
	for (i = 0; i < 2; i++)
		c();
	/* Written without stdio's buffer, which malloc would charge to main. */
	n = snprintf(line, sizeof line, "measured x under a %.6f, under b %.6f\n", under_a,
		     under_b);
	return write(1, line, (size_t)n) == n ? 0 : 1;
}
