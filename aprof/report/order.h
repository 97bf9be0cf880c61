/*
** order.h -- the call graph's order (order.c): its entries sorted as gprof
** sorts them, their indexes, and which of them are printed.
*/
#ifndef APROF_REPORT_ORDER_H
#define APROF_REPORT_ORDER_H

#include <stdint.h>

#include "aprof/model/profile.h"
#include "aprof/report/gprof.h"

/* One call-graph entry: a routine or a cycle as a whole. */
struct cg_entry {
	int proc;           /* routine index, or -1 for a cycle */
	int cyc;            /* position in p->cycles for a cycle, else -1 */
	const char *name;   /* routine name; NULL for a cycle */
	uint64_t time;      /* self + child, in the profile's metric */
	uint64_t calls;     /* calls (for a cycle: from outside it) */
	int number;         /* cycle number; 0 for a routine */
};

/* The call graph's order, shared by the call graph and its index. */
struct order {
	struct cg_entry *entries; /* routines and cycles in cmp_total order */
	int nentries;
	int *proc_index;          /* call-graph index of each routine, 1... */
	int *cycle_index;         /* of each cycle, by position in p->cycles */
	char *proc_shown;         /* gprof's print_flag, per routine */
	char *cycle_shown;        /* and per cycle */
	int *cycle_pos;           /* position in p->cycles of cycle number n, or -1 */
	int max_cycle;            /* largest cycle number */
};

/*
** The order of P's call graph under O: entries sorted by gprof's cmp_total
** and numbered 1... in that order (hidden ones too, as gprof), and the print
** flags (-q, -Q, then -f, -e, --threshold).  Dies if a routine names a cycle
** P does not have.
*/
struct order *order_make(const struct profile *p, const struct report_options *o);

/* Frees G. */
void order_free(struct order *g);

/* The cycle of P routine PROC belongs to, or NULL. */
const struct prof_cycle *order_cycle_of(const struct order *g, const struct profile *p, int proc);

/* True if routines A and B of P are distinct members of one cycle. */
int order_same_cycle(const struct profile *p, int a, int b);

#endif /* APROF_REPORT_ORDER_H */
