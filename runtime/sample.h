/*
** sample.h -- sampling mode (APROF_CLOCK=sample): the paper's
** interrupt-driven variant, attributed to whole contexts.  Contexts,
** transitions and counts stay exact; time comes from a per-thread CPU-time
** timer whose signal handler charges one tick to the current context.
*/
#ifndef APROF_RUNTIME_SAMPLE_H
#define APROF_RUNTIME_SAMPLE_H

#include "internal.h"

struct aprof_thread;

/* Reads APROF_HZ and installs the SIGPROF handler (sampling mode only). */
APROF_HIDDEN void aprof_sample_init(void);

/* Starts T's timer (CLOCK_THREAD_CPUTIME_ID, signal to T's thread alone). */
APROF_HIDDEN void aprof_sample_thread_start(struct aprof_thread *t);

/* Stops T's timer (the thread ends). */
APROF_HIDDEN void aprof_sample_thread_end(struct aprof_thread *t);

/*
** Adds (ADD 1) or takes back (ADD 0) [LO, HI), the code of a module's own
** copy of the hooks (libaprof_hooks.a, hooks.c): a sample that lands there
** is the runtime's, as one in libaprof's own code.  At most 16 copies at
** once (a program and its libraries); samples in more are the program's.
*/
APROF_API void aprof_hooks_text(const char *lo, const char *hi, int add)
	APROF_VERSIONED("aprof_hooks_text");

#endif /* APROF_RUNTIME_SAMPLE_H */
