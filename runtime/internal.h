/*
** internal.h -- macros every libaprof module uses.  Nothing here is exported.
*/
#ifndef APROF_RUNTIME_INTERNAL_H
#define APROF_RUNTIME_INTERNAL_H

/*
** Every runtime function carries APROF_NOINSTR: the runtime must never call
** its own hooks, whatever CFLAGS the user builds it with (GCC places
** -finstrument-functions after our per-target flags, so a flag alone cannot
** guarantee it).  Everything is hidden but the hooks, the <aprof.h> API and
** what a program's own copy of the hooks reaches (APROF_ENTRY).
** Every runtime function is also placed in one section, aprof_text, whose
** bounds the linker gives (APROF_IN_RUNTIME), so the sampling handler can tell
** a sample that landed in the runtime's own code (sample.c), whether
** libaprof is a shared object or linked into the program.
*/
#define APROF_NOINSTR __attribute__((no_instrument_function, section("aprof_text")))
#define APROF_HIDDEN __attribute__((visibility("hidden")))
#define APROF_API __attribute__((visibility("default"))) APROF_NOINSTR
/*
** The symbol of a declaration, NAME (a string) followed by the package's
** version (APROF_ENTRY).
*/
#define APROF_VERSIONED(name) __asm__(name "_" APROF_VERSION_SYMBOL)
/*
** An entry of libaprof.so that a program's own copy of the hooks
** (libaprof_hooks.a: hooks.c built with APROF_HOOKS_PROGRAM) calls:
** exported, but bound within libaprof.so (protected: its own hooks call it
** directly), named with the version (APROF_VERSIONED), so that a program
** linked with another version's copy, which knows another layout of the
** thread's state, is refused at start-up (ld.so: undefined symbol) rather
** than run.
*/
#ifdef APROF_HOOKS_PROGRAM
#define APROF_ENTRY APROF_NOINSTR __attribute__((visibility("default")))
#else
#define APROF_ENTRY APROF_NOINSTR __attribute__((visibility("protected")))
#endif
#define APROF_LIKELY(x) __builtin_expect(!!(x), 1)
#define APROF_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The bounds of section aprof_text, from the linker (GNU ld's __start_SECTION). */
extern const char __start_aprof_text[] __attribute__((visibility("hidden")));
extern const char __stop_aprof_text[] __attribute__((visibility("hidden")));

/* 1 if code address PC is the runtime's own (a function marked APROF_NOINSTR). */
#define APROF_IN_RUNTIME(pc) \
	((uintptr_t)(pc) - (uintptr_t)__start_aprof_text < \
	 (uintptr_t)(__stop_aprof_text - __start_aprof_text))

/*
** A counter or field that the exit writer may read while its owning thread
** writes it: relaxed atomic accesses, plain moves on x86-64 and aarch64, so
** the hot path pays nothing and the race is defined behaviour.
*/
#define APROF_PUT(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELAXED)
#define APROF_GET(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)
#define APROF_ADD(field, n) APROF_PUT(field, (field) + (n))

/*
** Adds 1 to such a counter in one instruction where the CPU has one (x86-64:
** an add to memory; APROF_INC_ONE is 1), so that a signal handler's hooks
** cannot come between its read and its write: the sampling hooks' common
** case counts calls without the guard there (hooks.c).  Elsewhere APROF_ADD.
*/
#if defined(__x86_64__)
#define APROF_INC(field) __asm__("addq $1, %0" : "+m"(field))
#define APROF_INC_ONE 1
#else
#define APROF_INC(field) APROF_ADD(field, 1)
#define APROF_INC_ONE 0
#endif

/*
** Moves pointer PTR, a variable, by N of the elements it points to, in one
** instruction where the CPU has one (x86-64: an add to memory), in place of
** the new value computed into a register and then stored: the hooks' push
** and pop of the shadow stack's top (hooks.c; JsonCpp small.json,
** callgrind: one instruction fewer per entry and per exit).  Still the one
** store of PTR; its read is the caller's business (the hooks' is safe: a
** signal handler's hooks leave the top as they found it).
*/
#if defined(__x86_64__)
#define APROF_STEP(ptr, n) __asm__("addq %1, %0" : "+m"(ptr) : "i"((n) * (long)sizeof *(ptr)))
#else
#define APROF_STEP(ptr, n) ((ptr) += (n))
#endif

/*
** 1 while the process has never had a second thread (glibc's own flag, which
** a thread's creation clears before the thread runs, and which glibc reads to
** skip its own atomic instructions): the heap's shared tables and counters
** then need neither locks nor atomic instructions.  0 where it is unknown.
*/
#ifdef HAVE_SYS_SINGLE_THREADED_H
#include <sys/single_threaded.h>
#define APROF_SINGLE_THREADED() (__libc_single_threaded != 0)
#else
#define APROF_SINGLE_THREADED() 0
#endif

/* A hint to the CPU inside a spin-wait loop. */
#if defined(__x86_64__) || defined(__i386__)
#define APROF_CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define APROF_CPU_RELAX() __asm__ __volatile__("yield")
#else
#define APROF_CPU_RELAX() ((void)0)
#endif

/*
** The runtime's spin lock (heap counters, block stripes): an int, 0 free and
** 1 held.  Taken and released only while the process has more than one
** thread; with one, nothing can race and it costs no atomic instruction.
*/
APROF_NOINSTR static inline void aprof_spin_lock(int *l)
{
	if (APROF_SINGLE_THREADED())
		return;
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			APROF_CPU_RELAX();
}

APROF_NOINSTR static inline void aprof_spin_unlock(int *l)
{
	if (!APROF_SINGLE_THREADED())
		__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

#endif /* APROF_RUNTIME_INTERNAL_H */
