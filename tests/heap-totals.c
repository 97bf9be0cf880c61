/*
** heap-totals.c -- a test tool, never installed: the exact heap numbers of an
** amon.out, for the end-to-end tests to compare with what they expect.
**
** The reports show bytes scaled (Kbytes, Mbytes) once totals grow, and their
** layout is free to change; the tests need exact integers that do not depend
** on it.  This prints them through the analyser's own library: the totals
** read by amon_read, summed over every context of every thread (the root
** contexts included), and each routine's self and child values as
** profile_build charges them in each heap metric -- the very numbers the
** flat profile and the call graph print.
**
** Usage: heap-totals EXECUTABLE AMON.OUT
** Output, one item a line:
**   heap on|off
**   threads N | contexts N (merged histories not merged: as written)
**   allocs N | bytes N | frees N | freed N | kept N (alloc bytes - freed)
**   peak N | untracked N                      (the HEAP record)
**   root BYTES ALLOCS KEPT                    (charged with no routine active)
**   proc CALLS BYTES BYTES_CHILD ALLOCS ALLOCS_CHILD KEPT KEPT_CHILD PEAK NAME
*/
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"
#include "aprof/read/symbols.h"
#include "aprof/util.h"

enum { BYTES, ALLOCS, KEPT, PEAK, NMETRICS };

static const enum prof_metric metrics[NMETRICS] = { PROF_BYTES, PROF_ALLOCS, PROF_KEPT, PROF_PEAK };


int main(int argc, char **argv)
{
	struct amon_data *d;
	struct symbols *syms;
	struct profile *p[NMETRICS];
	uint64_t allocs = 0, bytes = 0, frees = 0, freed = 0;
	size_t contexts = 0, k;
	int t, i, m;

	util_progname = "heap-totals";
	if (argc != 3)
		util_die("usage: heap-totals EXECUTABLE AMON.OUT");
	d = amon_read(argv[2]);
	syms = symbols_load(d, argv[1], 1);
	for (t = 0; t < d->nthreads; t++)
		for (k = 0; k < d->threads[t].ncontexts; k++) {
			const struct amon_context_info *c = &d->threads[t].contexts[k];

			allocs += c->allocs;
			bytes += c->alloc_bytes;
			frees += c->frees;
			freed += c->free_bytes;
			contexts++;
		}
	printf("heap %s\n", d->heap.flags & AMON_HEAP_ON ? "on" : "off");
	printf("threads %d\ncontexts %zu\n", d->nthreads, contexts);
	printf("allocs %" PRIu64 "\nbytes %" PRIu64 "\n", allocs, bytes);
	printf("frees %" PRIu64 "\nfreed %" PRIu64 "\n", frees, freed);
	printf("kept %" PRIu64 "\n", bytes - freed);
	printf("peak %" PRIu64 "\nuntracked %" PRIu64 "\n", d->heap.peak_bytes, d->heap.untracked);
	for (m = 0; m < NMETRICS; m++)
		p[m] = profile_build(d, syms, metrics[m]);
	printf("root %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", p[BYTES]->root, p[ALLOCS]->root,
	       p[KEPT]->root);
	/* Every build lists the same routines in the same order. */
	for (i = 0; i < p[BYTES]->nprocs; i++) {
		printf("proc %" PRIu64, p[BYTES]->procs[i].calls);
		for (m = 0; m < PEAK; m++)
			printf(" %" PRIu64 " %" PRIu64, p[m]->procs[i].self, p[m]->procs[i].child);
		printf(" %" PRIu64 " %s\n", p[PEAK]->procs[i].self, p[BYTES]->procs[i].name);
	}
	return ferror(stdout) != 0;
}
