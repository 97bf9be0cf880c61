/*
** cost.c -- the hooks' cost model (cost.h): the calibration that times the
** hooks, through the PLT as GCC's code calls them, on a routine with an
** empty body, less what the same loop costs with the routine uninstrumented.
** The only runtime code that calls a hook (tests/e2e-runtime.sh checks it
** with objdump).
*/
#include <config.h>

#include <string.h>

#include "aprof.h"
#include "clock.h"
#include "cost.h"
#include "hooks.h"
#include "thread.h"

APROF_HIDDEN struct aprof_hook_cost aprof_hook_cost;
APROF_HIDDEN uint64_t aprof_probe_bound = UINT64_MAX;


/*
** An instrumented routine as GCC makes it: its two hook calls, made
** directly (as a program linked with -laprof calls its own copy of the
** hooks; these are libaprof.so's, by the names hooks.h gives), from a
** frame of its own, with three arguments and a result live
** across them, so that it saves and restores the registers they are in as
** most of the program's routines must: what no probe of the hooks alone
** sees.  Empty hooks cost Lua's fib, parser.lua and strings.lua and JsonCpp
** 6.4 to 10.2 ticks a call beyond their bare runs, a routine with an empty
** body and no arguments 3.7, one with three arguments and a result 6.3
** (Zen 4 KVM guest, TSC at 2.6 GHz).  The routine's
** "address" is a data address, in no executable mapping, so modules.c notes
** nothing.
*/
static char calibration_fn;

APROF_NOINSTR __attribute__((noinline)) static uintptr_t calibration_routine(uintptr_t a, uintptr_t b,
									uintptr_t c)
{
	uintptr_t r;

	aprof_hooks_enter_shared(&calibration_fn, __builtin_return_address(0));
	r = a + b * c;
	__asm__ __volatile__("" : "+r"(r) : : "memory");
	aprof_hooks_exit_shared(&calibration_fn, __builtin_return_address(0));
	return r;
}


/*
** The same routine uninstrumented: its work, its call and return, and the
** loop around them, which the program makes without profiling too, so not
** the runtime's.
*/
APROF_NOINSTR __attribute__((noinline)) static uintptr_t calibration_routine_bare(uintptr_t a, uintptr_t b,
									     uintptr_t c)
{
	uintptr_t r = a + b * c;

	__asm__ __volatile__("" : "+r"(r) : : "memory");
	return r;
}


/* The same, both hooks timed by a probe: what a probe measures of them. */
APROF_NOINSTR __attribute__((noinline)) static void calibration_routine_probed(struct aprof_thread *t)
{
	t->probe = 1;
	aprof_hooks_enter_shared(&calibration_fn, __builtin_return_address(0));
	__asm__ __volatile__("" ::: "memory");
	t->probe = 1;
	aprof_hooks_exit_shared(&calibration_fn, __builtin_return_address(0));
}


/*
** The median of the N values in V (sorted in place): interference only ever
** adds time.  An insertion sort, not qsort: glibc's qsort calls free (on a
** null pointer, or on its scratch block), which would be the program's own
** free when it defines one, called by the runtime and counted.
*/
APROF_NOINSTR static uint64_t median(uint64_t *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[n / 2];
}


APROF_NOINSTR void aprof_hooks_calibrate(void)
{
	enum { ROUNDS = 15, PAIRS = 2000 };
	static struct aprof_thread scratch;
	static struct aprof_frame stack[4];
	static int ready;
	uint64_t exit[ROUNDS], entry[ROUNDS], probe_entry[ROUNDS], probe_exit[ROUNDS];
	uint64_t empty[ROUNDS];
	struct aprof_thread *saved_self = aprof_self, *saved_counted = aprof_counted;
	int saved_busy = aprof_busy, round, i;
	uintptr_t sink;
	struct aprof_hook_cost cost;

	/* With a clock only: the scratch thread's top and limit are then its own (aprof_thread_ends_of). */
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
		return;
	if (!ready) {
		if (aprof_machine_init(&scratch.machine) != 0)
			return;
		scratch.stack = stack;
		scratch.cap = 4;
		ready = 1;
	}
	aprof_thread_stack_reset(&scratch);
	aprof_self = &scratch;
	aprof_counted = aprof_clock_kind == APROF_CLOCK_COUNTER ? &scratch : NULL;
	aprof_busy = 0;
	scratch.probe = UINT32_MAX;
	sink = calibration_routine(0, 0, 0); /* makes the one context the rounds use */
	for (round = 0; round < ROUNDS; round++) {
		struct aprof_context *outer = scratch.machine.root;
		struct aprof_way *w = aprof_successor(outer, (uintptr_t)&calibration_fn);
		struct aprof_context *inner = w->to;
		uint64_t sum = 0, bare, start;

		start = aprof_clock_read();
		for (i = 0; i < PAIRS; i++)
			sink = calibration_routine_bare((uintptr_t)i, sink, (uintptr_t)round);
		bare = aprof_clock_read() - start;

		outer->ticks = inner->ticks = outer->events = 0;
		w->calls &= APROF_WAY_ONLY;
		scratch.probe = UINT32_MAX;
		scratch.last = aprof_clock_read();
		for (i = 0; i < PAIRS; i++)
			sink = calibration_routine((uintptr_t)i, sink, (uintptr_t)round);
		/*
		** Intervals ending in an entry were charged to the outer context,
		** and hold the loop's call and return of the routine, which the
		** uninstrumented loop timed just before also makes: about 3.5
		** ticks a call of the 55 both intervals hold (Zen 4 KVM guest).
		*/
		entry[round] = aprof_cost_per_call(outer->ticks, bare, PAIRS);
		exit[round] = aprof_cost_per_call(inner->ticks, 0, PAIRS);

		memset(&scratch.probes, 0, sizeof scratch.probes);
		for (i = 0; i < PAIRS; i++)
			calibration_routine_probed(&scratch);
		probe_entry[round] = aprof_cost_per_call(scratch.probes.entry_ticks, 0, PAIRS);
		probe_exit[round] = aprof_cost_per_call(scratch.probes.exit_ticks, 0, PAIRS);

		for (i = 0; i < PAIRS; i++) {
			uint64_t r = aprof_clock_read();

			__asm__ __volatile__("" ::: "memory");
			sum += aprof_clock_read() - r;
		}
		empty[round] = aprof_cost_per_call(sum, 0, PAIRS);
	}
	aprof_busy = saved_busy;
	aprof_self = saved_self;
	aprof_counted = saved_counted;
	cost.exit = median(exit, ROUNDS);
	cost.entry = median(entry, ROUNDS);
	cost.probe_entry = median(probe_entry, ROUNDS);
	cost.probe_exit = median(probe_exit, ROUNDS);
	cost.probe_empty = median(empty, ROUNDS);
	/*
	** The CPU may run slower at start-up (a frequency still rising) than
	** later: of several calibrations, the one that found it fastest.
	*/
	if (aprof_hook_cost.probe_empty == 0 || cost.probe_empty < aprof_hook_cost.probe_empty)
		aprof_hook_cost = cost;
	aprof_probe_bound = aprof_probe_bound_of(&aprof_hook_cost);
}
