/*
** program.h -- which executable wrote a profile, when the command line
** names none (aprof amon.out, or aprof alone): the one amon.out records,
** if its build ID is the recorded one (program.c).
*/
#ifndef APROF_READ_PROGRAM_H
#define APROF_READ_PROGRAM_H

#include "aprof/read/amon_read.h"

/*
** The executable that wrote D, for symbols_load: the path D recorded (as
** /proc/self/exe named it, " (deleted)" dropped), if that file is an object
** whose GNU build ID is D's, or which has none to compare; else ./a.out,
** gprof's default, if its build ID is D's.  Says on stderr, in one line,
** which it uses.  Dies with one line naming the recorded path if neither
** will do: missing, not an object file, or another build (build IDs differ).
** The result points into D or is "a.out".
*/
const char *program_find(const struct amon_data *d);

#endif /* APROF_READ_PROGRAM_H */
