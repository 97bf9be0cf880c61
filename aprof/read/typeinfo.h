/*
** typeinfo.h -- the program's types and their sizes, from the DWARF debug
** information (-g) of the executable and of the instrumented libraries
** recorded in amon.out, read with elfutils' libdw.  Used to confirm a C++
** type by its size (aprof --types) and for mprof's "types" column of the
** allocation bins (aprof --heap).  Nothing else in the analyser includes
** libdw's headers.
*/
#ifndef APROF_READ_TYPEINFO_H
#define APROF_READ_TYPEINFO_H

#include <stddef.h>
#include <stdint.h>

#include "aprof/read/amon_read.h"

/* A named struct, class or union, or a typedef of one, with its size. */
struct typeinfo_type {
	char *name;       /* qualified as the demangler spells scopes: "geo::Point", "Outer::Inner" */
	uint64_t size;    /* bytes: sizeof */
	int program;      /* 1 if declared in the program's sources, not under /usr/ */
};

/* Every such type of the program: sorted by name, and the program's own by size. */
struct typeinfo {
	struct typeinfo_type *by_name;  /* each name once (the first definition met) */
	size_t n;
	struct typeinfo_type **by_size; /* the program's own, by size, then name */
	size_t nsize;
};

/*
** Reads the types of D's modules: the executable from EXE (the command
** line's), the others from their recorded paths.  An object without DWARF,
** or that cannot be opened, adds nothing: sizes are then unknown and the
** reports say less, never something wrong.  Never fails.
*/
struct typeinfo *typeinfo_load(const struct amon_data *d, const char *exe);

/*
** The size of the type called NAME (blanks ignored, so "pair<int, int>" and
** "pair<int,int>" are one), into *SIZE: 1 if known, else 0.
*/
int typeinfo_size(const struct typeinfo *t, const char *name, uint64_t *size);

/*
** The program's own types of exactly SIZE bytes: *FIRST is the first of the
** returned number of entries in T->by_size.
*/
size_t typeinfo_of_size(const struct typeinfo *t, uint64_t size,
			struct typeinfo_type *const **first);

/* Frees T. */
void typeinfo_free(struct typeinfo *t);

#endif /* APROF_READ_TYPEINFO_H */
