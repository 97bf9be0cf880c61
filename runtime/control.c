/*
** control.c -- the program's own control of its profile (<aprof.h>), after
** mprof's mprof_stop, mprof_restart and set_mprof_autosave.
*/
#include <config.h>

#include "aprof.h"
#include "heap.h"
#include "thread.h"
#include "writer.h"


APROF_API int aprof_dump(void)
{
	return aprof_started ? aprof_writer_dump() : 0;
}


APROF_API int aprof_stop(void)
{
	int r = aprof_dump();

	aprof_writer_set_stopped(1, NULL);
	aprof_heap_on_set(0);
	return r;
}


APROF_API void aprof_restart(const char *file)
{
	const struct aprof_thread *t;

	aprof_heap_reset();
	/* Counts from before the restart are forgotten, time included. */
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next) {
		size_t n = __atomic_load_n(&t->machine.contexts, __ATOMIC_ACQUIRE), i;
		struct aprof_context *c = t->machine.first;

		/* Only the contexts published: their owner may be adding one. */
		for (i = 0; i < n; i++, c = c->next) {
			APROF_PUT(c->ticks, 0);
			APROF_PUT(c->events, 0);
			APROF_PUT(c->heap_events, 0);
			APROF_PUT(c->calls, 0);
			APROF_PUT(c->rec, 0);
		}
	}
	aprof_writer_set_stopped(0, file);
	aprof_heap_on_set(1);
}


APROF_API void aprof_set_autosave(unsigned long count)
{
	aprof_writer_set_autosave(count);
}
