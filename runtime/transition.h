/*
** transition.h -- contexts and the transition function of their finite-state
** machine (Spivey, steps B1-B3), one machine per thread.
*/
#ifndef APROF_RUNTIME_TRANSITION_H
#define APROF_RUNTIME_TRANSITION_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "internal.h"

struct aprof_heap_counts;

/*
** Successors cached per context (a power of two): two cache lines of
** pointers.  In Lua's interpreter 2 ways missed on 36-44% of calls, 8 on
** 7-18%, 16 on 6-8%, and 16 ran fastest.  Each routine has two ways, the
** second tried when the first misses: with one, two routines a context calls
** by turns that share a way missed every time (JsonCpp: 17% of entries).
*/
#define APROF_WAYS 16

/*
** A context: a state of the machine.  Contexts are aligned to 64 bytes.  The
** first cache line holds what the hooks count and charge, and the running
** routine; the next two the successors cached for the entry hook (B1 without
** the table), in one of two ways set by the called routine's address: a cached
** successor S is the answer for a call of FN exactly when S->proc == FN,
** since a transition on FN always leads to a context whose running routine
** is FN (A1 included), so a way needs no key of its own.
*/
struct aprof_context {
	uint64_t ticks;                   /* clock ticks charged while current */
	uint64_t calls;                   /* entries by a non-recursive call */
	uint64_t rec;                     /* direct recursive calls made while current */
	uint64_t events;                  /* intervals in ticks that ended in an entry hook */
	uintptr_t proc;                   /* s_n, the running routine; 0 at the root */
	uint64_t heap_events;             /* heap-tracking calls made while current (heap.c) */
	struct aprof_heap_counts *heap;   /* allocations charged here (heap.h), NULL if none */
	struct aprof_context *same_proc;  /* next context of the same s_n and history hash (B2) */
	struct aprof_context *succ[APROF_WAYS]; /* at a way of their proc, else aprof_no_successor */
	struct aprof_context *next;       /* all contexts of the thread, in creation order */
	uint32_t depth;                   /* n: entries in history */
	uint64_t history[];               /* s_1..s_n, amon.h entry encoding */
};

/*
** The successor ways of routine FN: functions are 16-byte aligned at -O2.
** The second is the first with odd bits flipped, so never the same, and
** skewed by higher address bits, so that two routines sharing a first way
** seldom share the second.
*/
#define APROF_WAY(fn) (((fn) >> 4) & (APROF_WAYS - 1))
#define APROF_WAY2(fn) (APROF_WAY(fn) ^ ((((fn) >> 7) & (APROF_WAYS - 2)) | 1))

/*
** What a successor way holds before a successor is cached there: a context
** that no routine's call leads to (its proc 0, no routine's address), so
** the hook's test of a cached successor needs no test for an empty way.
*/
extern APROF_HIDDEN struct aprof_context aprof_no_successor;

/* B1 from the cache: the context after CUR calls FN, if cached, else NULL. */
APROF_NOINSTR static inline struct aprof_context *aprof_successor(const struct aprof_context *cur,
								  uintptr_t fn)
{
	struct aprof_context *s = cur->succ[APROF_WAY(fn)];

	if (APROF_LIKELY(s->proc == fn))
		return s;
	s = cur->succ[APROF_WAY2(fn)];
	return s->proc == fn ? s : NULL;
}

/* Caches NEXT, CUR's successor on a call of FN: in an empty way of FN's, else in its first. */
APROF_NOINSTR static inline void aprof_successor_cache(struct aprof_context *cur, uintptr_t fn,
						       struct aprof_context *next)
{
	size_t w = APROF_WAY(fn);

	if (cur->succ[w] != &aprof_no_successor && cur->succ[APROF_WAY2(fn)] == &aprof_no_successor)
		w = APROF_WAY2(fn);
	cur->succ[w] = next;
}

/*
** One slot of the transition table, keyed by (from, proc).  A key whose
** 'from' is odd is not a transition but the paper's (NULL, proc) key refined
** by a hash of the history (transition.c, history_key): its 'to' heads the
** list, through 'same_proc', of the contexts running proc whose histories
** hash alike; B2 searches it.  An empty slot has proc == 0 (entry addresses
** are never 0).
*/
struct aprof_transition {
	const struct aprof_context *from;
	uintptr_t proc;
	struct aprof_context *to;
};

