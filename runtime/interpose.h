/*
** interpose.h -- the definitions that libaprof's own interpose: libc's exec
** family, _exit and longjmp family, libstdc++'s __cxa_begin_catch (policy.c,
** nonlocal.c).  The malloc family needs none of this (malloc.c).
*/
#ifndef APROF_RUNTIME_INTERPOSE_H
#define APROF_RUNTIME_INTERPOSE_H

#include "internal.h"

/*
** The definition of NAME that libaprof's own hides (libc's, libstdc++'s),
** found with dlsym(RTLD_NEXT) the first time and kept in *CACHE.  A program
** linked -static has none (libaprof's took the place of libc's in the
** link): then one line says so and the process aborts, rather than call
** address 0.
*/
APROF_HIDDEN void *aprof_next_definition(void **cache, const char *name);

/* The same, NULL where there is none: for a caller with a way of its own. */
APROF_HIDDEN void *aprof_next_definition_or_null(void **cache, const char *name);

#endif /* APROF_RUNTIME_INTERPOSE_H */
