/*
** profile.h -- the analysed profile: routines, arcs and cycles with the times
** Spivey's "Presenting the results" charges to them, built from the contexts
** of amon.out.  The reports (flat.c, callgraph.c) only read this.
*/
#ifndef APROF_MODEL_PROFILE_H
#define APROF_MODEL_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "aprof/read/amon_read.h"
#include "aprof/read/symbols.h"
#include "aprof/read/symspec.h"

/*
** An arc FROM -> TO of the call graph.  For every context, each marked item
** A[B]C charges the context's value t, time or bytes (Spivey's rules):
**   outgoing arc B -> C: self1 if C is running, else child1;
**   incoming arc A -> B: self2 if B is running, else child2;
** and the context's calls go to the arc into its running routine.  Without
** mutual recursion self1 = self2 and child1 = child2; with it the incoming
** times also cover time B spent under its own recursive calls.
*/
struct prof_arc {
	int from, to;              /* routine indices; from is PROF_SPONTANEOUS for items [B]C */
	uint64_t count;            /* calls along the arc (direct recursion excluded) */
	uint64_t self1, child1;    /* outgoing, in the profile's metric */
	uint64_t self2, child2;    /* incoming, in the profile's metric */
	struct prof_arc *next_in;  /* next arc with the same 'to' */
	struct prof_arc *next_out; /* next arc with the same 'from' */
};

#define PROF_SPONTANEOUS (-1) /* the caller of a routine found as s_1: <spontaneous> */

/*
** A routine.  self + child is the exact time during which it was active,
** counted once however deep its recursion.
*/
struct prof_proc {
	const char *name;          /* display name (demangled unless --no-demangle) */
	uint64_t addr;             /* run-time entry address */
	uint64_t calls;            /* non-recursive calls */
	uint64_t rec;              /* direct recursive calls */
	uint64_t self;             /* charged while running */
	uint64_t child;            /* charged while active but not running */
	int cycle;                 /* gprof cycle number (1...), 0 if in none */
	struct prof_arc *in;       /* arcs into it, spontaneous one included */
	struct prof_arc *out;      /* arcs out of it */
	const struct symbol *sym;  /* its symbol in the profile's syms; NULL if none holds it */
};

/*
** A cycle in gprof's sense: a strongly connected component of the call graph
** (direct recursion aside) with more than one routine.  Its numbers are exact:
** self + child is the time during which any member was active.
*/
struct prof_cycle {
	int number;                /* 1, 2, ... in call-graph order */
	int *members;              /* routine indices */
	int nmembers;
	uint64_t self;             /* charged while a member was running */
	uint64_t child;            /* charged while a member was active, none running */
	uint64_t calls;            /* calls into members from outside the cycle */
	uint64_t internal;         /* calls between distinct members */
};

/*
** What is charged to contexts and shown (--metric).  The rules of charging
** are the same for all: a context's value goes to its running routine as self,
** to the other active routines as child, and to the arcs of its items.
*/
enum prof_metric {
	PROF_TIME,    /* clock ticks (the default) */
	PROF_BYTES,   /* heap bytes allocated */
	PROF_ALLOCS,  /* heap allocations */
	PROF_KEPT,    /* heap bytes allocated and never freed */
	PROF_PEAK,    /* heap bytes live at the run's peak */
};

/* Addresses seen in histories, sorted, each with its routine (profile_routine). */
struct addr_map {
	uint64_t *addr;
	int *proc;
	size_t n;
};

/* The whole analysed profile.  Values are in the metric's units (ticks, bytes, allocations). */
struct profile {
	struct prof_proc *procs;
	int nprocs;
	struct prof_cycle *cycles;
	int ncycles;
	enum prof_metric metric;
	double scale;              /* values per shown unit: ticks per second, 1, 1024... */
	uint32_t clock;            /* what made the ticks: amon_header.clock (enum amon_clock),
				      0 if unknown (a profile built by hand) */
	const char *unit;          /* the shown unit, plural: "seconds", "bytes", "Kbytes"... */
	uint64_t total;            /* charged to routines: the sum of every self */
	uint64_t root;             /* charged while no instrumented routine was active */
	struct addr_map map;       /* history address -> routine */
	const struct symbols *syms; /* the routines' symbols (NULL in a profile built by hand) */
};

