/*
** s-jobs.c -- workloads for the exports, the sum and the 9:1 case
** (tests/e2e-exports.sh, e2e-sum.sh).  "s-jobs LETTERS" runs a job per
** letter, each through run(): a: big calls share(900) 10 times; b: small
** calls share(100) 10 times; c: fact(6), directly recursive, and keep()
** leaking 3 blocks of 64 bytes.  share(n) allocates n bytes, frees them and
** spins n * 1000 times, so share's 10,000 bytes and its time go 9:1 to big
** and small while both call it equally often.  Nothing else allocates.
*/
#include <stdlib.h>

void share(int n);
void big(void);
void small(void);
long fact(long n);
void keep(void);
void run(char job);

static void *volatile block;
static volatile unsigned long sink;


void share(int n)
{
	int i;

	block = malloc((size_t)n);
	free(block);
	for (i = 0; i < n * 1000; i++)
		sink += (unsigned long)i;
}


void big(void)
{
	int i;

	for (i = 0; i < 10; i++)
		share(900);
}


void small(void)
{
	int i;

	for (i = 0; i < 10; i++)
		share(100);
}


long fact(long n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}


void keep(void)
{
	block = malloc(64);
}


void run(char job)
{
	int i;

	switch (job) {
	case 'a':
		big();
		break;
	case 'b':
		small();
		break;
	case 'c':
		sink += (unsigned long)fact(6);
		for (i = 0; i < 3; i++)
			keep();
		break;
	}
}


int main(int argc, char **argv)
{
	const char *jobs = argc > 1 ? argv[1] : "abc";

	for (; *jobs != '\0'; jobs++)
		run(*jobs);
	return 0;
}
