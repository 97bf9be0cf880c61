/*
** hooks.c -- GCC's -finstrument-functions hooks: the profiling monitor's hot
** path.  No locks, no malloc, no system calls and no division on the common
** path: a clock read, one table probe and a push on entry; a clock read, a
** comparison and a pop on exit.
*/
#include <config.h>

#include "aprof.h"
#include "clock.h"
#include "thread.h"


/*
** Entry to FN, called from SITE (its return address).  The time since the last hook
** is charged to the current context; the time of the hook itself is not
** (the clock is read again on the way out).
*/
APROF_API void __cyg_profile_func_enter(void *fn, void *site)
{
	struct aprof_thread *t = aprof_self;
	uintptr_t frame = (uintptr_t)__builtin_dwarf_cfa();
	struct aprof_context *cur, *next;

	if (APROF_UNLIKELY(aprof_busy)) {
		if (t != NULL)
			t->dropped++;
		return;
	}
	aprof_busy = 1;
	if (APROF_UNLIKELY(t == NULL) && (t = aprof_thread_start()) == NULL)
		goto out;
	cur = t->cur;
	cur->ticks += aprof_clock_read() - t->last;
	if (APROF_UNLIKELY(t->jumped))
		cur = aprof_thread_land(t, frame, (uintptr_t)site);
	next = aprof_transition(&t->machine, cur, (uintptr_t)fn);
	if (next == cur)
		cur->rec++; /* direct recursion: A1 keeps the context */
	else
		next->calls++;
	if (APROF_UNLIKELY(t->sp == t->cap) && aprof_thread_grow_stack(t) != 0) {
		t->lost++;
	} else {
		/*
		** The entry is complete before it counts, and counts before the
		** context changes: a hook abandoned by a jump out of a signal
		** handler leaves a consistent shadow stack.
		*/
		struct aprof_frame *f = &t->stack[t->sp];

		f->ctx = cur;
		f->fn = (uintptr_t)fn;
		f->site = (uintptr_t)site;
		f->frame = frame;
		__atomic_signal_fence(__ATOMIC_RELEASE);
		t->sp++;
		__atomic_signal_fence(__ATOMIC_RELEASE);
		t->cur = next;
	}
	t->last = aprof_clock_read();
out:
	aprof_busy = 0;
}


/*
** Exit from FN, back to SITE: charge the current context, then return to the
** caller's.  (GCC may reach this by a tail call, so the frame here says
** nothing: the entry is matched by FN and SITE.)
*/
APROF_API void __cyg_profile_func_exit(void *fn, void *site)
{
	struct aprof_thread *t = aprof_self;
	const struct aprof_frame *top;

	if (APROF_UNLIKELY(aprof_busy || t == NULL)) {
		if (t != NULL)
			t->dropped++;
		return;
	}
	aprof_busy = 1;
	t->cur->ticks += aprof_clock_read() - t->last;
	top = t->sp != 0 ? &t->stack[t->sp - 1] : NULL;
	if (APROF_LIKELY(top != NULL && top->fn == (uintptr_t)fn && top->site == (uintptr_t)site)) {
		t->cur = top->ctx;
		t->sp--;
	} else {
		aprof_thread_exit_slow(t, (uintptr_t)fn, (uintptr_t)site);
	}
	t->last = aprof_clock_read();
	aprof_busy = 0;
}
