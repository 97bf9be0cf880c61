/*
** s-deep.c -- recursion 1,000,000 deep, on a thread of its own with a 1 GiB
** stack (so that nothing depends on ulimit -s): down recurses directly,
** down(999999) to down(0): 1 call + 999999 recursive; then ping and pong
** call each other, ping(999999) to pong(0): 500000 calls of each, the
** deepest 1,000,000 activations.  Then main calls after once, and a chain
** of 256 distinct routines, link_0000 to link_3333 (base 4), each calling
** the next: contexts whose histories hold 2 to 257 entries, more in all
** (33,152, 265,216 bytes whole) than the runtime keeps for them (a history
** is its prefix and a few entries), which amon.out's reader must take.
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
static void link_next(void (*self)(void));

/* The chain's routines, and the table that orders them. */
#define LINK(i) static void link_##i(void) { link_next(link_##i); }
#define ADDR(i) link_##i,
#define BY4(m, p) m(p##0) m(p##1) m(p##2) m(p##3)
#define BY16(m, p) BY4(m, p##0) BY4(m, p##1) BY4(m, p##2) BY4(m, p##3)
#define BY64(m, p) BY16(m, p##0) BY16(m, p##1) BY16(m, p##2) BY16(m, p##3)
#define BY256(m) BY64(m, 0) BY64(m, 1) BY64(m, 2) BY64(m, 3)
#define CHAIN 256

BY256(LINK)
static void (*const chain[CHAIN])(void) = { BY256(ADDR) };


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


/* Calls the routine after SELF in the chain, if any (not instrumented: not in the histories). */
__attribute__((no_instrument_function)) static void link_next(void (*self)(void))
{
	int i;

	for (i = 0; i + 1 < CHAIN; i++)
		if (chain[i] == self) {
			chain[i + 1]();
			return;
		}
}


int main(void)
{
	pthread_attr_t a;
	pthread_t t;

	if (pthread_attr_init(&a) != 0 || pthread_attr_setstacksize(&a, STACK) != 0 ||
	    pthread_create(&t, &a, deep, NULL) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	after();
	chain[0]();
	printf("sink %lu\n", sink);
	return sink == 2 * (DEPTH - 1) + 1 ? 0 : 1;
}
