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
** Successors cached per context (a power of two): fewer ways miss more
** often in an interpreter's dispatch, and 16 ran fastest
** (benchmarks/CHOICES.md, "Successor cache").  Each routine has two ways,
** the second tried when the first misses: with one, two routines a
** context calls by turns that share a way missed every time.
*/
#define APROF_WAYS 16 /* at most 32: aprof_context's 'held' */

/* Ways given up to another routine after which a context gets a spill (aprof_spill). */
#define APROF_SPILL_AFTER 256

/*
** A successor cached (B1 without the table): a call of PROC leads to TO,
** and CALLS such calls were made through this way and not yet added to TO's
** count (TO->calls, or its owner's rec if TO is the owner: A1's direct
** recursion).  Key, successor and count side by side, so that the entry
** hook's test and count touch one line of the caller's context and none of
** the callee's: a leaf's context is not touched by its own call and return.
** The count goes to TO when the way is given to another routine
** (aprof_successor_cache), is added at every write (aprof_machine_tally)
** and zeroed with the counts (aprof_machine_zero).  An empty way is all
** zero: PROC 0 is no routine's address, so the hook's test needs no test for
** an empty way.  32 bytes, so that no way straddles two lines (with 24,
** four in sixteen did: JsonCpp, 0.4 million more first-level write misses)
** and a way's offset, halved, is its routine's address masked
** (APROF_WAY_AT); the fourth word is not the way's but one of its
** context's own fields (struct aprof_context).
*/
struct aprof_way {
	uintptr_t proc;               /* the routine called; 0: empty (or being given away) */
	struct aprof_context *to;     /* the context it leads to; NULL: never used */
	uint64_t calls;               /* calls through here not yet in TO's count, APROF_WAY_ONLY */
	uint64_t spare;               /* a field of the context (aprof_context), not the way's */
} __attribute__((aligned(32)));

/*
** Set in a way's CALLS: the way holds the only copy of its transition,
** which the table lacks (made by B2-B3: aprof_successor_miss), so that
** giving the way up must put it there; the count is the other bits
** (APROF_WAY_CALLS), which no run fills.  In the way's own line, so that
** the hooks' second case tests it in two instructions, a load and a sign
** test, where a bit of the context's chosen by the way took six
** (aprof_successor_cache).
*/
#define APROF_WAY_ONLY ((uint64_t)1 << 63)
#define APROF_WAY_CALLS(n) ((n) & ~APROF_WAY_ONLY)

/* A way's size is 1 << APROF_WAY_SHIFT bytes (aprof_successor's offsets). */
#define APROF_WAY_SHIFT 5
_Static_assert(sizeof(struct aprof_way) == (size_t)1 << APROF_WAY_SHIFT, "a way's size");

/*
** History entries held in the last ways' spare words (aprof_context): 2,
** the third's word the spill's (3 before; contexts holding three entries
** now hold them after the ways).
*/
#define APROF_INLINE 2

