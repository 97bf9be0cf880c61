/*
** heap.c -- charging allocations and frees to contexts, the peak of live
** bytes, and the size histogram.
**
** The peak is kept exact without copying every context's counts at every
** new peak: each new peak starts a new "epoch", and a context's counters
** are stamped with the epoch in which they last changed.  The first change
** after a peak first saves the context's live bytes in 'at_peak'; a context
** not changed since the last peak still holds its value at the peak.  A
** thread alone charges its events in batches (its log, below), and begins
** one epoch a batch at most, at the batch's highest live bytes.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "clock.h"
#include "cost.h"
#include "diag.h"
#include "heap.h"
#include "heapcommon.h"
#include "thread.h"
#include "types.h"

APROF_HIDDEN int aprof_heap_on;
APROF_HIDDEN int aprof_heap_wanted = 1;
APROF_HIDDEN uint64_t aprof_heap_generation;

APROF_HIDDEN size_t aprof_heap_malloc_below = APROF_BLOCK_SIZE_MAX + 1;

/* aprof_heap_autosave_set's, called after each allocation charged; NULL: none. */
static void (*heap_autosave_fn)(void);

/*
** 1 while allocations are followed and no autosave is set: the wrappers'
** common case is open, and leaves autosaves to the whole case.  Each
** thread's log end says it (log_gate), so that the common case tests it
** with the log's room.
*/
static int heap_common_on;
static int gate_lock; /* held while heap_common_on is worked out */

static void log_gate(struct aprof_thread *t, struct aprof_heap_bins *bins);

/* startup.c's, given to aprof_heap_init: the heap never calls up into the start-up by name. */
static struct aprof_thread *(*heap_thread_start)(void);

static uint64_t live_total;     /* live bytes of the current generation, all threads */
static uint64_t peak_total;     /* the peak of live_total */
static uint64_t peak_ticks;     /* clock ticks from the start to the peak */
static uint32_t epoch;          /* count of new peaks: see the comment at the top */
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


APROF_NOINSTR void aprof_heap_init(struct aprof_thread *(*thread_start)(void))
{
	const char *v = aprof_env("APROF_HEAP");

	heap_thread_start = thread_start;

	__atomic_store_n(&aprof_heap_wanted, v == NULL || strcmp(v, "0") != 0, __ATOMIC_RELAXED);
	if (v != NULL && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
		aprof_env_reject("APROF_HEAP", v, "not 0 or 1: allocations are followed");
	if (!aprof_heap_wanted)
		__atomic_store_n(&aprof_heap_malloc_below, 0, __ATOMIC_RELAXED);
	aprof_heap_on_set(1);
}


/*
** heap_common_on worked out again, after a change to what it depends on,
** and every thread's log end set by it.
*/
APROF_NOINSTR static void heap_gate(void)
{
	struct aprof_thread *t;

	aprof_spin_lock(&gate_lock);
	__atomic_store_n(&heap_common_on,
			 __atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED) &&
				 __atomic_load_n(&heap_autosave_fn, __ATOMIC_RELAXED) == NULL,
			 __ATOMIC_SEQ_CST);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next) {
		struct aprof_heap_bins *bins = __atomic_load_n(&t->bins, __ATOMIC_SEQ_CST);

		if (bins != NULL)
			log_gate(t, bins);
	}
	aprof_spin_unlock(&gate_lock);
}


APROF_NOINSTR void aprof_heap_on_set(int on)
{
	__atomic_store_n(&aprof_heap_on, on && aprof_heap_wanted, __ATOMIC_RELEASE);
	heap_gate();
}


APROF_NOINSTR void aprof_heap_autosave_set(void (*autosave)(void))
{
	__atomic_store_n(&heap_autosave_fn, autosave, __ATOMIC_RELEASE);
	heap_gate();
}


/* H's live bytes (H locked). */
APROF_NOINSTR static uint64_t counts_live(const struct aprof_heap_counts *h)
{
	uint64_t live = 0;
	int k;

	for (k = 0; k < AMON_SIZE_CLASSES; k++)
		live += h->bytes[2 * k + APROF_HEAP_ALLOC] - h->bytes[2 * k + APROF_HEAP_FREE];
	return live;
}


/* Saves H's live bytes at the last peak before they change (H locked). */
APROF_NOINSTR static void heap_touch_slow(struct aprof_heap_counts *h, uint32_t e)
{
	h->at_peak = counts_live(h);
	h->stamp = e;
}

APROF_NOINSTR static inline void heap_touch(struct aprof_heap_counts *h)
{
	uint32_t e = __atomic_load_n(&epoch, __ATOMIC_RELAXED);

	if (APROF_UNLIKELY(h->stamp != e))
		heap_touch_slow(h, e);
}


