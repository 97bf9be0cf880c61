/*
** hooks.h -- libaprof.so's hooks (hooks.c) under names of its own.
*/
#ifndef APROF_RUNTIME_HOOKS_H
#define APROF_RUNTIME_HOOKS_H

#include <stdint.h>

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

#if defined(__x86_64__)
/*
** The -pg -mfentry front-end (fentry.S, hooks.c): the return trampoline;
** the steps of __fentry__, given the address of the routine's return
** address (SLOT) and the address after its call of __fentry__ (AFTER):
** the common case, which returns 1 where it did nothing, and the rest;
** and the trampoline's step, given SLOT, which it writes the real return
** address to.
*/
extern APROF_HIDDEN char aprof_fentry_return[];
APROF_NOINSTR APROF_HIDDEN int aprof_fentry_enter(uintptr_t *slot, uintptr_t after);
APROF_NOINSTR APROF_HIDDEN void aprof_fentry_enter_slow(uintptr_t *slot, uintptr_t after);
APROF_NOINSTR APROF_HIDDEN void aprof_fentry_leave(uintptr_t *slot);

/*
** The real return addresses of the calling thread's routines entered
** through __fentry__ whose return address lies at SP or above, on its own
** stack, put back in place of the trampoline (BACK 0), for an unwinder to
** walk the frames; or the trampoline put back where they still are (BACK
** 1), once it has.  Routines on another stack (a signal's alternate
** stack) are left as they are.
*/
APROF_NOINSTR APROF_HIDDEN void aprof_fentry_unhook(uintptr_t sp, int back);
#endif

#endif /* APROF_RUNTIME_HOOKS_H */
