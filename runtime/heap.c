/*
** heap.c -- charging allocations and frees to contexts, the peak of live
** bytes, and the size histogram.
**
** The peak is kept exact without copying every context's counts at every
** new peak: each new peak starts a new "epoch", and a context's counters
** are stamped with the epoch in which they last changed.  The first change
** after a peak first saves the context's live bytes in 'at_peak'; a context
** not changed since the last peak still holds its value at the peak.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "clock.h"
#include "diag.h"
#include "heap.h"
#include "thread.h"
#include "types.h"

APROF_HIDDEN int aprof_heap_on;
APROF_HIDDEN int aprof_heap_wanted = 1;

static uint64_t live_total;     /* live bytes of the current generation, all threads */
static uint64_t peak_total;     /* the peak of live_total */
static uint64_t peak_ticks;     /* clock ticks from the start to the peak */
static uint32_t epoch;          /* count of new peaks: see the comment at the top */
static uint32_t generation;     /* count of aprof_restart calls */
static uint64_t untracked;      /* frees of blocks never seen allocated */
static int peak_lock;


/* Adds DELTA to live_total; returns the new value.  No atomic instruction with one thread. */
APROF_NOINSTR static uint64_t live_add(uint64_t delta)
{
	uint64_t live;

	if (!APROF_SINGLE_THREADED())
		return __atomic_add_fetch(&live_total, delta, __ATOMIC_RELAXED);
	live = __atomic_load_n(&live_total, __ATOMIC_RELAXED) + delta;
	__atomic_store_n(&live_total, live, __ATOMIC_RELAXED);
	return live;
}


APROF_NOINSTR void aprof_heap_init(void)
{
	const char *v = aprof_env("APROF_HEAP");

	__atomic_store_n(&aprof_heap_wanted, v == NULL || strcmp(v, "0") != 0, __ATOMIC_RELAXED);
	if (v != NULL && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
		aprof_env_reject("APROF_HEAP", v, "not 0 or 1: allocations are followed");
	aprof_heap_on = aprof_heap_wanted;
}


APROF_NOINSTR void aprof_heap_on_set(int on)
{
	__atomic_store_n(&aprof_heap_on, on && aprof_heap_wanted, __ATOMIC_RELEASE);
}


/* Saves H's live bytes at the last peak before they change (H locked). */
APROF_NOINSTR static void heap_touch(struct aprof_heap_counts *h)
{
	uint32_t e = __atomic_load_n(&epoch, __ATOMIC_RELAXED);

	if (h->stamp != e) {
		h->at_peak = h->alloc_bytes - h->free_bytes;
		h->stamp = e;
	}
}


/* C's counters, made in the calling thread's arena on first use; NULL if no memory. */
APROF_NOINSTR static struct aprof_heap_counts *counts_of(struct aprof_thread *t,
							 struct aprof_context *c)
{
	struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);

	if (h == NULL) {
		h = aprof_arena_alloc(&t->machine.arena, sizeof *h, 64);
		if (h == NULL)
			return NULL;
		h->stamp = __atomic_load_n(&epoch, __ATOMIC_RELAXED);
		__atomic_store_n(&c->heap, h, __ATOMIC_RELEASE);
	}
	return h;
}


/* The calling thread's histogram, made on first use; NULL if no memory. */
APROF_NOINSTR static struct aprof_heap_bin *bins_of(struct aprof_thread *t)
{
	if (t->bins == NULL) /* published: the writer and aprof_heap_reset read it */
		__atomic_store_n(&t->bins,
				 aprof_arena_alloc(&t->machine.arena, AMON_BINS * sizeof t->bins[0], 64),
				 __ATOMIC_RELEASE);
	return t->bins;
}


/* Adds N to a histogram counter; only its thread adds, but others read and reset it. */
APROF_NOINSTR static void bin_add(uint64_t *counter, uint64_t n)
{
	__atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}


/*
** The calling thread's state for the malloc wrappers, or NULL when the call
** must not be followed: tracking off, the thread without a state (the
** runtime not started yet, or memory refused; malloc.c makes it), or the
** runtime itself allocating (aprof_busy).
*/
APROF_NOINSTR static struct aprof_thread *heap_thread(void)
{
	struct aprof_thread *t = aprof_self;

	if (!__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED) || aprof_busy)
		return NULL;
	return t;
}