/*
** Each size below the histogram's last bin's place in a context's bytes,
** for an allocation and for a free (F: APROF_HEAP_ALLOC, APROF_HEAP_FREE,
** side by side), twice AMON_SIZE_CLASS plus F: such a size finds it with
** one load and no branch (heap_class2), a free's with the load's
** displacement rather than an addition (heap-live 100k/1M, callgrind: one
** instruction fewer a free in the replay).  Indexed by the size itself,
** not by (size + 31) / 32 as the classes' bounds (32, 256) would allow in
** 66 bytes, so that the replay (log_replay_alone) spends no addition and
** shift on it an event; 2 KiB, of which a program's sizes touch a few
** lines, an allocation's and a free's of a size in the same line.
*/
static const uint8_t small_class[AMON_BINS - 1][2] = {
	[0 ... 32] = {2 * 0, 2 * 0 + 1},
	[33 ... 256] = {2 * 1, 2 * 1 + 1},
	[257 ... AMON_BINS - 2] = {2 * 2, 2 * 2 + 1}};
_Static_assert(AMON_SIZE_CLASS(32) == 0 && AMON_SIZE_CLASS(33) == 1 && AMON_SIZE_CLASS(256) == 1 &&
		       AMON_SIZE_CLASS(257) == 2 && AMON_SIZE_CLASS(AMON_BINS - 2) == 2,
	       "small_class's ranges are AMON_SIZE_CLASS's");
_Static_assert(APROF_HEAP_ALLOC == 0 && APROF_HEAP_FREE == 1, "small_class's pairs");

/*
** Twice AMON_SIZE_CLASS(SIZE) plus F (APROF_HEAP_ALLOC or APROF_HEAP_FREE), by
** small_class below the histogram's last bin.
*/
APROF_NOINSTR static inline size_t heap_class2(uint64_t size, size_t f)
{
	return size < AMON_BINS - 1 ? small_class[size][f] : 2 * AMON_SIZE_CLASS(size) + f;
}


/*
** Counts an event of SIZE bytes in H, an allocation or a free (F:
** APROF_HEAP_ALLOC or APROF_HEAP_FREE): its count and its class's bytes.
*/
APROF_NOINSTR static inline void counts_add(struct aprof_heap_counts *h, size_t f, uint64_t size)
{
	h->n[f]++;
	h->bytes[heap_class2(size, f)] += size;
}


/* counts_add with the counters' lock: more than one thread. */
APROF_NOINSTR static void heap_count(struct aprof_heap_counts *h, size_t f, uint64_t size)
{
	aprof_spin_lock(&h->lock);
	heap_touch(h);
	counts_add(h, f, size);
	aprof_spin_unlock(&h->lock);
}


/* C's counters, made in thread T's arena; NULL if no memory. */
APROF_NOINSTR static struct aprof_heap_counts *counts_new(struct aprof_thread *t,
							  struct aprof_context *c)
{
	struct aprof_heap_counts *h = aprof_arena_alloc(&t->machine.arena, sizeof *h, 64);

	if (h == NULL)
		return NULL;
	h->stamp = __atomic_load_n(&epoch, __ATOMIC_RELAXED);
	__atomic_store_n(&c->heap, h, __ATOMIC_RELEASE);
	return h;
}


/*
** A thread's log of heap events not yet charged, kept right after its
** histogram (one allocation).  While the process has one thread, an
** allocation or a free only appends its size and counters here, and the
** thread charges the entries HEAP_LOG at a time (log_flush): on a heap that
** misses the cache at every block, the charge's hundred-odd instructions
** between the program's misses, once per event, kept the processor from
** overlapping them, while a batch runs from the cache at full speed
** (benchmarks/heap-live.sh; benchmarks/CHOICES.md, "Heap log").  The order of events is kept, so the peak and each context's live
** bytes at it stay exact; only the peak's time is that of the flush.  The
** writer flushes every thread's log first.  With more threads, events are
** charged at once, as the counters' locks need (a log left from before is
** flushed first).  64 entries, 1 KiB: a longer log spares a few
** instructions a flush, but on such a heap its lines have left the
** first-level cache by the time they are written again or replayed
** (heap-live.c, callgrind's cache simulation, 256 entries: 0.56 more misses
** a malloc/free pair).
*/
#define HEAP_LOG 64

/*
** The log: its entries written are those before the thread's heap.next
** (thread.h), which the owner alone moves, kept in the thread with the
** log's end so that the wrappers' common case finds room with one
** comparison of two words of the thread, both NULL (no room) until the log
** is made.
*/
struct heap_log {
	int lock;          /* taken by whoever flushes, with more than one thread */
	int flushing;      /* a flush is under way: a writer interrupting it skips the log */
	uint32_t done;     /* entries charged: those from here to heap.next are pending */
	struct aprof_heap_entry e[HEAP_LOG];
};

/* The log kept after the histogram BINS. */
APROF_NOINSTR static inline struct heap_log *log_of(struct aprof_heap_bins *bins)
{
	return (struct heap_log *)(void *)(bins + 1);
}

/* Entries written in thread T's log LOG (pending from its done on). */
APROF_NOINSTR static inline uint32_t log_written(const struct aprof_thread *t,
						 const struct heap_log *log)
{
	return (uint32_t)(APROF_GET(t->heap.next) - log->e);
}


/* T's histogram and log, made on first use; NULL if no memory. */
APROF_NOINSTR static struct aprof_heap_bins *bins_new(struct aprof_thread *t)
{
	struct aprof_heap_bins *bins =
		aprof_arena_alloc(&t->machine.arena, sizeof *bins + sizeof(struct heap_log), 64);

	if (bins == NULL)
		return NULL;
	APROF_PUT(t->heap.next, log_of(bins)->e);
	/* published after the log: the writer and aprof_heap_reset read it, then heap.next */
	__atomic_store_n(&t->bins, bins, __ATOMIC_SEQ_CST);
	log_gate(t, bins);
	return bins;
}