/*
** A context: a state of the machine, 512 bytes aligned to 64.  Its eight
** cache lines hold the successors cached for the entry hook, in one of two
** ways set by the called routine's address, first so that a way's address
** is the context's plus its offset; and in the fourth word of each way one
** of the context's own fields, so that it needs no line of its own (640
** bytes a context before: 16 ways use 24 of their 32 bytes).  A sample's
** ticks and the events of counter mode share the first line, heap
** tracking's fields the second, the writer's walk ('next', 'held') the
** third, where caching a successor writes ('held', 'misses').  Calls and
** rec hold only what the ways have given up: a context's calls are its own
** plus the counts of the ways that lead to it (aprof_machine_tally adds
** them up).
**
** The history is stored as the context whose whole history is its longest
** proper prefix (the root's empty one if no other) and the OWN entries
** after it: on Lua's parser.lua 1.1 entries a context against 34 in all.
** Up to APROF_INLINE of them lie in the last ways' spare words, more after
** the ways ('history').  Only the slow path and the writer read it
** (aprof_context_entry, aprof_context_history).  A context that calls
** more routines than its ways hold by turns gets a spill after
** APROF_SPILL_AFTER evictions ('misses'), a second level of ways that the
** hooks' second case tries before the table (struct aprof_spill).
*/
struct aprof_context {
	union {
		struct aprof_way way[APROF_WAYS]; /* by their routine's address (APROF_WAY, APROF_WAY2) */
		struct {                          /* the ways' spare words */
			uint64_t w0_[3];
			uint64_t ticks;                  /* clock ticks charged while current */
			uint64_t w1_[3];
			uint64_t events;                 /* intervals in ticks that ended in an entry hook */
			uint64_t w2_[3];
			uint64_t heap_events;            /* heap-tracking calls made while current (heap.c) */
			uint64_t w3_[3];
			struct aprof_heap_counts *heap;  /* allocations charged here (heap.h), NULL if none */
			uint64_t w4_[3];
			struct aprof_context *next;      /* all, in creation order */
			uint64_t w5_[3];
			uint32_t held;                   /* bit W: way W has held a successor, for the writer */
			uint32_t misses;                 /* ways given up to another routine (a spill's due) */
			uint64_t w6_[3];
			uint64_t through;                /* the writer's: calls counted by other contexts' ways */
			uint64_t w7_[3];
			uint64_t calls;                  /* entries by a non-recursive call, from ways given up */
			uint64_t w8_[3];
			uint64_t rec;                    /* direct recursive calls made while current, the same */
			uint64_t w9_[3];
			struct aprof_context *same_hash; /* next context in its bucket of the B2 index */
			uint64_t w10_[3];
			const struct aprof_context *prefix; /* its history is s_1..s_{n-own}; NULL: the root */
			uint64_t w11_[3];
			uint64_t hash;                   /* of s_1..s_n (aprof_history_hash_step) */
			uint64_t w12_[3];
			uint32_t depth;                  /* n: entries in the history */
			uint32_t own;                    /* entries held here: s_{n-own+1}..s_n */
			uint64_t w13_[3];
			struct aprof_spill *spill;       /* its second level of ways; NULL: none */
		};                                       /* then APROF_INLINE entries, if OWN is no more */
	};
	uint64_t history[];               /* the OWN entries if more than APROF_INLINE */
};

_Static_assert(offsetof(struct aprof_context, spill) < (APROF_WAYS - APROF_INLINE) * 32,
	       "the inline history's spare words are free");
_Static_assert(sizeof(struct aprof_context) == APROF_WAYS * sizeof(struct aprof_way),
	       "the context's fields lie in its ways");

/* Entry I (from 0) of the OWN entries C holds, amon.h's encoding. */
APROF_NOINSTR static inline uint64_t aprof_context_entry(const struct aprof_context *c, uint32_t i)
{
	return c->own <= APROF_INLINE ? c->way[APROF_WAYS - APROF_INLINE + i].spare : c->history[i];
}

/* Writes C's history, s_1..s_n (n = C->depth), to OUT. */
APROF_NOINSTR static inline void aprof_context_history(const struct aprof_context *c,
						       uint64_t *out)
{
	uint32_t i;

	/* Each context of the chain fills its own entries, up to the root's none. */
	for (; c->depth > 0; c = c->prefix)
		for (i = 0; i < c->own; i++)
			out[c->depth - c->own + i] = aprof_context_entry(c, i);
}

/*
** The successor ways of routine FN: functions are 16-byte aligned at -O2.
** The first is address bits 4-7, two instructions of the hook's common
** case, so which routines share it moves with the program's code.  The
** second is the first with odd bits flipped, so never the same, and skewed
** by a multiplicative hash of FN's low 32 bits (an imul in place of a
** shift, no longer), so that two routines sharing a first way seldom share
** the second wherever the code lands.  Address bits 8-10 as the skew gave
** two routines the same pair of ways whenever they were a multiple of 2 KiB
** apart: over 16 shifts of JsonCpp's code by 16 bytes both ways missed on
** 0.10-0.89 million entries of small.json (1,610-1,673M instructions), with
** this hash on 0.18-0.66 million (1,616-1,656M); Lua's parser.lua 700 over
** 6 shifts, 0.21-0.87 million against 0.11-0.61.  The constant is
** MurmurHash2's (odd, below 2^31: an imul's immediate); Knuth's 0x61C88647
** missed on up to 0.74 million (JsonCpp) and 0.91 million (Lua).
*/
#define APROF_WAY(fn) (((fn) >> 4) & (APROF_WAYS - 1))
#define APROF_WAY2(fn) (APROF_WAY(fn) ^ APROF_WAY2_FLIP(fn))
#define APROF_WAY2_MIX 0x5BD1E995u
#define APROF_WAY2_FLIP(fn) (((((fn) * APROF_WAY2_MIX) >> 28) & (APROF_WAYS - 2)) | 1)

