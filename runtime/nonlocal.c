/*
** nonlocal.c -- non-local exits.  longjmp and a caught C++ exception leave
** routines without their exit hooks (for an exception, those compiled
** without unwind cleanups, such as C code without -fexceptions, and every
** routine entered through -pg -mfentry).  The interposed entry points only
** note that a jump happened; the next enter hook then finds which
** shadow-stack entries were abandoned (aprof_thread_land), and an exit hook
** resynchronises by itself.  A catch clause knows where it runs, and pops
** them at once; a throw's cleanups, where it lands on its way, are found by
** their calls as a jump's landing is.
*/
#include <config.h>

#include <pthread.h>
#include <setjmp.h>
#include <string.h>
#include <unwind.h>

#include "hooks.h"
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
** Notes a jump of KIND (thread.h: APROF_JUMPED, APROF_UNWINDING) for this
** thread's next hook; a catch clause's stack pointer SP (else 0) pops the
** entries the throw left below it first (aprof_thread_caught), so that a
** routine the clause's code calls through uninstrumented code (the
** exception's destructor, from __cxa_end_catch), where the next hook's own
** landing would look from, is still the clause's routine's callee.  The
** runtime never jumps, so wherever the jump lands is outside it: a signal
** handler that interrupted a hook and jumps out leaves the guard set, and
** it must be cleared here or the thread's hooks would be passed through
** for good.
*/
APROF_NOINSTR static void jumping(int kind, uintptr_t sp)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_ends *e;

	aprof_busy = 0;
	if (t == NULL)
		return;
	e = aprof_thread_ends(t);
	if (kind == APROF_JUMPED) {
		/* Time until the jump is the context's it leaves; after it, the landing one's. */
		aprof_charge_now(t);
		if (sp != 0)
			aprof_thread_caught(t, sp);
		t->jumped = APROF_JUMPED;
	} else if (t->jumped == 0) {
		/* The unwinding is charged when it lands (aprof_thread_land); a jump noted stays one. */
		t->jumped = APROF_UNWINDING;
	}
	__atomic_signal_fence(__ATOMIC_RELEASE); /* first: a slow path in between sees it */
	/* The next hook takes the slow path: an entry at the limit, an exit on the mark. */
	e->top->fn |= APROF_FN_JUMPED;
	e->limit = e->top;
}


/*
** glibc's own jump, which longjmp, _longjmp and siglongjmp are aliases of:
** weak, so that only a program linked -static has it (libc.a's), where
** dlsym finds no next definition.
*/
extern void __libc_siglongjmp(sigjmp_buf env, int val) __attribute__((noreturn, weak));

/* The real jump that NAME's wrapper hides (REAL its cache): the next definition, or glibc's own. */
APROF_NOINSTR static jump_fn real_jump(void **real, const char *name)
{
	if (aprof_next_definition_or_null(real, name) == NULL && __libc_siglongjmp != NULL)
		return __libc_siglongjmp;
	return (jump_fn)aprof_next_definition(real, name);
}

