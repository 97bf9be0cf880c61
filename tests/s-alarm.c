/*
** s-alarm.c -- an instrumented SIGALRM handler, on_alarm, fires every 100
** microseconds (setitimer) while main calls leaf LOOPS times.  Every call of
** leaf is followed: LOOPS calls exactly.  on_alarm counts its own runs in
** a volatile counter and the program prints it; a run that interrupted a
** hook is passed through by the runtime (its two hook calls counted in the
** thread's "dropped"), every other run is a call in the profile:
** calls of on_alarm + dropped / 2 = the printed count.
*/
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define LOOPS 3000000

static volatile unsigned long sink;
static volatile sig_atomic_t fired;

void on_alarm(int sig);
void leaf(int i);


void on_alarm(int sig)
{
	(void)sig;
	fired++;
}


void leaf(int i)
{
	sink += (unsigned long)i;
}


int main(void)
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
	for (i = 0; i < LOOPS; i++)
		leaf(i);
	memset(&off, 0, sizeof off);
	setitimer(ITIMER_REAL, &off, NULL);
	printf("fired %ld\n", (long)fired);
	return 0;
}
