/*
** blocks.c -- the striped side table of live heap blocks.  Each stripe is an
** open-addressing table with linear probing, at most half full, with
** backward-shift deletion (so no tombstones pile up in long runs).
*/
#include <config.h>

#include "arena.h"
#include "blocks.h"

#define STRIPES 256          /* independent sub-tables, each with its own lock */
#define STRIPE_INITIAL 256   /* slots of a stripe's first table */

struct stripe {
	int lock;                   /* spin lock: 0 free, 1 held */
	struct aprof_block *slots;
	size_t mask;                /* slots - 1; 0 before the first insert */
	size_t used;
	char pad[64 - sizeof(int) - sizeof(void *) - 2 * sizeof(size_t)]; /* one cache line each */
};

static struct stripe stripes[STRIPES];


/*
** The hash of ADDR's 4 KiB page.  All the blocks of a page go to one stripe,
** in consecutive slots from a place the hash picks: blocks allocated one
** after another, which glibc places side by side, then share cache lines in
** the table too, where a hash of each address would scatter them.
*/
APROF_NOINSTR static uint64_t page_hash(uintptr_t addr)
{
	return ((uint64_t)addr >> 12) * 0x9E3779B97F4A7C15ull;
}


APROF_NOINSTR static struct stripe *stripe_of(uintptr_t addr)
{
	return &stripes[page_hash(addr) >> 56];
}


/* The slot where ADDR's probe sequence starts in S. */
APROF_NOINSTR static size_t home_of(const struct stripe *s, uintptr_t addr)
{
	return (size_t)(((uint64_t)addr >> 4) + (page_hash(addr) >> 20)) & s->mask;
}


/* The slot of ADDR in S, or the empty slot where it would go. */
APROF_NOINSTR static size_t slot_of(const struct stripe *s, uintptr_t addr)
{
	size_t i = home_of(s, addr);

	while (s->slots[i].addr != 0 && s->slots[i].addr != addr)
		i = (i + 1) & s->mask;
	return i;
}


/* Doubles S's table (or makes its first); -1 if no memory. */
APROF_NOINSTR static int grow(struct stripe *s)
{
	size_t n = s->mask ? s->mask + 1 : 0, size = n ? 2 * n : STRIPE_INITIAL, i;
	struct aprof_block *old = s->slots;

	s->slots = aprof_map(size * sizeof old[0]);
	if (s->slots == NULL) {
		s->slots = old;
		return -1;
	}
	s->mask = size - 1;
	for (i = 0; i < n; i++)
		if (old[i].addr != 0)
			s->slots[slot_of(s, old[i].addr)] = old[i];
	if (old != NULL)
		aprof_unmap(old, n * sizeof old[0]);
	return 0;
}


APROF_NOINSTR int aprof_blocks_insert(const struct aprof_block *b)
{
	struct stripe *s = stripe_of(b->addr);
	int r = 0;

	aprof_spin_lock(&s->lock);
	if (2 * (s->used + 1) > s->mask + 1 && grow(s) != 0) {
		r = -1;
	} else {
		size_t i = slot_of(s, b->addr);

		s->used += s->slots[i].addr == 0;
		s->slots[i] = *b;
	}
	aprof_spin_unlock(&s->lock);
	return r;
}


APROF_NOINSTR int aprof_blocks_remove(uintptr_t addr, struct aprof_block *b)
{
	struct stripe *s = stripe_of(addr);
	size_t i, j;

	aprof_spin_lock(&s->lock);
	if (s->mask == 0 || s->slots[i = slot_of(s, addr)].addr == 0) {
		aprof_spin_unlock(&s->lock);
		return -1;
	}
	*b = s->slots[i];
	/* Backward shift: pull later entries of the probe run into the hole. */
	for (j = (i + 1) & s->mask; s->slots[j].addr != 0; j = (j + 1) & s->mask) {
		size_t home = home_of(s, s->slots[j].addr);

		if (((j - home) & s->mask) >= ((j - i) & s->mask)) {
			s->slots[i] = s->slots[j];
			i = j;
		}
	}
	s->slots[i].addr = 0;
	s->used--;
	aprof_spin_unlock(&s->lock);
	return 0;
}


APROF_NOINSTR void aprof_blocks_lock_all(void)
{
	size_t i;

	for (i = 0; i < STRIPES; i++)
		aprof_spin_lock(&stripes[i].lock);
}


APROF_NOINSTR void aprof_blocks_unlock_all(void)
{
	size_t i;

	for (i = 0; i < STRIPES; i++)
		aprof_spin_unlock(&stripes[i].lock);
}
