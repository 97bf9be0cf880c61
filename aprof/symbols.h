/*
** symbols.h -- names for run-time addresses: the function symbols of every
** module recorded in amon.out, read with libbfd and relocated by the module's
** recorded load bias.  Nothing else in the analyser includes bfd.h.
*/
#ifndef APROF_APROF_SYMBOLS_H
#define APROF_APROF_SYMBOLS_H

#include <stdint.h>

#include "aprof/amon_read.h"

/* A function symbol at its run-time address. */
struct symbol {
	uint64_t addr;        /* run-time entry address */
	char *name;           /* demangled if asked */
};

/* The function symbols of all modules, sorted by address. */
struct symbols {
	struct symbol *syms;
	size_t n;
};

/*
** Loads the symbols of D's modules.  The executable is EXE (the command
** line's, not the recorded path: the user names it); its GNU build-id must
** equal the recorded one.  Shared objects are opened at their recorded paths.
** DEMANGLE selects C++ demangling (bfd_demangle, libiberty).  A stripped
** object is read for its dynamic symbols, with a warning.  Dies with one
** line if EXE is missing, not an object file, or not the executable that
** wrote D (build-ids differ).
*/
struct symbols *symbols_load(const struct amon_data *d, const char *exe, int demangle);

/*
** The symbol whose function holds ADDR: the one with the greatest address
** not above ADDR, in the same module.  NULL if none.
*/
const struct symbol *symbols_find(const struct symbols *s, const struct amon_data *d,
				  uint64_t addr);

/*
** The name to print for the routine at ADDR: its symbol's, or, when no
** symbol holds it, "0xOFFSET in MODULE" with the address as in the module's
** file (as nm and addr2line show it) and the module's file name, or
** "0xADDR in <unknown>".  Returns a malloc'd string.
*/
char *symbols_name(const struct symbols *s, const struct amon_data *d, uint64_t addr);

#endif /* APROF_APROF_SYMBOLS_H */
