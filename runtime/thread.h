/*
** thread.h -- per-thread profiling state: the shadow stack of contexts, the
** thread's own machine, reached through static TLS, and the charge of
** an interval to a context.  Threads are made by the start-up (startup.h).
*/
#ifndef APROF_RUNTIME_THREAD_H
#define APROF_RUNTIME_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "internal.h"
#include "transition.h"
#include "types.h"

struct aprof_heap_bins;
struct aprof_heap_entry;

/*
** A shadow-stack entry, pushed at each entry.  An exit matches the top entry
** by fn; after a jump, by fn and where its activation lies on the stack
** (aprof_thread_exit_slow): no call site kept, which a recursive routine's
** activations share, and a word fewer to store on every entry.
** FRAME lets the runtime tell, after a longjmp or a caught exception, which
** entries were abandoned without their exit hooks: see aprof_thread_land.
** The stack's first entry is a sentinel that no exit matches (fn 0) and no
** jump abandons (frame UINTPTR_MAX), in the root context: an empty stack
** needs no test of its own.
** Each entry holds its activation's own context, so the top entry's is the
** current context (aprof_thread_current), and an exit's pop is the one store
** of the thread's top: no current context kept apart, to load and store on
** every hook.
*/
struct aprof_frame {
	struct aprof_context *ctx;       /* the activation's context (the sentinel's: the root) */
	uintptr_t fn;                    /* the routine entered */
	uintptr_t frame;                 /* __builtin_dwarf_cfa() in its enter hook */
	uintptr_t site;                  /* its return address in the caller (sample.c) */
};

/*
** A jump (nonlocal.c) marks the top entry's fn, so that the next exit, which
** compares fn alone in the common case, does not match it; the slow path
** unmarks it (hooks.c).  No routine's address has this bit (nor types.h's).
*/
#define APROF_FN_JUMPED ((uintptr_t)1 << 62)

/*
** What a thread's JUMPED says happened since its last hook (nonlocal.c).
** APROF_JUMPED: a longjmp or a caught exception; the top entry may be a
** routine left, so a sample waits for the next hook to find where the jump
** landed.  APROF_UNWINDING: a throw or a resumed unwind; the unwinder runs
** on the thrower's behalf (its time the top context's, as before the throw)
** until it lands in a cleanup or catch clause, whose first call lands the
** shadow stack (aprof_thread_land).
*/
#define APROF_JUMPED 1
#define APROF_UNWINDING 2

/*
** The entry of a hook passed through because it interrupted the runtime (a
** signal handler's, hooks.c): pushed with this bit in fn, so that no exit's
** common case matches it and the exit passed through pops it, and that no
** exit the runtime follows takes it for its routine's.
*/
#define APROF_FN_DROPPED ((uintptr_t)1 << 61)

/*
** A shadow stack's top entry (its sentinel when the stack is empty) and
** LIMIT, the top at which an entry's common case takes the slow path
** (struct aprof_thread).
*/
struct aprof_ends {
	struct aprof_frame *top;
	struct aprof_frame *limit;
};

/*
** In-run probes.  The start-up calibration (cost.h) sees the hooks with every
** line in the cache; in the run they also miss the cache, make transitions
** and contexts, and the malloc wrappers track blocks.  So about one hook in
** APROF_PROBE_EVERY, and one heap-tracking call in as many, is timed from its
** start to its end by one more clock read, and the reader corrects the
** calibrated cost with the mean (aprof/model/hookcosts.c).  Counted by the owning
** thread only.
*/
struct aprof_probes {
	uint64_t entries, entry_ticks;  /* entry hooks timed; ticks from their start to their read */
	uint64_t empty_ticks;           /* ticks between two reads back to back, once per entry timed */
	uint64_t exits, exit_ticks;     /* exit hooks timed; ticks from their read to their end */
	uint64_t heap, heap_ticks;      /* heap-tracking calls timed (heap.c); their ticks, bounded,
					   less a log replay's */
};

/* Hooks between two probes: from APROF_PROBE_EVERY / 2 to 3 / 2 of it, at random. */
#define APROF_PROBE_EVERY 1024u

/*
** Where a thread's heap log (heap.c) is written: its next entry and its
** end, both NULL until the log is made; the end NULL too while the
** wrappers' common case is closed (heapcommon.h).
*/
struct aprof_heap_cursor {
	struct aprof_heap_entry *next;
	struct aprof_heap_entry *end;
};

