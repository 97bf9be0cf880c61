/*
** hooks.c -- GCC's -finstrument-functions hooks: the profiling monitor's hot
** path.  No locks, no malloc, no system calls, no atomic instructions and no
** division on the common path: on entry one clock read, one of the current
** context's cached successors and a push; on exit one clock read, a
** comparison and a pop.  Anything else is a second case or a slow path
** (slowpath.c), reached by a tail call.
**
** One clock read per hook, at the end of an entry (the transition done) and
** at the start of an exit, so an interval between two reads holds the hooks'
** own work, and more of it when it ends in an entry.  That work is measured
** at start-up (aprof_hooks_calibrate, cost.c) for each kind of interval, and each
** context counts the intervals ending in an entry charged to it ('events';
** those ending in an exit are its calls + rec), so aprof can take the hooks'
** own cost off a context's ticks: Spivey's "charged" versus "total" time.
** About one hook in a thousand is also timed from its start to its end (an
** in-run probe, thread.h), so the reader can correct the calibration with
** what the hooks cost in the run itself.
** In sampling mode (APROF_CLOCK=sample) the hooks read no clock at all: a
** per-thread CPU-time timer charges the current context.
**
** Compiled three times: into libaprof.so and libaprof.a with the rest of
** the runtime, and alone into libaprof_hooks.a (APROF_HOOKS_PROGRAM), which
** the linker script installed as libaprof.so links into the program with
** libaprof.so.0, as glibc's libc.so links libc_nonshared.a: a program linked
** with -laprof then calls its own copy of the hooks directly (not through the
** PLT nor the GOT), and that copy finds the thread-local block at an offset
** the linker wrote (not loaded from the GOT), as with libaprof.a, while the
** rest of the runtime stays in libaprof.so.
*/
#include <config.h>

#include <stdlib.h>

#include "aprof.h"
#include "clock.h"
#include "diag.h"
#include "hooks.h"
#include "slowpath.h"
#include "sample.h"
#include "steps.h"
#include "thread.h"


/* The block's top and limit of a thread not sampled (thread.h): fn 0, no exit matches. */
static struct aprof_frame unhooked_top;
/* The heap cursor of a thread not sampled (aprof_sampled_heap): no room, never written. */
static struct aprof_heap_cursor unsampled_heap;
/*
** The thread-local block (thread.h), defined with the hooks, so that a
** program with its own copy of them has its own block too, for libaprof.so
** to find: exported.
*/
__attribute__((visibility("default"))) __thread struct aprof_tls aprof_tls
	__attribute__((tls_model(APROF_TLS_MODEL))) = {
		.ends = { .top = &unhooked_top, .limit = &unhooked_top }, .heap = &unsampled_heap
	};
#ifdef APROF_HOOKS_PROGRAM
extern APROF_HIDDEN __thread struct aprof_tls aprof_tls_program
	__attribute__((alias("aprof_tls"), tls_model(APROF_TLS_MODEL)));
#endif


/*
** The hooks' linkage: exported from libaprof.so; in a program's or a
** library's own copy (APROF_HOOKS_PROGRAM), hidden, so that the module's
** calls find its copy, whichever module ld.so searches first (glibc's
** empty hooks too, in an uninstrumented program that opens it).
*/
#ifdef APROF_HOOKS_PROGRAM
#define HOOK APROF_NOINSTR APROF_HIDDEN
#else
#define HOOK APROF_API
#endif


/*
** In a program's copy of the hooks (APROF_HOOKS_PROGRAM): CALL, to
** libaprof.so's hooks, by a tail call (their frame is then this hook's), if
** T, the thread in this copy's block, is NULL.  That is the thread's first
** call, which libaprof.so starts the thread on; and every call in a copy
** linked into a library, whose block libaprof.so does not use (it uses
** the program's, or the first such library's, whichever ld.so finds
** first): such a copy never finds a thread.  Nothing elsewhere.
*/
#ifdef APROF_HOOKS_PROGRAM
#define HOOKS_FORWARD(t, call)           \
	do {                             \
		if ((t) == NULL) {       \
			call;            \
			return;          \
		}                        \
	} while (0)
