/*
** s-deep.c -- recursion 1,000,000 deep, on a thread of its own with a 1 GiB
** stack (so that nothing depends on ulimit -s): down recurses directly,
** down(999999) to down(0): 1 call + 999999 recursive; then ping and pong
** call each other, ping(999999) to pong(0): 500000 calls of each, the
** deepest 1,000,000 activations.  Then main calls after once.
*/
#include <pthread.h>
#include <stdio.h>

#define DEPTH 1000000
#define STACK ((size_t)1 << 30)

static volatile unsigned long sink;

unsigned long down(int n);
unsigned long ping(int n);
unsigned long pong(int n);
void *deep(void *arg);
void after(void);


/* Something to do after the call, so that it is a real call, not a jump. */
unsigned long down(int n)
{
	return n == 0 ? 0 : down(n - 1) + 1;
}


unsigned long ping(int n)
{
	return n == 0 ? 0 : pong(n - 1) + 1;
}


unsigned long pong(int n)
{
	return n == 0 ? 0 : ping(n - 1) + 1;
}


void *deep(void *arg)
{
	sink += down(DEPTH - 1);
	sink += ping(DEPTH - 1);
	return arg;
}


void after(void)
{
	sink++;
}


int main(void)
{
	pthread_attr_t a;
	pthread_t t;

	if (pthread_attr_init(&a) != 0 || pthread_attr_setstacksize(&a, STACK) != 0 ||
	    pthread_create(&t, &a, deep, NULL) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	after();
	printf("sink %lu\n", sink);
	return sink == 2 * (DEPTH - 1) + 1 ? 0 : 1;
}
