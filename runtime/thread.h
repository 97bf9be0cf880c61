/*
** thread.h -- per-thread profiling state: the shadow stack of contexts and
** the thread's own machine, reached through initial-exec TLS.
*/
#ifndef APROF_RUNTIME_THREAD_H
#define APROF_RUNTIME_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "heap.h"
#include "transition.h"

/*
** A thread's state.  Created lazily at the thread's first hook call, never
** freed: the writer reads it at exit even if the thread has finished.
*/
struct aprof_thread {
	struct aprof_context *cur;       /* the current context */
	uint64_t last;                   /* clock at the end of the last hook: charged from here */
	struct aprof_context **stack;    /* shadow stack: the contexts of the callers */
	size_t sp;                       /* entries in use */
	size_t cap;                      /* entries mapped */
	size_t lost;                     /* calls not pushed because the stack could not grow */
	struct aprof_machine machine;    /* contexts and transitions */
	uint64_t tid;                    /* kernel thread id */
	char name[16];                   /* thread name when first seen */
	struct aprof_heap_bin *bins;     /* allocation-size histogram (heap.h), NULL until used */
	struct aprof_thread *next;       /* registry of all threads, newest first */
};

/* This thread's state, NULL before its first hook call. */
extern APROF_HIDDEN __thread struct aprof_thread *aprof_self
	__attribute__((tls_model("initial-exec")));

/* Every thread's state, newest first (pushed with a compare-and-swap). */
extern APROF_HIDDEN struct aprof_thread *aprof_threads;

/*
** Set while this thread runs the runtime's own code that may allocate
** (starting up, writing amon.out): the malloc wrappers then pass straight
** through, so the runtime never charges, nor recurses into, itself.
*/
extern APROF_HIDDEN __thread int aprof_busy __attribute__((tls_model("initial-exec")));

/* 1 once the runtime has started (the first hook call of the process). */
extern APROF_HIDDEN int aprof_started;

/*
** Creates the calling thread's state (and, the first time, the runtime's:
** clock, output path, exit handler).  Returns NULL if memory is refused, in
** which case the thread is not profiled.
*/
APROF_HIDDEN struct aprof_thread *aprof_thread_start(void);

/* Doubles T's shadow stack; returns -1 if no memory. */
APROF_HIDDEN int aprof_thread_grow_stack(struct aprof_thread *t);

#endif /* APROF_RUNTIME_THREAD_H */
