/*
** thread.c -- each thread's state: made at its first hook or allocation
** (startup.c), its shadow stack grown on demand, and resynchronised after a
** jump (longjmp, a caught exception) left entries without their exits.
*/
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arena.h"
#include "thread.h"

#define STACK_INITIAL 4096 /* shadow-stack entries usable at first; doubled on demand */
/*
** Shadow-stack entries reserved (192 MiB of address space, none of it memory
** until used): 8 times the depth of a million calls that tests/s-deep.c
** makes.  Halved while the kernel refuses it.
*/
#define STACK_RESERVED ((size_t)1 << 23)

APROF_HIDDEN struct aprof_thread *aprof_threads;
APROF_HIDDEN int aprof_started;

/*
** The calling thread's stack, so that frames on another stack are told
** apart: the mapping of /proc/self/maps that holds the stack pointer, read
** with system calls only; the main thread's reaches down as far as
** RLIMIT_STACK lets it grow (as pthread_getattr_np says, which allocates,
** with the program's malloc when it has its own).
*/
APROF_NOINSTR static void stack_bounds(struct aprof_thread *t)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0), lo, hi, below = 0;
	char buf[4096], *line, *nl, *end;
	size_t used = 0;
	ssize_t r;
	struct rlimit rl;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC), skip = 0, partial;

	while (fd >= 0 && t->stack_hi == 0 &&
	       (r = read(fd, buf + used, sizeof buf - 1 - used)) > 0) {
		used += (size_t)r;
		buf[used] = '\0';
		for (line = buf; t->stack_hi == 0; line = nl + 1) {
			partial = (nl = strchr(line, '\n')) == NULL;
			if (partial && (line != buf || used < sizeof buf - 1))
				break;  /* the rest of the line is still to be read */
			if (partial) /* a line longer than buf: its range, then skip its rest */
				nl = buf + used - 1;
			lo = (uintptr_t)strtoull(line, &end, 16);
			hi = *end == '-' ? (uintptr_t)strtoull(end + 1, NULL, 16) : 0;
			if (skip || sp < lo || sp >= hi) {
				below = skip ? below : hi;
			} else {
				if (syscall(SYS_gettid) == getpid() && getrlimit(RLIMIT_STACK, &rl) == 0)
					lo = rl.rlim_cur < hi - below ? hi - rl.rlim_cur : below;
				t->stack_lo = lo;
				t->stack_hi = hi;
			}
			skip = partial;
		}
		used -= (size_t)(line - buf);
		memmove(buf, line, used);
	}
	if (fd >= 0)
		close(fd);
}


/* Reserves T's shadow stack, its first STACK_INITIAL entries usable; -1 if refused. */
APROF_NOINSTR static int stack_new(struct aprof_thread *t)
{
	size_t n;

	for (n = STACK_RESERVED; n >= STACK_INITIAL; n /= 2) {
		t->stack = aprof_reserve(n * sizeof t->stack[0]);
		if (t->stack == NULL)
			continue;
		if (aprof_commit(t->stack, STACK_INITIAL * sizeof t->stack[0]) != 0) {
			aprof_unmap(t->stack, n * sizeof t->stack[0]);
			return -1;
		}
		t->reserved = n;
		t->cap = STACK_INITIAL;
		aprof_thread_stack_reset(t);
		return 0;
	}
	return -1;
}


APROF_NOINSTR void aprof_thread_stack_reset(struct aprof_thread *t)
{
	struct aprof_ends *e = t->ends = aprof_thread_ends_of(t, aprof_clock_kind);

	t->stack[0].ctx = t->machine.root;
	t->stack[0].fn = 0;
	t->stack[0].frame = UINTPTR_MAX;
	t->end = t->stack + t->cap - 1;
	/* The top first: a signal handler's hooks in between push above it, not above unhooked_top. */
	e->top = t->stack;
	__atomic_signal_fence(__ATOMIC_RELEASE);
	e->limit = t->end;
}


