/*
** amon.h -- the amon.out file format, shared by libaprof (writer) and aprof
** (reader).  This header is the only definition of the format; doc/amon-format.md
** explains it for people.
*/
#ifndef APROF_RUNTIME_AMON_H
#define APROF_RUNTIME_AMON_H

#include <stdint.h>
#include <string.h>

/*
** Layout.  All integers are in the byte order of the machine that wrote the
** file; 'byte_order' lets a reader on another machine refuse it cleanly.
**
**   struct amon_header                      fixed, AMON_HEADER_SIZE bytes
**   record*                                 each: struct amon_record + payload
**   struct amon_record {AMON_TAG_END, 4}    payload: uint32 CRC-32 (zlib) of
**                                           every byte before the payload
**
** Records a reader does not know make it stop with "unknown record tag"
** rather than guess: a new kind of record means a new version.
*/

#define AMON_MAGIC "AMONOUT\0" /* 8 bytes, NUL included */
#define AMON_MAGIC_SIZE 8
#define AMON_VERSION 7          /* bumped on any incompatible change */
#define AMON_BYTE_ORDER 0x01020304u

/* The clock that produced the ticks (amon_header.clock). */
enum amon_clock {
	AMON_CLOCK_TSC = 1,       /* x86-64 rdtsc */
	AMON_CLOCK_CNTVCT = 2,    /* aarch64 virtual counter cntvct_el0 */
	AMON_CLOCK_MONOTONIC = 3, /* clock_gettime(CLOCK_MONOTONIC), ticks are ns */
	AMON_CLOCK_SAMPLE = 4,    /* samples of a per-thread CPU-time timer (APROF_CLOCK=sample) */
};

/*
** File header.  Ticks are units of the clock named by 'clock'; seconds are
** ticks / ticks_per_second.
*/
struct amon_header {
	char magic[AMON_MAGIC_SIZE]; /* AMON_MAGIC */
	uint32_t version;            /* AMON_VERSION */
	uint32_t byte_order;         /* AMON_BYTE_ORDER as written */
	uint32_t header_size;        /* sizeof(struct amon_header) */
	uint32_t clock;              /* enum amon_clock */
	double ticks_per_second;     /* calibrated against CLOCK_MONOTONIC over the run */
	uint64_t total_ticks;        /* ticks from the runtime's start to the write */
	uint64_t pid;                /* process that wrote the file */
};

#define AMON_HEADER_SIZE ((uint32_t)sizeof(struct amon_header))

/*
** Stamps H with what says "an amon.out of this version, in this byte order":
** magic, version, byte_order and header_size.  The other fields (clock,
** ticks_per_second, total_ticks, pid) are the writer's own.  Used by the
** runtime's writer and by the analyser's amon.sum writer.
*/
static inline __attribute__((no_instrument_function)) void amon_header_stamp(struct amon_header *h)
{
	memcpy(h->magic, AMON_MAGIC, AMON_MAGIC_SIZE);
	h->version = AMON_VERSION;
	h->byte_order = AMON_BYTE_ORDER;
	h->header_size = AMON_HEADER_SIZE;
}

/* Record tags (amon_record.tag). */
enum amon_tag {
	AMON_TAG_EXE = 1,     /* payload: struct amon_module for the main executable */
	AMON_TAG_MODULE = 2,  /* payload: struct amon_module for a shared object */
	AMON_TAG_THREAD = 3,  /* payload: struct amon_thread, then its contexts */
	AMON_TAG_HEAP = 4,    /* payload: struct amon_heap, then its bins */
	AMON_TAG_END = 0x454e44, /* payload: uint32 CRC-32 of all bytes before the payload */
};

/* Every record starts with this; 'length' counts the payload bytes only. */
struct amon_record {
	uint32_t tag;    /* enum amon_tag */
	uint32_t pad;    /* zero */
	uint64_t length; /* bytes of payload that follow */
};

#define AMON_BUILD_ID_MAX 32 /* GNU build-ids are 20 bytes (sha1) in practice */

/*
** A loaded object that holds instrumented code.  Addresses recorded in
** histories are run-time addresses; a reader subtracts 'load_bias' (the
** dlpi_addr of dl_iterate_phdr: 0 for a non-PIE executable) to get the
** address in the file's own symbol table.  [start, end) is the object's
** executable mapping, used to tell which module an address belongs to.
** The payload is this struct followed by 'path_length' bytes of path (no NUL).
*/
struct amon_module {
	uint64_t load_bias;                   /* run-time address minus link-time address */
	uint64_t start, end;                  /* executable segment(s), run-time addresses */
	uint32_t build_id_length;             /* bytes used in build_id, 0 if none */
	uint32_t path_length;                 /* bytes of path after the struct */
	uint8_t build_id[AMON_BUILD_ID_MAX];  /* NT_GNU_BUILD_ID descriptor */
};

