/*
** arena.h -- memory for the runtime's own data: bump allocation from mmap'd
** chunks, never the profiled program's malloc (which may be instrumented or
** interposed).  An arena belongs to one thread, so it needs no lock.
*/
#ifndef APROF_RUNTIME_ARENA_H
#define APROF_RUNTIME_ARENA_H

#include <stddef.h>

#include "internal.h"

/* A thread's arena: the current chunk [next, end) and the bytes mapped so far. */
struct aprof_arena {
	char *next;          /* first free byte of the current chunk */
	char *end;           /* end of the current chunk */
	size_t mapped;       /* total bytes mapped by this arena */
	size_t used;         /* bytes handed out (Spivey's "profiling memory") */
};

/*
** Returns SIZE bytes aligned to ALIGN (a power of two, at most 4096),
** zero-filled (fresh mmap pages), or NULL if the kernel refuses memory.
** Memory is never freed: profiles live until exit.
*/
APROF_HIDDEN void *aprof_arena_alloc(struct aprof_arena *a, size_t size, size_t align);

/* Maps SIZE bytes of zeroed memory directly (for tables and stacks); NULL on failure. */
APROF_HIDDEN void *aprof_map(size_t size);

/* Unmaps memory from aprof_map. */
APROF_HIDDEN void aprof_unmap(void *p, size_t size);

/*
** Reserves SIZE bytes of address space (a multiple of the page size), none
** of it usable until committed, so that what lives there can grow in place
** and never move; NULL on failure.
*/
APROF_HIDDEN void *aprof_reserve(size_t size);

/* Makes SIZE bytes at P (page-aligned, in a reservation) usable, zeroed; 0, or -1 if refused. */
APROF_HIDDEN int aprof_commit(void *p, size_t size);

#endif /* APROF_RUNTIME_ARENA_H */
