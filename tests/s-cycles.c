/*
** s-cycles.c -- cycles of recursion that happened, for --cycles.
** "s-cycles paper N": the paper's Main -> (P -> Q -> R)^N -> P -> S (Spivey,
** "Presenting the results"): one cycle, P -> Q -> R -> P, traversed N times.
** "s-cycles two": two separate cycles, A -> B -> A (entered 3 times from
** main, traversed 4 times each: 12) and C -> D -> E -> C (entered once,
** traversed 5 times), and nothing else recursive.
*/
#include <stdlib.h>
#include <string.h>

void P(int n);
void Q(int n);
void R(int n);
void S(void);
void A(int n);
void B(int n);
void C(int n);
void D(int n);
void E(int n);


void S(void)
{
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


void A(int n)
{
	B(n);
}


void B(int n)
{
	if (n > 0)
		A(n - 1);
}


void C(int n)
{
	D(n);
}


void D(int n)
{
	E(n);
}


void E(int n)
{
	if (n > 0)
		C(n - 1);
}


int main(int argc, char **argv)
{
	int i;

	if (argc == 3 && strcmp(argv[1], "paper") == 0) {
		P(atoi(argv[2]));
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "two") == 0) {
		for (i = 0; i < 3; i++)
			A(4);
		C(5);
		return 0;
	}
	return 2;
}