/*
** Sets thread T's log end (T's log after BINS) as heap_common_on says: the
** end while it is 1, else NULL, no room for the common case.  Again if
** heap_common_on changed meanwhile (heap_gate on another thread, or in a
** signal handler, which may have missed T's new log): the last one to
** store sees the last value.
*/
APROF_NOINSTR static void log_gate(struct aprof_thread *t, struct aprof_heap_bins *bins)
{
	int on;

	do {
		on = __atomic_load_n(&heap_common_on, __ATOMIC_SEQ_CST);
		__atomic_store_n(&t->heap.end, on ? log_of(bins)->e + HEAP_LOG : NULL,
				 __ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&heap_common_on, __ATOMIC_SEQ_CST) != on);
}


/*
** Counts an event of SIZE bytes (F: APROF_HEAP_ALLOC or APROF_HEAP_FREE) in
** thread T's histogram BINS: a block's bin is its size, so its count says
** its bytes, but for the last bin's (heap.h).
*/
APROF_NOINSTR static inline void bin_count(struct aprof_heap_bins *bins, size_t f, uint64_t size)
{
	/*
	 * Only its thread adds, but others read and reset it: one instruction.
	 * The size tested first, not AMON_BIN's bound taken by a conditional
	 * move (three instructions more), so that the test is heap_class2's too.
	 */
	if (APROF_LIKELY(size < AMON_BINS - 1)) {
		APROF_INC(bins->n[f][size]);
	} else {
		APROF_INC(bins->n[f][AMON_BINS - 1]);
		APROF_PUT(bins->n[f][APROF_HEAP_BYTES], bins->n[f][APROF_HEAP_BYTES] + size);
	}
}


APROF_NOINSTR void aprof_heap_bin_add(const struct aprof_heap_bins *bins, uint32_t k,
				      struct amon_heap_bin *sum)
{
	uint64_t a = __atomic_load_n(&bins->n[APROF_HEAP_ALLOC][k], __ATOMIC_RELAXED);
	uint64_t f = __atomic_load_n(&bins->n[APROF_HEAP_FREE][k], __ATOMIC_RELAXED);

	sum->allocs += a;
	sum->frees += f;
	if (k < AMON_BINS - 1) {
		sum->alloc_bytes += (uint64_t)k * a;
		sum->free_bytes += (uint64_t)k * f;
	} else {
		sum->alloc_bytes += __atomic_load_n(&bins->n[APROF_HEAP_ALLOC][APROF_HEAP_BYTES],
						    __ATOMIC_RELAXED);
		sum->free_bytes += __atomic_load_n(&bins->n[APROF_HEAP_FREE][APROF_HEAP_BYTES],
						   __ATOMIC_RELAXED);
	}
}


/*
** A heap-tracking call by thread T was timed from START (heap_event): its
** end.  It counts its ticks less REPLAY, those of a replay of the log it
** met, taken out of the interval already (log_flush_timed), and at most
** aprof_probe_bound, as a hook's probe does (cost.h: an interrupt's ticks
** left out).
*/
APROF_NOINSTR static void heap_probe_end(struct aprof_thread *t, uint64_t start, uint32_t replay)
{
	uint64_t end = aprof_clock_read();

	APROF_ADD(t->probes.heap, 1);
	APROF_ADD(t->probes.heap_ticks, aprof_probe_ticks(end - start - replay, aprof_probe_bound));
	t->heap_probe = aprof_probe_next(end);
}


/*
** A heap-tracking call by thread T begins.  Its time lands in the interval of
** T's current context, so it counts there (the reader takes the mean cost of
** such calls off: thread.h's probes), and with a clock to read one call in
** about APROF_PROBE_EVERY is timed (never in sampling mode, which reads no
** clock).  Returns the clock at its start if timed, else 0.
*/
APROF_NOINSTR static inline uint64_t heap_event(struct aprof_thread *t)
{
	APROF_ADD(aprof_thread_current(t)->heap_events, 1);
	if (APROF_LIKELY(aprof_clock_kind == AMON_CLOCK_SAMPLE || --t->heap_probe != 0))
		return 0;
	return aprof_clock_read();
}


/*
** LIVE bytes, reached by an allocation, are a new peak if above the last
** (peak_lock held): it and its time recorded, and a new epoch begun; 1 if so.
*/
APROF_NOINSTR static int peak_raise(uint64_t live)
{
	if (live <= peak_total)
		return 0;
	__atomic_store_n(&peak_total, live, __ATOMIC_RELAXED);
	peak_ticks = aprof_clock_elapsed();
	__atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
	return 1;
}


/* A new peak of LIVE bytes, reached by an allocation charged to H. */
APROF_NOINSTR static void heap_new_peak(struct aprof_heap_counts *h, uint64_t live)
{
	aprof_spin_lock(&peak_lock);
	if (peak_raise(live)) {
		/* This context's live bytes, this allocation included, are its peak value. */
		aprof_spin_lock(&h->lock);
		heap_touch(h);
		aprof_spin_unlock(&h->lock);
	}
	aprof_spin_unlock(&peak_lock);
}


