/*
** history.c -- steps A1-A5 of Spivey's "Fast, accurate call graph profiling".
*/
#include <config.h>

#include "history.h"


/*
** One pass does A3-A5.  Entry k of the old history is first unmarked if it is
** PROC (A3).  An unmarked entry k (k > 0, so s_1 always stays) is dropped when
** the last entry kept is unmarked too and either the next old entry is unmarked
** (A4: it has unmarked neighbours on both sides) or the last entry kept is the
** same routine (A5).  Because a dropped entry's left neighbour is the last one
** kept, a run of unmarked entries shrinks to its first and last members, then
** to one if those are the same routine: the fixpoint of A4 and then A5.  The
** old s_n is the caller, marked and not PROC (else A1), so it always stays and
** the new history's s_{n-1} is the true caller of PROC.
*/
APROF_NOINSTR uint32_t aprof_history_next(const uint64_t *h, uint32_t n, uint64_t proc,
					  uint64_t *out)
{
	uint32_t k, m = 0;

	if (n > 0 && h[n - 1] == (proc | AMON_MARK))
		return 0; /* A1 */
	for (k = 0; k < n; k++) {
		uint64_t e = AMON_ADDR(h[k]) == proc ? proc : h[k]; /* A3 */

		if (k > 0 && !AMON_MARKED(e) && !AMON_MARKED(out[m - 1])) {
			int next_unmarked = k + 1 < n && (!AMON_MARKED(h[k + 1])
							  || AMON_ADDR(h[k + 1]) == proc);

			if (next_unmarked || out[m - 1] == e)
				continue; /* A4, A5 */
		}
		out[m++] = e;
	}
	out[m++] = proc | AMON_MARK; /* A2 */
	return m;
}
