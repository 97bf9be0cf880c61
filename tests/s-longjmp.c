/*
** s-longjmp.c -- longjmp out of a 20-deep recursion, 1000 times.  The exit
** hooks of the 20 descend activations and of bail never run; after each
** jump main calls after(), whose caller must be main, not a dead descend:
** the runtime pops the 21 abandoned entries (21000 resyncs in all).
** Given "sig", the same with sigsetjmp and siglongjmp.  After each jump
** main spins in its own body, calling nothing, for about 50 us: that time is
** main's, not that of the context the jump left (main > descend > bail).
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


void after(void)
{
	sink++;
}


int main(int argc, char **argv)
{
	volatile int round;
	int i;

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