/*
** Charges an event of SIZE bytes (F: APROF_HEAP_ALLOC or APROF_HEAP_FREE)
** to H, and to histogram BINS unless NULL: the whole charge at once, with
** the counters' lock (more than one thread, or a thread without state).
*/
APROF_NOINSTR static void heap_charge(struct aprof_heap_bins *bins, struct aprof_heap_counts *h,
				      size_t f, uint64_t size)
{
	uint64_t live;

	if (bins != NULL)
		bin_count(bins, f, size);
	heap_count(h, f, size);
	live = live_add(f == APROF_HEAP_ALLOC ? size : -size);
	if (f == APROF_HEAP_ALLOC &&
	    APROF_UNLIKELY(live > __atomic_load_n(&peak_total, __ATOMIC_RELAXED)))
		heap_new_peak(h, live);
}

/* What log entry tag TAG is: APROF_HEAP_FREE if it has the mark (a free), else APROF_HEAP_ALLOC. */
#define log_what(tag) ((size_t)((tag) / APROF_BLOCK_MARK) & APROF_HEAP_FREE)


/*
** Log entry E is charged: an allocation, or the free of a block
** followed (counters in its header) in the current generation G (modulo
** 2^16: log_generation).  The common case of a free logs the header as it
** is and leaves these tests here; a free left out is counted as untracked
** (log_untracked) or, allocated before aprof_restart, forgotten.
*/
APROF_NOINSTR static inline int log_charged(const struct aprof_heap_entry *e, uint16_t g)
{
	uint64_t tag = e->tag;

	return (tag & APROF_BLOCK_MARK) == 0 ||
	       ((uint16_t)(e->size >> 48) == g && tag >= 64);
}


/*
** The generation in log entry E's size word (a free's), read as its own
** 16 bits, so that the replay compares it in memory: one instruction,
** where a shift of the size word loaded took three (heap-live 100k/1M,
** callgrind: 2 instructions fewer a free).
*/
APROF_NOINSTR static inline uint16_t log_entry_generation(const struct aprof_heap_entry *e)
{
	uint16_t g;

	memcpy(&g, (const char *)&e->size + (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 6 : 0),
	       sizeof g);
	return g;
}


/*
** The current generation as log_charged takes it, its 16 bits shifted down
** once a replay, and opaque to GCC (the empty asm): else GCC compares the
** header's bits in place, with a 64-bit mask that takes a register of
** log_replay_alone's loop, which then reloads small_class's address at
** each entry (heap-live 100k/1M, callgrind: 2 instructions more a
** malloc/free pair).
*/
APROF_NOINSTR static inline uint16_t log_generation(void)
{
	uint64_t g = __atomic_load_n(&aprof_heap_generation, __ATOMIC_RELAXED) >> 48;

	__asm__("" : "+r"(g));
	return (uint16_t)g;
}


/* Log entry E, not charged (log_charged): counted as untracked if its block was not followed. */
APROF_NOINSTR static void log_untracked(const struct aprof_heap_entry *e)
{
	if (e->tag < 64)
		__atomic_add_fetch(&untracked, 1, __ATOMIC_RELAXED);
}


/*
** The live bytes peaked at TOP right after entry AT of the log LOG, charged
** up to N (log_replay_alone): the peak raised and a new epoch begun, then
** each context charged after entry AT given its live bytes at the peak,
** its bytes now less those of its entries after AT, taken back latest first.
*/
APROF_NOINSTR static void log_peak_alone(struct heap_log *log, uint32_t at, uint32_t n,
					 uint64_t top)
{
	uint32_t k;
	int raised;

	aprof_spin_lock(&peak_lock);
	raised = peak_raise(top);
	aprof_spin_unlock(&peak_lock);
	if (!raised)
		return;
	for (k = n; k-- > at + 1;) {
		uint64_t size = log->e[k].size & APROF_BLOCK_SIZE_MAX, tag = log->e[k].tag;
		struct aprof_heap_counts *h = (struct aprof_heap_counts *)(uintptr_t)(tag & ~(uint64_t)63);

		if (!log_charged(&log->e[k], log_generation()))
			continue;
		heap_touch(h);
		h->at_peak -= (tag & APROF_BLOCK_MARK) == 0 ? size : -size;
	}
}


/*
** Charges an event of SIZE bytes (F: APROF_HEAP_ALLOC or APROF_HEAP_FREE) to
** H and to histogram BINS, the process having one thread and E the peak's
** epoch (log_replay_alone): inline twice, F a constant in each.
*/
APROF_NOINSTR static inline void log_charge_alone(struct aprof_heap_bins *bins,
						  struct aprof_heap_counts *h, size_t f, uint64_t size,
						  uint32_t e)
{
	bin_count(bins, f, size);
	if (APROF_UNLIKELY(h->stamp != e))
		heap_touch_slow(h, e);
	counts_add(h, f, size);
}