/*
** A thread's machine: the transition table (open addressing, linear probing,
** a power-of-two number of slots kept at most half full, so a probe needs no
** division and seldom a second slot) and the contexts it has created.
*/
struct aprof_machine {
	struct aprof_transition *slots;
	size_t mask;                     /* slots - 1 */
	size_t used;                     /* occupied slots (transitions and list heads) */
	size_t transitions;              /* real transitions, excluding list heads */
	struct aprof_context *root;      /* depth 0: no routine active */
	struct aprof_context *first;     /* creation order, root first */
	struct aprof_context **tail;
	size_t contexts;                 /* contexts created, root included */
	uint64_t *scratch;               /* room for a candidate history (A2-A5) */
	uint32_t scratch_size;           /* entries 'scratch' holds */
	struct aprof_arena arena;        /* contexts and scratch */
	int full;                        /* memory ran out: the profile is incomplete */
};

/* Prepares M with an empty table and a root context; returns 0, or -1 if out of memory. */
APROF_HIDDEN int aprof_machine_init(struct aprof_machine *m);

/* Steps B2-B3: the slow path of aprof_transition, for a transition not yet in the table. */
APROF_HIDDEN struct aprof_context *aprof_transition_slow(struct aprof_machine *m,
							 struct aprof_context *from, uintptr_t proc);

/*
** The slot where the key (FROM, PROC) starts its probe sequence.  FROM is
** mixed before PROC joins it: contexts lie in an arena and routines in the
** text at small strides alike, so that FROM/16 ^ PROC alone made many keys
** equal and long clusters (Lua parser.lua: 2.7 slots a lookup, now 1.2).
*/
APROF_NOINSTR static inline size_t aprof_transition_hash(const struct aprof_machine *m,
							 const struct aprof_context *from,
							 uintptr_t proc)
{
	uint64_t k = ((uint64_t)(uintptr_t)from >> 4) * 0x9E3779B97F4A7C15ull ^ (uint64_t)proc;

	return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & m->mask;
}

/*
** B1: the context after FROM calls PROC if the table knows the transition,
** else NULL.  Inline and without a call, for the hooks' common case.
*/
APROF_NOINSTR static inline struct aprof_context *
aprof_transition_known(const struct aprof_machine *m, const struct aprof_context *from,
		       uintptr_t proc)
{
	size_t i = aprof_transition_hash(m, from, proc);
	const struct aprof_transition *t;

	/* Linear probing in a table at most half full: a hit is nearly always in a slot or two. */
	while ((t = &m->slots[i])->proc != 0) {
		if (t->from == from && t->proc == proc)
			return t->to;
		i = (i + 1) & m->mask;
	}
	return NULL;
}

/*
** The context after FROM calls PROC: B1, or for a new transition the slow
** path (B2, B3), which never fails: if memory runs out it stays in FROM and
** sets M->full.
*/
APROF_NOINSTR static inline struct aprof_context *
aprof_transition(struct aprof_machine *m, struct aprof_context *from, uintptr_t proc)
{
	struct aprof_context *to = aprof_transition_known(m, from, proc);

	return to != NULL ? to : aprof_transition_slow(m, from, proc);
}

/*
** Another thread (the writer, aprof_restart) walks a machine's contexts while
** its thread may add more: it takes N, the contexts published, once, then
**     for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n))
** The context after C, the I-th of the N, or C itself after the last, whose
** 'next' its thread may be linking (transition.c).
*/
APROF_NOINSTR static inline struct aprof_context *aprof_context_next(struct aprof_context *c,
								     size_t i, size_t n)
{
	return i < n ? __atomic_load_n(&c->next, __ATOMIC_ACQUIRE) : c;
}

/* Contexts of M published so far, the N of aprof_context_next. */
APROF_NOINSTR static inline size_t aprof_machine_published(const struct aprof_machine *m)
{
	return __atomic_load_n(&m->contexts, __ATOMIC_ACQUIRE);
}

/*
** Zeroes the counts and ticks of every context of M published so far
** (aprof_restart, a fork's child): counted from now on.  Heap counters are
** the heap's (aprof_heap_reset).
*/
APROF_HIDDEN void aprof_machine_zero(struct aprof_machine *m);

#endif /* APROF_RUNTIME_TRANSITION_H */
