/*
** nonlocal.c -- non-local exits.  longjmp and a caught C++ exception leave
** routines without their exit hooks (for an exception, those compiled
** without unwind cleanups, such as C code without -fexceptions).  The
** interposed entry points only note that a jump happened; the next enter
** hook then finds which shadow-stack entries were abandoned
** (aprof_thread_land), and an exit hook resynchronises by itself.
*/
#include <config.h>

#include <setjmp.h>

#include "interpose.h"
#include "thread.h"

typedef void (*jump_fn)(struct __jmp_buf_tag *env, int val) __attribute__((noreturn));
typedef void *(*catch_fn)(void *exception);

APROF_API void longjmp(jmp_buf env, int val) __attribute__((noreturn));
APROF_API void _longjmp(jmp_buf env, int val) __attribute__((noreturn));
APROF_API void siglongjmp(sigjmp_buf env, int val) __attribute__((noreturn));
APROF_API void __longjmp_chk(jmp_buf env, int val) __attribute__((noreturn));
APROF_API void *__cxa_begin_catch(void *exception);


/*
** Notes the jump for this thread's next hook.  The runtime never jumps, so
** wherever the jump lands is outside it: a signal handler that interrupted
** a hook and jumps out leaves the guard set, and it must be cleared here or
** the thread's hooks would be passed through for good.
*/
APROF_NOINSTR static void jumping(void)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_ends *e;

	aprof_busy = 0;
	if (t == NULL)
		return;
	e = aprof_thread_ends(t);
	/* Time until the jump is the context's it leaves; after it, the landing one's. */
	aprof_charge_now(t);
	t->jumped = 1;
	__atomic_signal_fence(__ATOMIC_RELEASE); /* first: a slow path in between sees it */
	/* The next hook takes the slow path: an entry at the limit, an exit on the mark. */
	e->top->fn |= APROF_FN_JUMPED;
	e->limit = e->top;
}


/*
** longjmp, _longjmp, siglongjmp, and __longjmp_chk (what -D_FORTIFY_SOURCE
** makes of longjmp): the jump noted, then the real one.
*/
#define JUMP(name, buf)                                                          \
	APROF_API void name(buf env, int val)                                     \
	{                                                                         \
		static void *real;                                                \
										  \
		jumping();                                                        \
		((jump_fn)aprof_next_definition(&real, #name))(env, val);         \
	}

JUMP(longjmp, jmp_buf)
JUMP(_longjmp, jmp_buf)
JUMP(siglongjmp, sigjmp_buf)
JUMP(__longjmp_chk, jmp_buf)


/* The C++ ABI's start of a catch clause: the throw has unwound to here. */
APROF_API void *__cxa_begin_catch(void *exception)
{
	static void *real;

	jumping();
	return ((catch_fn)aprof_next_definition(&real, "__cxa_begin_catch"))(exception);
}