/*
** Charges entries FROM to N of the log LOG after BINS, the process having
** one thread: as heap_charge would one by one, without locks, the live
** total and the peak in registers.  A batch that raises the peak begins one
** epoch, after the charge (log_peak_alone), where heap_charge begins one at
** each allocation that raises it (a third of JsonCpp's heap events, each
** followed by a save of its context's live bytes).
*/
APROF_NOINSTR static void log_replay_alone(struct aprof_heap_bins *bins, struct heap_log *log,
					   uint32_t from, uint32_t n)
{
	uint64_t live = __atomic_load_n(&live_total, __ATOMIC_RELAXED);
	uint64_t top = __atomic_load_n(&peak_total, __ATOMIC_RELAXED);
	uint32_t e = __atomic_load_n(&epoch, __ATOMIC_RELAXED);
	uint16_t g = log_generation();
	/* one induction variable: the entry, not its index too */
	const struct aprof_heap_entry *p, *end = &log->e[n], *at = end;

	for (p = &log->e[from]; p != end; p++) {
		uint64_t size = p->size, tag = p->tag;

		if ((tag & APROF_BLOCK_MARK) == 0) {
			/* an allocation's words are its size and counters, unmasked (struct aprof_heap_entry) */
			log_charge_alone(bins, (struct aprof_heap_counts *)(uintptr_t)tag,
					 APROF_HEAP_ALLOC, size, e);
			if ((live += size) > top) {
				top = live;
				at = p;
			}
		} else if (APROF_LIKELY((tag & ~(uint64_t)63) != 0 && log_entry_generation(p) == g)) {
			/*
			 * log_charged's tests, the counters' address (masked
			 * anyway) first, so that its test is its mask's flags
			 */
			size &= APROF_BLOCK_SIZE_MAX;
			log_charge_alone(bins, (struct aprof_heap_counts *)(uintptr_t)(tag & ~(uint64_t)63),
					 APROF_HEAP_FREE, size, e);
			live -= size;
		} else {
			log_untracked(p);
		}
	}
	__atomic_store_n(&live_total, live, __ATOMIC_RELAXED);
	if (APROF_UNLIKELY(at != end))
		log_peak_alone(log, (uint32_t)(at - log->e), n, top);
}


/*
** Charges the pending entries of the log of thread T (its histogram made),
** in their order; its owner, a writer, or a thread that finds it left from
** before more threads came.  A writer that interrupted a flush (a signal)
** leaves it to the flush; one that interrupted log_append between its two
** stores finds none pending.
*/
APROF_NOINSTR static void log_flush(struct aprof_thread *t)
{
	struct aprof_heap_bins *bins = __atomic_load_n(&t->bins, __ATOMIC_ACQUIRE);
	struct heap_log *log = log_of(bins);
	uint32_t k, n, from;

	if (APROF_GET(log->flushing))
		return;
	APROF_PUT(log->flushing, 1);
	aprof_spin_lock(&log->lock);
	n = log_written(t, log);
	from = APROF_GET(log->done) < n ? APROF_GET(log->done) : n;
	if (APROF_SINGLE_THREADED())
		log_replay_alone(bins, log, from, n);
	else
		for (k = from; k < n; k++)
			if (!log_charged(&log->e[k], log_generation()))
				log_untracked(&log->e[k]);
			else
				heap_charge(bins,
					    (struct aprof_heap_counts *)(uintptr_t)(log->e[k].tag &
										    ~(uint64_t)63),
					    log_what(log->e[k].tag), log->e[k].size & APROF_BLOCK_SIZE_MAX);
	APROF_PUT(log->done, n);
	aprof_spin_unlock(&log->lock);
	APROF_PUT(log->flushing, 0);
}


/*
** Thread T's flush of its full log (log_append).  With a clock,
** timed, and its ticks taken out of T's current interval (cost.h's
** aprof_interval_skip), so that the context current at the flush, where
** its time lands, is charged none of it, exactly.  The probes met a flush
** in one of 64 of theirs and took its share off per event: Lua parser.lua's
** flushes cost 891 ticks each, 14 an event against an event's own 50 or so,
** and the mean rested on the 23 flushes among a run's 1,476 probes.  The
** two clock reads cost 25 to 32 ticks a flush, half a tick an event.  Not
** in sampling mode, which reads no clock.  A probe under way (heap_event:
** its countdown at 0) is left the ticks taken out there, to count without
** them (heap_probe_end), as there is no other room for them.
*/
APROF_NOINSTR __attribute__((noinline)) static void log_flush_timed(struct aprof_thread *t)
{
	uint64_t last = t->last, start = aprof_clock_read(), ticks;

	log_flush(t);
	ticks = aprof_interval_skip(&t->last, last, aprof_clock_read() - start);
	if (t->heap_probe == 0)
		t->heap_probe = (uint32_t)aprof_probe_ticks(ticks, UINT32_MAX);
}


/*
** Appends an event (SIZE, TAG: a log entry) to thread T's log (its
** histogram made), and charges the log when full (log_flush_timed with a
** clock).  Entry first, then heap.next: a writer interrupting between (a
** signal) sees the entry as not yet written.
*/
APROF_NOINSTR static inline void log_append(struct aprof_thread *t, uint64_t size, uint64_t tag)
{
	struct aprof_heap_entry *e = t->heap.next;
	struct heap_log *log = log_of(t->bins);

	e->size = size;
	e->tag = tag;
	APROF_PUT(t->heap.next, e + 1);
	if (APROF_UNLIKELY(e + 1 == log->e + HEAP_LOG)) {
		if (aprof_clock_kind == AMON_CLOCK_SAMPLE)
			log_flush(t);
		else
			log_flush_timed(t);
		APROF_PUT(t->heap.next, log->e); /* first: a flush between sees nothing pending */
		APROF_PUT(log->done, 0);
	}
}


