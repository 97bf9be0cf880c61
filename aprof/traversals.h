/*
** traversals.h -- --cycles: the cycles of mutual recursion that the run
** actually traversed, read from the contexts (Spivey, "Presenting the
** results": the states where the running routine also appears as an
** unmarked entry earlier in the history).  Unlike gprof's <cycle N>, the
** strongly connected components of the static graph (cycles.c), only the
** paths that ran are listed.
*/
#ifndef APROF_APROF_TRAVERSALS_H
#define APROF_APROF_TRAVERSALS_H

#include <stdio.h>

#include "aprof/amon_read.h"
#include "aprof/symbols.h"

/*
** Prints every cycle traversed in D's contexts, one line group each, by
** time spent while it was active: its members in call order from the
** member by which it was entered ("p -> q -> r -> p"); how many times it
** was traversed (calls that closed it at that member); the seconds and heap
** bytes of the contexts in which it was active, the seconds also as a share
** of all routines' time; and each routine outside it that called into it,
** with those calls.  Rotations of one cycle are one cycle.  Names through
** SYMS.  Cannot fail.
*/
void traversals_print(FILE *out, const struct amon_data *d, const struct symbols *syms);

#endif /* APROF_APROF_TRAVERSALS_H */
