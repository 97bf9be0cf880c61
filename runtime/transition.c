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

APROF_NOINSTR static struct aprof_context *context_new(struct aprof_machine *m,
							const uint64_t *h, uint32_t n)
{
	/* Zeroed by the arena (fresh pages): every count 0, every way empty. */
	struct aprof_context *c = aprof_arena_alloc(&m->arena, sizeof *c + n * sizeof c->history[0],
						    64);

	if (c == NULL)
		return NULL;
	c->depth = n;
	memcpy(c->history, h, n * sizeof h[0]);
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
	if (m->slots == NULL)
		return -1;
	m->mask = TABLE_INITIAL - 1;
	m->tail = &m->first;
	m->root = context_new(m, NULL, 0);
	return m->root == NULL ? -1 : 0;
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


/* Adds key (FROM, PROC) -> TO; returns 0, or -1 if the table cannot grow. */
APROF_NOINSTR static int table_put(struct aprof_machine *m, const struct aprof_context *from,
				   uintptr_t proc, struct aprof_context *to)
{
	struct aprof_transition *t;

	if (2 * (m->used + 1) > m->mask + 1 && table_grow(m) != 0)
		return -1;
	t = slot_find(m, from, proc);
	if (t->proc == 0)
		m->used++;
	t->from = from;
	t->proc = proc;
	t->to = to;
	return 0;
}


/* Makes sure the scratch history holds N entries. */
APROF_NOINSTR static int scratch_reserve(struct aprof_machine *m, uint32_t n)
{
	uint32_t size = m->scratch_size ? m->scratch_size : 64;
	uint64_t *s;

	if (n <= m->scratch_size)
		return 0;
	while (size < n)
		size *= 2;
	s = aprof_arena_alloc(&m->arena, size * sizeof s[0], 16);
	if (s == NULL)
		return -1;
	m->scratch = s;
	m->scratch_size = size;
	return 0;
}


/*
** The paper's (NULL, proc) key, refined: (history_key(H), proc) reaches the
** contexts running proc whose histories hash alike.  With the plain
** (NULL, proc) list, B2 is a linear search of every context where proc runs,
** and a routine called from 100,000 places makes it quadratic; with the hash
** it is one probe.  The key is odd, so it is never a context's address.
*/
APROF_NOINSTR static const struct aprof_context *history_key(const uint64_t *h, uint32_t n)
{
	uint64_t k = APROF_HISTORY_SEED;
	uint32_t i;

	for (i = 0; i < n; i++)
		k = aprof_history_hash_step(k, h[i]);
	return (const struct aprof_context *)(uintptr_t)(k << 1 | 1);
}


/*
** B2: the context whose history is H[0..N-1], found through the contexts of
** the same routine and history hash; B3: a new one if none.
*/
APROF_NOINSTR static struct aprof_context *context_intern(struct aprof_machine *m,
							  const uint64_t *h, uint32_t n)
{
	uintptr_t proc = (uintptr_t)AMON_ADDR(h[n - 1]);
	const struct aprof_context *key = history_key(h, n);
	struct aprof_transition *head = slot_find(m, key, proc);
	struct aprof_context *c;

	if (head->proc != 0)
		for (c = head->to; c != NULL; c = c->same_proc)
			if (c->depth == n && memcmp(c->history, h, n * sizeof h[0]) == 0)
				return c; /* B2 */
	/* A new context: make sure amon.out will name the object of its routine. */
	aprof_module_note(proc);
	if (head->proc == 0 && table_put(m, key, proc, NULL) != 0)
		return NULL;
	c = context_new(m, h, n); /* B3 */
	if (c == NULL)
		return NULL;
	head = slot_find(m, key, proc); /* table_put may have moved it */
	c->same_proc = head->to;
	head->to = c;
	return c;
}


APROF_NOINSTR struct aprof_context *aprof_transition_slow(struct aprof_machine *m,
							  struct aprof_context *from, uintptr_t proc)
{
	struct aprof_context *to;
	uint32_t n;

	if (scratch_reserve(m, from->depth + 1) != 0)
		goto full;
	n = aprof_history_next(from->history, from->depth, proc, m->scratch);
	to = n == 0 ? from : context_intern(m, m->scratch, n);
	if (to == NULL || table_put(m, from, proc, to) != 0)
		goto full;
	APROF_ADD(m->transitions, 1);
	return to;
full:
	/* Staying in FROM keeps the shadow stack balanced; the report says the profile is incomplete. */
	APROF_PUT(m->full, 1);
	return from;
}


/*
** The ways of C that have held a successor, one at a time: for (u = held(C);
** u != 0; u &= u - 1) way[ctz(u)].  Most contexts call one routine or two:
** the writer reads their lines, not all eight (a write of 201,001
** contexts calling 1 or 100 routines each: 64 -> 55 ms of CPU).
*/
#define FOR_HELD(c, u, w) \
	for ((u) = APROF_GET((c)->held); (u) != 0 && ((w) = &(c)->way[__builtin_ctz(u)], 1); \
	     (u) &= (u) - 1)


APROF_NOINSTR void aprof_machine_tally(const struct aprof_machine *m, size_t n)
{
	struct aprof_context *c, *to;
	const struct aprof_way *w;
	size_t i;
	uint32_t u;

	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n))
		c->through = 0;
	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n))
		FOR_HELD(c, u, w)
			if ((to = APROF_GET(w->to)) != NULL && to != c) /* NULL: another CPU's order */
				to->through += APROF_GET(w->calls);
}


APROF_NOINSTR uint64_t aprof_context_rec(const struct aprof_context *c)
{
	uint64_t rec = APROF_GET(c->rec);
	const struct aprof_way *w;
	uint32_t u;

	FOR_HELD(c, u, w)
		if (APROF_GET(w->to) == c)
			rec += APROF_GET(w->calls);
	return rec;
}


APROF_NOINSTR void aprof_machine_zero(struct aprof_machine *m)
{
	size_t n = aprof_machine_published(m), i;
	struct aprof_context *c;
	struct aprof_way *w;
	uint32_t u;

	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n)) {
		APROF_PUT(c->ticks, 0);
		APROF_PUT(c->events, 0);
		APROF_PUT(c->heap_events, 0);
		APROF_PUT(c->calls, 0);
		APROF_PUT(c->rec, 0);
		FOR_HELD(c, u, w)
			APROF_PUT(w->calls, 0);
	}
}
