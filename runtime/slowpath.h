/*
** slowpath.h -- the hooks' second cases and slow paths (slowpath.c), which
** their common case (hooks.c) reaches by a tail call: entries (APROF_ENTRY),
** so that a program's own copy of the hooks reaches libaprof.so's.
*/
#ifndef APROF_RUNTIME_SLOWPATH_H
#define APROF_RUNTIME_SLOWPATH_H

#include <stdint.h>

#include "internal.h"

struct aprof_context;
struct aprof_frame;
struct aprof_thread;

/*
** The hooks' second cases and slow paths (slowpath.c), each reached by a
** tail call from a hook's common case, so that a frame found there
** (__builtin_dwarf_cfa) is the hook's.  FN and SITE as the hook got them;
** FRAME the hook's frame; CUR and TOP the top entry's context and the top
** entry, T the thread, as the common case loaded them.
*/
APROF_ENTRY void aprof_enter_slow(uintptr_t fn, uintptr_t site, uintptr_t frame)
	APROF_VERSIONED("aprof_enter_slow");
APROF_ENTRY void aprof_leave_slow(uintptr_t fn, uintptr_t site) APROF_VERSIONED("aprof_leave_slow");

/*
** Declares aprof_NAME_sampled and aprof_NAME_counted (PER_CLOCK,
** slowpath.c): the copies of slow path NAME for sampling and for the CPU's
** counter, with parameters PARAMS, as entries (APROF_ENTRY).
*/
#define PER_CLOCK_DECLARE(name, params)                                           \
	APROF_ENTRY void aprof_##name##_sampled params                              \
		APROF_VERSIONED("aprof_" #name "_sampled");                         \
	APROF_ENTRY void aprof_##name##_counted params APROF_VERSIONED("aprof_" #name "_counted")

/* NAME's copy for clock KIND, a constant where inlined, given the other arguments. */
#define PER_CLOCK_CALL(name, kind, ...)                                     \
	((kind) == AMON_CLOCK_SAMPLE ? aprof_##name##_sampled(__VA_ARGS__) \
				     : aprof_##name##_counted(__VA_ARGS__))

PER_CLOCK_DECLARE(enter_uncached, (uintptr_t fn, uintptr_t site, uintptr_t frame));
PER_CLOCK_DECLARE(enter_watched, (uintptr_t fn, uintptr_t site, struct aprof_context *cur,
				  struct aprof_frame *top));
PER_CLOCK_DECLARE(leave_watched, (uintptr_t fn, uintptr_t site, struct aprof_thread *t));

#endif /* APROF_RUNTIME_SLOWPATH_H */
