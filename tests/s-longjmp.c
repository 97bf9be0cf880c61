/*
** s-longjmp.c -- longjmp out of a 20-deep recursion, 1000 times.  The exit
** hooks of the 20 descend activations and of bail never run; after each
** jump main calls after(), whose caller must be main, not a dead descend:
** the runtime pops the 21 abandoned entries (21000 resyncs in all).
** Given "sig", the same with sigsetjmp and siglongjmp.  After each jump
** main spins in its own body, calling nothing, for about 50 us: that time is
** main's, not that of the context the jump left (main > descend > bail).
** Given "mid", a jump into the middle of a recursion instead, 1000 times:
** nest(4) recurses to nest(0), which jumps back to nest(2), whose exit hook
** is the next hook.  nest(0), nest(1) and nest(2) were all called from
** the one site in nest, so the exit must find nest(2)'s entry by where its
** activation lies on the stack, not by its call site: popped with it, those
** of nest(1) and nest(0) (2000 resyncs), and after()'s caller is main.
*/
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static jmp_buf env;
static sigjmp_buf sigenv;
static int use_sig;
static volatile int sink;

void bail(void);
void descend(int n);
void after(void);
void nest(int n);


void bail(void)
{
	if (use_sig)
		siglongjmp(sigenv, 1);
	longjmp(env, 1);
}


void descend(int n)
{
	sink++;
	if (n == 0)
		bail();
	else
		descend(n - 1);
	sink++; /* never reached; keeps the recursive call from being a jump */
}


static jmp_buf *landing;

void nest(int n)
{
	jmp_buf here;

	sink++;
	if (n == 0)
		longjmp(*landing, 1);
	if (n == 2) {
		landing = &here;
		if (setjmp(here) != 0)
			return; /* the next hook after the jump: this activation's exit */
	}
	nest(n - 1);
	sink++; /* keeps the recursive call from being a jump */
}


void after(void)
{
	sink++;
}


int main(int argc, char **argv)
{
	volatile int round;
	int i;

	if (argc > 1 && strcmp(argv[1], "mid") == 0) {
		for (i = 0; i < 1000; i++) {
			nest(4);
			after();
		}
		printf("%d\n", sink);
		return 0;
	}
	use_sig = argc > 1 && strcmp(argv[1], "sig") == 0;
	for (round = 0; round < 1000; round++) {
		if (use_sig) {
			if (sigsetjmp(sigenv, 1) == 0)
				descend(19);
		} else if (setjmp(env) == 0) {
			descend(19);
		}
		for (i = 0; i < 50000; i++)
			sink++;
		after();
	}
	printf("%d\n", sink);
	return 0;
}