/*
** A heap-tracking call by thread T begins.  Its time lands in the interval of
** T's current context, so it counts there (the reader takes the mean cost of
** such calls off: thread.h's probes), and one call in about
** APROF_PROBE_EVERY is timed.  Returns the clock at its start if timed, else 0.
*/
APROF_NOINSTR static inline uint64_t heap_event_start(struct aprof_thread *t)
{
	APROF_ADD(t->cur->heap_events, 1);
	if (APROF_LIKELY(--t->heap_probe != 0))
		return 0;
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE) { /* no clock to read */
		t->heap_probe = UINT32_MAX;
		return 0;
	}
	return aprof_clock_read();
}


/* The heap-tracking call that heap_event_start(T) began at START ends. */
APROF_NOINSTR static inline void heap_event_end(struct aprof_thread *t, uint64_t start)
{
	uint64_t end;

	if (APROF_LIKELY(start == 0))
		return;
	end = aprof_clock_read();
	APROF_ADD(t->probes.heap, 1);
	APROF_ADD(t->probes.heap_ticks, end - start);
	t->heap_probe = aprof_probe_next(end);
}


/* aprof_heap_alloc once T, the calling thread, is known to follow it; 1 if charged. */
APROF_NOINSTR static int heap_alloc(struct aprof_thread *t, size_t size, struct aprof_block *b)
{
	struct aprof_context *c;
	struct aprof_heap_counts *h;
	struct aprof_heap_bin *bin;
	uint64_t live;

	c = t->cur;
	h = counts_of(t, c);
	bin = bins_of(t);
	if (h == NULL || bin == NULL) {
		APROF_PUT(t->machine.full, 1);
		return 0;
	}
	b->context = c;
	bin += AMON_BIN(size);
	bin_add(&bin->allocs, 1);
	bin_add(&bin->alloc_bytes, size);
	aprof_spin_lock(&h->lock);
	heap_touch(h);
	h->allocs++;
	h->alloc_bytes += size;
	h->class_alloc[AMON_SIZE_CLASS(size)] += size;
	aprof_spin_unlock(&h->lock);
	live = live_add(size);
	if (live > __atomic_load_n(&peak_total, __ATOMIC_RELAXED)) {
		aprof_spin_lock(&peak_lock);
		if (live > peak_total) {
			__atomic_store_n(&peak_total, live, __ATOMIC_RELAXED);
			peak_ticks = aprof_clock_elapsed();
			__atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
			/* This context's live bytes, this allocation included, are its peak value. */
			aprof_spin_lock(&h->lock);
			heap_touch(h);
			aprof_spin_unlock(&h->lock);
		}
		aprof_spin_unlock(&peak_lock);
	}
	aprof_types_allocated(t, c, h, size);
	return 1;
}


APROF_NOINSTR int aprof_heap_alloc(size_t size, struct aprof_block *b)
{
	struct aprof_thread *t = heap_thread();
	uint64_t start;
	int charged;

	b->size = size;
	b->context = NULL;
	b->generation = __atomic_load_n(&generation, __ATOMIC_RELAXED);
	if (t == NULL)
		return 0;
	start = heap_event_start(t);
	charged = heap_alloc(t, size, b);
	heap_event_end(t, start);
	return charged;
}


APROF_NOINSTR void aprof_heap_untracked(void)
{
	/* The runtime's own blocks are never followed. */
	if (__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED) && !aprof_busy)
		__atomic_add_fetch(&untracked, 1, __ATOMIC_RELAXED);
}


/* The calling thread's state, if it is profiled and not in the runtime's own code. */
APROF_NOINSTR static struct aprof_thread *heap_self(void)
{
	return aprof_busy ? NULL : aprof_self;
}


/* aprof_heap_free's work; T is the calling thread's state, NULL if not followed. */
APROF_NOINSTR static void heap_free(struct aprof_thread *t, const struct aprof_block *b)
{
	struct aprof_heap_counts *h = __atomic_load_n(&b->context->heap, __ATOMIC_ACQUIRE);

	aprof_spin_lock(&h->lock);
	heap_touch(h);
	h->frees++;
	h->free_bytes += b->size;
	h->class_free[AMON_SIZE_CLASS(b->size)] += b->size;
	aprof_spin_unlock(&h->lock);
	live_add(-(uint64_t)b->size);
	if (t != NULL && bins_of(t) != NULL) {
		bin_add(&t->bins[AMON_BIN(b->size)].frees, 1);
		bin_add(&t->bins[AMON_BIN(b->size)].free_bytes, b->size);
	}
}


