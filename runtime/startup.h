/*
** startup.h -- the runtime's start-up and the process's exit (startup.c):
** the order in which the modules start, each thread's state, and the exit
** handler.
*/
#ifndef APROF_RUNTIME_STARTUP_H
#define APROF_RUNTIME_STARTUP_H

#include "internal.h"

struct aprof_thread;

/*
** Makes the calling thread's state, starting the runtime first if it has
** not started (the process's first hook: perhaps in another object's
** constructor, before main): clock, sampling or the hooks' calibration,
** heap, writer, write policy, the thread-end and exit handlers.  Returns
** NULL if memory is refused, in which case the thread is not profiled.
*/
APROF_HIDDEN struct aprof_thread *aprof_startup_thread(void);

#endif /* APROF_RUNTIME_STARTUP_H */
