/*
** pprof.h -- --format=pprof: the contexts as a gzipped profile.proto, the
** format of go tool pprof and of the profiling services (Pyroscope, Parca),
** written with protobuf-c from pprof's own aprof/export/profile.proto.
*/
#ifndef APROF_EXPORT_PPROF_H
#define APROF_EXPORT_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "aprof/model/profile.h"
#include "aprof/read/typeinfo.h"

/*
** One profile's contexts to write.  Several amon.out files (a forking
** server's processes) are a part each, so that each sample keeps its
** process id.  With --diff the old profile is a second part, its values
** negated and its samples labelled pprof::base, as go tool pprof
** -diff_base merges a base into a profile.
*/
struct pprof_part {
	const struct amon_data *d;     /* the contexts, after the selection (-F, -E, --elide) */
	const struct profile *p;       /* their profile in --metric: routines, --threshold */
	const struct profile *time;    /* the same in time (PROF_TIME): ticks per second */
	const struct typeinfo *ti;     /* the program's DWARF types for the types label; NULL: none */
	int base;                      /* 1 for --diff's old profile */
};

/* What the whole file says beyond the parts. */
struct pprof_options {
	enum prof_metric metric;       /* --metric: the default sample type */
	double threshold;              /* --threshold: percent; 0 keeps every context */
	int cycles;                    /* --cycles: label samples with the cycles traversed */
	int64_t time_nanos;            /* the run's start, ns since the epoch; 0 if unknown */
};

/*
** Writes the N parts (the first the profile itself) to OUT as one gzipped
** Profile message: a sample per context with a routine active (the root,
** charged to no routine, is left out), whose locations are its history leaf
** first, with values calls/count, cpu/nanoseconds for the sampling clock
** (wall/nanoseconds for the others) and, with heap data,
** alloc_objects/count, alloc_space/bytes, inuse_space/bytes (live at the
** run's peak) and kept_space/bytes (never freed); labels thread ("TID" or
** "TID NAME"), pid (amon.out's, unless 0: a sum), type and cycle (--cycles: the cycles
** traversed active in it).  A context that allocated known types (--types'
** rules) is a sample per type, each with that type's allocations and
** bytes, the first with the context's calls and time.  A function per routine (name, mangled system name, file,
** first line), a location per history address (the routine's entry: amon.out
** has no call sites) and a mapping per module with its build ID.  Time is in
** whole nanoseconds, rounded so that each part's samples add up to its
** total.  Write errors show in OUT's error flag; dies only if zlib fails.
*/
void pprof_write(FILE *out, const struct pprof_part *parts, int n, const struct pprof_options *o);

#endif /* APROF_EXPORT_PPROF_H */
