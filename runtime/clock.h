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

/* CLOCK_MONOTONIC in nanoseconds. */
APROF_HIDDEN uint64_t aprof_clock_monotonic(void);

/*
** Chooses the clock: the CPU's counter (rdtsc, cntvct_el0) unless MONOTONIC is
** set (APROF_CLOCK=monotonic) or the CPU has none, and records the starting
** point for calibration.
*/
APROF_HIDDEN void aprof_clock_init(int monotonic);

/*
** Ticks per second, calibrated against CLOCK_MONOTONIC from aprof_clock_init
** to now (at least 20 ms: a shorter run waits out the rest).
*/
APROF_HIDDEN double aprof_clock_ticks_per_second(void);

/* The current tick count (units of aprof_clock_kind). */
APROF_NOINSTR static inline uint64_t aprof_clock_read(void)
{
#if defined(__x86_64__)
	if (APROF_LIKELY(aprof_clock_kind == AMON_CLOCK_TSC))
		return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	if (APROF_LIKELY(aprof_clock_kind == AMON_CLOCK_CNTVCT)) {
		uint64_t v;

		__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
		return v;
	}
#endif
	return aprof_clock_monotonic();
}

#endif /* APROF_RUNTIME_CLOCK_H */
