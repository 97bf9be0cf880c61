/*
** s-sample.c -- sampling mode (APROF_CLOCK=sample) for tests/e2e-sample.sh.
** "raise": raised() sends its own thread SIGPROF 100 times; each sample
** lands in libc's raise, outside the runtime, so raised's context gets
** exactly 100 samples and the runtime none (run with APROF_HZ=1: the timer
** never fires in so short a run).  "spin": spin() calls leaf() until the
** thread has run 0.3 s, and prints how many calls it made; the hooks' own
** work is a large share of that time, so some of the timer's samples land
** in the runtime (sample.c), counted apart, and some in leaf.  (The kernel
** delivers a CPU-time timer's signals at its scheduler tick, 100 to 1000 a
** second, several expiries each: a run of tens of ticks is needed.)
** "hooks" (x86-64): 100 SIGPROFs sent by a system call made from code in
** section aprof_text, where the program's own copy of the hooks is
** (runtime/hooks.c): the signal interrupts that code, so each sample is the
** runtime's, and none a context's.
*/
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void raised(void);
void leaf(unsigned long i);
unsigned long spin(void);

static volatile unsigned long sink;


void raised(void)
{
	int i;

	for (i = 0; i < 100; i++)
		raise(SIGPROF);
}


/* The signals of "hooks", from beside the program's copy of the hooks; 0 if not made here. */
__attribute__((no_instrument_function, noinline, section("aprof_text"))) static int
raised_in_hooks(void)
{
#if defined(__x86_64__)
	long pid = getpid(), tid = syscall(SYS_gettid), ret;
	int i;

	for (i = 0; i < 100; i++)
		__asm__ __volatile__("syscall"
				     : "=a"(ret)
				     : "0"((long)SYS_tgkill), "D"(pid), "S"(tid), "d"((long)SIGPROF)
				     : "rcx", "r11", "memory");
	return 100;
#else
	return 0;
#endif
}


/* About as much work as the two hooks around it: neither share is near 0 or 100%. */
void leaf(unsigned long i)
{
	int k;

	for (k = 0; k < 16; k++)
		sink += i ^ (unsigned long)k;
}


/* The thread's CPU time in seconds. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


unsigned long spin(void)
{
	unsigned long i, calls = 0;

	while (cpu_seconds() < 0.3)
		for (i = 0; i < 10000; i++, calls++)
			leaf(i);
	return calls;
}


int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "raise") == 0)
		raised();
	else if (argc > 1 && strcmp(argv[1], "hooks") == 0)
		printf("%d\n", raised_in_hooks());
	else
		printf("%lu\n", spin());
	return 0;
}