/*
** A thread's state.  Created lazily at the thread's first hook call, never
** freed: the writer reads it at exit even if the thread has finished.  The
** hooks' common case reads its first cache line only (the state is mapped
** page-aligned).
**
** The shadow stack lives in address space reserved for it once, and grows in
** place: it never moves, so a signal handler's hooks that grow it cannot pull
** it from under a hook they interrupted (sampling's common case runs without
** the guard).  LIMIT is the top at which the common case of an entry gives
** way to the slow path: the last entry with room for none above (END), or
** lower while something must see the next entries: a jump (nonlocal.c: the
** top then, so the next entry whatever its depth; the next exit sees the
** top entry marked, APROF_FN_JUMPED) or the types watch (types.c: the
** allocating depth).  The slow path puts it back to END and finds in JUMPED
** and DIVERTED what lowered it: side by side, so that the hooks tell the
** watch's alone by one load and one comparison (aprof_thread_diverted).
** TOP and LIMIT are read and written through aprof_thread_ends only.
*/
struct aprof_thread {
	struct aprof_ends *ends;         /* where TOP and LIMIT are (aprof_thread_ends) */
	struct aprof_ends own;           /* TOP and LIMIT, with a clock (aprof_thread_ends_of) */
	uint64_t last;                   /* clock at the last hook: charged from here */
	uint32_t probe;                  /* hooks until the next one timed (struct aprof_probes) */
	uint8_t jumped;                  /* APROF_JUMPED, APROF_UNWINDING since the last hook, or 0 */
	uint8_t diverted;                /* 1: the types watch lowered LIMIT (types.c) */
	struct aprof_frame *stack;       /* the shadow stack: the sentinel, then the entries */
	struct aprof_frame *end;         /* its last usable entry */
	size_t lost;                     /* calls not pushed because the stack could not grow */
	size_t cap;                      /* entries usable (committed) */
	size_t reserved;                 /* entries of address space reserved */
	uintptr_t stack_lo, stack_hi;    /* the thread's own stack, its mapping (thread.c) */
	uint64_t resyncs;                /* entries popped because their exit never came */
	uint64_t dropped;                /* hook calls dropped: re-entered (signal handler) */
	uint64_t unmatched;              /* exits that matched no entry */
	uint64_t runtime_ticks;          /* sampling: samples in the runtime's own work (sample.c) */
	uint64_t jump_ticks;             /* sampling: samples since a jump, for where it landed */
	uint32_t heap_probe;             /* heap-tracking calls until the next one timed */
	struct aprof_probes probes;      /* the in-run probes */
	struct aprof_machine machine;    /* contexts and transitions */
	uint64_t tid;                    /* kernel thread id */
	void *timer;                     /* sampling mode: the thread's CPU-time timer, where
					    perf_event_open is refused (sample.c) */
	int sampler;                     /* sampling mode: its task-clock event's fd + 1, or 0 */
	uint64_t sampled_ns;             /* the task clock at the last sample, ns (sample.c) */
	uint64_t sampled_rest;           /* its ns not yet charged: under one sample period */
	char name[16];                   /* thread name when first seen, and when it ended */
	struct aprof_heap_bins *bins;     /* allocation-size histogram (heap.h), NULL until used */
	struct aprof_heap_cursor heap;   /* its heap log's (heap.c) */
	struct aprof_types_watch types;  /* the last allocation's constructor candidates */
	struct aprof_thread *next;       /* registry of all threads, newest first */
};

/*
** The thread-local variables, in one block so that a hook reaches them all
** from one address (in a shared libaprof, one load of the block's offset
** from the GOT instead of one per variable): read through the names below,
** as a variable (like errno).
*/
struct aprof_tls {
	struct aprof_ends ends;          /* the sampled thread's top and limit (aprof_thread_ends) */
	struct aprof_thread *self;       /* aprof_self */
	int busy;                        /* aprof_busy */
	struct aprof_thread *sampled;    /* aprof_sampled */
	struct aprof_thread *counted;    /* aprof_counted */
	struct aprof_heap_cursor *heap;  /* aprof_sampled_heap */
};
/*
** Its TLS model: initial-exec in libaprof.so (its offset from the thread
** pointer loaded from the GOT), local-exec where libaprof is compiled for
** the program itself (libaprof.a, PIE or not), whose offset the linker
** writes into each access: a register and an instruction fewer per hook.
*/
#if defined(__PIE__) || !defined(__PIC__)
#define APROF_TLS_MODEL "local-exec"
#else
#define APROF_TLS_MODEL "initial-exec"
#endif

