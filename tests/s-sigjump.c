/*
** s-sigjump.c -- an instrumented SIGALRM handler siglongjmps out of an
** endless loop of calls, 200 times; the signal often interrupts a hook, so
** the jump abandons a hook half done.  Profiling must go on: afterwards main
** calls after() 10 times, and those calls are in the profile, under main.
*/
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static sigjmp_buf env;
static volatile unsigned long sink;
static volatile int jumps;

void on_alarm(int sig);
void leaf(int i);
void spin(void);
void after(void);


void on_alarm(int sig)
{
	(void)sig;
	jumps++;
	siglongjmp(env, 1);
}


void leaf(int i)
{
	sink += (unsigned long)i;
}


void spin(void)
{
	for (;;)
		leaf(1);
}


void after(void)
{
	sink++;
}


int main(void)
{
	struct sigaction sa;
	struct itimerval every = { { 0, 200 }, { 0, 200 } }, off;
	int i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	/*
	** The timer started once the jump buffer is whole: a first alarm
	** between the two (the process preempted just after setitimer) would
	** jump to an empty buffer, or to one whose signal mask is not saved
	** yet, leaving SIGALRM blocked and spin spinning for ever.
	*/
	if (sigsetjmp(env, 1) == 0)
		setitimer(ITIMER_REAL, &every, NULL);
	if (jumps < 200)
		spin();
	memset(&off, 0, sizeof off);
	setitimer(ITIMER_REAL, &off, NULL);
	for (i = 0; i < 10; i++)
		after();
	printf("jumps %d\n", jumps);
	return 0;
}