#else
#define HOOKS_FORWARD(t, call) ((void)0)
#endif


/* enter_above the top of T's shadow stack with clock KIND, loaded here (push). */
APROF_NOINSTR static inline void enter_known(struct aprof_thread *t, struct aprof_context *cur,
					     size_t at, uintptr_t fn, uintptr_t frame, uintptr_t site,
					     uint32_t kind)
{
	enter_above(t, cur, at, aprof_thread_ends_of(t, kind)->top, fn, frame, site, kind);
}


/*
** Whether the entry hook's common case, with clock KIND (the CPU's counter
** or sampling) on T, stopped only at a depth watched after an allocation:
** no jump to recover from, room on the shadow stack, no probe due.
*/
APROF_NOINSTR static inline int entry_watched(const struct aprof_thread *t, uint32_t kind)
{
	return aprof_thread_diverted(t) && aprof_thread_ends_of(t, kind)->top != t->end &&
	       (kind == AMON_CLOCK_SAMPLE || (kind == APROF_CLOCK_COUNTER && t->probe > 1));
}


/*
** The common cases, for clock KIND: the CPU's counter or sampling, a
** constant where they are inlined, so each clock has its own copy.  They
** call nothing and need so few registers that the hooks save none on the
** way (the transition table is probed on the slow path: inline here it
** made both hooks save three registers on every call); they return 0,
** having done nothing, when the slow path must run: an entry with the top
** at the limit (a jump to recover from, a watched depth, a full shadow
** stack: thread.h), a probe due (with the counter; sampling times nothing),
** an exit that does not match the top entry (or finds it marked by a
** jump); an entry whose successor is not cached returns -1, for
** enter_uncached, and an exit that does not match the top entry -1, for
** leave_watched (the entry may be a candidate's, types.h).  Sampling's need
** no guard where a count is one instruction (push, count, and the exit's
** pop: leave_known).
*/
APROF_NOINSTR static inline int enter_fast(struct aprof_thread *t, uintptr_t fn, uintptr_t frame,
					   uintptr_t site, uint32_t kind)
{
	const struct aprof_ends *e = aprof_thread_ends_of(t, kind);
	struct aprof_context *cur = e->top->ctx;
	size_t at;
	int guard = kind != AMON_CLOCK_SAMPLE || !APROF_INC_ONE;

	if (e->top == e->limit || (kind != AMON_CLOCK_SAMPLE && t->probe <= 1))
		return 0;
	at = aprof_successor_at(cur, fn);
	if (APROF_UNLIKELY(at == APROF_NO_WAY))
		return -1;
	if (guard)
		aprof_busy = 1;
	enter_known(t, cur, at, fn, frame, site, kind);
	if (guard)
		aprof_busy = 0;
	return 1;
}


APROF_NOINSTR static inline int leave_fast(struct aprof_thread *t, uintptr_t fn, uint32_t kind)
{
	struct aprof_frame *top = aprof_thread_ends_of(t, kind)->top;

	if (kind != AMON_CLOCK_SAMPLE && t->probe <= 1)
		return 0;
	if (APROF_UNLIKELY(top->fn != fn)) /* the sentinel's never matches, nor a jump's mark */
		return -1;
	if (kind == AMON_CLOCK_SAMPLE) {
		leave_known(t, top, kind);
		return 1;
	}
	aprof_busy = 1;
	leave_known(t, top, kind);
	aprof_busy = 0;
	return 1;
}


/*
** Whether sampling's common case may run on a thread whose guard is as it
** is: always where it needs no guard (APROF_INC_ONE), so that it need not
** test it.  A hook that interrupts the runtime (a signal handler's) is then
** followed as any call, which is safe: the common case is safe wherever a
** handler's hooks interrupt it, and the runtime changes the shadow stack and
** the current context only as the common case does (push, pop, resync: the
** handler's push goes above the top it finds, which it leaves as it found
** it) or in one store (the limit, a mark), and the common case changes
** nothing else the runtime may be changing.
*/
#define SAMPLE_UNGUARDED() (APROF_INC_ONE || !aprof_busy)


