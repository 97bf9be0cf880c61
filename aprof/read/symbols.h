/*
** symbols.h -- names for run-time addresses: the function symbols of every
** module recorded in amon.out, read with libbfd and relocated by the module's
** recorded load bias.  Nothing else in the analyser includes bfd.h.
*/
#ifndef APROF_READ_SYMBOLS_H
#define APROF_READ_SYMBOLS_H

#include <stdint.h>

#include "aprof/read/amon_read.h"

/*
** A function symbol at its run-time address.  A routine with copies (a
** static one, defined in several units or in a header they include) is
** named with a tag that tells the copy from the others, "NAME (TAG)"
** (symbols_load); a name only one routine has stays as it is.
*/
struct symbol {
	uint64_t addr;        /* run-time entry address */
	char *name;           /* demangled if asked, and tagged if a copy */
	const char *mangled;  /* as in the symbol table (alloctypes.c reads C++ names' structure) */
	char *bare;           /* a copy's name without its tag; NULL if not a copy */
};

/* Where a symbol's source file is looked up (symbols.c; opaque elsewhere). */
struct symbol_source;
/* The object files read for the symbols, kept open for their line tables (symbols.c). */
struct symbol_objects;

/*
** The function symbols of all modules, sorted by address.  SOURCE, parallel
** to SYMS, says where to find each one's source file; NULL when the table
** was built by hand (the unit tests), and then no symbol has a file.
*/
struct symbols {
	struct symbol *syms;
	size_t n;
	struct symbol_source *source;
	struct symbol_objects *objects; /* the objects read (symbols.c); NULL when built by hand */
};

/*
** Loads the symbols of D's modules.  The executable is EXE (the command
** line's, or with none named the one program_find chose); its GNU build-id must
** equal the recorded one.  Shared objects are opened at their recorded paths.
** DEMANGLE selects C++ demangling (bfd_demangle, libiberty).  Symbols of
** one name, one of them at least local (static), are copies of a routine,
** each named "NAME (TAG)": TAG is its translation unit (symbols_unit) by
** as many trailing path components as tell the copies apart, e.g.
** "jv_is_valid (jv_aux.c)", then if need be its module's file name and
** its address in the file ("init (util.c, libfoo.so)").  A stripped
** object is read for its dynamic symbols, with a warning if the report needs
** a routine of it that they do not name.  Dies with one
** line if EXE is missing, not an object file, or not the executable that
** wrote D (build-ids differ).
*/
struct symbols *symbols_load(const struct amon_data *d, const char *exe, int demangle);

/* Frees S, as symbols_load made it: the names, and the objects read, closed. */
void symbols_free(struct symbols *s);

/*
** The symbol whose function holds ADDR: the one with the greatest address
** not above ADDR, in the same module.  NULL if none.
*/
const struct symbol *symbols_find(const struct symbols *s, const struct amon_data *d,
				  uint64_t addr);

/*
** The source file of SYM's routine (one of S's symbols), as the debug line
** table of its object names the line of the routine's entry (units_line,
** or libbfd's bfd_find_nearest_line when the DWARF is in a separate file):
** an absolute path, e.g. "/home/u/jq/src/parse.c" or
** "/usr/include/c++/12/bits/vector.tcc", the header for a static routine
** defined in one.  Looked up on first use and kept.  NULL if the object
** has no line table for it (no -g) or S has no sources.  Used by FILE:NAME
** symspecs (symspec.c) and the exports' source files.
*/
const char *symbols_file(const struct symbols *s, const struct symbol *sym);

/*
** The translation unit SYM's routine was compiled in: the name of the DWARF
** compilation unit that holds its entry (libdw), as the compiler was given
** it ("src/jv_aux.c", or absolute), else, for a static routine, the source
** file the symbol table's FILE symbol names ("jv_aux.c"); NULL if neither
** says, or S has no sources.  Unlike symbols_file, the .c file for a static
** routine defined in a header.  Looked up on first use and kept.
*/
const char *symbols_unit(const struct symbols *s, const struct symbol *sym);

/*
** The line of SYM's entry in symbols_file's file (the line the debug line
** table gives the routine's first instruction: its opening line), 0 if
** unknown.  The pprof export's start lines.
*/
unsigned int symbols_line(const struct symbols *s, const struct symbol *sym);

/* The index in D->modules of the module whose executable mapping holds ADDR; -1 if none. */
int symbols_module(const struct amon_data *d, uint64_t addr);

/*
** The name to print for the routine at ADDR: its symbol's, or, when no
** symbol holds it, "0xOFFSET in MODULE" with the address as in the module's
** file (as nm and addr2line show it) and the module's file name, or
** "0xADDR in <unknown>".  Returns a malloc'd string.
*/
char *symbols_name(const struct symbols *s, const struct amon_data *d, uint64_t addr);

#endif /* APROF_READ_SYMBOLS_H */
