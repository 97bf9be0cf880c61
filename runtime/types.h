/*
** types.h -- constructor candidates of allocations, so that aprof can tell
** what type each allocation made (aprof --types).  For new T(args) the
** allocation is charged to the caller, and T::T is entered from that same
** context just after the allocation returns (after the argument routines:
** C++17 [expr.new]/19).  So after each allocation the next hooks take the
** slow path, the way they do on a full shadow stack, and the routines entered from the
** allocating context are noted, until that context is left, another
** allocation is made or AMON_CANDIDATES were noted.  The common case of the
** hooks is unchanged.  A process without C++'s operator new never enters a
** constructor, so it watches nothing (aprof_types_on).
*/
#ifndef APROF_RUNTIME_TYPES_H
#define APROF_RUNTIME_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "amon.h"
#include "internal.h"

struct aprof_context;
struct aprof_heap_counts;
struct aprof_thread;

/*
** One (size, candidates) of a context, counted: an element of the context's
** list (struct aprof_heap_counts), appended by the owning thread only and
** published with a release store, so the writer may read it meanwhile.
*/
struct aprof_type_site {
	struct aprof_type_site *next;   /* the context's next site, NULL at the end */
	struct amon_type_site s;        /* size, allocations (relaxed atomic), candidates */
};

/*
** A thread's watch of the allocation it made last (struct aprof_thread).
** The context's counters, which hold its sites, are CTX's (heap.c charges
** an allocation to the current context's): not kept apart.
*/
struct aprof_types_watch {
	struct aprof_context *ctx;         /* the allocating context; NULL: no watch */
	struct aprof_frame *at;            /* the allocating activation's shadow-stack entry */
	uintptr_t frame;                   /* the allocating activation's frame (aprof_frame) */
	uint64_t size;                     /* bytes requested */
	uint32_t n;                        /* candidates noted so far; APROF_TYPES_OFF */
	uintptr_t candidate[AMON_CANDIDATES]; /* noted; 0 past the first and past N (site_count) */
};

/*
** 1 if allocations are watched for constructors: the process has C++'s
** operator new (a C program's candidates are never constructors, so that
** aprof --types says the same without them, and its allocations and the
** hooks after them are spared the watch: Lua binary-trees.lua, an eighth of
** what following the heap costs).  Set by aprof_types_init.  Each thread's
** watch then holds APROF_TYPES_OFF (aprof_types_thread), which the malloc
** wrappers' first test sees, so that C++ pays nothing for the test.
*/
extern APROF_HIDDEN int aprof_types_on;

/* A watch's candidate count (struct aprof_types_watch's n) in a process that watches nothing. */
#define APROF_TYPES_OFF UINT32_MAX

/*
** Sets aprof_types_on, at start-up: 1 if operator new (_Znwm) is defined in
** the process's dynamic symbols (libstdc++ or libc++ loaded), or if the
** program is linked statically, which hides them (so watched, as before).
** A program that links libstdc++ statically but dynamically to libc
** (-static-libstdc++) hides it too and is not watched, nor is a C program
** that loads C++ code later (dlopen): their new T sites are of unknown type,
** their allocators' types still found by name.
*/
APROF_HIDDEN void aprof_types_init(void);

/* A candidate's entry marked in the shadow stack, so that its exit takes the slow path. */
#define APROF_FN_WATCHED ((uintptr_t)1 << 63)

/* A new thread's watch W: APROF_TYPES_OFF if the process watches nothing (aprof_types_on). */
APROF_NOINSTR static inline void aprof_types_thread(struct aprof_types_watch *w)
{
	if (!aprof_types_on)
		w->n = APROF_TYPES_OFF;
}

/*
** Thread T, in context C, has just allocated SIZE bytes for the program at
** P: notes the last allocation's candidates, and watches the hooks to come;
** returns P, so that the malloc wrappers reach it by a tail call.  A
** watch that saw no candidate is begun again whole, without a test of
** whether it already watches C's activation there (a loop that
** allocates), which would change its size alone: the test cost more than
** the stores it spared, 2 instructions on either path (JsonCpp small.json
** headers excluded, 360,006 watches).  Only P if the process watches
** nothing (APROF_TYPES_OFF), which the wrappers' common case tests before
** the call (aprof_types_on).
*/
APROF_HIDDEN void *aprof_types_allocated(struct aprof_thread *t, struct aprof_context *c,
					 uint64_t size, void *p);

/*
** An entry of FN from context CTX, in the activation whose frame is at
** FRAME, made at W's depth: a candidate if that is W's allocating context
** and activation (the frame read only where the context is W's: one load
** fewer where it is not, JsonCpp half its watched entries).  Notes it and
** returns 1 if the watch goes on, its entry to be
** marked APROF_FN_WATCHED; else 0, and the watch needs aprof_types_finish
** (not a candidate: the activation was left; or AMON_CANDIDATES noted).
** The hooks' watched entry (hooks.c), inline.
*/
APROF_NOINSTR static inline int aprof_types_note(struct aprof_types_watch *w,
						  const struct aprof_context *ctx,
						  const uintptr_t *frame, uintptr_t fn)
{
	if (w->ctx != ctx || w->frame != *frame)
		return 0;
	w->candidate[w->n++] = fn;
	return w->n < AMON_CANDIDATES;
}

/*
** The end of the calling thread's watch, on a watched entry that was no
** candidate (or its last), when the watch saw candidates: its allocation
** counted at its site, then the guard, which the caller set, cleared.
** Apart, so that the hooks' watched entry (hooks.c), which tail-calls it,
** saves no register for the call; the thread from its thread-local
** pointer, not a parameter, so that the watched entry moves one argument
** fewer; the count inline, so that this makes no call where the site is
** found and saves no register either.
*/
APROF_HIDDEN void aprof_types_end(void);

/* aprof_types_finish when T's watch saw a candidate: counts its allocation at its site. */
APROF_HIDDEN void aprof_types_record(struct aprof_thread *t);

/* Ends T's watch W (T->types), counting its allocation if it saw a candidate. */
APROF_NOINSTR static inline void aprof_types_finish(struct aprof_thread *t,
						    struct aprof_types_watch *w)
{
	if (w->n > 0)
		aprof_types_record(t);
	w->ctx = NULL;
	w->n = 0;
}

/*
** After a slow-path hook of T (an entry if ENTRY, else an exit): notes a
** candidate, or ends the watch, or sends the next hook to the slow path.
*/
APROF_HIDDEN void aprof_types_hook(struct aprof_thread *t, int entry);

/* An exit of FN on T through the slow path, before its work: unmarks FN's entry if a candidate's. */
APROF_HIDDEN void aprof_types_exit(struct aprof_thread *t, uintptr_t fn);

/* Sets every site's allocations of counters H to 0 (aprof_restart). */
APROF_HIDDEN void aprof_types_reset(struct aprof_heap_counts *h);

#endif /* APROF_RUNTIME_TYPES_H */