/*
** After the common case with clock KIND on T (NULL: no thread with that
** clock) found DONE (0 or -1, enter_fast): enter_uncached, enter_watched
** or enter_slow by a tail call.  Inlined with KIND a constant, so that each
** clock's path tests nothing of the other's; the hook's frame computed
** here, where a path passes it, not by the hook before (one instruction
** fewer on sampling's way to enter_watched, which finds it itself, and to
** enter_uncached: JsonCpp small.json headers excluded 1.03M, all routines
** instrumented 2.73M, Lua parser.lua 700 0.35M; always inlined: GCC
** otherwise lays the sampling paths out as before, the frame first).
** A program's copy of the hooks sends libaprof.so's hooks the calls of a
** thread its block has none for (HOOKS_FORWARD).
*/
APROF_NOINSTR static inline __attribute__((always_inline)) void
enter_other(struct aprof_thread *t, uintptr_t fn, uintptr_t site, int done, uint32_t kind)
{
	HOOKS_FORWARD(t, aprof_hooks_enter_shared((void *)fn, (void *)site));
	if (t != NULL && !aprof_busy) {
		if (done < 0) {
			PER_CLOCK_CALL(enter_uncached, kind, fn, site, (uintptr_t)__builtin_dwarf_cfa());
			return;
		}
		if (entry_watched(t, kind)) {
			struct aprof_frame *top = aprof_thread_ends_of(t, kind)->top;

			PER_CLOCK_CALL(enter_watched, kind, fn, site, top->ctx, top);
			return;
		}
	}
	aprof_enter_slow(fn, site, (uintptr_t)__builtin_dwarf_cfa());
}

/* The same for an exit (leave_fast) on T: leave_watched or leave_slow by a tail call. */
APROF_NOINSTR static inline void leave_other(struct aprof_thread *t, uintptr_t fn, uintptr_t site,
					     int done, uint32_t kind)
{
	HOOKS_FORWARD(t, aprof_hooks_exit_shared((void *)fn, (void *)site));
	if (done < 0 && !aprof_busy) {
		PER_CLOCK_CALL(leave_watched, kind, fn, site, t);
		return;
	}
	aprof_leave_slow(fn, site);
}


/*
** Entry to FN, called from SITE (its return address): enter_fast, or
** enter_uncached, enter_watched or enter_slow by a tail call.  Sampling,
** the everyday mode, is tested first (the counter's common case is long
** enough that the tests more are lost in it), with no load nor test of the
** clock's kind: sampling's on the thread-local top and limit, without a
** test of the guard (SAMPLE_UNGUARDED) nor of a thread, for which they do
** nothing (aprof_thread_ends), nor its address; the counter's on
** aprof_counted.
*/
HOOK void __cyg_profile_func_enter(void *fn, void *site)
{
	struct aprof_thread *t;
	int done = 0;

	/*
	** The frame computed where each path needs it: computed once, first,
	** it made GCC move SITE on every call out of the register in which the
	** slow paths take it (libaprof.so: 20 instructions and ret, not 19).
	*/
	if (SAMPLE_UNGUARDED())
		done = enter_fast(NULL, (uintptr_t)fn, (uintptr_t)__builtin_dwarf_cfa(),
				  (uintptr_t)site, AMON_CLOCK_SAMPLE);
	if (APROF_LIKELY(done > 0))
		return;
	if ((t = aprof_sampled) != NULL) {
		enter_other(t, (uintptr_t)fn, (uintptr_t)site, done, AMON_CLOCK_SAMPLE);
		return;
	}
	done = 0;
	if ((t = aprof_counted) != NULL && !aprof_busy)
		done = enter_fast(t, (uintptr_t)fn, (uintptr_t)__builtin_dwarf_cfa(),
				  (uintptr_t)site, APROF_CLOCK_COUNTER);
	if (APROF_LIKELY(done > 0))
		return;
	enter_other(t, (uintptr_t)fn, (uintptr_t)site, done, APROF_CLOCK_COUNTER);
}


