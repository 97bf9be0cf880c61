/*
** s-signal.c -- signals and start-up (tests/e2e-startup.sh).  main calls
** work() 5 times, raises signal SIG (argv[1], a number; 0 for none), then
** calls work() 7 more times and prints "after".  With "own" (argv[2]) the
** program handles SIG itself first and prints "handled"; with "wait" it
** prints "ready" and reads a line of stdin before it goes on, so another
** process can write the same amon.out meanwhile; with "fault" it writes
** to an address never mapped after the 5 calls, a real SIGSEGV.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;
/* An address in the first page, never mapped; not null, which UBSan would stop at first. */
static int *volatile nowhere = (int *)16;

void work(void);
void on_signal(int sig);


void work(void)
{
	sink++;
}


void on_signal(int sig)
{
	(void)sig;
	sink = -1;
}


int main(int argc, char **argv)
{
	int sig = argc > 1 ? atoi(argv[1]) : 0, i;
	const char *mode = argc > 2 ? argv[2] : "";
	char line[16];

	if (strcmp(mode, "own") == 0)
		signal(sig, on_signal);
	if (strcmp(mode, "wait") == 0) {
		printf("ready\n");
		fflush(stdout);
		if (fgets(line, sizeof line, stdin) == NULL)
			return 2;
	}
	for (i = 0; i < 5; i++)
		work();
	if (sig != 0)
		raise(sig);
	if (strcmp(mode, "fault") == 0)
		*nowhere = 0;
	if (sink < 0)
		printf("handled\n");
	for (i = 0; i < 7; i++)
		work();
	printf("after\n");
	return 0;
}