/*
** The block, defined with the hooks (hooks.c) and exported, so that where a
** program has its own copy of the hooks (libaprof_hooks.a) libaprof.so's
** references find the program's block, which ld.so finds first.  That copy
** (APROF_HOOKS_PROGRAM) reads its own block by a hidden alias, so that the
** linker, making a program, writes the block's offset into each access
** (initial-exec relaxed to local-exec: no load from the GOT); compiled for
** any module (position-independent), it cannot ask for local-exec itself.
*/
extern __attribute__((visibility("default"))) __thread struct aprof_tls aprof_tls
	__attribute__((tls_model(APROF_TLS_MODEL)));
#ifdef APROF_HOOKS_PROGRAM
extern APROF_HIDDEN __thread struct aprof_tls aprof_tls_program
	__attribute__((tls_model(APROF_TLS_MODEL)));
#define APROF_TLS aprof_tls_program
#else
#define APROF_TLS aprof_tls
#endif

/* This thread's state, NULL before its first hook call. */
#define aprof_self (APROF_TLS.self)

/*
** aprof_self in sampling mode (AMON_CLOCK_SAMPLE), and aprof_self with the
** CPU's counter (APROF_CLOCK_COUNTER), NULL with any other clock: each of
** the hooks' common cases tests its own alone, not the clock's kind too
** (hooks.c; JsonCpp, callgrind, sampling: 3 instructions fewer per hook).
*/
#define aprof_sampled (APROF_TLS.sampled)
#define aprof_counted (APROF_TLS.counted)

/*
** &aprof_sampled->heap in sampling mode, else a cursor with no room (both
** NULL), never NULL: the wrappers' common case finds the log's room from
** the thread pointer alone, without a test of aprof_sampled first
** (heapcommon.h).
*/
#define aprof_sampled_heap (APROF_TLS.heap)

/*
** Where thread T's top and limit are, with clock KIND (a constant where the
** caller knows it): in sampling mode in the thread-local block, T being the
** calling thread (aprof_sampled), so that sampling's common case finds them
** from the thread pointer alone, with no load of T's address first
** (hooks.c; JsonCpp, callgrind: one instruction and one dependent load
** fewer per hook); with a clock in T (OWN: aprof_counted, and the
** calibration's scratch thread, cost.c).  The thread-local block's are
** otherwise a top at its limit whose entry no exit matches (fn 0,
** thread.c), on which sampling's common case does nothing.  T is const as
** strchr's argument is: its constness is the caller's to keep.
*/
APROF_NOINSTR static inline struct aprof_ends *aprof_thread_ends_of(const struct aprof_thread *t,
								    uint32_t kind)
{
	return kind == AMON_CLOCK_SAMPLE ? &APROF_TLS.ends : (struct aprof_ends *)&t->own;
}

/*
** The same where the clock is not known: T->ends, set by
** aprof_thread_stack_reset, one load where a test of the clock's kind took
** five instructions (the malloc wrappers and the types watch: JsonCpp
** small.json, callgrind, sampling, 13.7M instructions more).  Read by T's
** own thread alone (no other reads a thread's top): a sampled thread's
** points into its thread-local block, which goes with the thread.
*/
APROF_NOINSTR static inline struct aprof_ends *aprof_thread_ends(const struct aprof_thread *t)
{
	return t->ends;
}

/* Every thread's state, newest first (pushed with a compare-and-swap). */
extern APROF_HIDDEN struct aprof_thread *aprof_threads;

/*
** The thread's one re-entrancy guard, shared by the hooks and the malloc
** wrappers: set while the runtime's own code runs.  A hook or an allocation
** that finds it set (a signal handler interrupting the runtime, or the
** runtime allocating for itself) is passed through and counted, so the
** runtime never corrupts, charges nor recurses into itself; but for the
** hooks' sampling common case, which is safe there and does not test it
** (hooks.c, SAMPLE_UNGUARDED).
*/
#define aprof_busy (APROF_TLS.busy)

/* 1 once the runtime has started (startup.c), so threads may be made. */
extern APROF_HIDDEN int aprof_started;

/*
** Makes the calling thread's state, current context the root, and publishes
** it (aprof_self, aprof_threads); the start-up (startup.c) adds what the
** process needs per thread.  Returns NULL if memory is refused, in which case
** the thread is not profiled.
*/
APROF_HIDDEN struct aprof_thread *aprof_thread_new(void);

/* Doubles T's shadow stack in place; returns -1 if no memory or no room reserved. */
APROF_HIDDEN int aprof_thread_grow_stack(struct aprof_thread *t);