/*
** Exit from FN, back to SITE: leave_fast (each clock by its own thread
** pointer, as on entry), or leave_watched or leave_slow by a tail call.
** The top entry matches by FN alone: GCC may reach this by a tail call (so
** the frame here says nothing), and from a split-off part of FN (FN.part.0,
** called from elsewhere than FN's caller) with another SITE than the
** entry's.  After a jump FN's return address, SITE, found on the stack
** above the hook's frame, picks the right activation of a recursive FN
** (aprof_thread_exit_slow).
*/
HOOK void __cyg_profile_func_exit(void *fn, void *site)
{
	struct aprof_thread *t;
	int done = 0;

	if (SAMPLE_UNGUARDED())
		done = leave_fast(NULL, (uintptr_t)fn, AMON_CLOCK_SAMPLE);
	if (APROF_LIKELY(done > 0))
		return;
	if ((t = aprof_sampled) != NULL) {
		leave_other(t, (uintptr_t)fn, (uintptr_t)site, done, AMON_CLOCK_SAMPLE);
		return;
	}
	done = 0;
	if ((t = aprof_counted) != NULL && !aprof_busy)
		done = leave_fast(t, (uintptr_t)fn, APROF_CLOCK_COUNTER);
	if (APROF_LIKELY(done > 0))
		return;
	leave_other(t, (uintptr_t)fn, (uintptr_t)site, done, APROF_CLOCK_COUNTER);
}

#if !defined(APROF_HOOKS_PROGRAM) && defined(__x86_64__)
/*
** GCC's -pg -mfentry front-end: the C steps of fentry.S's __fentry__ and
** return trampoline, in libaprof alone (a program's copy of the hooks has
** none: its calls of __fentry__ reach libaprof.so's, through the GOT or
** the PLT).
** Instrumented after inlining, a routine calls __fentry__ before its
** prologue and nothing at its exit: the entry step pushes the entry as the
** enter hook does, its frame the address of the routine's return address
** (SLOT), its site that return address, and puts the trampoline in SLOT;
** the routine returns to the trampoline, whose step pops the entry as the
** exit hook does and gives back the real return address.  The entries
** differ from the enter hook's by their frame: SLOT with its lowest bit
** set (FENTRY_FRAME), which no hook's frame has (a canonical frame
** address, a multiple of 8), and which changes no comparison of frames
** with stack pointers (thread.c).
** An entry is not pushed (the shadow stack full, no thread yet): SLOT is
** then left alone, and the routine's exit goes unseen, as it must.
*/
#define FENTRY_MARKS (APROF_FN_JUMPED | APROF_FN_DROPPED | APROF_FN_WATCHED)

/* The mark of an entry's frame made by __fentry__. */
#define FENTRY_FRAME ((uintptr_t)1)


/* The calling thread's top and limit, whatever the clock; NULL before its first hook. */
APROF_NOINSTR static inline struct aprof_ends *fentry_ends(void)
{
	struct aprof_thread *t = aprof_self;

	return t != NULL ? aprof_thread_ends(t) : NULL;
}

/*
** The entry of FN from SITE, its return address stored at FRAME, where the
** common case did not make it (DONE, as enter_fast returns it): the
** counter's common case, else the second cases and slow paths, as the
** enter hook does, but for the watched entry (the slow path serves it: it
** computes its frame itself).  Returns 1 if the entry was pushed.
*/
APROF_NOINSTR __attribute__((noinline)) static int fentry_enter_other(uintptr_t fn, uintptr_t site,
								      uintptr_t frame, int done)
{
	struct aprof_thread *t;
	struct aprof_ends *e;

	if ((t = aprof_sampled) != NULL) {
		if (done < 0 && !aprof_busy)
			aprof_enter_uncached_sampled(fn, site, frame);
		else
			aprof_enter_slow(fn, site, frame);
	} else {
		done = 0;
		if ((t = aprof_counted) != NULL && !aprof_busy)
			done = enter_fast(t, fn, frame, site, APROF_CLOCK_COUNTER);
		if (done > 0)
			return 1;
		if (t != NULL && done < 0 && !aprof_busy)
			aprof_enter_uncached_counted(fn, site, frame);
		else
			aprof_enter_slow(fn, site, frame);
	}
	e = fentry_ends();
	return e != NULL && e->top->frame == frame && (e->top->fn & ~FENTRY_MARKS) == fn;
}

