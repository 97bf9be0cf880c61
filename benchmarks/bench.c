/*
** bench.c -- the hook-overhead benchmark: CALLS calls of small routines in
** a known pattern (a leaf, a two-level nest, a direct recursion), so the cost
** per call of each build variant can be measured against the bare program.
** Usage: bench [millions of calls, default 50]
*/
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

void leaf(unsigned long i);
void nested(unsigned long i);
unsigned long down(unsigned long n);


void leaf(unsigned long i)
{
	sink += i;
}


void nested(unsigned long i)
{
	leaf(i);
}


unsigned long down(unsigned long n)
{
	return n == 0 ? 0 : 1 + down(n - 1);
}


int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 50;
	unsigned long i, calls = 0, n = millions * 1000000ul / 4;

	/* Each round makes 4 calls: leaf, nested + its leaf, and down(0). */
	for (i = 0; i < n; i++) {
		leaf(i);
		nested(i);
		sink += down(0);
	}
	calls = 4 * n;
	printf("%lu\n", calls);
	return 0;
}
