/*
** transition.c -- the finite-state machine of contexts: its table, the
** creation of contexts, and steps B1-B3 of Spivey's method.
*/
#include <config.h>

#include <string.h>

#include "history.h"
#include "modules.h"
#include "transition.h"

#define TABLE_INITIAL 1024 /* slots; doubled whenever it would pass half full */
#define BUCKETS_INITIAL 256 /* B2's index; doubled whenever contexts outnumber buckets */


/* The bucket of B2's index holding the contexts whose history hashes to HASH. */
APROF_NOINSTR static struct aprof_context **bucket_of(const struct aprof_machine *m, uint64_t hash)
{
	return &m->bucket[(size_t)hash & m->bucket_mask];
}


/*
** Doubles B2's index, relinking every context published; returns -1 (index
** unchanged) if no memory.  Only this thread reads the index.
*/
APROF_NOINSTR static int buckets_grow(struct aprof_machine *m)
{
	size_t n = m->bucket_mask + 1, i;
	struct aprof_context **b = aprof_map(2 * n * sizeof b[0]), *c;

	if (b == NULL)
		return -1;
	aprof_unmap(m->bucket, n * sizeof b[0]);
	m->bucket = b;
	m->bucket_mask = 2 * n - 1;
	for (c = m->first, i = 0; i < m->contexts; c = c->next, i++) {
		struct aprof_context **head = bucket_of(m, c->hash);

		c->same_hash = *head;
		*head = c;
	}
	return 0;
}


/*
** A new context of N entries of history, whose hash is HASH, and whose
** longest proper prefix that is a context's whole history is that of
** PREFIX, OWN entries shorter, those entries E[0..OWN-1]; published and
** indexed, or NULL if no memory.
*/
APROF_NOINSTR static struct aprof_context *context_new(struct aprof_machine *m, const uint64_t *e,
						       uint32_t n, uint64_t hash,
						       const struct aprof_context *prefix,
						       uint32_t own)
{
	/* Zeroed by the arena (fresh pages): every count 0, every way empty. */
	struct aprof_context *c;
	struct aprof_context **head;
	uint32_t i;

	if (m->contexts > m->bucket_mask && buckets_grow(m) != 0)
		return NULL;
	c = aprof_arena_alloc(&m->arena, offsetof(struct aprof_context, history) +
				      (own > APROF_INLINE ? own * sizeof c->history[0] : 0), 64);
	if (c == NULL)
		return NULL;
	c->depth = n;
	c->prefix = prefix;
	c->hash = hash;
	c->own = own;
	for (i = 0; i < own; i++)
		if (own > APROF_INLINE)
			c->history[i] = e[i];
		else
			c->way[APROF_WAYS - APROF_INLINE + i].spare = e[i];
	head = bucket_of(m, hash);
	c->same_hash = *head;
	*head = c;
	/*
	** Published with release stores: the exit handler may read this thread's
	** list while the thread still runs, and takes 'contexts' first.
	*/
	__atomic_store_n(m->tail, c, __ATOMIC_RELEASE);
	m->tail = &c->next;
	__atomic_store_n(&m->contexts, m->contexts + 1, __ATOMIC_RELEASE);
	return c;
}


APROF_NOINSTR int aprof_machine_init(struct aprof_machine *m)
{
	memset(m, 0, sizeof *m);
	m->slots = aprof_map(TABLE_INITIAL * sizeof m->slots[0]);
	m->bucket = aprof_map(BUCKETS_INITIAL * sizeof m->bucket[0]);
	if (m->slots == NULL || m->bucket == NULL)
		return -1;
	m->mask = TABLE_INITIAL - 1;
	m->bucket_mask = BUCKETS_INITIAL - 1;
	m->tail = &m->first;
	m->root = context_new(m, NULL, 0, APROF_HISTORY_SEED, NULL, 0);
	return m->root == NULL ? -1 : 0;
}


APROF_NOINSTR size_t aprof_machine_memory(const struct aprof_machine *m)
{
	return APROF_GET(m->arena.used) + (APROF_GET(m->mask) + 1) * sizeof m->slots[0] +
	       (APROF_GET(m->bucket_mask) + 1) * sizeof m->bucket[0];
}


/* The slot holding key (FROM, PROC), or the empty slot where it would go. */
APROF_NOINSTR static struct aprof_transition *slot_find(struct aprof_machine *m,
							const struct aprof_context *from,
							uintptr_t proc)
{
	size_t i = aprof_transition_hash(m, from, proc);

	for (;; i = (i + 1) & m->mask) {
		struct aprof_transition *t = &m->slots[i];

		if (t->proc == 0 || (t->from == from && t->proc == proc))
			return t;
	}
}


