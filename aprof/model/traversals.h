/*
** traversals.h -- --cycles: the cycles of mutual recursion that the run
** actually traversed, read from the contexts (Spivey, "Presenting the
** results": the states where the running routine also appears as an
** unmarked entry earlier in the history).  Unlike gprof's <cycle N>, the
** strongly connected components of the static graph (cycles.c), only the
** paths that ran are listed.
*/
#ifndef APROF_MODEL_TRAVERSALS_H
#define APROF_MODEL_TRAVERSALS_H

#include <stdint.h>
#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/read/symbols.h"

/*
** A caller that entered a cycle: its calls into a member made while no
** member was active (calls into a member while the cycle is under way are
** not entries).
*/
struct entrant {
	uint64_t routine;          /* its symbol's address (prof_proc.addr), 0 for <spontaneous> */
	uint64_t calls;
};

/* One cycle traversed: its members as a closed walk, first the one it was entered by. */
struct traversal {
	uint64_t *members;         /* routines (symbol addresses, as prof_proc.addr) in call order */
	uint32_t n;
	uint64_t *key;             /* the members rotated to start at the smallest: identity */
	uint64_t traversals;       /* calls that closed it at the member it was entered by */
	uint64_t ticks, bytes;     /* of the contexts in which it was active */
	struct entrant *entrants;
	int nentrants;
};

/*
** The cycles traversed in D's contexts (the states whose running routine is
** also an earlier unmarked entry), by time spent while active, the most
** first; their number in *N.  Rotations of one cycle are one cycle.  Free
** with traversals_free.
*/
struct traversal *traversals_find(const struct amon_data *d, const struct symbols *syms, int *n);

/*
** The cycles traversed that are active in context C of D alone (as
** traversals_find finds them, with C's time, bytes and traversals; no
** entrants), their number in *N: the pprof export's cycle labels.  Free
** with traversals_free.
*/
struct traversal *traversals_context(const struct amon_data *d, const struct symbols *syms,
				     const struct amon_context_info *c, int *n);

/* Frees what traversals_find or traversals_context returned. */
void traversals_free(struct traversal *cycles, int n);

/*
** Prints every cycle traversed in D's contexts, one line group each, by
** time spent while it was active: its members in call order from the
** member by which it was first found entered ("p -> q -> r -> p"); how
** many times it was traversed (calls that came back to the member it was
** entered by); the seconds and heap bytes of the contexts in which it was
** active, the seconds also as a share of all routines' time; and each
** routine that entered it ("entered from main: 3 times"), by entries, the
** most first, then by name.  "1 time", "2 times".  Rotations of one cycle
** are one cycle.  Names through SYMS.  Cannot fail.
*/
void traversals_print(FILE *out, const struct amon_data *d, const struct symbols *syms);

#endif /* APROF_MODEL_TRAVERSALS_H */