/*
** Gives back the address space reserved for T's shadow stack beyond what it
** uses (a thread's end: its state is never freed, and a program that makes
** threads by the million would run out of address space); the entries in
** use stay, and a hook after this that needs more counts the call as lost.
*/
APROF_HIDDEN void aprof_thread_stack_trim(struct aprof_thread *t);

/*
** Makes T's shadow stack empty (its sentinel on top, in the root context of
** T's machine, which must be made) and its limit END's, where its top and
** limit are for the process's clock (T->ends, aprof_thread_ends_of): T is
** the calling thread, or the calibration's scratch thread.
*/
APROF_HIDDEN void aprof_thread_stack_reset(struct aprof_thread *t);

/*
** T's current context: its top entry's.  A signal handler may read it: the
** hooks write an entry's context before the store of T's top that puts the
** entry on the stack (hooks.c, push).
*/
APROF_NOINSTR static inline struct aprof_context *aprof_thread_current(const struct aprof_thread *t)
{
	return aprof_thread_ends(t)->top->ctx;
}

/*
** 1 if T's limit is lowered by the types watch and no jump: JUMPED and
** DIVERTED, 0 or 1 each, read together (GCC merges the two loads).
*/
APROF_NOINSTR static inline int aprof_thread_diverted(const struct aprof_thread *t)
{
	return (t->jumped | t->diverted << 8) == 1 << 8;
}

/*
** The first enter hook after a longjmp, a caught exception or a throw
** (T->jumped): FRAME is its canonical frame address, SITE the return
** address into the routine now running, the caller.  Finds where that
** return address is stored, which is the caller's stack pointer, and pops
** every entry whose frame lies below it: routines left without their exit
** hooks.  After a throw (APROF_UNWINDING) the interval until now is first
** charged to the context the throw left.  Returns the context now current.
*/
APROF_HIDDEN struct aprof_context *aprof_thread_land(struct aprof_thread *t, uintptr_t frame,
						     uintptr_t site);

/*
** A catch clause begins in the routine whose stack pointer is SP (on T's
** own stack, else nothing is done): every entry whose frame lies below it
** was left by the throw without its exit hook, and is popped.
*/
APROF_HIDDEN void aprof_thread_caught(struct aprof_thread *t, uintptr_t sp);

/*
** An exit of FN (called from SITE) that does not match the top entry, its
** hook's frame FRAME (or lower): pops abandoned entries down to FN's own and
** that one, or, if FN has no entry, counts the exit as unmatched.  FN's
** entry is the one just above its caller's, found as aprof_thread_land
** finds it, from SITE above FRAME on the stack; else (another stack, FN
** left by a part split off it) the nearest with FN.  Returns the context FN
** was running in, to which the interval before this exit belongs.
*/
APROF_HIDDEN struct aprof_context *aprof_thread_exit_slow(struct aprof_thread *t, uintptr_t fn,
							   uintptr_t site, uintptr_t frame);

/*
** Charges T's interval from its last clock reading to NOW to context C, and
** starts the next one there: the one way time is charged.
*/
APROF_NOINSTR static inline void aprof_charge(struct aprof_thread *t, struct aprof_context *c,
					      uint64_t now)
{
	APROF_ADD(c->ticks, now - t->last);
	t->last = now;
}

/*
** Charges T's interval up to now to its current context (a jump, the thread's
** end, a write of the profile); nothing in sampling mode, where the timer
** charges.
*/
APROF_NOINSTR static inline void aprof_charge_now(struct aprof_thread *t)
{
	if (aprof_clock_kind != AMON_CLOCK_SAMPLE)
		aprof_charge(t, aprof_thread_current(t), aprof_clock_read());
}

/* Hooks (or heap-tracking calls) until the next probe, drawn from the clock value NOW. */
APROF_NOINSTR static inline uint32_t aprof_probe_next(uint64_t now)
{
	return APROF_PROBE_EVERY / 2 +
	       (uint32_t)((now * 0x9E3779B97F4A7C15ull) >> 32) % APROF_PROBE_EVERY;
}

/* Draws T's hooks until its next probe; never, in sampling mode, which reads no clock. */
APROF_NOINSTR static inline void aprof_probe_reset(struct aprof_thread *t)
{
	t->probe = aprof_clock_kind == AMON_CLOCK_SAMPLE ? UINT32_MAX : aprof_probe_next(t->last);
}

#endif /* APROF_RUNTIME_THREAD_H */
