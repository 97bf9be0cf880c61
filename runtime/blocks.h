/*
** blocks.h -- what the runtime knows of a live heap block, kept in a 16-byte
** header in front of it: its size and the counters of the context charged
** with it.  Every
** block the malloc wrappers hand out has one (malloc.c), followed or not,
** unless APROF_HEAP=0 turned tracking off for the run, so a free finds its
** context's counters in the block itself: no table to look up, no
** cache line beyond the block's own (glibc reads the chunk's size, right
** before the header, in the same free).  A side table of every live block
** took about 100 bytes a block and a cache miss in each malloc and free on a
** million live blocks (benchmarks/heap-live.sh).
**
** The header, two words just before the program's pointer P:
**   P[-2]  the size requested (bits 0-47) | the generation (bits 48-63)
**   P[-1]  the address of the context's counters (struct aprof_heap_counts,
**          64-byte aligned; 0 if not followed)
**          | APROF_BLOCK_MARK | the offset code (bits 0-2 and 4-5)
** The real block starts 16 << code bytes before P: 16 for malloc, calloc and
** realloc, the alignment for memalign and its kin (malloc's blocks are
** 16-byte aligned already).  glibc keeps each chunk's size, a multiple of 16
** with flags in bits 0-2, in the word before the pointer it hands out, so a
** block that glibc gave out directly (not through the wrappers) never has
** bit 3 there: such a block is told apart and left to glibc.  (Under
** valgrind, whose blocks have no such word, that read is an error memcheck
** reports: only a run with APROF_HEAP=0, or a program calling
** __libc_malloc itself, has glibc's own blocks, and the tests that run the
** profiled programs under memcheck do neither.)
*/
#ifndef APROF_RUNTIME_BLOCKS_H
#define APROF_RUNTIME_BLOCKS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct aprof_heap_counts;

/* What the runtime knows of one live block. */
struct aprof_block {
	size_t size;                   /* bytes requested */
	struct aprof_heap_counts *counts; /* of the context charged with the allocation, and so
					     with the free; NULL if it was not followed */
	uint64_t generation;           /* aprof_restart count when allocated, modulo 2^16, in
					  bits 48-63 as in P[-2] (below), so that its word is
					  the size OR this, without a shift */
	size_t offset;                 /* bytes from the real block's start to the program's */
};

#define APROF_BLOCK_HEADER 16             /* bytes of the header */
#define APROF_BLOCK_MARK 8u               /* in P[-1]: the block has a header */
#define APROF_BLOCK_SIZE_MAX (((uint64_t)1 << 48) - 1) /* larger requests fail (ENOMEM) */
#define APROF_BLOCK_GENERATION_ONE ((uint64_t)1 << 48) /* a generation's step in P[-2] */
#define APROF_BLOCK_OFFSET_MAX ((size_t)16 << 31)     /* larger alignments fail (EINVAL) */

/* SIZE plus a header of OFFSET bytes, into *TOTAL; 0, or -1 (errno ENOMEM) if too large. */
APROF_NOINSTR static inline int aprof_block_total(size_t size, size_t offset, size_t *total)
{
	if (size > APROF_BLOCK_SIZE_MAX || __builtin_add_overflow(size, offset, total)) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}


/* The offset code of OFFSET (16 << code, a power of two) in P[-1]'s bits 0-2 and 4-5. */
APROF_NOINSTR static inline uint64_t aprof_block_offset_code(size_t offset)
{
	uint64_t code = (uint64_t)__builtin_ctzll(offset) - 4;

	return (code & 7) | (code >> 3) << 4;
}


/* Writes B's header in front of P, the address the program gets. */
APROF_NOINSTR static inline void aprof_block_put(void *p, const struct aprof_block *b)
{
	uint64_t *w = p;

	w[-2] = (uint64_t)b->size | b->generation;
	w[-1] = (uint64_t)(uintptr_t)b->counts | APROF_BLOCK_MARK |
		aprof_block_offset_code(b->offset);
}


/*
** Reads the header in front of P into *B: 1, or 0 if P has none (a block
** the wrappers did not hand out).
*/
APROF_NOINSTR static inline int aprof_block_get(const void *p, struct aprof_block *b)
{
	const uint64_t *w = p;
	uint64_t tag = w[-1];

	if ((tag & APROF_BLOCK_MARK) == 0)
		return 0;
	b->size = (size_t)(w[-2] & APROF_BLOCK_SIZE_MAX);
	b->generation = w[-2] & ~APROF_BLOCK_SIZE_MAX;
	b->counts = (struct aprof_heap_counts *)(uintptr_t)(tag & ~(uint64_t)63);
	b->offset = (size_t)16 << ((tag & 7) | ((tag >> 4) & 3) << 3);
	return 1;
}

#endif /* APROF_RUNTIME_BLOCKS_H */
