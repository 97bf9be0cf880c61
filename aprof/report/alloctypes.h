/*
** alloctypes.h -- --types: what the heap allocations were, by C++ type, from the
** routines in each allocating context and the constructor candidates the
** runtime noted after each allocation (runtime/types.h), confirmed by DWARF
** sizes (typeinfo.h).  The idea and its limits: Mihalicza, Porkolab and
** Gabor, "Type-preserving heap profiler for C++", here with no source
** change.
*/
#ifndef APROF_REPORT_ALLOCTYPES_H
#define APROF_REPORT_ALLOCTYPES_H

#include <stdio.h>

#include "aprof/read/amon_read.h"
#include "aprof/read/symbols.h"
#include "aprof/read/typeinfo.h"

/* Paths kept for each type: its top allocating contexts. */
#define TYPES_PATHS 3

/* One allocating context of a type and what it allocated of it. */
struct types_path {
	const struct amon_context_info *c;
	uint64_t bytes;
};

/*
** One type: T in "new T", "new T[n]", std::allocator<T>, and so on.  Kept
** and peak bytes are a context's: where a context allocated more than one
** type (or typed and untyped blocks), they are shared among them in
** proportion to bytes, and 'shared' is set.
*/
struct types_row {
	char *name;                 /* demangled type; NULL for the unknown row */
	uint64_t allocs, bytes;     /* allocations of the type, bytes requested (exact) */
	uint64_t kept, peak;        /* bytes never freed; bytes live at the run's peak */
	int shared;                 /* kept and peak apportioned (see above) */
	struct types_path paths[TYPES_PATHS]; /* by bytes, largest first; c NULL if unused */
};

/* The table: rows by bytes, largest first, the unknown row last. */
struct alloctypes_table {
	struct types_row *rows;
	size_t n;
	uint64_t bytes;             /* all bytes allocated */
};

/*
** Builds the table of D's contexts, of thread THREAD only (an index in
** D->threads) or of all if THREAD < 0.  A context's type is (1) T of its
** running routine if that is an allocator (X<T>::allocate, std::function's
** _Base_manager<T>::_M_create) or a std::basic_string<T> member (T the
** character type: the string's buffer); else (2) per type site, the first
** candidate that is a constructor T::T whose DWARF size fits the size
** allocated (sizeof(T), n x sizeof(T), plus an array cookie), or T::T if
** DWARF does not know T.  The rest is unknown.
*/
struct alloctypes_table *alloctypes_build(const struct amon_data *d, const struct symbols *syms,
				const struct typeinfo *ti, int thread);

/*
** The table of context C of D alone (alloctypes_build's rules): the types it
** allocated, in the order found, the unknown row last if any.  The pprof
** export's type labels.  Free with alloctypes_free.
*/
struct alloctypes_table *alloctypes_context(const struct amon_data *d, const struct symbols *syms,
				  const struct typeinfo *ti, const struct amon_context_info *c);

/* Prints the --types table of T on OUT; BRIEF leaves out the explanation. */
void alloctypes_print(FILE *out, const struct alloctypes_table *t, const struct amon_data *d,
		 const struct symbols *syms, int brief);

void alloctypes_free(struct alloctypes_table *t);

#endif /* APROF_REPORT_ALLOCTYPES_H */