/* Doubles the table; returns -1 (table unchanged) if no memory. */
APROF_NOINSTR static int table_grow(struct aprof_machine *m)
{
	struct aprof_transition *old = m->slots;
	size_t i, n = m->mask + 1;

	m->slots = aprof_map(2 * n * sizeof old[0]);
	if (m->slots == NULL) {
		m->slots = old;
		return -1;
	}
	APROF_PUT(m->mask, 2 * n - 1);
	for (i = 0; i < n; i++)
		if (old[i].proc != 0)
			*slot_find(m, old[i].from, old[i].proc) = old[i];
	aprof_unmap(old, n * sizeof old[0]);
	return 0;
}


/* Makes sure each third of the scratch holds N entries. */
APROF_NOINSTR static int scratch_reserve(struct aprof_machine *m, uint32_t n)
{
	uint32_t size = m->scratch_size ? m->scratch_size : 64;
	uint64_t *s;

	if (n <= m->scratch_size)
		return 0;
	while (size < n)
		size *= 2;
	s = aprof_arena_alloc(&m->arena, 3 * size * sizeof s[0], 16);
	if (s == NULL)
		return -1;
	m->scratch = s;
	m->scratch_size = size;
	return 0;
}


/* 1 if C's whole history is H[0..N-1], else 0. */
APROF_NOINSTR static int context_is(const struct aprof_context *c, const uint64_t *h, uint32_t n)
{
	uint32_t i;

	if (c->depth != n)
		return 0;
	/* Each context of the chain holds the entries before its successor's. */
	for (; n > 0; c = c->prefix) {
		n -= c->own;
		for (i = 0; i < c->own; i++)
			if (aprof_context_entry(c, i) != h[n + i])
				return 0;
	}
	return 1;
}


/*
** The context whose whole history is H[0..N-1], whose hash is HASH, if there
** is one; else NULL.  PRE, if not NULL, is the context whose whole history
** is H[0..N-2]: a context stored as PRE and one entry is told at once.
*/
APROF_NOINSTR static struct aprof_context *context_find(const struct aprof_machine *m,
							const uint64_t *h, uint32_t n,
							uint64_t hash,
							const struct aprof_context *pre)
{
	struct aprof_context *c;

	for (c = *bucket_of(m, hash); c != NULL; c = c->same_hash)
		if (c->hash == hash &&
		    (pre != NULL && c->prefix == pre && c->own == 1 ?
		     aprof_context_entry(c, 0) == h[n - 1] : context_is(c, h, n)))
			return c;
	return NULL;
}


/*
** B2: the context whose history is H[0..N-1], found by its hash in the
** index; B3: a new one if none, stored as the longest proper prefix of H
** that is a context's whole history (the root's, empty, if no other) and
** the entries after it.  H was made from FROM's history, HF, by A1-A5;
** PREFIX, room for N + 1 entries, gets the hashes of H's prefixes.
*/
APROF_NOINSTR static struct aprof_context *context_intern(struct aprof_machine *m,
							  const struct aprof_context *from,
							  const uint64_t *hf, const uint64_t *h,
							  uint32_t n, uint64_t *prefix)
{
	const struct aprof_context *pre = NULL;
	struct aprof_context *c;
	uint32_t len;

	if (n == from->depth + 1 && memcmp(h, hf, from->depth * sizeof h[0]) == 0) {
		/*
		** A2 alone (parser.lua: most new transitions): FROM's history is
		** H's longest proper prefix, and its hash is at hand.
		*/
		prefix[n] = aprof_history_hash_step(from->hash, h[n - 1]);
		pre = from;
	} else {
		prefix[0] = APROF_HISTORY_SEED;
		for (len = 0; len < n; len++)
			prefix[len + 1] = aprof_history_hash_step(prefix[len], h[len]);
	}
	c = context_find(m, h, n, prefix[n], pre);
	if (c != NULL)
		return c; /* B2 */
	/* B3.  A new context: make sure amon.out will name the object of its routine. */
	aprof_module_note((uintptr_t)AMON_ADDR(h[n - 1]));
	if (pre != NULL)
		return context_new(m, h + n - 1, n, prefix[n], pre, 1);
	for (len = n - 1; len > 0; len--)
		if ((c = context_find(m, h, len, prefix[len], NULL)) != NULL)
			return context_new(m, h + len, n, prefix[n], c, n - len);
	return context_new(m, h, n, prefix[n], m->root, n);
}