APROF_NOINSTR void aprof_heap_free(const struct aprof_block *b)
{
	struct aprof_thread *t;
	uint64_t start;

	if (!__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED))
		return;
	if (b->context == NULL) {
		aprof_heap_untracked();
		return;
	}
	/* Allocated before aprof_restart: its allocation was forgotten. */
	if (((b->generation ^ __atomic_load_n(&generation, __ATOMIC_RELAXED)) & 0xffff) != 0)
		return;
	t = heap_self();
	if (t == NULL) {
		heap_free(NULL, b);
		return;
	}
	start = heap_event_start(t);
	heap_free(t, b);
	heap_event_end(t, start);
}


APROF_NOINSTR uint64_t aprof_heap_at_peak(const struct aprof_context *c)
{
	struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);
	uint64_t v;

	if (h == NULL)
		return 0;
	aprof_spin_lock(&h->lock);
	v = h->stamp == __atomic_load_n(&epoch, __ATOMIC_RELAXED) ? h->at_peak
								   : h->alloc_bytes - h->free_bytes;
	aprof_spin_unlock(&h->lock);
	return v;
}


APROF_NOINSTR uint64_t aprof_heap_peak(uint64_t *ticks, uint64_t *untracked_frees)
{
	uint64_t peak;

	aprof_spin_lock(&peak_lock); /* a dump may come while other threads allocate */
	*ticks = peak_ticks;
	peak = peak_total;
	aprof_spin_unlock(&peak_lock);
	*untracked_frees = __atomic_load_n(&untracked, __ATOMIC_RELAXED);
	return peak;
}


APROF_NOINSTR void aprof_heap_read(const struct aprof_context *c, struct aprof_heap_counts *copy)
{
	struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);

	memset(copy, 0, sizeof *copy);
	if (h == NULL)
		return;
	aprof_spin_lock(&h->lock);
	/* Field by field: the lock itself is for atomic access only. */
	copy->stamp = h->stamp;
	copy->allocs = h->allocs;
	copy->alloc_bytes = h->alloc_bytes;
	copy->frees = h->frees;
	copy->free_bytes = h->free_bytes;
	memcpy(copy->class_alloc, h->class_alloc, sizeof copy->class_alloc);
	memcpy(copy->class_free, h->class_free, sizeof copy->class_free);
	copy->at_peak = h->at_peak;
	aprof_spin_unlock(&h->lock);
}


APROF_NOINSTR void aprof_heap_reset(void)
{
	struct aprof_thread *t;

	aprof_spin_lock(&peak_lock);
	__atomic_add_fetch(&generation, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
	/* Other threads go on allocating, freeing and making contexts meanwhile. */
	__atomic_store_n(&live_total, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&peak_total, 0, __ATOMIC_RELAXED);
	peak_ticks = 0;
	__atomic_store_n(&untracked, 0, __ATOMIC_RELAXED);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next) {
		struct aprof_heap_bin *bins = __atomic_load_n(&t->bins, __ATOMIC_ACQUIRE);
		size_t k, n = aprof_machine_published(&t->machine);
		struct aprof_context *c;

		for (k = 0; bins != NULL && k < AMON_BINS; k++) {
			__atomic_store_n(&bins[k].allocs, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&bins[k].alloc_bytes, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&bins[k].frees, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&bins[k].free_bytes, 0, __ATOMIC_RELAXED);
		}
		for (c = t->machine.first, k = 0; k < n; c = aprof_context_next(c, ++k, n)) {
			struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);

			if (h == NULL)
				continue;
			aprof_spin_lock(&h->lock);
			memset((char *)h + offsetof(struct aprof_heap_counts, allocs), 0,
			       sizeof *h - offsetof(struct aprof_heap_counts, allocs));
			h->stamp = 0;
			aprof_types_reset(h);
			aprof_spin_unlock(&h->lock);
		}
	}
	aprof_spin_unlock(&peak_lock);
}


APROF_NOINSTR void aprof_heap_fork_prepare(void)
{
	aprof_spin_lock(&peak_lock);
}


APROF_NOINSTR void aprof_heap_fork_parent(void)
{
	aprof_spin_unlock(&peak_lock);
}


APROF_NOINSTR void aprof_heap_fork_child(void)
{
	aprof_heap_fork_parent();
}
