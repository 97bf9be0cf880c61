/*
** history.h -- Spivey's histories: the partial copy of the call stack that
** represents a context, and steps A1-A5 that compute the history after a call.
*/
#ifndef APROF_RUNTIME_HISTORY_H
#define APROF_RUNTIME_HISTORY_H

#include <stdint.h>

#include "amon.h"
#include "internal.h"

/*
** Computes the history after a call of PROC (an entry address, no mark bit)
** from the history H of N entries (amon.h's entry encoding: address plus
** AMON_MARK for m_i = T).  Spivey, "Data structures for fast profiling":
**   A1  if PROC is s_n (direct recursion), the context does not change:
**       returns 0 and leaves OUT alone;
**   A2  append PROC, marked;
**   A3  unmark the earlier entry for PROC;
**   A4  squeeze out an unmarked entry between two unmarked neighbours;
**   A5  squeeze out one of two adjacent unmarked entries for the same routine.
** A3-A5 are done in one pass.  Otherwise writes the new history to OUT, which
** must have room for N + 1 entries, and returns its length (>= 1).
*/
APROF_HIDDEN uint32_t aprof_history_next(const uint64_t *h, uint32_t n, uint64_t proc,
					 uint64_t *out);

/*
** A hash of a history, built entry by entry: start from APROF_HISTORY_SEED
** and fold in s_1, ..., s_n with aprof_history_hash_step, so the hash of
** every prefix is on the way (the writer's search for prefixes needs them).
*/
#define APROF_HISTORY_SEED 0x9E3779B97F4A7C15ull

APROF_NOINSTR static inline uint64_t aprof_history_hash_step(uint64_t k, uint64_t entry)
{
	k ^= entry;
	k *= 0xBF58476D1CE4E5B9ull;
	return k ^ (k >> 31);
}

#endif /* APROF_RUNTIME_HISTORY_H */