/*
** A way of a context named by its offset halved (way W: W * 16; FN's first
** way's APROF_WAY_AT(FN), FN's address bits 4-7 in place), so that the
** entry hook's common case reaches the way's routine, successor and count
** as the context plus that offset scaled by 2 in each access, with no
** instruction to compute the way's address (hooks.c, enter_known: the
** common case 17 -> 16 instructions and ret, the second way's 8 -> 7).
** APROF_NO_WAY: none.
*/
#define APROF_WAY_AT(fn) ((fn) & (size_t)(APROF_WAYS - 1) << (APROF_WAY_SHIFT - 1))
/* APROF_WAY2_FLIP(FN) ways as a halved offset, the ways' size folded into the shift. */
#define APROF_WAY2_FLIP_AT(fn)                                                              \
	(((fn) * APROF_WAY2_MIX >> (28 - APROF_WAY_SHIFT + 1) &                             \
	  (size_t)(APROF_WAYS - 2) << (APROF_WAY_SHIFT - 1)) | (size_t)1 << (APROF_WAY_SHIFT - 1))
#define APROF_NO_WAY ((size_t)-1)

/* The way of C at halved offset AT. */
APROF_NOINSTR static inline struct aprof_way *aprof_way_at(struct aprof_context *c, size_t at)
{
	return (struct aprof_way *)((char *)c + at * 2);
}

/* The halved offset of way W of C. */
APROF_NOINSTR static inline size_t aprof_way_offset(const struct aprof_context *c,
						    const struct aprof_way *w)
{
	return (size_t)((const char *)w - (const char *)c) / 2;
}

/*
** B1 from the cache: the halved offset of the way of CUR holding its
** successor on a call of FN, else APROF_NO_WAY.
*/
APROF_NOINSTR static inline size_t aprof_successor_at(struct aprof_context *cur, uintptr_t fn)
{
	size_t at = APROF_WAY_AT(fn); /* a copy and a mask */

	if (APROF_LIKELY(aprof_way_at(cur, at)->proc == fn))
		return at;
	/*
	** APROF_WAY2's, flipped from the first's offset (6 instructions fewer
	** than from FN) by APROF_WAY2_FLIP(FN) ways, whose size is folded into
	** the flip's shift (one fewer again).
	*/
	at ^= APROF_WAY2_FLIP_AT(fn);
	return aprof_way_at(cur, at)->proc == fn ? at : APROF_NO_WAY;
}

/* The same as a way: the way of CUR holding its successor on a call of FN, else NULL. */
APROF_NOINSTR static inline struct aprof_way *aprof_successor(struct aprof_context *cur,
							      uintptr_t fn)
{
	size_t at = aprof_successor_at(cur, fn);

	return at != APROF_NO_WAY ? aprof_way_at(cur, at) : NULL;
}

/*
** Gives up way W of OWNER: its count goes to its successor, and its CALLS
** is left 0 unless it was (APROF_WAY_ONLY too, where ONLY says it may
** be set; 0 where the caller knows it is not, no mask).  The routine
** is cleared first, so that no hook counts there any more (nor a signal
** handler's: sampling's common case runs whatever the guard); a profile
** written by a handler between the two stores that move the count has it
** twice.  The guard held.
*/
APROF_NOINSTR static inline void aprof_way_flush(struct aprof_context *owner, struct aprof_way *w,
					    uint64_t only)
{
	struct aprof_context *to = w->to;
	uint64_t n;

	APROF_PUT(w->proc, 0);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	n = w->calls & ~only;
	if (n == 0)
		return; /* an empty way's too */
	if (to == owner)
		APROF_ADD(owner->rec, n);
	else
		APROF_ADD(to->calls, n);
	APROF_PUT(w->calls, 0);
}

/*
** The way of CUR to cache its successor on a call of FN in, as a halved
** offset (aprof_way_at): an empty way of FN's, else its first.
*/
APROF_NOINSTR static inline size_t aprof_successor_way(struct aprof_context *cur, uintptr_t fn)
{
	size_t at = APROF_WAY_AT(fn), at2 = at ^ APROF_WAY2_FLIP_AT(fn);

	return aprof_way_at(cur, at)->proc != 0 && aprof_way_at(cur, at2)->proc == 0 ? at2 : at;
}

/* Bit W of a context's 'held': its way W, at halved offset AT. */
#define APROF_WAY_BIT(at) (1u << ((at) >> (APROF_WAY_SHIFT - 1)))