/*
** One thread's finite-state machine.  The payload is this struct followed by
** 'contexts' contexts (below), in the order the thread created them.
*/
struct amon_thread {
	uint64_t tid;           /* kernel thread id (gettid) */
	char name[16];          /* thread name (pthread_setname_np) at the write, or when it ended */
	uint64_t contexts;      /* number of contexts that follow, the root included */
	uint64_t transitions;   /* transitions the thread's machine created (B2 + B3) */
	uint64_t resyncs;       /* shadow-stack entries popped because their exit never came
				   (longjmp, exceptions without exit hooks) */
	uint64_t dropped;       /* hook calls passed through: they re-entered the runtime
				   (an instrumented signal handler interrupting a hook) */
	uint64_t unmatched;     /* exit hooks that matched no entry */
	uint64_t entry_ticks;   /* the hooks' own ticks in an interval ending in an entry */
				/* (beyond the uninstrumented call's and return's), */
	uint64_t exit_ticks;    /* and in one ending in an exit, as calibrated at start */
	/*
	** In-run probes (runtime/thread.h): about one hook in a thousand, and one
	** heap-tracking call in as many, timed from start to end.  The CPU may
	** run at another speed at calibration than later: a reader scales the
	** calibrated figures by k = (empty_probe_ticks / entry_probes) /
	** probe_empty, adds (probe mean - k * calibrated probe) to entry_ticks
	** (for an entry's and for an exit's probe) and takes the mean heap probe
	** less an empty one off per heap event (aprof/model/hookcosts.c).  A hook's
	** probe and a heap-tracking call's count at most 64 times the slower
	** calibrated probe (an interrupt's or a preemption's ticks left out:
	** runtime/cost.h); a heap probe counts no replay of the thread's log,
	** whose ticks the runtime keeps out of every context's (heap.c).
	*/
	uint64_t entry_probe_base;   /* ticks a probe measured of an entry at calibration */
	uint64_t exit_probe_base;    /* and of an exit */
	uint64_t probe_empty;        /* ticks a probe measures of no work (two reads) */
	uint64_t entry_probes;       /* entries timed in the run */
	uint64_t entry_probe_ticks;  /* their ticks, summed */
	uint64_t empty_probe_ticks;  /* ticks of an empty probe (two reads) made with each, summed */
	uint64_t exit_probes;        /* exits timed in the run */
	uint64_t exit_probe_ticks;   /* their ticks, summed */
	uint64_t heap_probes;        /* heap-tracking calls timed in the run */
	uint64_t heap_probe_ticks;   /* their ticks, summed */
	uint64_t memory;        /* bytes the runtime took for the thread (Spivey's "profiling
				   memory", Table I): its arena's contexts with their
				   histories, heap counters and bins, type sites and
				   scratch, and its transition table and index */
	uint64_t history_entries; /* the entries of the contexts that follow, each history
				     spelled out whole (the sum of their depths n): what the
				     reader rebuilds, which may pass memory / 8 since the
				     runtime holds a history as its prefix and a few entries;
				     the reader refuses a thread whose histories differ */
	uint64_t runtime_ticks; /* sampling: samples that landed while the thread ran the
				   runtime's own code (a hook, heap tracking, start-up, the
				   writer), in no context's ticks; 0 with other clocks */
	uint32_t flags;         /* AMON_THREAD_* */
	uint32_t pad;           /* zero */
};

/* amon_thread.flags: the runtime ran out of memory; some calls were not followed. */
#define AMON_THREAD_INCOMPLETE 1u

/*
** A context (Spivey, "Data structures for fast profiling"): its history
** s_1..s_n with mark bits, and what was charged to it.  Depth 0 is the root
** context, current while no instrumented routine is active.
**
** Contexts are written compactly (about 20 bytes each where the version 3
** layout took 300): every integer is a varint (below), a history is an
** earlier context's history plus the entries that follow it, and counters
** that are zero are left out.  One context is, in order:
**
**   ref      varint  0: the history starts empty; r > 0: it starts with the
**                    whole history of the context r places before this one
**                    in the thread record (usually the caller's context)
**   more     varint  entries that follow that prefix; depth n = prefix + more
**   entries  more varints, each amon_entry_code(previous entry, entry): the
**                    first one's previous entry is the prefix's last (0 if
**                    the prefix is empty)
**   present  varint  bit i set when counter i (enum amon_count) is not zero
**   counts   a varint for each counter present, in enum amon_count order
**   sites    AMON_SITES type sites (amon_code_site, below), if that counter
**            is present
**
** The first context of a thread is its root: ref 0, more 0.
*/

