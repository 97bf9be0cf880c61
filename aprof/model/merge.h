/*
** merge.h -- comparing contexts by history and merging those with equal
** histories (the same context met in several threads, or made equal by
** --elide): the one place -S, mprof's leak table and the selection stage
** do it.
*/
#ifndef APROF_MODEL_MERGE_H
#define APROF_MODEL_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "aprof/read/amon_read.h"

/*
** The head every item passed to histories_merge starts with: the context
** whose history is the key, and the item's first appearance (for a stable
** order).
*/
struct history_item {
	const struct amon_context_info *c;
	size_t order;
};

/*
** History order: depth, then the entries with their marks.  0 if X and Y
** have the same history (entries and marks alike).
*/
int histories_cmp(const struct amon_context_info *x, const struct amon_context_info *y);

/*
** Merges the N items at ITEMS (each SIZE bytes, starting with a struct
** history_item) whose histories are equal: the first-appearing one stays
** and ADD(kept, other) adds each other one into it.  The kept items are
** left at the front of ITEMS in order of first appearance.  Returns their
** number.
*/
size_t histories_merge(void *items, size_t n, size_t size,
		       void (*add)(void *into, const void *from));

/*
** Every distinct address (marks stripped) in the histories of D's contexts,
** sorted increasing, malloc'd; *N their number.
*/
uint64_t *histories_addresses(const struct amon_data *d, size_t *n);

/* Adds every counter of FROM (calls, ticks, heap counts) into INTO; histories untouched. */
void histories_add(struct amon_context_info *into, const struct amon_context_info *from);

/*
** Appends FROM's type sites (runtime/types.h) to INTO's: INTO's then are a
** malloc'd array it owns (sites_owned), grown in place if it owned them.
*/
void histories_add_sites(struct amon_context_info *into, const struct amon_context_info *from);

#endif /* APROF_MODEL_MERGE_H */