/* An event of thread T (its histogram made), charged now: more than one thread. */
APROF_NOINSTR static void heap_charge_now(struct aprof_thread *t, struct aprof_heap_counts *h,
					  size_t f, uint64_t size)
{
	struct heap_log *log = log_of(t->bins);

	if (APROF_UNLIKELY(APROF_GET(log->done) != log_written(t, log)))
		log_flush(t); /* left from when the thread was alone */
	heap_charge(t->bins, h, f, size);
}


APROF_NOINSTR void aprof_heap_flush(void)
{
	struct aprof_thread *t;

	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
		if (__atomic_load_n(&t->bins, __ATOMIC_ACQUIRE) != NULL)
			log_flush(t);
}


APROF_NOINSTR static struct aprof_heap_counts *heap_alloc_any(size_t size);

/*
** aprof_heap_alloc's first allocation in context C, or by thread T: makes
** C's counters and T's histogram, then charges it.  NULL if memory is refused.
*/
APROF_NOINSTR static struct aprof_heap_counts *heap_alloc_first(struct aprof_thread *t,
								struct aprof_context *c,
								uint64_t size)
{
	if ((c->heap == NULL && counts_new(t, c) == NULL) || (t->bins == NULL && bins_new(t) == NULL)) {
		APROF_PUT(t->machine.full, 1);
		return NULL;
	}
	return heap_alloc_any(size);
}


/*
** A probe is due on thread T (with a clock): 1 if T's next heap event is
** the probe's, to be timed on the common case when it is one, so that the
** probes time what most calls do.
*/
APROF_NOINSTR static inline int heap_probe_due(const struct aprof_thread *t)
{
	return t != NULL && aprof_clock_kind != AMON_CLOCK_SAMPLE && t->heap_probe == 1;
}


/* aprof_heap_alloc, every case. */
APROF_NOINSTR __attribute__((noinline)) static struct aprof_heap_counts *heap_alloc_any(size_t size)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_heap_cursor *log;
	struct aprof_context *c;
	struct aprof_heap_counts *h;
	struct aprof_heap_bins *bins;
	uint64_t start;

	if (heap_probe_due(t)) {
		start = aprof_clock_read();
		t->heap_probe = 2; /* so that the common case takes it, leaving 1 */
		h = aprof_heap_alloc_common(size, &log, &c);
		if (h != NULL) {
			t = aprof_heap_thread_of(log);
			aprof_heap_watch(t, c, size, NULL);
			heap_probe_end(t, start, 0);
			return h;
		}
		t->heap_probe = 1; /* not the common case: timed below */
	}
	if (!__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED) || aprof_busy)
		return NULL;
	/* A thread that allocates before its first hook, once the runtime has started. */
	if (t == NULL && (!__atomic_load_n(&aprof_started, __ATOMIC_ACQUIRE) ||
			  (t = heap_thread_start()) == NULL))
		return NULL;
	c = aprof_thread_current(t);
	h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);
	bins = t->bins;
	if (APROF_UNLIKELY(h == NULL || bins == NULL))
		return heap_alloc_first(t, c, size);
	start = heap_event(t);
	if (APROF_LIKELY(APROF_SINGLE_THREADED()))
		log_append(t, size, (uintptr_t)h);
	else
		heap_charge_now(t, h, APROF_HEAP_ALLOC, size);
	aprof_types_allocated(t, c, size, NULL);
	if (APROF_UNLIKELY(start != 0))
		heap_probe_end(t, start, t->heap_probe); /* 0 or a replay's ticks */
	return h;
}


APROF_NOINSTR void aprof_heap_untracked(void)
{
	/* The runtime's own blocks are never followed. */
	if (__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED) && !aprof_busy)
		__atomic_add_fetch(&untracked, 1, __ATOMIC_RELAXED);
}


/* aprof_heap_free, every case. */
APROF_NOINSTR __attribute__((noinline)) static void heap_free_any(struct aprof_heap_counts *h,
								  size_t size, uint64_t generation)
{
	struct aprof_thread *t = aprof_sampled;
	uint64_t start = 0;

	/* aprof_heap_free_common at the log's last entry, as in aprof_heap_block_any */
	if (aprof_heap_common(t, 0)) {
		log_append(t, aprof_heap_size_word(size, generation), (uintptr_t)h | APROF_BLOCK_MARK);
		APROF_INC(aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top->ctx->heap_events);
		return;
	}
	t = aprof_self;

	if (heap_probe_due(t)) {
		start = aprof_clock_read();
		t->heap_probe = 2; /* as in heap_alloc_any */
		if (aprof_heap_free_common(aprof_heap_size_word(size, generation),
					   (uintptr_t)h | APROF_BLOCK_MARK)) {
			heap_probe_end(t, start, 0);
			return;
		}
		t->heap_probe = 1;
	}
	if (!__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED))
		return;
	if (h == NULL) {
		aprof_heap_untracked();
		return;
	}
	/* Allocated before aprof_restart: its allocation was forgotten. */
	if (generation != __atomic_load_n(&aprof_heap_generation, __ATOMIC_RELAXED))
		return;
	/* The thread's state, if it is profiled and not in the runtime's own code. */
	t = aprof_busy ? NULL : aprof_self;
	if (t == NULL) {
		heap_charge(NULL, h, APROF_HEAP_FREE, size);
		return;
	}
	start = heap_event(t);
	if (t->bins == NULL && bins_new(t) == NULL)
		heap_charge(NULL, h, APROF_HEAP_FREE, size);
	else if (APROF_LIKELY(APROF_SINGLE_THREADED()))
		log_append(t, size, (uintptr_t)h | APROF_BLOCK_MARK);
	else
		heap_charge_now(t, h, APROF_HEAP_FREE, size);
	if (APROF_UNLIKELY(start != 0))
		heap_probe_end(t, start, t->heap_probe); /* 0 or a replay's ticks */
}


