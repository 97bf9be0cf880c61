/*
** s-exit.c -- the process ends 50 calls deep: down(49) recurses to down(0),
** which calls leave(), which ends the process with exit(0) (or _exit(0)
** given "_exit", or _Exit(0) given "_Exit").  No exit hook of the 51
** activations runs; amon.out must still be written, with down called
** 1 + 49 recursive, leave once, and main's calls of warm_up (3) before.
*/
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;
static int how; /* 0 exit, 1 _exit, 2 _Exit */

void warm_up(void);
void leave(void);
void down(int n);


void warm_up(void)
{
	sink++;
}


void leave(void)
{
	if (how == 1)
		_exit(0);
	if (how == 2)
		_Exit(0);
	exit(0);
}


void down(int n)
{
	sink++;
	if (n == 0)
		leave();
	else
		down(n - 1);
	sink++; /* never reached; keeps the recursive call from being a jump */
}


int main(int argc, char **argv)
{
	int i;

	if (argc > 1)
		how = strcmp(argv[1], "_exit") == 0 ? 1 : strcmp(argv[1], "_Exit") == 0 ? 2 : 0;
	for (i = 0; i < 3; i++)
		warm_up();
	down(49);
	return 1;
}
