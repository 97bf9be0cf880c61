/*
** symspec.h -- symbol specifications: which routines an option names
** (-F, -E, --elide, -f, -e, -p, -P, -q, -Q), parsed and matched in this one
** place, as gprof's sym_ids.c.
*/
#ifndef APROF_READ_SYMSPEC_H
#define APROF_READ_SYMSPEC_H

#include "aprof/read/symbols.h"

/*
** One specification as written: NAME, or FILE:NAME for a routine of one
** source file (a static, say).  Both parts are shell patterns (fnmatch):
** 'Parser::*', 'parse_*', 'src/[a-z]*.c:init'.  The ':' that splits FILE from
** NAME is a single one, so C++'s "::" stays in the name.
*/
struct symspec_item {
	const char *text;          /* as given on the command line */
	char *file;                /* FILE, or NULL: any file */
	char *name;                /* NAME */
};

/* A list of specifications given to one option (repeatable); empty: {NULL, 0}. */
struct symspec {
	struct symspec_item *items;
	int n;
};

/*
** Appends TEXT, parsed, to S.  Dies with one line if TEXT has an empty
** routine name ("", "file.c:").
*/
void symspec_add(struct symspec *s, const char *text);

/* Frees what symspec_add took for S, leaving it empty. */
void symspec_free(struct symspec *s);

/*
** True if the routine NAME, from source FILE (NULL if unknown), matches one
** of S's items.  NAME matches a pattern as it is or, for a C++ name with its
** parameters, without them ("Stack::push" matches "Stack::push(int)").  FILE
** matches as it is or by its end from any component on ("parse.c" and
** "src/p*.c" match "/home/u/src/parse.c").  An empty or NULL S matches
** nothing.
*/
int symspec_has(const struct symspec *s, const char *name, const char *file);

/*
** symspec_has for SYM, one of SYMS's symbols, its file looked up only if S
** needs it.  A copy of a routine (symbols.h) matches by its name with or
** without its tag, so that "init" names every copy; its FILE is the file of
** its lines (the header, for a static defined in one) or its unit.
*/
int symspec_has_symbol(const struct symspec *s, const struct symbols *syms,
		       const struct symbol *sym);

/*
** Dies with one line, "no routine matches 'TEXT'", unless every item of S
** matches at least one of SYMS's symbols.
*/
void symspec_check(const struct symspec *s, const struct symbols *syms);

#endif /* APROF_READ_SYMSPEC_H */
