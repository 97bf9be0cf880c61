/*
** s-pqrs.c -- the example of Spivey's paper (Figures 1 and 2):
** Main -> (P -> Q -> R)^n -> P -> S, n from the command line (default 5).
** P is entered n + 1 times, Q and R n times each, S once.
*/
#include <stdlib.h>

void P(int n);
void Q(int n);
void R(int n);
void S(void);

static volatile unsigned long sink;


void S(void)
{
	int i;

	for (i = 0; i < 1000; i++)
		sink += (unsigned long)i;
}


void P(int n)
{
	if (n > 0)
		Q(n);
	else
		S();
}


void Q(int n)
{
	R(n);
}


void R(int n)
{
	P(n - 1);
}


int main(int argc, char **argv)
{
	P(argc > 1 ? atoi(argv[1]) : 5);
	return 0;
}
