/*
** hookcosts.c -- the hooks' cost model, applied once, after reading and before
** any stage: every context's ticks less the runtime's own work in them
** (Spivey's "charged" versus "total" time).  The calibration the runtime made
** at start-up and exit (runtime/cost.h) is scaled to the CPU's speed in the
** run and corrected by the in-run probes (runtime/thread.h).
*/
#include <config.h>

#include "aprof/model/hookcosts.h"

/* The mean of TOTAL over N probes, or 0 without probes. */
static double probe_mean(uint64_t total, uint64_t n)
{
	return n == 0 ? 0.0 : (double)total / (double)n;
}


/*
** How far the in-run probes may move the calibrated costs: the CPU's speed
** in the run within a factor PROBE_BOUND of calibration's, a hook's cost at
** most PROBE_BOUND times its calibrated cost; probes that say otherwise are
** not used.  A probe the scheduler interrupted on a busy machine times the
** interruption too (a timeslice, millions of ticks): one such among a
** hundred can make the mean, and the cost taken off every context, larger
** than any context's own time, so that every context is charged 0
** (benchmarks/CHOICES.md, "Probe bounds").
*/
#define PROBE_BOUND 4.0


void amon_own_costs(const struct amon_thread *th, struct amon_thread_info *ti)
{
	double empty = probe_mean(th->empty_probe_ticks, th->entry_probes), k = 1.0, entry, exit;
	double calibrated = (double)th->entry_ticks;
	int probed = th->entry_probes != 0 && th->probe_empty != 0;

	/* The CPU's speed in the run against at calibration: two reads back to back in each. */
	if (probed)
		k = empty / (double)th->probe_empty;
	if (k > PROBE_BOUND || k < 1.0 / PROBE_BOUND)
		probed = 0, k = 1.0;
	entry = k * calibrated;
	exit = k * (double)th->exit_ticks;
	/* A probe times an entry's work before its read, and an exit's after. */
	if (probed)
		entry += probe_mean(th->entry_probe_ticks, th->entry_probes) -
			 k * (double)th->entry_probe_base;
	if (probed && th->exit_probes != 0)
		entry += probe_mean(th->exit_probe_ticks, th->exit_probes) -
			 k * (double)th->exit_probe_base;
	if (entry > PROBE_BOUND * (calibrated + 1))
		entry = k * calibrated;
	ti->entry_cost = entry > 0 ? entry : 0;
	ti->exit_cost = exit > 0 ? exit : 0;
	ti->heap_cost = probe_mean(th->heap_probe_ticks, th->heap_probes) - empty;
	if (th->heap_probes == 0 || ti->heap_cost < 0)
		ti->heap_cost = 0;
	ti->probes[0] = th->entry_probes;
	ti->probes[1] = th->exit_probes;
	ti->probes[2] = th->heap_probes;
}


/*
** The ticks to charge context C of thread TI: its ticks less the runtime's
** own, TI's entry_cost in each interval that ended in an entry, exit_cost in
** each that ended in an exit, heap_cost in each heap-tracking call
** (runtime/hooks.c, heap.c), never below 0.
*/
static uint64_t charged_ticks(const struct amon_context_info *c, const struct amon_thread_info *ti)
{
	long double own = (long double)c->events * ti->entry_cost +
			  (long double)(c->calls + c->rec) * ti->exit_cost +
			  (long double)c->heap_events * ti->heap_cost;

	return own >= c->ticks ? 0 : c->ticks - (uint64_t)own;
}


void hookcosts_apply(struct amon_data *d)
{
	struct amon_each e = AMON_EACH(d);
	struct amon_context_info *c;
	int t;

	for (t = 0; t < d->nthreads; t++)
		amon_own_costs(&d->threads[t].record, &d->threads[t]);
	while ((c = amon_each_next(&e)) != NULL) {
		c->ticks = charged_ticks(c, e.thread);
		c->events = 0;
	}
}




/* The calls (recursive ones too) thread T made: each an entry and an exit hook. */
static uint64_t thread_calls(const struct amon_thread_info *t)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < t->ncontexts; i++)
		n += t->contexts[i].calls + t->contexts[i].rec;
	return n;
}


double hookcosts_per_call(const struct amon_data *d, const struct amon_thread_info *t)
{
	uint64_t calls;

	if (d->header.clock != AMON_CLOCK_SAMPLE)
		return t->entry_cost + t->exit_cost;
	calls = thread_calls(t);
	return calls == 0 ? 0.0 : 2.0 * (double)t->runtime_ticks / (double)calls;
}


void hookcosts_total(const struct amon_data *d, struct hookcosts_total *total)
{
	int k;
	size_t i;

	total->calls = 0;
	total->own = total->all = 0.0;
	for (k = 0; k < d->nthreads; k++) {
		const struct amon_thread_info *t = &d->threads[k];
		uint64_t calls = thread_calls(t);
		double own = (double)calls * hookcosts_per_call(d, t);

		total->calls += calls;
		total->own += own;
		total->all += d->header.clock == AMON_CLOCK_SAMPLE ? (double)t->runtime_ticks : own;
		for (i = 0; i < t->ncontexts; i++)
			total->all += (double)t->contexts[i].ticks;
	}
}


void hookcosts_by_routine(const struct amon_data *d, const struct profile *p, double *own)
{
	int k;
	size_t i;

	for (k = 0; k < p->nprocs; k++)
		own[k] = 0.0;
	for (k = 0; k < d->nthreads; k++) {
		const struct amon_thread_info *t = &d->threads[k];
		double per_call = hookcosts_per_call(d, t);

		for (i = 0; i < t->ncontexts; i++) {
			const struct amon_context_info *c = &t->contexts[i];

			if (c->depth > 0)
				own[profile_routine(p, c->history[c->depth - 1])] +=
					(double)(c->calls + c->rec) * per_call;
		}
	}
}