/*
** Caches NEXT in the way of CUR at halved offset AT, its successor on a
** call of FN, the way given up first; KEPT: the table holds the transition
** too (else APROF_WAY_ONLY).  The guard held.
*/
APROF_NOINSTR static inline void aprof_successor_put(struct aprof_context *cur, size_t at,
						     uintptr_t fn, struct aprof_context *next,
						     int kept)
{
	struct aprof_way *w = aprof_way_at(cur, at);
	uint32_t bit = APROF_WAY_BIT(at);

	aprof_way_flush(cur, w, APROF_WAY_ONLY);
	APROF_PUT(w->to, next);
	APROF_PUT(w->calls, kept ? 0 : APROF_WAY_ONLY);
	APROF_PUT(cur->held, cur->held | bit); /* after TO: the writer's test */
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* a hook that matches FN finds NEXT */
	APROF_PUT(w->proc, fn);
}

/*
** Caches NEXT, CUR's successor on a call of FN, found in the table (B1),
** not cached yet; returns the way's halved offset (aprof_way_at).  The
** table holds only the transitions ways gave up (every other is in a way
** of its 'from'), so a way that gives up one the table lacks must put it
** there: then APROF_NO_WAY, nothing cached, for the slow path
** (aprof_successor_miss), so that the hooks' second case calls nothing.
** The guard held.
*/
APROF_NOINSTR static inline __attribute__((always_inline)) size_t
aprof_successor_cache(struct aprof_context *cur, uintptr_t fn,
							 struct aprof_context *next)
{
	size_t at = APROF_WAY_AT(fn), at2;

	if (aprof_way_at(cur, at)->proc != 0) {
		at2 = at ^ APROF_WAY2_FLIP_AT(fn);
		if (aprof_way_at(cur, at2)->proc != 0) {
			struct aprof_way *w = aprof_way_at(cur, at);

			/*
			** The slow path for a way that must go to the table,
			** and for the eviction that makes a spill due (the
			** slow path makes it: aprof_successor_miss).
			*/
			if (APROF_UNLIKELY(w->calls & APROF_WAY_ONLY) ||
			    APROF_UNLIKELY(++cur->misses == APROF_SPILL_AFTER))
				return APROF_NO_WAY;
			/*
			** The way has held a successor kept in the table, as
			** NEXT will be: its bit in 'held' is set, APROF_WAY_ONLY
			** clear (JsonCpp small.json: nearly every miss, two
			** routines called by turns that evict each other).
			*/
			aprof_way_flush(cur, w, 0);
			APROF_PUT(w->to, next);
			__atomic_signal_fence(__ATOMIC_SEQ_CST); /* as aprof_successor_put */
			APROF_PUT(w->proc, fn);
			return at;
		}
		at = at2;
	}
	aprof_successor_put(cur, at, fn, next, 1);
	return at;
}

/*
** A context's spill: a second level of APROF_SPILL_WAYS ways (4 KiB), in
** pairs, a routine's pair chosen by a multiplicative hash of its address
** (APROF_SPILL_PAIR_AT), either way of it.  The ways of a context that
** calls more routines than they hold by turns (SQLite's sqlite3VdbeExec
** calls 60-85) give each other up on nearly every call, and each call
** then probed the table and moved a count (hooks.c, enter_uncached: about
** 68 instructions); the hooks' second case finds such a call here and
** counts it in the way, as the first level does, and gives up nothing but
** now and then, to move the way to the first level (aprof_spill_promote).
** Only transitions the table holds are put here (aprof_spill_put, and the
** ways of a context with a spill hold no other: spill_new), so that a
** spill's way never holds the only copy (APROF_WAY_ONLY) and giving it up
** moves its count and nothing else.  Made, zeroed, from the machine's
** arena by the slow path after the context's APROF_SPILL_AFTER-th eviction
** of a kept way by another routine (aprof_successor_cache); never freed.
** The writer reads every way (aprof_machine_tally).
*/
#define APROF_SPILL_PAIRS_LOG 6
#define APROF_SPILL_WAYS (2 << APROF_SPILL_PAIRS_LOG)

struct aprof_spill {
	struct aprof_way way[APROF_SPILL_WAYS]; /* SPARE unused */
};

