/*
** stats.c -- Table I of Spivey's paper for one profile.
*/
#include <config.h>

#include <inttypes.h>

#include "aprof/model/hookcosts.h"
#include "aprof/report/stats.h"


void stats_print(FILE *out, const struct amon_data *d, const struct profile *p)
{
	uint64_t calls = 0, contexts = 0, transitions = 0, entries = 0, memory = 0;
	struct hookcosts_total hooks;
	uint32_t deepest = 0;
	int routines = 0, k, t;
	double ns = 1e9 / d->header.ticks_per_second;
	size_t i;

	for (k = 0; k < p->nprocs; k++) {
		calls += p->procs[k].calls + p->procs[k].rec;
		routines += p->procs[k].calls + p->procs[k].rec != 0;
	}
	for (t = 0; t < d->nthreads; t++) {
		const struct amon_thread_info *th = &d->threads[t];

		transitions += th->transitions;
		memory += th->memory;
		for (i = 0; i < th->ncontexts; i++) {
			if (th->contexts[i].depth == 0)
				continue; /* the root */
			contexts++;
			entries += th->contexts[i].depth;
			if (th->contexts[i].depth > deepest)
				deepest = th->contexts[i].depth;
		}
	}
	fprintf(out, "functions %d\ncalls %" PRIu64 "\ncontexts %" PRIu64 "\ntransitions %" PRIu64
		"\ndepth-average %.2f\ndepth-max %" PRIu32 "\nmemory-bytes %" PRIu64
		"\namon-bytes %zu\nthreads %d\nseconds %.6f\n", routines, calls, contexts,
		transitions, contexts ? (double)entries / (double)contexts : 0.0, deepest, memory,
		d->size, d->nthreads, (double)d->header.total_ticks / d->header.ticks_per_second);
	/*
	** The hooks over the run (hookcosts_total): calls, per second of the
	** run, their cost per call and in all, and its share of the time
	** measured; --advise says what to do about it.
	*/
	hookcosts_total(d, &hooks);
	fprintf(out, "hook-calls %" PRIu64 "\nhook-calls-per-second %.0f\nhook-ns-per-call %.2f\n"
		"hook-seconds %.6f\nhook-percent %.2f\n", hooks.calls,
		d->header.total_ticks > 0 ? (double)hooks.calls * d->header.ticks_per_second /
			(double)d->header.total_ticks : 0.0,
		hooks.calls > 0 ? ns * hooks.own / (double)hooks.calls : 0.0,
		hooks.own / d->header.ticks_per_second, hooks.all > 0 ? 100.0 * hooks.own / hooks.all : 0.0);
	/*
	** Per thread, under a "thread TID" line, each number on a line of its
	** own, indented: the runtime's own cost per call and per heap-tracking
	** call, taken off every context; heap-tracking calls; the entries,
	** exits and heap-tracking calls timed in the run to measure that cost
	** (runtime/thread.h); and in sampling mode the samples that landed in
	** the runtime's own code, charged to no context, and their share of all
	** the thread's samples.
	*/
	for (t = 0; t < d->nthreads; t++) {
		const struct amon_thread_info *th = &d->threads[t];
		uint64_t heap_events = 0, ticks = th->runtime_ticks;

		for (i = 0; i < th->ncontexts; i++) {
			heap_events += th->contexts[i].heap_events;
			ticks += th->contexts[i].ticks;
		}
		fprintf(out, "thread %" PRIu64 "\n  own-ns-per-call %.2f\n  own-ns-per-heap-event %.2f\n"
			"  heap-events %" PRIu64 "\n  probed-entries %" PRIu64 "\n  probed-exits %" PRIu64
			"\n  probed-heap-events %" PRIu64 "\n  runtime-samples %" PRIu64
			"\n  runtime-samples-percent %.2f\n", th->tid, ns * (th->entry_cost + th->exit_cost),
			ns * th->heap_cost, heap_events, th->probes[0], th->probes[1], th->probes[2],
			th->runtime_ticks,
			ticks ? 100.0 * (double)th->runtime_ticks / (double)ticks : 0.0);
	}
}