/*
** The routine's address as the entries know it: AFTER, the address after
** its call of __fentry__, less 5, the length of a call rel32.  That is the
** routine's own address where the call is its first instruction and takes
** 5 bytes; a call through the GOT (PIC with -fno-plt, PIE) takes 6, and
** -fcf-protection puts endbr64 first: then an address within the routine's
** first 10 bytes, one for each routine all the same, which aprof reads as
** the routine's, as it reads any address within it.  Not read from the
** code, whose line the data cache would then hold too, at every call.
*/
APROF_NOINSTR static inline uintptr_t fentry_routine(uintptr_t after)
{
	return after - 5;
}

/*
** The counter's common case of __fentry__'s step, as aprof_fentry_enter
** returns; apart, so that sampling's saves no register for it (4 pushes
** and 4 pops a call), reached by a tail call.
*/
APROF_NOINSTR __attribute__((noinline)) static int fentry_enter_counted(uintptr_t *slot, uintptr_t fn,
									 uintptr_t site, uintptr_t frame)
{
	struct aprof_thread *t = aprof_counted;

	if (t != NULL && !aprof_busy && enter_fast(t, fn, frame, site, APROF_CLOCK_COUNTER) > 0) {
		*slot = (uintptr_t)aprof_fentry_return;
		return 0;
	}
	return 1;
}

/*
** __fentry__'s step, its common case: the routine called from the address
** at SLOT, whose call of __fentry__ returns to AFTER, entered through
** enter_fast, and the trampoline put in SLOT; else nothing done, and 1
** returned for aprof_fentry_enter_slow.  It uses the general registers
** only (with fentry_enter_counted), so that __fentry__ saves the vector
** registers for the slow step alone: tests/e2e-runtime.sh checks that GCC
** made it so (asked with target("general-regs-only"), GCC would not
** inline enter_fast).
*/
APROF_NOINSTR APROF_HIDDEN int aprof_fentry_enter(uintptr_t *slot, uintptr_t after)
{
	uintptr_t fn = fentry_routine(after), site = *slot, frame = (uintptr_t)slot | FENTRY_FRAME;

	if (APROF_UNLIKELY(site == (uintptr_t)aprof_fentry_return))
		return 1;
	if (SAMPLE_UNGUARDED() && enter_fast(NULL, fn, frame, site, AMON_CLOCK_SAMPLE) > 0) {
		*slot = (uintptr_t)aprof_fentry_return;
		return 0;
	}
	if (aprof_sampled == NULL)
		return fentry_enter_counted(slot, fn, site, frame);
	return 1;
}

/*
** __fentry__'s step where the common case did nothing.  If SLOT holds the
** trampoline, the routine was reached by a tail call from one entered
** here, whose frame it took over: that routine's exit first, then this
** entry, from its caller, as gprof sees a tail call.
*/
APROF_NOINSTR APROF_HIDDEN void aprof_fentry_enter_slow(uintptr_t *slot, uintptr_t after)
{
	uintptr_t fn = fentry_routine(after), site = *slot, frame = (uintptr_t)slot | FENTRY_FRAME;
	int done = 0;

	if (site == (uintptr_t)aprof_fentry_return) {
		aprof_fentry_leave(slot);
		site = *slot;
	}
	if (SAMPLE_UNGUARDED())
		done = enter_fast(NULL, fn, frame, site, AMON_CLOCK_SAMPLE);
	if (done > 0 || fentry_enter_other(fn, site, frame, done))
		*slot = (uintptr_t)aprof_fentry_return;
}

