/*
** s-alarm.c -- an instrumented SIGALRM handler, on_alarm, fires every 100
** microseconds (setitimer) while main calls leaf LOOPS times.  Every call of
** leaf is followed: LOOPS calls exactly.  on_alarm counts its own runs in
** a volatile counter and the program prints it; a run that interrupted a
** hook is passed through by the runtime (its two hook calls counted in the
** thread's "dropped"), every other run is a call in the profile:
** calls of on_alarm + dropped / 2 = the printed count.
**
** With the argument "writer", main calls leaf_alloc WRITES times instead,
** which allocates, with an autosave at every allocation (<aprof.h>): the
** runtime spends most of the run writing the profile, the guard set, with
** leaf_alloc's entry on top of the shadow stack, and on_alarm calls
** leaf_alloc too.  A run of on_alarm there is passed through, and its exit
** of leaf_alloc must not pop main's entry of leaf_alloc: main's calls stay
** WRITES exactly, no exit goes unmatched.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "aprof.h"

#define LOOPS 3000000
#define WRITES 2000

static volatile unsigned long sink;
static volatile sig_atomic_t fired;

void on_alarm(int sig);
void leaf(int i);
void leaf_alloc(int i);

static int in_writer; /* the argument "writer": on_alarm calls leaf_alloc */


void on_alarm(int sig)
{
	(void)sig;
	fired++;
	if (in_writer)
		leaf_alloc(-1);
}


void leaf(int i)
{
	sink += (unsigned long)i;
}


/* An allocation, but from on_alarm (I < 0), where malloc is not safe. */
void leaf_alloc(int i)
{
	char *p;

	if (i < 0)
		return;
	p = malloc(16);
	sink += (unsigned long)(p != NULL);
	free(p);
}


int main(int argc, char **argv)
{
	struct sigaction sa;
	struct itimerval every = { { 0, 100 }, { 0, 100 } }, off;
	int i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &every, NULL) != 0)
		return 1;
	in_writer = argc > 1 && strcmp(argv[1], "writer") == 0;
	if (in_writer) {
		aprof_set_autosave(1);
		for (i = 0; i < WRITES; i++)
			leaf_alloc(i);
		aprof_set_autosave(0);
	} else {
		for (i = 0; i < LOOPS; i++)
			leaf(i);
	}
	memset(&off, 0, sizeof off);
	setitimer(ITIMER_REAL, &off, NULL);
	printf("fired %ld\n", (long)fired);
	return 0;
}
