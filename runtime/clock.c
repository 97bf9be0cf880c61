/*
** clock.c -- clock choice and calibration.
*/
#include <config.h>

#include <string.h>
#include <time.h>

#include "clock.h"
#include "diag.h"

#define CALIBRATION_NS 20000000ull /* shortest calibration interval: 20 ms */

APROF_HIDDEN uint32_t aprof_clock_kind = AMON_CLOCK_MONOTONIC;

APROF_HIDDEN uint64_t aprof_clock_start;
APROF_HIDDEN unsigned aprof_sample_hz = 1000;
static uint64_t start_ns; /* CLOCK_MONOTONIC read with aprof_clock_start */


APROF_NOINSTR uint64_t aprof_clock_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}


APROF_NOINSTR void aprof_clock_init(void)
{
	const char *name = aprof_env("APROF_CLOCK");

	/*
	** Sampling the thread's CPU time unless told otherwise: it alone leaves
	** out time the thread was not running, and reads no clock at the hooks,
	** whose own cost is then left out by where each sample lands, not
	** estimated and taken off (benchmarks/accuracy.sh).
	*/
	aprof_clock_kind = AMON_CLOCK_SAMPLE;
	if (name == NULL || strcmp(name, "sample") == 0)
		;
	else if (strcmp(name, "counter") == 0)
		aprof_clock_kind = APROF_CLOCK_COUNTER != 0 ? APROF_CLOCK_COUNTER : AMON_CLOCK_MONOTONIC;
	else if (strcmp(name, "monotonic") == 0)
		aprof_clock_kind = AMON_CLOCK_MONOTONIC;
	else
		aprof_env_reject("APROF_CLOCK", name,
				 "not sample, counter or monotonic: sampling is used");
	aprof_clock_restart();
}


APROF_NOINSTR void aprof_clock_restart(void)
{
	start_ns = aprof_clock_monotonic();
	aprof_clock_start = aprof_clock_read();
}


APROF_NOINSTR double aprof_clock_ticks_per_second(void)
{
	uint64_t ns, ticks;

	if (aprof_clock_kind == AMON_CLOCK_MONOTONIC)
		return 1e9;
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
		return (double)aprof_sample_hz;
#if defined(__aarch64__)
	{
		uint64_t f;

		__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
		if (f != 0)
			return (double)f;
	}
#endif
	do {
		ns = aprof_clock_monotonic();
		ticks = aprof_clock_read();
	} while (ns - start_ns < CALIBRATION_NS);
	return (double)(ticks - aprof_clock_start) * 1e9 / (double)(ns - start_ns);
}


APROF_NOINSTR uint64_t aprof_clock_elapsed(void)
{
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE) /* in samples' worth of time */
		return (aprof_clock_monotonic() - start_ns) / (1000000000ull / aprof_sample_hz);
	return aprof_clock_read() - aprof_clock_start;
}
