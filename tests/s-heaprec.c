/*
** s-heaprec.c -- mutual recursion P -> Q -> R -> P allocating at each level,
** for tests/e2e-heap.sh.  main makes DESCENTS descents p(LEVELS - 1); each
** goes LEVELS levels deep, p, q and r taking turns, so each runs LEVELS / 3
** times per descent.  p allocates P_BYTES per level, q Q_BYTES, r R_BYTES;
** p and q free their blocks, r never does.  The bytes allocated while a
** routine was active are those of every descent from its first level down:
** p 20 * 10 * 123 = 24600, q 24600 - 20 * 100 = 22600, r 22600 - 20 * 20 =
** 22200.  Nothing else allocates.
*/
#include <stdlib.h>

#define DESCENTS 20
#define LEVELS 30
#define P_BYTES 100
#define Q_BYTES 20
#define R_BYTES 3

void p(int n);
void q(int n);
void r(int n);

static void *volatile leaked;


void p(int n)
{
	void *volatile b = malloc(P_BYTES); /* volatile: kept at -O2 */

	if (n > 0)
		q(n - 1);
	free(b);
}


void q(int n)
{
	void *volatile b = malloc(Q_BYTES);

	if (n > 0)
		r(n - 1);
	free(b);
}


void r(int n)
{
	leaked = malloc(R_BYTES);
	if (n > 0)
		p(n - 1);
}


int main(void)
{
	int i;

	for (i = 0; i < DESCENTS; i++)
		p(LEVELS - 1);
	return 0;
}
