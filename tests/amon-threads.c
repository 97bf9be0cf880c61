/*
** amon-threads.c -- a test tool, never installed: the exact per-thread
** numbers of an amon.out, for the end-to-end tests (threads, signals,
** longjmp and exceptions, fork), read through the analyser's own reader.
**
** Usage: amon-threads AMON.OUT
** Output, one item a line:
**   pid N                                    the process that wrote the file
**   modules N                                objects recorded, the executable included
**   module PATH                              one line per object, the executable first
**   thread TID RESYNCS DROPPED UNMATCHED CONTEXTS ENTRIES MEMORY HISTORY NAME
** ENTRIES is the thread's instrumented entries: calls + recursive calls
** summed over its contexts.  MEMORY is its record's 'memory' (bytes the
** runtime took), HISTORY its 'history_entries' (its histories' entries
** spelled out, which the reader checked).  NAME is the thread's name (may be
** empty).
*/
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/util.h"


int main(int argc, char **argv)
{
	struct amon_data *d;
	size_t k;
	int t, m;

	util_progname = "amon-threads";
	if (argc != 2)
		util_die("usage: amon-threads AMON.OUT");
	d = amon_read(argv[1]);
	printf("pid %" PRIu64 "\n", d->header.pid);
	printf("modules %d\n", d->nmodules);
	for (m = 0; m < d->nmodules; m++)
		printf("module %s\n", d->modules[m].path);
	for (t = 0; t < d->nthreads; t++) {
		const struct amon_thread_info *th = &d->threads[t];
		uint64_t entries = 0;

		for (k = 0; k < th->ncontexts; k++)
			entries += th->contexts[k].calls + th->contexts[k].rec;
		printf("thread %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %zu %" PRIu64,
		       th->tid, th->resyncs, th->dropped, th->unmatched, th->ncontexts, entries);
		printf(" %" PRIu64 " %" PRIu64 " %s\n", th->memory, th->record.history_entries,
		       th->name);
	}
	return ferror(stdout) != 0;
}