/*
** Varints: unsigned LEB128, 7 bits a byte from the least significant, the
** top bit set on every byte but the last; at most AMON_VARINT_MAX bytes, and
** a value never exceeds 64 bits.
*/
#define AMON_VARINT_MAX 10

/* A context's counters (the 'counts' of a context), in the order written. */
enum amon_count {
	AMON_CALLS,       /* entries into this context by a non-recursive call */
	AMON_REC,         /* direct recursive calls made while current (s_n -> s_n) */
	AMON_TICKS,       /* clock ticks from hook to hook while this context was current,
			     but the thread's heap log replays (runtime/heap.c) */
	AMON_EVENTS,      /* intervals in AMON_TICKS that ended in an entry (calls made
			     from here); AMON_CALLS + AMON_REC more ended in an exit.
			     Each holds about amon_thread.entry_ticks or exit_ticks of
			     the hooks' own cost, which the reader takes off */
	AMON_HEAP_EVENTS, /* heap-tracking calls (an allocation or a free, one each) made
			     while current: each holds the tracking's own cost in ticks */
	/* Heap allocations made while this context was current (zero if not followed). */
	AMON_ALLOCS,      /* allocations (malloc family, C++ new) */
	AMON_ALLOC_BYTES, /* bytes requested by them */
	AMON_FREES,       /* frees of those blocks, by any thread */
	AMON_FREE_BYTES,  /* bytes of those blocks freed */
	AMON_PEAK_BYTES,  /* live bytes (allocated here, not yet freed) at the run's peak */
	AMON_CLASS_ALLOC, /* AMON_ALLOC_BYTES by mprof size class (AMON_SIZE_CLASS): 4 counters */
	AMON_CLASS_FREE = AMON_CLASS_ALLOC + 4, /* AMON_FREE_BYTES by size class: 4 counters */
	AMON_SITES = AMON_CLASS_FREE + 4, /* type sites after the counts (struct amon_type_site) */
	AMON_COUNTS
};

/*
** mprof's size classes: s <= 32 bytes, m <= 256, l <= 2048, x larger
** (mprof(1), "FIELDS IN THE OUTPUT").
*/
#define AMON_SIZE_CLASSES 4
#define AMON_SIZE_CLASS(n) ((n) <= 32 ? 0 : (n) <= 256 ? 1 : (n) <= 2048 ? 2 : 3)

/*
** The allocation-size histogram of mprof's bins table: sizes 0...1024 each
** in its own bin, larger sizes all in bin 1025 (AMON_BINS - 1).
*/
#define AMON_BINS 1026
#define AMON_BIN(n) ((n) < AMON_BINS - 1 ? (n) : AMON_BINS - 1)

/*
** Whole-run heap figures.  The payload is this struct followed by 'nbins'
** struct amon_heap_bin, the non-empty bins in increasing order.
*/
struct amon_heap {
	uint32_t flags;         /* AMON_HEAP_* */
	uint32_t nbins;         /* bins that follow */
	uint64_t peak_bytes;    /* the peak of live bytes over the run */
	uint64_t peak_ticks;    /* ticks from the start when it was reached */
	uint64_t untracked;     /* frees of blocks the runtime never saw allocated */
};

#define AMON_HEAP_ON 1u     /* allocations were followed (not APROF_HEAP=0) */

/* One bin: allocations of a size (bytes of AMON_BIN(size) == bin), and their frees. */
struct amon_heap_bin {
	uint32_t bin;           /* 0...AMON_BINS - 1 */
	uint32_t pad;           /* zero */
	uint64_t allocs, alloc_bytes, frees, free_bytes;
};

/*
** A history entry: the entry address of a routine (as passed to
** __cyg_profile_func_enter) in the low 63 bits, and Spivey's mark m_i in the
** top bit.  A marked entry (m_i = T) contributes the item s_{i-1}[s_i]s_{i+1}
** to the context: s_i is active and this is its most recent activation.  An
** unmarked entry is an older activation kept only to give its neighbours
** their arcs.  The mark cannot live in bit 0: at -O0 GCC does not align
** functions, so entry addresses can be odd.
*/
#define AMON_MARK ((uint64_t)1 << 63)
#define AMON_ADDR(e) ((e) & ~AMON_MARK)
#define AMON_MARKED(e) (((e) & AMON_MARK) != 0)

