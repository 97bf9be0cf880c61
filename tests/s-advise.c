/*
** s-advise.c -- for tests/e2e-advise.sh: a routine whose calls cost the
** hooks far more than its work, and one whose work dwarfs its calls.
** tiny adds one and is called 4,000,000 times (by run_tiny, whose name
** holds tiny's, as GCC's exclusion list matches substrings); heavy is
** called 20 times, each a loop of 1,000,000 additions with no call.
** Calls: main 1, run_tiny 1, tiny 4,000,000, heavy 20.
*/
#include <stdio.h>

int tiny(int x);
void run_tiny(void);
unsigned long heavy(unsigned long n);

static volatile int value;
static volatile unsigned long total;


int tiny(int x)
{
	return x + 1;
}


void run_tiny(void)
{
	int i;

	for (i = 0; i < 4000000; i++)
		value = tiny(value);
}


unsigned long heavy(unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += i ^ total;
	return sum;
}


int main(void)
{
	int k;

	run_tiny();
	for (k = 0; k < 20; k++)
		total += heavy(1000000);
	printf("%d %lu\n", value, total);
	return 0;
}
