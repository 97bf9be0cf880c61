/*
** merge.c -- history order and the merging of equal histories.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aprof/model/merge.h"
#include "aprof/util.h"

int histories_cmp(const struct amon_context_info *x, const struct amon_context_info *y)
{
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return memcmp(x->history, y->history, x->depth * sizeof x->history[0]);
}


static int by_history(const void *a, const void *b)
{
	const struct history_item *x = a, *y = b;
	int r = histories_cmp(x->c, y->c);

	return r != 0 ? r : (x->order > y->order) - (x->order < y->order);
}


static int by_order(const void *a, const void *b)
{
	const struct history_item *x = a, *y = b;

	return (x->order > y->order) - (x->order < y->order);
}


size_t histories_merge(void *items, size_t n, size_t size,
		       void (*add)(void *into, const void *from))
{
	char *base = items;
	size_t i, k;

	qsort(base, n, size, by_history);
	for (i = k = 0; i < n; i++) {
		const struct history_item *it = (const void *)(base + i * size);

		if (k > 0 && histories_cmp(((const struct history_item *)(const void *)
					    (base + (k - 1) * size))->c, it->c) == 0) {
			add(base + (k - 1) * size, it);
			continue;
		}
		if (k != i)
			memcpy(base + k * size, it, size);
		k++;
	}
	qsort(base, k, size, by_order);
	return k;
}


static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}


uint64_t *histories_addresses(const struct amon_data *d, size_t *n)
{
	struct amon_each e = AMON_EACH(d), again = AMON_EACH(d);
	const struct amon_context_info *c;
	size_t total = 0, i, k;
	uint64_t *addr;

	while ((c = amon_each_next(&e)) != NULL)
		total += c->depth;
	addr = xmalloc((total + 1) * sizeof addr[0]);
	*n = 0;
	while ((c = amon_each_next(&again)) != NULL)
		for (k = 0; k < c->depth; k++)
			addr[(*n)++] = AMON_ADDR(c->history[k]);
	qsort(addr, *n, sizeof addr[0], u64_cmp);
	for (i = k = 0; i < *n; i++)
		if (k == 0 || addr[k - 1] != addr[i])
			addr[k++] = addr[i];
	*n = k;
	return addr;
}


void histories_add(struct amon_context_info *into, const struct amon_context_info *from)
{
	int k;

	into->calls += from->calls;
	into->rec += from->rec;
	into->ticks += from->ticks;
	into->allocs += from->allocs;
	into->alloc_bytes += from->alloc_bytes;
	into->frees += from->frees;
	into->free_bytes += from->free_bytes;
	for (k = 0; k < AMON_SIZE_CLASSES; k++) {
		into->class_alloc[k] += from->class_alloc[k];
		into->class_free[k] += from->class_free[k];
	}
	into->peak_bytes += from->peak_bytes;
	into->heap_events += from->heap_events;
}


void histories_add_sites(struct amon_context_info *into, const struct amon_context_info *from)
{
	struct amon_type_site *sites;

	if (from->nsites == 0)
		return;
	if (into->sites_owned) {
		sites = xrealloc((void *)into->sites, (into->nsites + from->nsites) * sizeof sites[0]);
	} else {
		sites = xmalloc((into->nsites + from->nsites) * sizeof sites[0]);
		memcpy(sites, into->sites, into->nsites * sizeof sites[0]);
	}
	memcpy(sites + into->nsites, from->sites, from->nsites * sizeof sites[0]);
	into->sites = sites;
	into->nsites += from->nsites;
	into->sites_owned = 1;
}
