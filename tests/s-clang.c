/*
** s-clang.c -- known call counts for tests/e2e-clang.sh, built with clang
** at -O2: main calls alpha 3 times and beta 7 times; alpha calls leaf 2
** times per call, beta 5 times; leaf calls twice, which is always inlined.
**
** With -finstrument-functions clang instruments every routine before
** inlining, as GCC does: twice keeps its 41 calls, from leaf.  With
** -finstrument-functions-after-inlining only the routines left after
** inlining are instrumented: twice is not in the profile, and its time is
** leaf's.  The routines the counts are about are noinline, so -O2 cannot
** fold them away in either build.
*/
#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long twice(int i)
{
	return 2 * (unsigned long)i;
}

NOINLINE void leaf(int i);
NOINLINE void alpha(void);
NOINLINE void beta(void);


NOINLINE void leaf(int i)
{
	sink += twice(i);
}


NOINLINE void alpha(void)
{
	int i;

	for (i = 0; i < 2; i++)
		leaf(i);
}


NOINLINE void beta(void)
{
	int i;

	for (i = 0; i < 5; i++)
		leaf(i);
}


int main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		alpha();
	for (i = 0; i < 7; i++)
		beta();
	return 0;
}