/* 1 if routine PROC is in C's history, marked or not, else 0: a walk of its chain, no copy. */
APROF_NOINSTR static int history_has(const struct aprof_context *c, uintptr_t proc)
{
	uint32_t i;

	for (; c->depth > 0; c = c->prefix)
		for (i = 0; i < c->own; i++)
			if (AMON_ADDR(aprof_context_entry(c, i)) == proc)
				return 1;
	return 0;
}


/*
** B2-B3 for a call of PROC from FROM when PROC is not in FROM's history
** (history_has): A2 alone, the new history FROM's and PROC marked, so that
** FROM's need not be spelled out nor A1-A5 run (Lua parser.lua 700: 17,805
** of 18,202 new transitions; SQLite speedtest1 28,000 of 28,608).  A3 has
** no entry of PROC to unmark, and A4 and A5 leave a history they made as it
** is: an unmarked entry they keep after an unmarked one is followed by a
** marked one, which they never drop, and differs from it.  Found as FROM
** and one entry, the hash one step from FROM's; a new context is stored so.  Sets *TO (NULL if no memory)
** and returns 1; 0 if a context of that hash is stored otherwise (made
** before FROM, its prefix a shorter one), which only the whole history
** tells (context_intern).
*/
APROF_NOINSTR static int context_appended(struct aprof_machine *m, struct aprof_context *from,
					  uintptr_t proc, struct aprof_context **to)
{
	uint64_t e = (uint64_t)proc | AMON_MARK;
	uint64_t hash = aprof_history_hash_step(from->hash, e);
	struct aprof_context *c;

	for (c = *bucket_of(m, hash); c != NULL; c = c->same_hash) {
		if (c->hash != hash)
			continue;
		if (c->prefix != from || c->own != 1)
			return 0;
		if (aprof_context_entry(c, 0) == e) {
			*to = c; /* B2 */
			return 1;
		}
	}
	aprof_module_note(proc); /* B3, as context_intern */
	*to = context_new(m, &e, from->depth + 1, hash, from, 1);
	return 1;
}


/*
** B2-B3: the context after FROM calls PROC, a transition in no way of FROM
** nor in the table; FROM if memory runs out, with M->full set (staying in
** FROM keeps the shadow stack balanced; the report says the profile is
** incomplete).
*/
APROF_NOINSTR static struct aprof_context *transition_new(struct aprof_machine *m,
							  struct aprof_context *from, uintptr_t proc)
{
	struct aprof_context *to;
	uint64_t *h, *next;
	uint32_t n;

	/*
	** Reserved whichever path is taken, so that the arena's layout does
	** not depend on it: the table's probes depend on the contexts'
	** addresses (JsonCpp small.json, reserved on the full path only: the
	** same misses, 0.9M instructions more of probes, by chance).
	*/
	if (scratch_reserve(m, from->depth + 2) != 0) /* the hashes of N + 1 prefixes */
		goto full;
	if (history_has(from, proc) || !context_appended(m, from, proc, &to)) {
		h = m->scratch + m->scratch_size;
		next = m->scratch + 2 * m->scratch_size;
		aprof_context_history(from, h);
		n = aprof_history_next(h, from->depth, proc, m->scratch);
		to = n == 0 ? from : context_intern(m, from, h, m->scratch, n, next);
	}
	if (to == NULL)
		goto full;
	APROF_ADD(m->transitions, 1);
	return to;
full:
	APROF_PUT(m->full, 1);
	return from;
}


/* Puts the transition (FROM, PROC) -> TO in M's table; out of memory, drops it. */
APROF_NOINSTR static void table_put(struct aprof_machine *m, const struct aprof_context *from,
				    uintptr_t proc, struct aprof_context *to)
{
	struct aprof_transition *t;

	if (2 * (m->used + 1) > m->mask + 1 && table_grow(m) != 0)
		return;
	t = slot_find(m, from, proc);
	if (t->proc == 0)
		m->used++;
	t->from = from;
	t->proc = proc;
	t->to = to;
}


/*
** Gives C a spill (transition.h), zeroed: every way empty; published with
** a release store, for the writer.  Out of memory, none: C's calls take
** the table as before.  The transitions only C's ways hold are put in the
** table first, so that a way of a context with a spill never holds the
** only copy (aprof_successor_miss keeps it so): the hooks' second case
** may then move any of them to the spill (aprof_spill_promote), where
** one held for good would leave a way the spill's routines never get
** (SQLite speedtest1: 5.3-5.9 million second cases against 2.9 million).
** The flag cleared by one instruction, whatever a signal handler's hooks
** count meanwhile (sampling's common case runs whatever the guard).
*/
APROF_NOINSTR static void spill_new(struct aprof_machine *m, struct aprof_context *c)
{
	struct aprof_spill *s = aprof_arena_alloc(&m->arena, sizeof *s, 64);
	struct aprof_way *w;
	uint32_t u;

	if (s == NULL)
		return;
	for (u = c->held; u != 0; u &= u - 1) {
		w = &c->way[__builtin_ctz(u)];
		if (w->proc != 0 && (w->calls & APROF_WAY_ONLY)) {
			table_put(m, c, w->proc, w->to);
			__atomic_fetch_and(&w->calls, ~APROF_WAY_ONLY, __ATOMIC_RELAXED);
		}
	}
	__atomic_store_n(&c->spill, s, __ATOMIC_RELEASE);
}