/*
** The offset in a spill of FN's pair of ways, in bytes: the top bits of
** FN's low 32 times MurmurHash2's constant, as APROF_WAY2_FLIP's (a 32-bit
** imul, a shift and a mask).
*/
#define APROF_SPILL_PAIR_AT(fn)                                                             \
	((size_t)((uint32_t)(fn) * APROF_WAY2_MIX >>                                        \
		  (32 - APROF_SPILL_PAIRS_LOG - APROF_WAY_SHIFT - 1)) &                     \
	 (size_t)(APROF_SPILL_WAYS / 2 - 1) << (APROF_WAY_SHIFT + 1))

/* The pair of ways of spill S where a call of FN is cached, if it is. */
APROF_NOINSTR static inline struct aprof_way *aprof_spill_pair(struct aprof_spill *s, uintptr_t fn)
{
	return (struct aprof_way *)((char *)s + APROF_SPILL_PAIR_AT(fn));
}

/* B1 from spill S: the way of S holding its context's successor on a call of FN, else NULL. */
APROF_NOINSTR static inline struct aprof_way *aprof_spill_find(struct aprof_spill *s, uintptr_t fn)
{
	struct aprof_way *w = aprof_spill_pair(s, fn);

	if (w[0].proc == fn)
		return &w[0];
	return w[1].proc == fn ? &w[1] : NULL;
}

/*
** The way of spill S of OWNER for a call of FN, not cached there, given up:
** an empty way of FN's pair, else the one that has counted fewer calls
** since it was given its routine.  The guard held.
*/
APROF_NOINSTR static inline struct aprof_way *aprof_spill_free(struct aprof_spill *s,
							       struct aprof_context *owner,
							       uintptr_t fn)
{
	struct aprof_way *w = aprof_spill_pair(s, fn);

	if (w[0].proc != 0 && (w[1].proc == 0 || w[1].calls < w[0].calls))
		w++;
	aprof_way_flush(owner, w, 0);
	return w;
}

/*
** Caches NEXT, found in the table (B1), in spill S of OWNER as its
** successor on a call of FN, not cached there yet (aprof_spill_free);
** returns the way.  The guard held.
*/
APROF_NOINSTR static inline struct aprof_way *aprof_spill_put(struct aprof_spill *s,
							      struct aprof_context *owner,
							      uintptr_t fn,
							      struct aprof_context *next)
{
	struct aprof_way *w = aprof_spill_free(s, owner, fn);

	APROF_PUT(w->to, next);
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* as aprof_successor_put */
	APROF_PUT(w->proc, fn);
	return w;
}

/*
** A spill's way is moved to its context's ways (aprof_spill_promote) at
** every APROF_SPILL_PROMOTE-th call counted there (a power of two): left
** where they were put, the routines a context calls most were those of
** its spill as often as not, whose calls then all missed the ways (SQLite
** speedtest1: 5.91 million second cases against 2.92 million without a
** spill).  Moved at every call, 2.94 million, each a move; at every 4th,
** 2.47 million; every 8th, 2.31; every 16th, 2.22 million (0.20 moves),
** fewest instructions there and on JsonCpp, about as few on Lua.
*/
#define APROF_SPILL_PROMOTE 16

/*
** Moves way SW of CUR's spill, FN's, with its count, to one of FN's ways
** of CUR (an empty one, else the first unless it holds the only copy of
** its transition, APROF_WAY_ONLY, else the second), whose transition
** moves, with its count, to CUR's spill (aprof_spill_free); returns the
** way now FN's: SW itself if both of FN's ways hold the only copy.  Each
** way's routine cleared before its count moves, as aprof_way_flush.  The
** guard held.
*/
APROF_NOINSTR static inline struct aprof_way *aprof_spill_promote(struct aprof_context *cur,
								  struct aprof_way *sw,
								  uintptr_t fn)
{
	size_t at = APROF_WAY_AT(fn), at2 = at ^ APROF_WAY2_FLIP_AT(fn);
	struct aprof_way *w = aprof_way_at(cur, at), *v;
	struct aprof_context *to = sw->to, *to1;
	uint64_t calls, calls1;
	uintptr_t proc1;

	if (w->proc != 0 && (aprof_way_at(cur, at2)->proc == 0 || (w->calls & APROF_WAY_ONLY))) {
		at = at2;
		w = aprof_way_at(cur, at);
	}
	if (w->calls & APROF_WAY_ONLY)
		return sw;
	proc1 = w->proc;
	to1 = w->to;
	APROF_PUT(w->proc, 0);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	calls1 = w->calls;
	calls = sw->calls;
	APROF_PUT(sw->proc, 0);
	APROF_PUT(sw->calls, 0);
	if (proc1 != 0) {
		v = aprof_spill_free(cur->spill, cur, proc1);
		APROF_PUT(v->to, to1);
		APROF_PUT(v->calls, calls1);
		APROF_PUT(v->proc, proc1);
	}
	APROF_PUT(w->to, to);
	APROF_PUT(w->calls, calls);
	APROF_PUT(cur->held, cur->held | APROF_WAY_BIT(at)); /* after TO: the writer's test */
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* a hook that matches FN finds TO */
	APROF_PUT(w->proc, fn);
	return w;
}