/*
** longjmp, _longjmp, siglongjmp, and __longjmp_chk (what -D_FORTIFY_SOURCE
** makes of longjmp): the jump noted, then the real one (in a program linked
** -static, __longjmp_chk's check of the stack is left out).
*/
#define JUMP(name, buf)                                   \
	APROF_API void name(buf env, int val)              \
	{                                                  \
		static void *real;                         \
							   \
		jumping(APROF_JUMPED, 0);                  \
		real_jump(&real, #name)(env, val);         \
	}

JUMP(longjmp, jmp_buf)
JUMP(_longjmp, jmp_buf)
JUMP(siglongjmp, sigjmp_buf)
JUMP(__longjmp_chk, jmp_buf)


/*
** The C++ ABI's start of a catch clause: the throw has unwound to here, the
** stack pointer of the clause's routine (this call's frame address).  The
** routines still running that were entered through -pg -mfentry get the
** return trampoline back (the throw took it off them all).
*/
APROF_API void *__cxa_begin_catch(void *exception)
{
	static void *real;
	uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();

	jumping(APROF_JUMPED, sp);
#if defined(__x86_64__)
	aprof_fentry_unhook(sp, 1);
#endif
	return ((catch_fn)aprof_next_definition(&real, "__cxa_begin_catch"))(exception);
}

#if defined(__x86_64__) && defined(PIC)
/*
** What unwinds the stack through frames of its own: a C++ throw, rethrow
** and the resumption of its unwinding after a cleanup (libgcc's unwinder),
** pthread_exit (glibc's, through the same unwinder), backtrace.  A routine
** entered through -pg -mfentry returns to the trampoline, which no
** unwinder can pass: the real return addresses are put back first
** (aprof_fentry_unhook), for good where the frames are unwound (a caught
** throw gives the trampoline back to those left: __cxa_begin_catch), and
** given the trampoline again after a backtrace.  An unwinding is noted
** (APROF_UNWINDING), so that a cleanup's first call (a destructor's)
** lands the shadow stack in the cleanup's routine, whose callees the
** throw left without their exit hooks.
** In libaprof.so alone (libtool's PIC): linked into a static program,
** these would clash with libgcc_eh's and libc's own definitions, which
** a static link pulls in too.
*/
typedef _Unwind_Reason_Code (*raise_fn)(struct _Unwind_Exception *exception);
typedef void (*resume_fn)(struct _Unwind_Exception *exception) __attribute__((noreturn));
typedef void (*exit_fn)(void *value) __attribute__((noreturn));
typedef int (*backtrace_fn)(void **buffer, int size);

APROF_API _Unwind_Reason_Code _Unwind_RaiseException(struct _Unwind_Exception *exception);
APROF_API _Unwind_Reason_Code _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *exception);
APROF_API void _Unwind_Resume(struct _Unwind_Exception *exception) __attribute__((noreturn));
APROF_API void pthread_exit(void *value) __attribute__((noreturn));
APROF_API int backtrace(void **buffer, int size);

#define UNWIND(name)                                                                         \
	APROF_API _Unwind_Reason_Code name(struct _Unwind_Exception *exception)                 \
	{                                                                                     \
		static void *real;                                                            \
											      \
		jumping(APROF_UNWINDING, 0);                                                  \
		aprof_fentry_unhook((uintptr_t)__builtin_dwarf_cfa(), 0);                      \
		return ((raise_fn)aprof_next_definition(&real, #name))(exception);             \
	}

UNWIND(_Unwind_RaiseException)
UNWIND(_Unwind_Resume_or_Rethrow)

/*
** Called by a cleanup when it is done.  The throw unhooked the routines it
** unwinds; a catch clause in the cleanup's own callees hooked them again.
*/
APROF_API void _Unwind_Resume(struct _Unwind_Exception *exception)
{
	static void *real;

	jumping(APROF_UNWINDING, 0);
	aprof_fentry_unhook((uintptr_t)__builtin_dwarf_cfa(), 0);
	((resume_fn)aprof_next_definition(&real, "_Unwind_Resume"))(exception);
}

APROF_API void pthread_exit(void *value)
{
	static void *real;

	jumping(APROF_UNWINDING, 0);
	aprof_fentry_unhook((uintptr_t)__builtin_dwarf_cfa(), 0);
	((exit_fn)aprof_next_definition(&real, "pthread_exit"))(value);
}

/*
** backtrace's walk starts in this frame, which is not the caller's to see:
** walked into a buffer of one more, then left out; where SIZE is beyond
** the buffer here, the caller's buffer is walked and the frame left out,
** which leaves one of its outermost frames out too.
*/
APROF_API int backtrace(void **buffer, int size)
{
	static void *real;
	void *walked[256];
	uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
	int n;

	aprof_fentry_unhook(sp, 0);
	if (size >= 0 && size < (int)(sizeof walked / sizeof walked[0])) {
		n = ((backtrace_fn)aprof_next_definition(&real, "backtrace"))(walked, size + 1);
		if (n > 0)
			memcpy(buffer, walked + 1, (size_t)--n * sizeof walked[0]);
	} else {
		n = ((backtrace_fn)aprof_next_definition(&real, "backtrace"))(buffer, size);
		if (n > 0)
			memmove(buffer, buffer + 1, (size_t)--n * sizeof buffer[0]);
	}
	aprof_fentry_unhook(sp, 1);
	return n;
}
#endif