APROF_NOINSTR struct aprof_way *aprof_successor_miss(struct aprof_machine *m,
						     struct aprof_context *cur, uintptr_t fn)
{
	struct aprof_context *next = aprof_transition_known(m, cur, fn);
	size_t at = aprof_successor_way(cur, fn);
	struct aprof_way *w = aprof_way_at(cur, at);
	int kept = next != NULL;

	if (APROF_UNLIKELY(cur->misses >= APROF_SPILL_AFTER) && cur->spill == NULL)
		spill_new(m, cur);
	if (w->proc != 0 && (w->calls & APROF_WAY_ONLY))
		table_put(m, cur, w->proc, w->to);
	if (!kept) {
		next = transition_new(m, cur, fn);
		if (cur->spill != NULL) { /* none but the table's in its ways (spill_new) */
			table_put(m, cur, fn, next);
			kept = 1;
		}
	}
	aprof_successor_put(cur, at, fn, next, kept);
	return w;
}


/*
** The ways of C that have held a successor, one at a time: for (u = held(C);
** u != 0; u &= u - 1) way[ctz(u)].  Most contexts call one routine or two:
** the writer reads their lines, not all of them (benchmarks/CHOICES.md,
** "Writer").
*/
#define FOR_HELD(c, u, w) \
	for ((u) = APROF_GET((c)->held); (u) != 0 && ((w) = &(c)->way[__builtin_ctz(u)], 1); \
	     (u) &= (u) - 1)

/*
** The ways of C's spill, if it has one, one at a time (J a size_t): its
** thread may be making it (spill_new).
*/
#define FOR_SPILL(c, s, j, w)                                                          \
	if (((s) = __atomic_load_n(&(c)->spill, __ATOMIC_ACQUIRE)) != NULL)            \
		for ((j) = 0; (j) < APROF_SPILL_WAYS && ((w) = &(s)->way[j], 1); (j)++)


APROF_NOINSTR void aprof_machine_tally(const struct aprof_machine *m, size_t n)
{
	struct aprof_context *c, *to;
	const struct aprof_way *w;
	struct aprof_spill *s;
	size_t i, j;
	uint32_t u;

	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n))
		c->through = 0;
	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n)) {
		FOR_HELD(c, u, w)
			if ((to = APROF_GET(w->to)) != NULL && to != c) /* NULL: another CPU's order */
				to->through += APROF_WAY_CALLS(APROF_GET(w->calls));
		FOR_SPILL(c, s, j, w)
			if ((to = APROF_GET(w->to)) != NULL && to != c)
				to->through += APROF_GET(w->calls); /* never APROF_WAY_ONLY */
	}
}


APROF_NOINSTR uint64_t aprof_context_rec(const struct aprof_context *c)
{
	uint64_t rec = APROF_GET(c->rec);
	const struct aprof_way *w;
	struct aprof_spill *s;
	size_t j;
	uint32_t u;

	FOR_HELD(c, u, w)
		if (APROF_GET(w->to) == c)
			rec += APROF_WAY_CALLS(APROF_GET(w->calls));
	FOR_SPILL(c, s, j, w)
		if (APROF_GET(w->to) == c)
			rec += APROF_GET(w->calls);
	return rec;
}


APROF_NOINSTR void aprof_machine_zero(struct aprof_machine *m)
{
	size_t n = aprof_machine_published(m), i, j;
	struct aprof_context *c;
	struct aprof_spill *s;
	struct aprof_way *w;
	uint32_t u;

	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n)) {
		APROF_PUT(c->ticks, 0);
		APROF_PUT(c->events, 0);
		APROF_PUT(c->heap_events, 0);
		APROF_PUT(c->calls, 0);
		APROF_PUT(c->rec, 0);
		FOR_HELD(c, u, w) /* APROF_WAY_ONLY kept (a put meanwhile may lose it: B2 finds the same) */
			APROF_PUT(w->calls, APROF_GET(w->calls) & APROF_WAY_ONLY);
		FOR_SPILL(c, s, j, w)
			APROF_PUT(w->calls, 0);
	}
}
