/*
** hooks.c -- GCC's -finstrument-functions hooks: the profiling monitor's hot
** path.  No locks, no malloc, no system calls and no division on the common
** path: one clock read, one table probe and a push on entry; a clock read
** and a pop on exit.
*/
#include <config.h>

#include "aprof.h"
#include "clock.h"
#include "thread.h"


/*
** Entry to FN (SITE is the call site, unused).  The time since the last hook
** is charged to the current context; the time of the hook itself is not
** (the clock is read again on the way out).
*/
APROF_API void __cyg_profile_func_enter(void *fn, void *site)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_context *cur, *next;

	(void)site;
	if (APROF_UNLIKELY(t == NULL) && (t = aprof_thread_start()) == NULL)
		return;
	cur = t->cur;
	cur->ticks += aprof_clock_read() - t->last;
	next = aprof_transition(&t->machine, cur, (uintptr_t)fn);
	if (next == cur)
		cur->rec++; /* direct recursion: A1 keeps the context */
	else
		next->calls++;
	if (APROF_UNLIKELY(t->sp == t->cap) && aprof_thread_grow_stack(t) != 0) {
		t->lost++;
	} else {
		t->stack[t->sp++] = cur;
		t->cur = next;
	}
	t->last = aprof_clock_read();
}


/* Exit from FN: charge the current context, then return to the caller's context. */
APROF_API void __cyg_profile_func_exit(void *fn, void *site)
{
	struct aprof_thread *t = aprof_self;

	(void)fn;
	(void)site;
	if (APROF_UNLIKELY(t == NULL))
		return;
	t->cur->ticks += aprof_clock_read() - t->last;
	if (APROF_UNLIKELY(t->lost != 0))
		t->lost--;
	else if (APROF_LIKELY(t->sp != 0))
		t->cur = t->stack[--t->sp];
	t->last = aprof_clock_read();
}
