/*
** contexts.h -- the -S/--contexts listing: every context as recorded, the raw
** data the reports are computed from.
*/
#ifndef APROF_REPORT_CONTEXTS_H
#define APROF_REPORT_CONTEXTS_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/read/symbols.h"

/*
** Prints one line per context of D (identical histories of different threads
** merged, in order of first appearance): calls, direct recursive calls,
** seconds and the history s_1 > ... > s_n, an unmarked entry (Spivey's
** m_i = F: an older activation kept only for its arcs) in parentheses.
*/
void contexts_print(FILE *out, const struct amon_data *d, const struct symbols *syms);

/*
** Prints C's history as "main > f > g": names as symbols_name gives them,
** an unmarked entry (an older activation kept only for its arcs) in
** parentheses, "<no routine active>" for the root.  Used by -S and by the
** leak table (mprof.c).
*/
void contexts_print_history(FILE *out, const struct amon_context_info *c,
			    const struct amon_data *d, const struct symbols *syms);

#endif /* APROF_REPORT_CONTEXTS_H */
