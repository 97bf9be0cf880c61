/*
** s-calls.c -- known call counts for tests/e2e-calls.sh: main calls alpha 3
** times and beta 7 times; alpha calls leaf 2 times per call, beta 5 times;
** fact recurses directly (fact(6): 1 call from main, 5 recursive).
*/
#include <stdio.h>

static volatile unsigned long sink;

void leaf(int i);
void alpha(void);
void beta(void);
unsigned long fact(unsigned long n);


void leaf(int i)
{
	sink += (unsigned long)i;
}


void alpha(void)
{
	int i;

	for (i = 0; i < 2; i++)
		leaf(i);
}


void beta(void)
{
	int i;

	for (i = 0; i < 5; i++)
		leaf(i);
}


unsigned long fact(unsigned long n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}


int main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		alpha();
	for (i = 0; i < 7; i++)
		beta();
	printf("fact(6) = %lu\n", fact(6));
	return 0;
}
