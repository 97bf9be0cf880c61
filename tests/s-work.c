/*
** s-work.c -- exact bytes on arcs for tests/e2e-heap.sh: work(n) allocates
** n bytes (and frees them); a calls work(1000) 10 times and b calls
** work(10) 10 times.  gprof's rule would split work's 10100 bytes 1:1 by
** call counts; the arcs a -> work and b -> work must carry exactly 10000 and
** 100 bytes.  Nothing else allocates.
*/
#include <stdlib.h>

void work(size_t n);
void a(void);
void b(void);

static void *volatile block;


void work(size_t n)
{
	block = malloc(n);
	free(block);
}


void a(void)
{
	int i;

	for (i = 0; i < 10; i++)
		work(1000);
}


void b(void)
{
	int i;

	for (i = 0; i < 10; i++)
		work(10);
}


int main(void)
{
	a();
	b();
	return 0;
}
