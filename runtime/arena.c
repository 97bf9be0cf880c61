/*
** arena.c -- mmap-backed bump allocation for the runtime's own data.
*/
#include <config.h>

#include <stdint.h>
#include <sys/mman.h>

#include "arena.h"

#define ARENA_CHUNK ((size_t)1 << 20) /* 1 MiB: a few thousand contexts */


APROF_NOINSTR void *aprof_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}


APROF_NOINSTR void aprof_unmap(void *p, size_t size)
{
	munmap(p, size);
}


APROF_NOINSTR void *aprof_reserve(size_t size)
{
	void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}


APROF_NOINSTR int aprof_commit(void *p, size_t size)
{
	return mprotect(p, size, PROT_READ | PROT_WRITE);
}


APROF_NOINSTR void *aprof_arena_alloc(struct aprof_arena *a, size_t size, size_t align)
{
	char *p = (char *)(((uintptr_t)a->next + align - 1) & ~(uintptr_t)(align - 1));

	size = (size + 15) & ~(size_t)15;
	if (a->next == NULL || (size_t)(a->end - p) < size || p > a->end) {
		/* Start a new chunk (page-aligned); the tail of the old one is abandoned. */
		size_t chunk = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		p = aprof_map(chunk);
		if (p == NULL)
			return NULL;
		a->end = p + chunk;
		APROF_ADD(a->mapped, chunk);
	}
	a->next = p + size;
	APROF_ADD(a->used, size);
	return p;
}
