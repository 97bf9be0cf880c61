/*
** s-ctor.c -- hooks before the runtime has started and after it has written:
** a constructor calls early() 3 times before main (the runtime starts at
** that first hook), a destructor calls late() after amon.out is written.
** Neither may crash; early's calls are in the profile.
*/
#include <stdio.h>

static volatile int sink;

void early(void);
void late(void);
void work(void);


void early(void)
{
	sink++;
}


void late(void)
{
	sink++;
}


void work(void)
{
	sink++;
}


__attribute__((constructor)) static void before_main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		early();
}


__attribute__((destructor)) static void after_exit(void)
{
	late();
}


int main(void)
{
	work();
	printf("%d\n", sink);
	return 0;
}
