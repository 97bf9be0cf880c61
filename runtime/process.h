/*
** process.h -- fork, exec, _exit and signals (process.c).
*/
#ifndef APROF_RUNTIME_PROCESS_H
#define APROF_RUNTIME_PROCESS_H

#include "internal.h"

/*
** At the runtime's start: fork handlers, and handlers for the fatal signals
** (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: write the profile, then the
** default action) and for APROF_DUMP_SIGNAL (write a snapshot), each only
** where the program has not set a handler of its own.
*/
APROF_HIDDEN void aprof_process_init(void);

/*
** The definition of NAME that libaprof's own hides (libc's, libstdc++'s),
** found with dlsym(RTLD_NEXT) the first time and kept in *CACHE.
*/
APROF_HIDDEN void *aprof_next_definition(void **cache, const char *name);

#endif /* APROF_RUNTIME_PROCESS_H */