/*
** One slot of the transition table, keyed by (from, proc): a transition a
** way gave up (aprof_successor_cache).  An empty slot has proc == 0 (entry
** addresses are never 0).
*/
struct aprof_transition {
	const struct aprof_context *from;
	uintptr_t proc;
	struct aprof_context *to;
};

/*
** A thread's machine: the transition table (open addressing, linear probing,
** a power-of-two number of slots kept at most half full, so a probe needs no
** division and seldom a second slot), the contexts it has created, and B2's
** index of them by the hash of their history (chained through 'same_hash',
** at most one context a bucket on average).  The paper's (NULL, proc) keys
** in the table would double its keys: on parser.lua 3 MiB of table against
** 1.5 MiB and 0.25 MiB of buckets; and every transition in it, not only
** those the ways gave up (parser.lua: 225 of 18,352), 1.5 MiB against 24 KiB.
*/
struct aprof_machine {
	struct aprof_transition *slots;
	size_t mask;                     /* slots - 1 */
	size_t used;                     /* occupied slots */
	size_t transitions;              /* transitions made (B2, B3) */
	struct aprof_context **bucket;   /* B2's index: [hash & bucket_mask], chained */
	size_t bucket_mask;              /* buckets - 1 */
	struct aprof_context *root;      /* depth 0: no routine active */
	struct aprof_context *first;     /* creation order, root first */
	struct aprof_context **tail;
	size_t contexts;                 /* contexts created, root included */
	uint64_t *scratch;               /* 3 x scratch_size: histories and hashes (A2-A5, B2) */
	uint32_t scratch_size;           /* entries each third of 'scratch' holds */
	struct aprof_arena arena;        /* contexts and scratch */
	int full;                        /* memory ran out: the profile is incomplete */
};

/* Prepares M with an empty table and a root context; returns 0, or -1 if out of memory. */
APROF_HIDDEN int aprof_machine_init(struct aprof_machine *m);

/*
** The way of CUR that holds its successor on a call of FN, cached in none
** of its ways nor its spill: B1 from the table, else B2-B3, which never
** fail: if memory runs out the way stays in CUR, and M->full is set.  The
** transition the way gives up goes to the table if not there (out of
** memory, it is dropped: B2 makes it again, the same).  Makes CUR's spill
** if due (aprof_successor_cache).  The guard held.
*/
APROF_HIDDEN struct aprof_way *aprof_successor_miss(struct aprof_machine *m,
						    struct aprof_context *cur, uintptr_t fn);

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
** B1 from the table: the context after FROM calls PROC if a way of FROM gave
** the transition up, else NULL.  Inline and without a call, for the hooks'
** second case (the ways missed).
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
** Zeroes the counts and ticks of every context of M published so far, and
** of their ways (aprof_restart, a fork's child): counted from now on.  Heap
** counters are the heap's (aprof_heap_reset).
*/
APROF_HIDDEN void aprof_machine_zero(struct aprof_machine *m);

/*
** For the writer (one at a time, any thread, the machine's own thread
** perhaps still running): the calls of each of the first N contexts of M
** counted by the ways of those N that lead to it, into its 'through'.  One
** pass over N * APROF_WAYS ways and their spills' ways; read-only but for
** 'through', which only the writer touches (a way leading past the N
** writes a context not written this time, set again before the next write
** reads it).  A context's calls are then calls + through, its direct
** recursive calls aprof_context_rec.
*/
APROF_HIDDEN void aprof_machine_tally(const struct aprof_machine *m, size_t n);

/* Bytes M holds: its arena's, its table's and its index's (Spivey's "profiling memory"). */
APROF_HIDDEN size_t aprof_machine_memory(const struct aprof_machine *m);

/* C's direct recursive calls (A1): its rec plus the count of its ways (and spill's) to itself. */
APROF_HIDDEN uint64_t aprof_context_rec(const struct aprof_context *c);

#endif /* APROF_RUNTIME_TRANSITION_H */
