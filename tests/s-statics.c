/*
** s-statics.c -- copies of routines for the names of tests/e2e-names.sh:
** twice, a static of tests/s-statics.h, has a copy in this unit and in
** s-statics-b.c; each unit has a static init of its own.  Calls, exact:
**   init (s-statics.c)     1, from main      twice (s-statics.c)    4
**   init (s-statics-b.c)   2, from part_b    twice (s-statics-b.c) 10
*/
#include "s-statics.h"


/* This unit's init: three calls of its twice. */
static void init(void)
{
	int i;

	for (i = 0; i < 3; i++)
		twice(i);
}


int main(void)
{
	init();
	part_b();
	return twice(0);
}
