/*
** heapcommon.h -- the malloc wrappers' common case (heap.c's log, appended
** to), inline in the wrappers themselves (malloc.c) and in heap.c's entry
** points: the wrappers stay the malloc family's module, heap.c the charge's
** (the log, its replay, every other case), but malloc and free lay out
** their common path once, with no jump from one module's entry point to the
** other's (heap-live 100k/1M, callgrind: one instruction fewer each, 2 a
** malloc/free pair).  Not for other modules.
*/
#ifndef APROF_RUNTIME_HEAPCOMMON_H
#define APROF_RUNTIME_HEAPCOMMON_H

#include <stddef.h>
#include <stdint.h>

#include "blocks.h"
#include "clock.h"
#include "heap.h"
#include "internal.h"
#include "thread.h"
#include "types.h"

/*
** The whole cases (heap.c), where the common case leaves an event:
** aprof_heap_block's, with the autosave after an allocation charged, and
** aprof_heap_release's.
*/
APROF_HIDDEN void *aprof_heap_block_any(void *base, size_t size, size_t offset);
APROF_HIDDEN void aprof_heap_release_any(void *p);

/* An entry of a thread's log of heap events (heap.c). */
struct aprof_heap_entry {
	uint64_t size; /* bytes in bits 0-47 (above: ignored, a free's header generation;
			  0 in an allocation's) */
	uint64_t tag;  /* the counters charged, | APROF_BLOCK_MARK for a free (bits
			  0-5 ignored: a free logs its block's header words as they are;
			  0 in an allocation's, so that the replay masks neither word) */
};


/*
** The common case of an allocation or a free by thread T, while the process
** has one thread, no probe is due (none in sampling mode), the log has room
** for ENTRIES more after these (so that only log_append fills it) and is
** open (log_gate: allocations followed without autosaves), and T is not
** in the runtime's own code: no call but glibc's (and an allocation's to
** the types watch, types.c), a few stores to lines in the cache; anything
** else goes to heap_alloc_any or heap_free_any, whole.
** (benchmarks/heap-live.sh: on a heap that misses the cache at every block,
** each instruction here costs about a nanosecond, as it keeps the
** processor from overlapping the misses.)  1 if the common case: T's
** heap_next is then where to log.
*/
APROF_NOINSTR static inline int aprof_heap_common(const struct aprof_thread *t, size_t entries)
{
	return APROF_LIKELY(t != NULL && APROF_SINGLE_THREADED() &&
			    (uintptr_t)t->heap_next + entries * sizeof *t->heap_next <
				    (uintptr_t)t->heap_end &&
			    !aprof_busy);
}


/*
** The calling thread's state if its heap event may be the common case as
** far as the clock goes: in sampling mode (aprof_sampled: no clock's kind
** to test, no probe to count down), or with a clock while no probe is due,
** the event counted towards it (if it is not the common case after all,
** heap_event counts it again: a probe comes an event early); else NULL.
** Its current context in *C if not NULL, read where the clock's kind is
** known (aprof_thread_ends_of), so that sampling's comes from the
** thread-local top, one load fewer than through the thread's ends pointer
** (aprof_thread_current), in each allocation and free.
*/
APROF_NOINSTR static inline struct aprof_thread *aprof_heap_common_thread(struct aprof_context **c)
{
	struct aprof_thread *t = aprof_sampled;

	if (APROF_LIKELY(t != NULL)) {
		*c = aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top->ctx;
		return t;
	}
	t = aprof_self;
	if (t == NULL || aprof_clock_kind == AMON_CLOCK_SAMPLE || t->heap_probe <= 1)
		return NULL;
	*c = aprof_thread_ends_of(t, aprof_clock_kind)->top->ctx;
	t->heap_probe--;
	return t;
}


/*
** Writes (SIZE, TAG) at thread T's next log entry (aprof_heap_common(T) said
** there is room), and counts the event in T's current context C.
*/
APROF_NOINSTR static inline void aprof_heap_log_common(struct aprof_thread *t, uint64_t size,
						       uint64_t tag, struct aprof_context *c)
{
	struct aprof_heap_entry *e = t->heap_next;

	e->size = size;
	e->tag = tag;
	APROF_PUT(t->heap_next, e + 1);
	APROF_INC(c->heap_events);
}


/*
** Thread T in context C allocated SIZE bytes for the program at P: the
** types watch renewed or begun; returns P.  Unless the process watches
** nothing (aprof_types_on: a C program), and last, once the header is
** written, with no call but a tail call, so that malloc keeps nothing but
** the size across glibc's call (heap-live: 4 instructions fewer a malloc).
** The watch's own tests are all in aprof_types_allocated, so that this
** loads nothing more of the thread (its inline rewatch test cost JsonCpp
** small.json 15 instructions an allocation, for 1.8% of them).
*/
APROF_NOINSTR static inline void *aprof_heap_watch(struct aprof_thread *t, struct aprof_context *c,
					     size_t size, void *p)
{
	if (aprof_types_on)
		return aprof_types_allocated(t, c, size, p);
	return p;
}


