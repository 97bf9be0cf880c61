/*
** s-prologue.c -- a routine whose own work is all prologue and epilogue:
** leaf saves and restores five registers and does nothing else, so that
** built with -finstrument-functions most of its instructions run before its
** entry hook and after its exit hook, while its caller's context is
** current.  loop calls it N times and does little itself.  Sampled, leaf's
** time must be leaf's (tests/e2e-prologue.sh); charged to the context
** current, most of it would be loop's.
**
** usage: s-prologue [N]
*/
#include <stdio.h>
#include <stdlib.h>

void leaf(void);
void loop(long n);


/* Five callee-saved registers clobbered: pushed in its prologue, popped in its epilogue. */
void leaf(void)
{
	__asm__ __volatile__("" ::: "rbx", "r12", "r13", "r14", "r15");
}


void loop(long n)
{
	long i;

	for (i = 0; i < n; i++)
		leaf();
}


int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;

	loop(n);
	printf("prologue %ld\n", n);
	return 0;
}
