/*
** heap.h -- allocation profiling: every heap allocation charged in bytes and
** counts to the current context of the allocating thread, every free charged
** back to the context that allocated the block (mprof's accounting, without
** its merging of cycles).
*/
#ifndef APROF_RUNTIME_HEAP_H
#define APROF_RUNTIME_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "amon.h"
#include "internal.h"

struct aprof_block;
struct aprof_context;
struct aprof_thread;
struct aprof_type_site;

/*
** A context's heap counters, created at the context's first allocation.  A
** free may come from any thread, so the counters have a spin lock; the hooks
** never touch them.  Each allocation and free adds to two of them, indexed
** by what it is (APROF_HEAP_ALLOC, APROF_HEAP_FREE): its count and its
** bytes in its size class, side by side, so that blocks of up to 256 bytes
** touch the first cache line alone (the counters are 64-byte aligned), with
** the types watch's sites.
** Read them with aprof_heap_read.
*/
struct aprof_heap_counts {
	int lock;                              /* 0 free, 1 held */
	uint32_t stamp;                        /* peak epoch when last changed (see heap.c) */
	struct aprof_type_site *sites;         /* constructor candidates (types.h), oldest first */
	uint64_t n[2];                         /* allocations charged here; frees of blocks
						  allocated here */
	uint64_t bytes[2 * AMON_SIZE_CLASSES]; /* their bytes by mprof size class K, at 2K
						  and 2K + 1 */
	uint64_t at_peak;                      /* live bytes at the last peak, if stamp is its epoch */
};

#define APROF_HEAP_ALLOC 0 /* the index of an allocation's counters */
#define APROF_HEAP_FREE 1  /* of a free's */

/*
** A thread's allocation-size histogram (mprof's bins): for allocations and
** for frees (APROF_HEAP_ALLOC, APROF_HEAP_FREE) the counts of AMON_BINS
** bins, then one more counter holding the last bin's bytes
** (APROF_HEAP_BYTES).  Bin k below AMON_BINS - 1 holds blocks of exactly k
** bytes, so only its counts are kept (its bytes are k times them): 8 bytes
** a bin and kind, so that a heap of sizes in no order keeps half as many
** lines of it in the cache as with four counters a bin.  A kind's counts
** side by side, a size's at 8 times it, so that the replay adds to one with
** one instruction (a bin's two counts side by side took two more, a copy
** and a shift, to scale the size by 16).  Read it with aprof_heap_bin_add.
*/
struct aprof_heap_bins {
	uint64_t n[2][AMON_BINS + 1]; /* [kind][bin], and [kind][APROF_HEAP_BYTES] */
};

#define APROF_HEAP_BYTES AMON_BINS /* the counter after the last bin's: its bytes */

/* Adds bin K of histogram BINS (a thread's, changing meanwhile) to *SUM: its counts and bytes. */
APROF_HIDDEN void aprof_heap_bin_add(const struct aprof_heap_bins *bins, uint32_t k,
				     struct amon_heap_bin *sum);

/* 1 while allocations are followed: not with APROF_HEAP=0, nor after aprof_stop. */
extern APROF_HIDDEN int aprof_heap_on;

/*
** 0 once APROF_HEAP=0 has been read: allocations are never followed, so the
** malloc wrappers give blocks no header (blocks.h).  1 before the start.
*/
extern APROF_HIDDEN int aprof_heap_wanted;

/*
** Reads APROF_HEAP (0 turns allocation tracking off).  THREAD_START makes the
** state of a thread that allocates before its first hook, NULL if refused
** (startup.c's aprof_startup_thread): passed down once at the start, so that
** the heap, below the start-up, never calls up into it.
*/
APROF_HIDDEN void aprof_heap_init(struct aprof_thread *(*thread_start)(void));

/*
** AUTOSAVE is called after each allocation charged to a context; NULL (the
** default): none.  The write policy (policy.c) sets it while the program
** asks for autosaves (aprof_set_autosave), so that the heap, below the
** policy, never calls up into it by name; while it is set, allocations
** take the wrappers' whole case, so that their common case neither tests
** nor calls it.
*/
APROF_HIDDEN void aprof_heap_autosave_set(void (*autosave)(void));

/* Turns allocation tracking on (unless APROF_HEAP=0) or off: aprof_restart, aprof_stop. */
APROF_HIDDEN void aprof_heap_on_set(int on);

/*
** aprof_restart's count, modulo 2^16, kept in each block's header (blocks.h):
** in bits 48-63 as there (steps of APROF_BLOCK_GENERATION_ONE, wrapping as
** the header's 16 bits do), so that a malloc makes the header's first word
** with an OR alone, no shift (heap-live 100k/1M: one instruction fewer a malloc).
*/
extern APROF_HIDDEN uint64_t aprof_heap_generation;