/*
** The exit of FN back to SITE that the common case did not make: the exit
** hook's second case (leave_watched, which takes any other to the slow
** path) or slow path.
*/
APROF_NOINSTR static void fentry_leave_other(uintptr_t fn, uintptr_t site)
{
	struct aprof_thread *t;

	if (!aprof_busy && (t = aprof_sampled) != NULL)
		aprof_leave_watched_sampled(fn, site, t);
	else if (!aprof_busy && (t = aprof_counted) != NULL)
		aprof_leave_watched_counted(fn, site, t);
	else
		aprof_leave_slow(fn, site);
}

/*
** The trampoline's step: the routine whose return address was at SLOT has
** returned; its entry is popped, and the real return address written back
** to SLOT.  The common case is the top entry's, as the exit hook's; else
** the entry is looked for below (those above it were abandoned: a jump, an
** exception through routines with no exit hook) and the exit hook's slow
** paths resynchronise.  An entry that cannot be found leaves nowhere to
** return to: said in one line, and the process aborted.
*/
APROF_NOINSTR APROF_HIDDEN void aprof_fentry_leave(uintptr_t *slot)
{
	uintptr_t frame = (uintptr_t)slot | FENTRY_FRAME;
	struct aprof_thread *t;
	struct aprof_frame *f;

	if (APROF_LIKELY(SAMPLE_UNGUARDED())) {
		f = APROF_TLS.ends.top;
		if (APROF_LIKELY(f->frame == frame)) {
			*slot = f->site;
			if (APROF_LIKELY(leave_fast(NULL, f->fn & ~FENTRY_MARKS, AMON_CLOCK_SAMPLE) > 0))
				return;
		}
	}
	if ((t = aprof_counted) != NULL && !aprof_busy) {
		f = t->own.top;
		if (f->frame == frame) {
			*slot = f->site;
			if (leave_fast(t, f->fn & ~FENTRY_MARKS, APROF_CLOCK_COUNTER) > 0)
				return;
		}
	}
	if ((t = aprof_self) != NULL) {
		for (f = aprof_thread_ends(t)->top; f != t->stack && f->frame != frame; f--)
			;
		if (f != t->stack) {
			*slot = f->site;
			fentry_leave_other(f->fn & ~FENTRY_MARKS, f->site);
			return;
		}
	}
	aprof_say("a return address replaced for -pg -mfentry is lost (shadow stack out of step)");
	abort();
}

/* The real return addresses put back, or the trampoline again (hooks.h). */
APROF_NOINSTR APROF_HIDDEN void aprof_fentry_unhook(uintptr_t sp, int back)
{
	struct aprof_thread *t = aprof_self;
	uintptr_t tramp = (uintptr_t)aprof_fentry_return;
	struct aprof_frame *f;

	if (t == NULL)
		return;
	for (f = aprof_thread_ends(t)->top; f != t->stack; f--) {
		uintptr_t *slot = (uintptr_t *)(f->frame & ~FENTRY_FRAME);

		if ((f->frame & FENTRY_FRAME) == 0 || f->frame < sp || f->frame >= t->stack_hi)
			continue;
		if (!back && *slot == tramp)
			*slot = f->site;
		else if (back && *slot == f->site)
			*slot = tramp;
	}
}
#endif

#ifndef APROF_HOOKS_PROGRAM
/* The hooks under the names by which a program's copy of them calls these (hooks.h). */
APROF_ENTRY void aprof_hooks_enter_shared(void *fn, void *site)
	__attribute__((alias("__cyg_profile_func_enter")));
APROF_ENTRY void aprof_hooks_exit_shared(void *fn, void *site)
	__attribute__((alias("__cyg_profile_func_exit")));
#else
/*
** The program's copy of the hooks is code of the runtime's own, where a
** sample is not the program's (sample.c): its bounds told to libaprof.so
** from the module's constructor, and taken back when it is unloaded.
** Samples in it before the constructor runs (in other libraries'
** constructors) are charged as the program's.
*/
APROF_NOINSTR __attribute__((constructor)) static void hooks_text_add(void)
{
	aprof_hooks_text(__start_aprof_text, __stop_aprof_text, 1);
}

APROF_NOINSTR __attribute__((destructor)) static void hooks_text_remove(void)
{
	aprof_hooks_text(__start_aprof_text, __stop_aprof_text, 0);
}
#endif
