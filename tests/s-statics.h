/*
** s-statics.h -- a static routine defined in a header: each unit that
** includes it (tests/s-statics.c, s-statics-b.c) has a copy of its own.
*/
#ifndef S_STATICS_H
#define S_STATICS_H

static volatile int sink;

/* Doubles X: a copy in each unit, told apart by the unit. */
static int twice(int x)
{
	sink += x;
	return 2 * x;
}

void part_b(void);

#endif