/*
** The common case of an allocation of SIZE bytes (aprof_heap_common), charged
** but for the types watch (aprof_heap_watch): its counters, the thread in *T and
** its context in *C, or NULL if it is not the common case, to be charged by
** heap_alloc_any.
*/
APROF_NOINSTR __attribute__((always_inline)) static inline struct aprof_heap_counts *
aprof_heap_alloc_common(size_t size, struct aprof_thread **t, struct aprof_context **c)
{
	struct aprof_heap_counts *h;

	*t = aprof_heap_common_thread(c);
	if (!aprof_heap_common(*t, 1))
		return NULL;
	h = (*c)->heap; /* T's own context: T made its counters */
	if (APROF_UNLIKELY(h == NULL))
		return NULL;
	aprof_heap_log_common(*t, size, (uintptr_t)h, *c);
	return h;
}


/* The header's first word (blocks.h) of a block of SIZE bytes allocated in GENERATION. */
APROF_NOINSTR static inline uint64_t aprof_heap_size_word(size_t size, uint64_t generation)
{
	return (uint64_t)size | generation;
}


/*
** The common case of a free, from its block's header words as they are
** (blocks.h: SIZE holds the bytes and the generation, TAG the counters and
** the mark), logged whole: whether its block was followed, and in this
** generation, the replay tests (log_charged).  1 if logged.
*/
APROF_NOINSTR __attribute__((always_inline)) static inline int aprof_heap_free_common(uint64_t size,
										uint64_t tag)
{
	struct aprof_context *c;
	struct aprof_thread *t = aprof_heap_common_thread(&c);

	if (!aprof_heap_common(t, 1))
		return 0;
	aprof_heap_log_common(t, size, tag, c);
	return 1;
}


/* Writes the header of the block for the program at P, charged to H (NULL if not); returns P. */
APROF_NOINSTR static inline void *aprof_heap_put(char *p, size_t size, size_t offset,
					   struct aprof_heap_counts *h)
{
	struct aprof_block b;

	b.size = size;
	b.offset = offset;
	b.generation = __atomic_load_n(&aprof_heap_generation, __ATOMIC_RELAXED);
	b.counts = h;
	aprof_block_put(p, &b);
	return p;
}


/*
** aprof_heap_block, inline in it (heap.c) and in aprof_heap_malloc: no
** call between glibc's and the charge.
*/
APROF_NOINSTR __attribute__((always_inline)) static inline void *
aprof_heap_block_inline(void *base, size_t size, size_t offset)
{
	struct aprof_thread *t;
	struct aprof_context *c;
	struct aprof_heap_counts *h;
	void *p;

	if (base == NULL)
		return NULL;
	if (offset != APROF_BLOCK_HEADER || (h = aprof_heap_alloc_common(size, &t, &c)) == NULL)
		return aprof_heap_block_any(base, size, offset);
	p = aprof_heap_put((char *)base + APROF_BLOCK_HEADER, size, APROF_BLOCK_HEADER, h);
	return aprof_heap_watch(t, c, size, p);
}


/*
** malloc(SIZE), SIZE below aprof_heap_malloc_below: glibc's block of SIZE
** bytes and a header, as aprof_heap_block; NULL if refused.
*/
APROF_NOINSTR __attribute__((always_inline)) static inline void *aprof_heap_malloc(size_t size)
{
	return aprof_heap_block_inline(__libc_malloc(size + APROF_BLOCK_HEADER), size,
				       APROF_BLOCK_HEADER);
}


/*
** free(P), P not NULL: the free charged to the context that allocated P
** (its header says), or counted as untracked if the wrappers never handed
** P out, then the real block given back to glibc.  The common case: a
** malloc block (the header right before it), logged as its header says;
** glibc's free is then a jump, not a call.
*/
APROF_NOINSTR __attribute__((always_inline)) static inline void aprof_heap_release(void *p)
{
	const uint64_t *w = p;

	/* bits 0-5 the mark alone (offset code 0), tested as W[-1] less the mark: one instruction fewer */
	if (((w[-1] - APROF_BLOCK_MARK) & 63) != 0 || !aprof_heap_free_common(w[-2], w[-1]))
		aprof_heap_release_any(p);
	else
		__libc_free((char *)p - APROF_BLOCK_HEADER);
}

#endif /* APROF_RUNTIME_HEAPCOMMON_H */