/*
** The block at BASE (NULL if glibc refused it), of SIZE bytes for the
** program at BASE + OFFSET (blocks.h: 16, or a larger alignment): charged
** to the calling thread's current context if followed (not: tracking off,
** the thread has no state, the runtime's own allocation, memory refused),
** and then counted towards the next autosave; its header written either
** way.  Returns the program's address, NULL if BASE is.
*/
APROF_HIDDEN void *aprof_heap_block(void *base, size_t size, size_t offset);

/*
** malloc's requests of fewer bytes than this get a header (aprof_heap_malloc):
** 2^48 (APROF_BLOCK_SIZE_MAX + 1) while blocks get headers, 0 once
** APROF_HEAP=0, so that malloc tests both in one comparison.  Larger
** requests go to glibc as they are, which refuses them (ENOMEM: no 2^48
** bytes fit in x86-64's user address space); a block glibc gave anyway would
** be one the wrappers did not hand out, handled as such.
*/
extern APROF_HIDDEN size_t aprof_heap_malloc_below;

/*
** malloc and free's own cases, aprof_heap_malloc and aprof_heap_release,
** are inline in the wrappers: heapcommon.h, which appends to the log below
** and leaves every other case to these two.
*/

/*
** An entry of a thread's log of heap events (its cursor: thread.h), which
** heap.c's replay charges.
*/
struct aprof_heap_entry {
	uint64_t size; /* bytes in bits 0-47 (above: ignored, a free's header generation;
			  0 in an allocation's) */
	uint64_t tag;  /* the counters charged, | APROF_BLOCK_MARK for a free (bits
			  0-5 ignored: a free logs its block's header words as they are;
			  0 in an allocation's, so that the replay masks neither word) */
};

/*
** The whole cases, where the common case leaves an event: aprof_heap_block's
** (same arguments and result), with the autosave after an allocation
** charged, and aprof_heap_release's (P the program's block, not NULL).
*/
APROF_HIDDEN void *aprof_heap_block_any(void *base, size_t size, size_t offset);
APROF_HIDDEN void aprof_heap_release_any(void *p);

/*
** glibc's malloc and free, which never come back to the wrappers (malloc.c):
** called through the GOT, not the PLT, one jump fewer each.
*/
extern void *__libc_malloc(size_t size) __attribute__((noplt));
extern void __libc_free(void *p) __attribute__((noplt));

/*
** Charges the free of a block of SIZE bytes allocated in GENERATION to H,
** the counters of the context that allocated it (read from its header); a
** block that was not followed (H NULL) counts as untracked.  The block may
** be given back to glibc before: all this needs is in the arguments.
*/
APROF_HIDDEN void aprof_heap_free(struct aprof_heap_counts *h, size_t size, uint64_t generation);

/*
** realloc's new block at BASE (glibc's, not NULL), of SIZE bytes for the
** program at BASE + APROF_BLOCK_HEADER, in place of a malloc block (offset
** code 0) whose header words (blocks.h) were OLD_WORD (its size and
** generation) and OLD_TAG (its counters and the mark): the free of the old
** (aprof_heap_free) and the allocation of the new (aprof_heap_block), in
** that order, with one test of the thread's state for both in the common
** case (Lua allocates and grows every object by realloc).  Returns the
** program's address.
*/
APROF_HIDDEN void *aprof_heap_realloc(void *base, size_t size, uint64_t old_word, uint64_t old_tag);

/*
** Charges every thread's heap events not yet charged (heap.c's logs): the
** writer's first step, so that it reads exact counts.
*/
APROF_HIDDEN void aprof_heap_flush(void);

/* Counts the free of a block the wrappers never handed out (no header). */
APROF_HIDDEN void aprof_heap_untracked(void);

/*
** C's counters (all zero if it has none) into V, as amon.h's counters
** AMON_ALLOCS to AMON_CLASS_FREE's last (enum amon_count) but
** AMON_PEAK_BYTES (aprof_heap_at_peak), consistent even while other threads
** change them.
*/
APROF_HIDDEN void aprof_heap_read(const struct aprof_context *c, uint64_t *v);

/* Live bytes of context C at the peak of the run's live bytes. */
APROF_HIDDEN uint64_t aprof_heap_at_peak(const struct aprof_context *c);

/*
** The run's peak of live bytes; *TICKS is the tick count from the start when
** it was reached, *UNTRACKED_FREES the frees of blocks never seen allocated.
*/
APROF_HIDDEN uint64_t aprof_heap_peak(uint64_t *ticks, uint64_t *untracked_frees);

/* Forgets all counts (aprof_restart): blocks allocated before are not charged when freed. */
APROF_HIDDEN void aprof_heap_reset(void);

/*
** fork: the heap's lock is held across it (prepare) and released in the
** parent and the child, so the child does not inherit it held by a thread it lost.
*/
APROF_HIDDEN void aprof_heap_fork_prepare(void);
APROF_HIDDEN void aprof_heap_fork_parent(void);
APROF_HIDDEN void aprof_heap_fork_child(void);

#endif /* APROF_RUNTIME_HEAP_H */
