/*
** clock-cost.c -- what one read of aprof's clock costs on this machine, in
** ns: the cycle counter (rdtsc on x86-64, cntvct_el0 on aarch64) and
** clock_gettime(CLOCK_MONOTONIC).  Prints "counter NS" and "monotonic NS".
*/
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static uint64_t ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}


static inline uint64_t counter(void)
{
#if defined(__x86_64__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
#else
	return ns_now();
#endif
}


int main(void)
{
	enum { N = 10000000 };
	volatile uint64_t sink = 0;
	uint64_t t0, t1, t2;
	int i;

	t0 = ns_now();
	for (i = 0; i < N; i++)
		sink += counter();
	t1 = ns_now();
	for (i = 0; i < N; i++)
		sink += ns_now();
	t2 = ns_now();
	printf("counter %.2f\nmonotonic %.2f\n", (double)(t1 - t0) / N, (double)(t2 - t1) / N);
	return 0;
}
