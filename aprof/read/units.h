/*
** units.h -- where a routine's code came from, read from an object file's
** DWARF with elfutils' libdw: the compilation unit that holds an address,
** and the source file and line of it.  symbols.c asks, for each symbol, on
** first use.
*/
#ifndef APROF_READ_UNITS_H
#define APROF_READ_UNITS_H

#include <stdint.h>

/* One object file's DWARF and its units' address ranges (units.c; opaque elsewhere). */
struct units;

/*
** The DWARF of the object file at PATH, NULL if it cannot be opened or has
** none (built without -g, stripped, or its DWARF in a separate file).
*/
struct units *units_open(const char *path);

/* Closes U, as units_open made it (NULL: nothing). */
void units_close(struct units *u);

/*
** The name of the compilation unit whose code holds ADDR (an address as
** the object's file has it, a symbol's value), as the compiler was given
** it ("src/jv_aux.c", or absolute), or NULL if no unit does.  Owned by U.
*/
const char *units_name(struct units *u, uint64_t addr);

/*
** The source file of ADDR's line in the line table, absolute (joined to
** the unit's compilation directory if the table's is not), malloc'd, and
** its line in *LINE; NULL (and *LINE 0) if no unit's line table has it.
** For a static routine defined in a header, the header.
*/
char *units_line(struct units *u, uint64_t addr, unsigned int *line);

#endif /* APROF_READ_UNITS_H */
