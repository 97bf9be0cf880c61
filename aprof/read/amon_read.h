/*
** amon_read.h -- the amon reader: loads and validates amon.out (format:
** runtime/amon.h) into memory.
*/
#ifndef APROF_READ_AMON_READ_H
#define APROF_READ_AMON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/amon.h"

/* An object holding instrumented code (AMON_TAG_EXE or AMON_TAG_MODULE). */
struct amon_module_info {
	uint64_t load_bias;        /* run-time minus link-time address */
	uint64_t start, end;       /* executable mapping, run-time addresses */
	const uint8_t *build_id;   /* build_id_length bytes, inside the file image */
	uint32_t build_id_length;
	char *path;                /* as the runtime saw it */
	int is_exe;                /* 1 for the main executable */
};

/* A context as read (runtime/amon.h, enum amon_count), with its history rebuilt. */
struct amon_context_info {
	uint32_t depth;            /* n */
	uint64_t calls, rec;       /* entries by non-recursive calls; direct recursive calls */
	uint64_t ticks;            /* clock ticks charged while current: as written, the
				      runtime's own included, until hookcosts_apply takes it off */
	uint64_t events;           /* intervals in ticks that ended in an entry hook */
	const uint64_t *history;   /* depth entries: address | AMON_MARK */
	uint64_t allocs, alloc_bytes;          /* heap allocations made while current */
	uint64_t frees, free_bytes;            /* frees of those blocks */
	uint64_t class_alloc[AMON_SIZE_CLASSES]; /* alloc_bytes by mprof size class */
	uint64_t class_free[AMON_SIZE_CLASSES];  /* free_bytes by mprof size class */
	uint64_t peak_bytes;       /* live bytes allocated here at the run's peak */
	uint64_t heap_events;      /* heap-tracking calls made while current */
	uint32_t nsites;           /* constructor candidates of its allocations (runtime/types.h) */
	const struct amon_type_site *sites; /* nsites, well formed (amon_read checks) */
	int sites_owned;           /* 1 if 'sites' is a malloc'd array of this context's own */
};

/* One thread's machine. */
struct amon_thread_info {
	uint64_t tid;
	char name[17];             /* NUL-terminated */
	uint32_t flags;            /* AMON_THREAD_* */
	uint64_t transitions;
	uint64_t resyncs, dropped, unmatched; /* as struct amon_thread */
	uint64_t memory;           /* bytes the runtime took for the thread (amon.h) */
	uint64_t runtime_ticks;    /* sampling: samples in the runtime's own code, in no context */
	struct amon_thread record; /* as written: the hooks' costs, calibrated and probed */
	double entry_cost;         /* the runtime's own ticks taken off per interval ending in */
	double exit_cost;          /* an entry, in an exit, */
	double heap_cost;          /* and per heap-tracking call (hookcosts.h); 0 until
				      hookcosts_apply */
	uint64_t probes[3];        /* entries, exits and heap-tracking calls timed in the run */
	size_t ncontexts;
	struct amon_context_info *contexts;
	uint64_t *histories;       /* the block every context's history points into */
};

/* A whole amon.out. */
struct amon_data {
	const char *path;
	struct amon_header header;
	struct amon_module_info *modules;  /* the executable first */
	int nmodules;
	struct amon_thread_info *threads;  /* in the order the threads started */
	int nthreads;
	struct amon_heap heap;             /* zero if the file has no heap record */
	struct amon_heap_bin *bins;        /* heap.nbins non-empty bins, increasing */
	unsigned char *image;              /* the file's bytes, which histories point into */
	size_t size;
};

/*
** Reads and validates PATH: magic, version, byte order, every record's length
** and tag, every context's shape, the executable record and the CRC-32 seal.
** Any fault ends the program with one line on stderr (util_die) naming the
** file and what is wrong: missing, not an amon.out, truncated, corrupted.
*/
struct amon_data *amon_read(const char *path);

/*
** The parse under amon_read: IMAGE (SIZE bytes, malloc'd; the result owns it)
** as the contents of a file called NAME.  Returns NULL on any fault, with
** *ERROR a malloc'd one-line message ("NAME: what is wrong") and IMAGE freed.
** The fuzz target's entry point.
*/
struct amon_data *amon_parse(unsigned char *image, size_t size, const char *name, char **error);

/*
** True if the file PATH begins with amon.out's magic: how -s tells an
** optional executable from the profiles after it.
*/
int amon_is_profile(const char *path);

/* The module of D whose executable mapping holds run-time address ADDR, or NULL. */
const struct amon_module_info *amon_module_of(const struct amon_data *d, uint64_t addr);

/*
** A walk over every context of every thread of D, in file order (threads as
** they started, each one's contexts as created), for every stage that reads
** them all:
**     struct amon_each e = AMON_EACH(d);
**     struct amon_context_info *c;
**     while ((c = amon_each_next(&e)) != NULL) ...   (e.thread: c's thread)
*/
struct amon_each {
	const struct amon_data *d;
	int t;                                 /* the next thread's index */
	size_t i;                              /* the next context's index in it */
	const struct amon_thread_info *thread; /* the thread of the context returned */
};

#define AMON_EACH(data) { (data), 0, 0, NULL }

/* The next context of the walk E, NULL after the last. */
struct amon_context_info *amon_each_next(struct amon_each *e);

/* The contexts of every thread of D: as many as a walk returns. */
size_t amon_ncontexts(const struct amon_data *d);

/* Frees D and all it holds. */
void amon_free(struct amon_data *d);

#endif /* APROF_READ_AMON_READ_H */