APROF_NOINSTR struct aprof_thread *aprof_thread_new(void)
{
	struct aprof_thread *t;

	aprof_busy++;
	t = aprof_map(sizeof *t);
	if (t == NULL || aprof_machine_init(&t->machine) != 0 || stack_new(t) != 0) {
		aprof_busy--;
		return NULL;
	}
	stack_bounds(t);
	t->tid = (uint64_t)syscall(SYS_gettid);
	prctl(PR_GET_NAME, t->name);
	t->next = __atomic_load_n(&aprof_threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&aprof_threads, &t->next, t, 0, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
	aprof_self = t;
	if (aprof_clock_kind == AMON_CLOCK_SAMPLE) {
		aprof_sampled = t;
		aprof_sampled_heap = &t->heap;
	} else if (aprof_clock_kind == APROF_CLOCK_COUNTER)
		aprof_counted = t;
	aprof_busy--;
	t->last = aprof_clock_read();
	aprof_probe_reset(t);
	/* none in sampling mode: its 0 stops heapcommon.h's aprof_heap_counted_event at once */
	t->heap_probe = aprof_clock_kind == AMON_CLOCK_SAMPLE ? 0 : t->probe;
	return t;
}


/* In place: entries already pushed stay where they are (thread.h). */
APROF_NOINSTR int aprof_thread_grow_stack(struct aprof_thread *t)
{
	size_t cap = 2 * t->cap < t->reserved ? 2 * t->cap : t->reserved;

	if (cap == t->cap ||
	    aprof_commit(t->stack + t->cap, (cap - t->cap) * sizeof t->stack[0]) != 0)
		return -1;
	t->cap = cap;
	t->end = t->stack + cap - 1;
	aprof_thread_ends(t)->limit = t->end;
	return 0;
}


APROF_NOINSTR void aprof_thread_stack_trim(struct aprof_thread *t)
{
	if (t->reserved > t->cap)
		aprof_unmap(t->stack + t->cap, (t->reserved - t->cap) * sizeof t->stack[0]);
	t->reserved = t->cap;
}


/*
** True if C is the frame of a shadow-stack entry: the stack pointer of a
** routine (in its enter hook) that is still there.
*/
APROF_NOINSTR static int is_entry_frame(const struct aprof_thread *t, uintptr_t c)
{
	const struct aprof_frame *f = aprof_thread_ends(t)->top;

	while (f->frame < c) /* the sentinel's frame stops it */
		f--;
	return f->frame == c;
}


/*
** The stack pointer of the routine that made the call whose return address
** SITE lies at or above FROM on T's own stack, when it made it: just above
** where that return address is stored.  Stale copies of SITE may lie in
** dead stack memory or in uninitialised locals on the way: the right one is
** the first just below an entry's frame (the caller's own: its stack pointer
** when its enter hook ran), else, if the caller moved its stack pointer since
** (alloca), the nearest.  0 if SITE lies nowhere above FROM.  It reads
** the stack where other routines' locals lie, live or dead, so
** AddressSanitizer must not check it.
*/
APROF_NOINSTR __attribute__((no_sanitize_address)) static uintptr_t
caller_sp(const struct aprof_thread *t, uintptr_t from, uintptr_t site)
{
	uintptr_t p, first = 0;

	for (p = from & ~(uintptr_t)7; p + sizeof(uintptr_t) <= t->stack_hi;
	     p += sizeof(uintptr_t)) {
		if (*(const uintptr_t *)p != site)
			continue;
		if (first == 0)
			first = p + sizeof(uintptr_t);
		if (is_entry_frame(t, p + sizeof(uintptr_t)))
			return p + sizeof(uintptr_t);
	}
	return first;
}


/*
** The jump T made has landed in context C: the samples taken since
** (sampling mode, sample.c) are C's, as the cycle counter's interval is.
** Returns C.
*/
APROF_NOINSTR static struct aprof_context *landed(struct aprof_thread *t, struct aprof_context *c)
{
	uint64_t n;

	t->jumped = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* the handler charges the top from here on */
	n = __atomic_exchange_n(&t->jump_ticks, 0, __ATOMIC_RELAXED);
	if (n != 0)
		__atomic_fetch_add(&c->ticks, n, __ATOMIC_RELAXED);
	return c;
}


/* 1 if FRAME (a hook's) lies on T's own stack, where caller_sp may look. */
APROF_NOINSTR static int on_own_stack(const struct aprof_thread *t, uintptr_t frame)
{
	return frame >= t->stack_lo && frame < t->stack_hi;
}


/*
** Pops T's entries whose frames lie below stack pointer SP: routines that
** a jump or a throw left without their exit hooks (the sentinel's frame
** stops it), each counted as a resync.
*/
APROF_NOINSTR static void pop_below(struct aprof_thread *t, uintptr_t sp)
{
	struct aprof_ends *e = aprof_thread_ends(t);

	while (e->top->frame < sp) {
		e->top--;
		APROF_ADD(t->resyncs, 1);
	}
}


APROF_NOINSTR struct aprof_context *aprof_thread_land(struct aprof_thread *t, uintptr_t frame,
						      uintptr_t site)
{
	uintptr_t sp;

	if (t->jumped == APROF_UNWINDING)
		aprof_charge_now(t);
	if (!on_own_stack(t, frame))
		return landed(t, aprof_thread_current(t)); /* another stack (a signal's, a coroutine's) */
	/* The routine being entered was called from SITE: its return address lies above FRAME. */
	sp = caller_sp(t, frame, site);
	/* Every routine the caller called before, and all below them, is gone (not the sentinel). */
	if (sp != 0)
		pop_below(t, sp);
	return landed(t, aprof_thread_current(t));
}


APROF_NOINSTR void aprof_thread_caught(struct aprof_thread *t, uintptr_t sp)
{
	if (on_own_stack(t, sp))
		pop_below(t, sp);
}


APROF_NOINSTR struct aprof_context *aprof_thread_exit_slow(struct aprof_thread *t, uintptr_t fn,
							   uintptr_t site, uintptr_t frame)
{
	struct aprof_ends *e = aprof_thread_ends(t);
	struct aprof_context *running = e->top->ctx;
	struct aprof_frame *f = NULL;
	uintptr_t sp;

	if (t->lost != 0) { /* an entry the full stack could not take */
		APROF_PUT(t->lost, t->lost - 1);
		return landed(t, running);
	}
	/*
	** FN's entry: the first above those of its caller and below, whose
	** frames lie at or above the caller's stack pointer, just above FN's
	** return address SITE (looked for from FRAME - 8: a hook that FN
	** reached by a tail call has SITE as its own return address).  So the
	** activations of a recursive FN are told apart though they share SITE.
	*/
	if (on_own_stack(t, frame) && (sp = caller_sp(t, frame - sizeof(uintptr_t), site)) != 0) {
		f = e->top;
		while (f->frame < sp && f[-1].frame < sp) /* the sentinel's frame stops it */
			f--;
		if (f->frame >= sp || f->fn != fn)
			f = NULL;
	}
	/* Else the nearest with FN (another stack; a split-off part, FN.part.0, called from FN). */
	if (f == NULL)
		for (f = e->top; f != t->stack && f->fn != fn; f--)
			;
	if (f == t->stack) {
		APROF_ADD(t->unmatched, 1);
		return landed(t, running);
	}
	/* Entries above FN's were abandoned; FN's own holds the context it ran in. */
	APROF_ADD(t->resyncs, (uint64_t)(e->top - f));
	landed(t, f->ctx);
	e->top = f - 1;
	return f->ctx;
}