/*
** aprof_heap_block, every case but the log's last entry's (below), and the
** autosave after an allocation charged: the common case leaves it here
** (heap_common_on).
*/
APROF_NOINSTR __attribute__((noinline)) static void *heap_block_whole(void *base, size_t size,
								      size_t offset)
{
	struct aprof_heap_counts *h = heap_alloc_any(size);
	void (*autosave)(void) = __atomic_load_n(&heap_autosave_fn, __ATOMIC_RELAXED);

	aprof_heap_put((char *)base + offset, size, offset, h);
	if (h != NULL && autosave != NULL)
		autosave();
	return (char *)base + offset;
}


/*
** aprof_heap_block, every case.  A malloc block's common case at the log's
** last entry, which aprof_heap_block_inline leaves here
** (aprof_heap_common(T, 1)), so that it only appends and never charges:
** room for it alone (aprof_heap_common(T, 0)), logged by log_append, which
** then charges the full log, as the common case would log it, without the
** whole case's other tests and calls (heap-live 100k/1M, callgrind: one
** event in 64 took 140 instructions more than the common case's, 4.6 a
** malloc/free pair), nor its registers (heap_block_whole's): the header
** written first, the thread and its context loaded again after the
** charge, so that only the block and its size are kept across it
** (heap-live: 70 -> 56 instructions an event).  In sampling mode
** (aprof_sampled) alone, where no probe is due and log_append's charge is
** untimed.
*/
APROF_NOINSTR __attribute__((noinline)) void *aprof_heap_block_any(void *base, size_t size,
							     size_t offset)
{
	struct aprof_thread *t = aprof_sampled;
	struct aprof_context *c;
	struct aprof_heap_counts *h;
	void *p;

	if (offset != APROF_BLOCK_HEADER || !aprof_heap_common(t, 0) ||
	    (h = (c = aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top->ctx)->heap) == NULL)
		return heap_block_whole(base, size, offset);
	p = aprof_heap_put((char *)base + APROF_BLOCK_HEADER, size, APROF_BLOCK_HEADER, h);
	APROF_INC(c->heap_events);
	log_append(t, size, (uintptr_t)h);
	return aprof_heap_watch(aprof_sampled, aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top->ctx,
				size, p);
}


APROF_NOINSTR void *aprof_heap_block(void *base, size_t size, size_t offset)
{
	return aprof_heap_block_inline(base, size, offset);
}


APROF_NOINSTR void aprof_heap_free(struct aprof_heap_counts *h, size_t size, uint64_t generation)
{
	if (!aprof_heap_free_common(aprof_heap_size_word(size, generation),
				    (uintptr_t)h | APROF_BLOCK_MARK))
		heap_free_any(h, size, generation);
}


/*
** aprof_heap_realloc, every case: a function of its own, so that the common
** case saves one register, not two and a stack slot.
*/
APROF_NOINSTR __attribute__((noinline)) static void *heap_realloc_any(void *base, size_t size,
								      uint64_t old_word, uint64_t old_tag)
{
	aprof_heap_free((struct aprof_heap_counts *)(uintptr_t)(old_tag & ~(uint64_t)63),
			old_word & APROF_BLOCK_SIZE_MAX, old_word & ~APROF_BLOCK_SIZE_MAX);
	return aprof_heap_block_inline(base, size, APROF_BLOCK_HEADER);
}


APROF_NOINSTR void *aprof_heap_realloc(void *base, size_t size, uint64_t old_word, uint64_t old_tag)
{
	/* sampling's only: a probe due with a clock is for one event */
	struct aprof_heap_cursor *log;
	struct aprof_heap_entry *e;
	struct aprof_context *c;
	struct aprof_heap_counts *h;
	void *p;

	if (!aprof_heap_sampled_event(2, &log, &c) || (h = c->heap) == NULL)
		return heap_realloc_any(base, size, old_word, old_tag);
	/* aprof_heap_log_common twice, the free first: entries first, then heap.next and the count */
	e = log->next;
	e[0].size = old_word;
	e[0].tag = old_tag;
	e[1].size = size;
	e[1].tag = (uintptr_t)h;
	APROF_PUT(log->next, e + 2);
	APROF_INC(c->heap_events);
	APROF_INC(c->heap_events);
	p = aprof_heap_put((char *)base + APROF_BLOCK_HEADER, size, APROF_BLOCK_HEADER, h);
	return aprof_heap_watch(aprof_heap_thread_of(log), c, size, p);
}


