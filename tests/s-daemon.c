/*
** s-daemon.c -- daemon(3): main calls before_daemon 3 times, then daemon
** (keeping the directory and the standard streams); glibc's parent leaves
** through its internal _exit.  The child prints "child PID", calls
** child_work 5 times and exits.
*/
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int sink;

void before_daemon(void);
void child_work(void);


void before_daemon(void)
{
	sink++;
}


void child_work(void)
{
	sink++;
}


int main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		before_daemon();
	fflush(stdout);
	if (daemon(1, 1) != 0)
		return 2;
	printf("child %ld\n", (long)getpid());
	fflush(stdout);
	for (i = 0; i < 5; i++)
		child_work();
	return 0;
}
