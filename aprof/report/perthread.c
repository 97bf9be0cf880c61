/*
** perthread.c -- the per-thread breakdown and the runtime's repair notes.
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>

#include "aprof/report/flat.h"
#include "aprof/report/perthread.h"
#include "aprof/util.h"


int perthread_notes(FILE *out, const struct amon_data *d)
{
	uint64_t resyncs = 0, dropped = 0, unmatched = 0, incomplete = 0;
	int t, lines = 0;

	for (t = 0; t < d->nthreads; t++) {
		resyncs += d->threads[t].resyncs;
		dropped += d->threads[t].dropped;
		unmatched += d->threads[t].unmatched;
		incomplete += (d->threads[t].flags & AMON_THREAD_INCOMPLETE) != 0;
	}
	if (resyncs != 0)
		lines += fprintf(out, "aprof: %" PRIu64 " shadow-stack entries resynchronised: their "
				 "routines left without exit hooks (longjmp, exceptions)\n",
				 resyncs) > 0;
	if (dropped != 0)
		lines += fprintf(out, "aprof: %" PRIu64 " hook calls not profiled: they interrupted "
				 "the runtime (instrumented signal handlers)\n", dropped) > 0;
	if (unmatched != 0)
		lines += fprintf(out, "aprof: %" PRIu64 " exits matched no entry and were ignored\n",
				 unmatched) > 0;
	if (incomplete != 0)
		lines += fprintf(out, "aprof: %" PRIu64 " threads ran out of memory: some of their "
				 "calls were not profiled\n", incomplete) > 0;
	return lines;
}


void perthread_print(FILE *out, const struct amon_data *d, const struct symbols *syms,
		   enum prof_metric metric, const struct report_options *o)
{
	struct profile **p = xcalloc((size_t)d->nthreads, sizeof p[0]);
	struct amon_data view = *d;
	int t;

	for (t = 0; t < d->nthreads; t++) {
		view.threads = &d->threads[t];
		view.nthreads = 1;
		p[t] = profile_build(&view, syms, metric);
	}
	fprintf(out, "Threads:\n\n%10s  %-16s %9s %12s %14s %9s %9s\n", "tid", "name", "contexts",
		"calls", metric == PROF_TIME ? "seconds" : metric == PROF_ALLOCS ? "allocs" : "bytes",
		"resyncs", "dropped");
	for (t = 0; t < d->nthreads; t++) {
		const struct amon_thread_info *th = &d->threads[t];
		uint64_t calls = 0;
		int k;

		for (k = 0; k < p[t]->nprocs; k++)
			calls += p[t]->procs[k].calls;
		fprintf(out, "%10" PRIu64 "  %-16s %9zu %12" PRIu64 " ", th->tid,
			th->name[0] ? th->name : "-", th->ncontexts, calls);
		if (metric == PROF_TIME)
			fprintf(out, "%14.6f", (double)p[t]->total / p[t]->scale);
		else
			fprintf(out, "%14" PRIu64, p[t]->total);
		fprintf(out, " %9" PRIu64 " %9" PRIu64 "\n", th->resyncs, th->dropped);
	}
	for (t = 0; t < d->nthreads; t++) {
		fprintf(out, "\f\nThread %" PRIu64 " (%s)\n\n", d->threads[t].tid,
			d->threads[t].name[0] ? d->threads[t].name : "-");
		flat_print(out, p[t], o);
	}
	for (t = 0; t < d->nthreads; t++)
		profile_free(p[t]);
	free(p);
}