/*
** Builds the profile of DATA's contexts in METRIC, naming addresses through
** SYMS.  Bytes are shown in bytes, Kbytes or Mbytes, whichever keeps the
** total below 100,000 units.
*/
struct profile *profile_build(const struct amon_data *data, const struct symbols *syms,
			      enum prof_metric metric);

/*
** Frees P as profile_build made it: its routines, the names it made for
** addresses no symbol holds, its arcs, cycles and address map.  Not for a
** profile built by hand.
*/
void profile_free(struct profile *p);

/* A context's value in METRIC. */
uint64_t profile_value(const struct amon_context_info *c, enum prof_metric metric);

/*
** How many decimals P's values need in P->unit: FORCED if positive
** (--decimals=N), else enough for four significant digits of P->total (a
** 0.03198 s run prints 0.03198) and never fewer than gprof's two, so a run of
** 10 s or more (or a total of 100 units or more) prints as gprof does.  At
** most 9.
*/
int profile_decimals(const struct profile *p, int forced);

/*
** Which of P's routines -f and -e leave printed (gprof's -f/-e: the named
** routines and their descendants, totals unchanged): with ONLY, those
** reachable along arcs from a routine ONLY matches; with EXCLUDE, those
** reachable from a routine entered spontaneously without passing through
** one EXCLUDE matches (so a routine also called from elsewhere stays).
** Returns P->nprocs flags, malloc'd, or NULL when both lists are empty
** (everything printed).
*/
char *profile_printed(const struct profile *p, const struct symspec *only,
		      const struct symspec *exclude);

/*
** The source file of routine PROC of P (symbols_file: looked up on first
** use, since reading the debug line table can cost more than the rest of a
** report), or NULL if unknown.
*/
const char *profile_file(const struct profile *p, int proc);

/*
** The translation unit of routine PROC of P (symbols_unit: the .c file of
** a static defined in a header), or NULL if unknown.
*/
const char *profile_unit(const struct profile *p, int proc);

/*
** The name of routine PROC of P without a copy's tag (symbols.h: "twice"
** for "twice (s-statics.c)"); its name if it has no copies.
*/
const char *profile_base_name(const struct profile *p, int proc);

/* True if routine PROC of P matches S (symspec_has; its file looked up only if S needs it). */
int profile_matches(const struct profile *p, int proc, const struct symspec *s);

/* True if V is under PERCENT of P's total (--threshold; never for PERCENT 0). */
int profile_below(const struct profile *p, uint64_t v, double percent);

/*
** What P charges, as the noun of gprof's "no time accumulated" and "no time
** propagated": "time" for clock ticks, "bytes" for the byte metrics,
** "allocations" for --metric=allocs.
*/
const char *profile_noun(const struct profile *p);

/*
** The routine (index into P->procs) of history entry ADDR (its mark
** ignored), which must be an address of the profile's contexts: the
** exports name histories' entries with it.
*/
int profile_routine(const struct profile *p, uint64_t addr);

/*
** V, a value of P's metric, in the exports' whole units (profile_export_unit):
** nanoseconds for time, bytes or allocations as they are.  With RUNNING
** (the sum of the values converted so far, 0 at first), the running sum is
** rounded instead of V, so the converted values add up exactly to the
** converted total.
*/
uint64_t profile_export(const struct profile *p, uint64_t v, uint64_t *running);

/* The exports' unit of P's metric: "ns", "bytes" or "allocs". */
const char *profile_export_unit(const struct profile *p);

/* The arc FROM -> TO in P, or NULL. */
struct prof_arc *profile_arc(const struct profile *p, int from, int to);

#endif /* APROF_MODEL_PROFILE_H */
