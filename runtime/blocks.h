/*
** blocks.h -- the side table of live heap blocks: block address -> (size,
** context that allocated it).  A side table rather than a header in front of
** each block, so memalign, valloc and malloc_usable_size stay correct (the
** bug mprof's manual admits).  Striped: each of BLOCKS_STRIPES sub-tables has
** its own spin lock, so threads rarely meet and there is no global lock.
*/
#ifndef APROF_RUNTIME_BLOCKS_H
#define APROF_RUNTIME_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "transition.h"

/* What the table knows of one live block. */
struct aprof_block {
	uintptr_t addr;                /* the block's address; 0 marks an empty slot */
	size_t size;                   /* bytes requested */
	struct aprof_context *context; /* charged with the allocation, and so with the free */
	uint32_t generation;           /* aprof_restart count when allocated */
};

/*
** Records block B.  Returns 0, or -1 if the table cannot grow (the block is
** then simply not followed: its free will not be charged).
*/
APROF_HIDDEN int aprof_blocks_insert(const struct aprof_block *b);

/* Removes the block at ADDR into *B; returns 0, or -1 if the table does not hold it. */
APROF_HIDDEN int aprof_blocks_remove(uintptr_t addr, struct aprof_block *b);

/* Takes (and gives back) every stripe's lock, so that fork copies no held lock. */
APROF_HIDDEN void aprof_blocks_lock_all(void);
APROF_HIDDEN void aprof_blocks_unlock_all(void);

#endif /* APROF_RUNTIME_BLOCKS_H */
