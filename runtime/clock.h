/*
** clock.h -- the cycle counter read at every enter and exit, and its
** calibration to seconds.
*/
#ifndef APROF_RUNTIME_CLOCK_H
#define APROF_RUNTIME_CLOCK_H

#include <stdint.h>

#include "amon.h"
#include "internal.h"

/* The clock in use (enum amon_clock); set once by aprof_clock_init. */
extern APROF_HIDDEN uint32_t aprof_clock_kind;

/* The tick count when aprof_clock_init ran: the start of the profile. */
extern APROF_HIDDEN uint64_t aprof_clock_start;

/* Sampling mode: samples per second of a thread's CPU time (APROF_HZ, default 1000). */
extern APROF_HIDDEN unsigned aprof_sample_hz;

/* Starts the profile's time again from now (a fork child's profile). */
APROF_HIDDEN void aprof_clock_restart(void);

/* CLOCK_MONOTONIC in nanoseconds. */
APROF_HIDDEN uint64_t aprof_clock_monotonic(void);

/*
** Chooses the clock from APROF_CLOCK: "sample" (the default) sampling the
** thread's CPU time (sample.c); "counter" the CPU's counter (rdtsc,
** cntvct_el0), or CLOCK_MONOTONIC where the CPU has none, wall-clock time;
** "monotonic" CLOCK_MONOTONIC; any other value is said on stderr and the
** default used.  Records the starting point for
** calibration.
*/
APROF_HIDDEN void aprof_clock_init(void);


/*
** Ticks per second, calibrated against CLOCK_MONOTONIC from aprof_clock_init
** to now (at least 20 ms: a shorter run waits out the rest).
*/
APROF_HIDDEN double aprof_clock_ticks_per_second(void);

/* Ticks since aprof_clock_init, in the unit of the ticks charged. */
APROF_HIDDEN uint64_t aprof_clock_elapsed(void);

/*
** The CPU's counter, which the hooks' common case reads inline:
** APROF_CLOCK_COUNTER is its enum amon_clock (0 where there is none) and
** aprof_counter_read reads it.
*/
#if defined(__x86_64__)
#define APROF_CLOCK_COUNTER AMON_CLOCK_TSC
APROF_NOINSTR static inline uint64_t aprof_counter_read(void)
{
	return __builtin_ia32_rdtsc();
}
#elif defined(__aarch64__)
#define APROF_CLOCK_COUNTER AMON_CLOCK_CNTVCT
APROF_NOINSTR static inline uint64_t aprof_counter_read(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
	return v;
}
#else
#define APROF_CLOCK_COUNTER 0
APROF_NOINSTR static inline uint64_t aprof_counter_read(void)
{
	return 0;
}
#endif

/* The current tick count (units of aprof_clock_kind; nanoseconds when sampling). */
APROF_NOINSTR static inline uint64_t aprof_clock_read(void)
{
	if (APROF_LIKELY(APROF_CLOCK_COUNTER != 0 && aprof_clock_kind == APROF_CLOCK_COUNTER))
		return aprof_counter_read();
	return aprof_clock_monotonic();
}

#endif /* APROF_RUNTIME_CLOCK_H */
