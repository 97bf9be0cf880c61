/*
** s-statics-b.c -- the second unit of tests/s-statics.c: another twice
** (from the header) and another static init.
*/
#include "s-statics.h"


/* This unit's init: five calls of its twice. */
static void init(void)
{
	int i;

	for (i = 0; i < 5; i++)
		twice(i);
}


void part_b(void)
{
	init();
	init();
}
