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

#endif /* APROF_RUNTIME_SAMPLE_H */
