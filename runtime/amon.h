/*
** amon.h -- the amon.out file format, shared by libaprof (writer) and aprof
** (reader).  This header is the only definition of the format; doc/amon-format.md
** explains it for people.
*/
#ifndef APROF_RUNTIME_AMON_H
#define APROF_RUNTIME_AMON_H

#include <stdint.h>

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
#define AMON_VERSION 4          /* bumped on any incompatible change */
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
** 'contexts' context records, each a struct amon_context followed by 'depth'
** uint64 history entries.
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
	uint64_t entry_ticks;   /* the hooks' own ticks in an interval ending in an entry, */
	uint64_t exit_ticks;    /* and in one ending in an exit, as calibrated at start */
	/*
	** In-run probes (runtime/thread.h): about one hook in a thousand, and one
	** heap-tracking call in as many, timed from start to end.  The CPU may
	** run at another speed at calibration than later: a reader scales the
	** calibrated figures by k = (empty_probe_ticks / entry_probes) /
	** probe_empty, adds (probe mean - k * calibrated probe) to entry_ticks
	** (for an entry's and for an exit's probe) and takes the mean heap probe
	** less an empty one off per heap event (aprof/amon_read.c).
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
	uint64_t memory;        /* bytes of the thread's contexts, histories, heap counters
				   and transition table (Spivey's "profiling memory") */
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
*/
struct amon_context {
	uint32_t depth;    /* n, entries in the history */
	uint32_t pad;      /* zero */
	uint64_t calls;    /* entries into this context by a non-recursive call */
	uint64_t rec;      /* direct recursive calls made while current (s_n -> s_n) */
	uint64_t ticks;    /* clock ticks from hook to hook while this context was current */
	uint64_t events;   /* intervals in 'ticks' that ended in an entry (calls made from
			      here); calls + rec more ended in an exit.  Each holds about
			      amon_thread.entry_ticks or exit_ticks of the hooks' own cost,
			      which the reader takes off */
	/* Heap allocations made while this context was current (zero if not followed). */
	uint64_t allocs;        /* allocations (malloc family, C++ new) */
	uint64_t alloc_bytes;   /* bytes requested by them */
	uint64_t frees;         /* frees of those blocks, by any thread */
	uint64_t free_bytes;    /* bytes of those blocks freed */
	uint64_t class_alloc[4];/* alloc_bytes by mprof size class (AMON_SIZE_CLASS) */
	uint64_t class_free[4]; /* free_bytes by mprof size class */
	uint64_t peak_bytes;    /* live bytes (allocated here, not yet freed) at the run's peak */
	uint64_t heap_events;   /* heap-tracking calls (an allocation, or a free's two) made
				   while current: each holds the tracking's own cost in 'ticks' */
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

#endif /* APROF_RUNTIME_AMON_H */
