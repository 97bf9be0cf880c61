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

/* 1 if the log of cursor H has room for ENTRIES more after these. */
APROF_NOINSTR static inline int aprof_heap_room(const struct aprof_heap_cursor *h, size_t entries)
{
	return (uintptr_t)h->next + entries * sizeof *h->next < (uintptr_t)h->end;
}


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
** heap.next is then where to log.
*/
APROF_NOINSTR static inline int aprof_heap_common(const struct aprof_thread *t, size_t entries)
{
	return APROF_LIKELY(t != NULL && APROF_SINGLE_THREADED() &&
			    aprof_heap_room(&t->heap, entries) && !aprof_busy);
}


/*
** The calling thread's heap event (ENTRIES of its log, one but for
** realloc's) is the common case of sampling mode
** (aprof_heap_common(aprof_sampled, ENTRIES)): 1 if so, its log's cursor in *H
** and its current context in *C, found from the thread pointer alone: the
** room on its cursor (aprof_sampled_heap, which has none in a thread not
** sampled), the context from the thread-local top, so that aprof_sampled
** is neither loaded nor tested (heap-live 100k/1M, callgrind: 2
** instructions fewer a malloc and a free).
*/
APROF_NOINSTR __attribute__((always_inline)) static inline int
aprof_heap_sampled_event(size_t entries, struct aprof_heap_cursor **h, struct aprof_context **c)
{
	*h = aprof_sampled_heap;
	if (APROF_UNLIKELY(!aprof_heap_room(*h, entries) || !APROF_SINGLE_THREADED() || aprof_busy))
		return 0;
	*c = APROF_TLS.ends.top->ctx; /* aprof_thread_ends_of(aprof_sampled, AMON_CLOCK_SAMPLE) */
	return 1;
}


/*
** The thread whose log cursor is LOG: computed where the types watch needs
** it alone (aprof_heap_watch), so that a C program's mallocs (aprof_types_on
** 0) never do.
*/
APROF_NOINSTR static inline struct aprof_thread *aprof_heap_thread_of(struct aprof_heap_cursor *log)
{
	return (struct aprof_thread *)(void *)((char *)log - offsetof(struct aprof_thread, heap));
}


/*
** The calling thread's heap event is the common case with a clock, while no
** probe is due (aprof_heap_common(aprof_self, 1)): its state, the event
** counted towards the probe (if it is not the common case after all,
** heap_event counts it again: a probe comes an event early), and its
** current context in *C; else NULL.  After aprof_heap_sampled_event, and
** without a test of the clock's kind (2 instructions a malloc and a free
** with a clock, which that one's failed test costs): in sampling mode the
** countdown is 0 (thread.c), so this returns at its test.
*/
APROF_NOINSTR static inline struct aprof_thread *aprof_heap_counted_event(struct aprof_context **c)
{
	struct aprof_thread *t = aprof_self;

	if (t == NULL || t->heap_probe <= 1)
		return NULL;
	t->heap_probe--;
	if (!aprof_heap_common(t, 1))
		return NULL;
	/* T's own top, as with any clock but sampling */
	*c = aprof_thread_ends_of(t, APROF_CLOCK_COUNTER)->top->ctx;
	return t;
}


/*
** Writes (SIZE, TAG) at the next entry of the log of cursor H (there is
** room: aprof_heap_common), and counts the event in its thread's current
** context C.
*/
APROF_NOINSTR static inline void aprof_heap_log_common(struct aprof_heap_cursor *h, uint64_t size,
						       uint64_t tag, struct aprof_context *c)
{
	struct aprof_heap_entry *e = h->next;

	e->size = size;
	e->tag = tag;
	APROF_PUT(h->next, e + 1);
	APROF_INC(c->heap_events);
}


/*
** Thread T in context C allocated SIZE bytes for the program at P: the
** types watch renewed or begun; returns P.  Unless the process watches
** nothing (aprof_types_on: a C program), and last, once the header is
** written, with no call but a tail call, so that malloc keeps nothing but
** the size across glibc's call (fewer instructions a malloc).  The watch's
** own tests are all in aprof_types_allocated, so that this loads nothing
** more of the thread (an inline rewatch test here cost every allocation
** instructions for the few that need it: benchmarks/CHOICES.md, "Types
** watch").
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
** but for the types watch (aprof_heap_watch): its counters, the thread's
** log cursor in *LOG (aprof_heap_thread_of) and its context in *C, or NULL
** if it is not the common case, to be charged by heap_alloc_any.
*/
APROF_NOINSTR __attribute__((always_inline)) static inline struct aprof_heap_counts *
aprof_heap_alloc_common(size_t size, struct aprof_heap_cursor **log, struct aprof_context **c)
{
	struct aprof_heap_cursor *cursor;
	struct aprof_heap_counts *h;
	struct aprof_thread *t;

	/*
	 * Each case logs on its own: joined before, they had GCC load the
	 * log's next entry again after the test of its room (one instruction).
	 */
	if (APROF_LIKELY(aprof_heap_sampled_event(1, &cursor, c))) {
		h = (*c)->heap; /* the thread's own context: it made its counters */
		if (APROF_UNLIKELY(h == NULL))
			return NULL;
		aprof_heap_log_common(cursor, size, (uintptr_t)h, *c);
		*log = cursor;
		return h;
	}
	if ((t = aprof_heap_counted_event(c)) == NULL || (h = (*c)->heap) == NULL)
		return NULL;
	*log = &t->heap;
	aprof_heap_log_common(*log, size, (uintptr_t)h, *c);
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
	struct aprof_heap_cursor *cursor;
	struct aprof_context *c;
	struct aprof_thread *t;

	if (APROF_LIKELY(aprof_heap_sampled_event(1, &cursor, &c))) {
		aprof_heap_log_common(cursor, size, tag, c);
		return 1;
	}
	if ((t = aprof_heap_counted_event(&c)) == NULL)
		return 0;
	aprof_heap_log_common(&t->heap, size, tag, c);
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
	struct aprof_heap_cursor *log;
	struct aprof_context *c;
	struct aprof_heap_counts *h;
	void *p;

	if (base == NULL)
		return NULL;
	if (offset != APROF_BLOCK_HEADER || (h = aprof_heap_alloc_common(size, &log, &c)) == NULL)
		return aprof_heap_block_any(base, size, offset);
	p = aprof_heap_put((char *)base + APROF_BLOCK_HEADER, size, APROF_BLOCK_HEADER, h);
	return aprof_heap_watch(aprof_heap_thread_of(log), c, size, p);
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