/*
** aprof_heap_release, every case but aprof_heap_release_any's.  A malloc
** block's common case at the log's last entry first, as in
** aprof_heap_block_any: logged by log_append without aprof_heap_free's
** decoding and tests (JsonCpp small.json, callgrind: this and heap_free_any
** 0.55M -> 0.34M instructions).
*/
APROF_NOINSTR __attribute__((noinline)) static void release_whole(void *p)
{
	const uint64_t *w = p;
	struct aprof_thread *t = aprof_sampled;
	struct aprof_block b;

	if (((w[-1] - APROF_BLOCK_MARK) & 63) == 0 && aprof_heap_common(t, 0)) {
		APROF_INC(aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top->ctx->heap_events);
		log_append(t, w[-2], w[-1]);
		__libc_free((char *)p - APROF_BLOCK_HEADER);
		return;
	}
	if (!aprof_block_get(p, &b)) { /* not handed out by the wrappers: glibc's own */
		aprof_heap_untracked();
		__libc_free(p);
		return;
	}
	aprof_heap_free(b.counts, b.size, b.generation);
	__libc_free((char *)p - b.offset);
}


/*
** aprof_heap_release, every case.  glibc's own block while allocations are
** not followed (every block with APROF_HEAP=0: nothing to count) given back
** at once, with no register saved; the rest by release_whole (heap-live
** 100k/1M, APROF_HEAP=0: 19 -> 6 instructions a free).
*/
APROF_NOINSTR __attribute__((noinline)) void aprof_heap_release_any(void *p)
{
	if ((((const uint64_t *)p)[-1] & APROF_BLOCK_MARK) == 0 &&
	    !__atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED))
		__libc_free(p);
	else
		release_whole(p);
}


APROF_NOINSTR uint64_t aprof_heap_at_peak(const struct aprof_context *c)
{
	struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);
	uint64_t v;

	if (h == NULL)
		return 0;
	aprof_spin_lock(&h->lock);
	v = h->stamp == __atomic_load_n(&epoch, __ATOMIC_RELAXED) ? h->at_peak : counts_live(h);
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


APROF_NOINSTR void aprof_heap_read(const struct aprof_context *c, uint64_t *v)
{
	struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);
	int k;

	v[AMON_ALLOCS] = v[AMON_ALLOC_BYTES] = v[AMON_FREES] = v[AMON_FREE_BYTES] = 0;
	for (k = 0; k < AMON_SIZE_CLASSES; k++)
		v[AMON_CLASS_ALLOC + k] = v[AMON_CLASS_FREE + k] = 0;
	if (h == NULL)
		return;
	aprof_spin_lock(&h->lock);
	v[AMON_ALLOCS] = h->n[APROF_HEAP_ALLOC];
	v[AMON_FREES] = h->n[APROF_HEAP_FREE];
	for (k = 0; k < AMON_SIZE_CLASSES; k++) {
		v[AMON_CLASS_ALLOC + k] = h->bytes[2 * k + APROF_HEAP_ALLOC];
		v[AMON_CLASS_FREE + k] = h->bytes[2 * k + APROF_HEAP_FREE];
		v[AMON_ALLOC_BYTES] += v[AMON_CLASS_ALLOC + k];
		v[AMON_FREE_BYTES] += v[AMON_CLASS_FREE + k];
	}
	aprof_spin_unlock(&h->lock);
}


APROF_NOINSTR void aprof_heap_reset(void)
{
	struct aprof_thread *t;

	aprof_spin_lock(&peak_lock);
	__atomic_add_fetch(&aprof_heap_generation, APROF_BLOCK_GENERATION_ONE, __ATOMIC_RELAXED);
	__atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
	/* Other threads go on allocating, freeing and making contexts meanwhile. */
	__atomic_store_n(&live_total, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&peak_total, 0, __ATOMIC_RELAXED);
	peak_ticks = 0;
	__atomic_store_n(&untracked, 0, __ATOMIC_RELAXED);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next) {
		struct aprof_heap_bins *bins = __atomic_load_n(&t->bins, __ATOMIC_ACQUIRE);
		size_t k, n = aprof_machine_published(&t->machine);
		struct aprof_context *c;

		if (bins != NULL) { /* events before the restart are forgotten */
			struct heap_log *log = log_of(bins);

			aprof_spin_lock(&log->lock);
			APROF_PUT(log->done, log_written(t, log));
			aprof_spin_unlock(&log->lock);
		}
		for (k = 0; bins != NULL && k <= APROF_HEAP_BYTES; k++) {
			__atomic_store_n(&bins->n[APROF_HEAP_ALLOC][k], 0, __ATOMIC_RELAXED);
			__atomic_store_n(&bins->n[APROF_HEAP_FREE][k], 0, __ATOMIC_RELAXED);
		}
		for (c = t->machine.first, k = 0; k < n; c = aprof_context_next(c, ++k, n)) {
			struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);

			if (h == NULL)
				continue;
			aprof_spin_lock(&h->lock);
			memset(h->n, 0, sizeof *h - offsetof(struct aprof_heap_counts, n));
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