/*
** History entry E as written after entry PREV: the distance from PREV's
** address to E's, modulo 2^63 and read as a signed number, zigzag-coded
** (0, -1, 1, -2, ... as 0, 1, 2, 3, ...), shifted left one bit with E's mark
** in bit 0.  A routine's callees lie near it in the program, so an entry
** takes 3 or 4 bytes as a varint, against 8.
*/
static inline __attribute__((no_instrument_function)) uint64_t amon_entry_code(uint64_t prev,
									      uint64_t e)
{
	uint64_t d = (AMON_ADDR(e) - AMON_ADDR(prev)) & ~AMON_MARK;
	uint64_t z = (d & (AMON_MARK >> 1)) != 0 ? ~(d << 1) : d << 1;

	return z << 1 | (uint64_t)AMON_MARKED(e);
}

/* The entry that CODE (from amon_entry_code) stands for after entry PREV. */
static inline __attribute__((no_instrument_function)) uint64_t amon_entry_decode(uint64_t prev,
										uint64_t code)
{
	uint64_t z = code >> 1;
	uint64_t d = (z & 1) != 0 ? ~z >> 1 : z >> 1;

	return ((AMON_ADDR(prev) + d) & ~AMON_MARK) | ((code & 1) != 0 ? AMON_MARK : 0);
}

/* V as a varint at P; returns the byte after it. */
static inline __attribute__((no_instrument_function)) unsigned char *amon_put_varint(unsigned char *p,
										    uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

/* The most bytes a context takes whose history adds MORE entries to its prefix. */
#define AMON_CONTEXT_MAX(more) ((3 + (size_t)(more) + AMON_COUNTS) * AMON_VARINT_MAX)

/*
** Codes a context at P (room for AMON_CONTEXT_MAX(N - LEN) bytes): its
** history H[0..N-1], whose first LEN entries are the whole history of the
** context REF places before it (LEN 0: REF is not used), and its counters
** V[AMON_COUNTS].  Returns the byte after it.  The one coder of contexts,
** for the runtime's writer and the analyser's.
*/
static inline __attribute__((no_instrument_function)) unsigned char *
amon_code_context(unsigned char *p, uint64_t ref, const uint64_t *h, uint32_t len, uint32_t n,
		  const uint64_t *v)
{
	uint64_t prev = len > 0 ? h[len - 1] : 0, present = 0;
	uint32_t j;

	p = amon_put_varint(p, len > 0 ? ref : 0);
	p = amon_put_varint(p, n - len);
	for (j = len; j < n; prev = h[j++])
		p = amon_put_varint(p, amon_entry_code(prev, h[j]));
	for (j = 0; j < AMON_COUNTS; j++)
		present |= (uint64_t)(v[j] != 0) << j;
	p = amon_put_varint(p, present);
	for (j = 0; j < AMON_COUNTS; j++)
		if (v[j] != 0)
			p = amon_put_varint(p, v[j]);
	return p;
}


/*
** Constructor candidates of allocations (runtime/types.c): after an
** allocation returns in a context, the routines entered from that same
** context until it is left, another allocation is made or AMON_CANDIDATES
** routines were entered.  For new T(args)
** they are the argument routines and then T::T, which tells the type.
** Aggregated per (context, size, candidates), never per block; an
** allocation with no candidate has no site.  A context's sites count at most
** AMON_SITES_MAX (further ones are not recorded: their type is unknown).
*/
#define AMON_CANDIDATES 4
#define AMON_SITES_MAX 64

/* A type site as both sides hold it in memory (coded by amon_code_site). */
struct amon_type_site {
	uint64_t size;      /* bytes each of these allocations requested */
	uint64_t allocs;    /* allocations of that size followed by exactly these candidates */
	uint64_t candidate[AMON_CANDIDATES]; /* entry addresses (run-time) in the order
						entered; unused ones 0, at the end, never the first */
};

/* The most bytes a type site takes. */
#define AMON_SITE_MAX ((3 + (size_t)AMON_CANDIDATES) * AMON_VARINT_MAX)

/*
** Codes type site S at P (room for AMON_SITE_MAX bytes) of a context whose
** running routine's entry is PREV (0 for the root): varints size, allocs,
** the candidates' number c (1 to AMON_CANDIDATES), then c entry codes
** (amon_entry_code, unmarked), each after the one before, the first after
** PREV.  Returns the byte after it.  The one coder of sites, for both sides.
*/
static inline __attribute__((no_instrument_function)) unsigned char *
amon_code_site(unsigned char *p, uint64_t prev, const struct amon_type_site *s)
{
	uint64_t k, n = 0;

	while (n < AMON_CANDIDATES && s->candidate[n] != 0)
		n++;
	p = amon_put_varint(p, s->size);
	p = amon_put_varint(p, s->allocs);
	p = amon_put_varint(p, n);
	for (k = 0; k < n; prev = s->candidate[k++])
		p = amon_put_varint(p, amon_entry_code(prev, s->candidate[k]));
	return p;
}

#endif /* APROF_RUNTIME_AMON_H */
