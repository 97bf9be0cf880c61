/*
** hooks.h -- libaprof.so's hooks (hooks.c) under names of its own.
*/
#ifndef APROF_RUNTIME_HOOKS_H
#define APROF_RUNTIME_HOOKS_H

#include "internal.h"

/*
** libaprof.so's hooks (hooks.c), as entries: a program's or a library's own
** copy of them sends them the calls of a thread its block has none for
** (the thread's first, or every call where the block is not the one
** libaprof.so uses: a library's copy in a program with one); and the
** calibration times them (cost.c), by these names, not through the PLT,
** which may find glibc's empty hooks first (libaprof.so opened by an
** uninstrumented program).
*/
APROF_ENTRY void aprof_hooks_enter_shared(void *fn, void *site) APROF_VERSIONED("aprof_hooks_enter");
APROF_ENTRY void aprof_hooks_exit_shared(void *fn, void *site) APROF_VERSIONED("aprof_hooks_exit");

#endif /* APROF_RUNTIME_HOOKS_H */
