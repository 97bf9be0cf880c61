/*
** sample.c -- sampling mode: a CPU-time clock per thread, SIGPROF, the
** thread's CPU time since the last signal charged to the current context.
** The clock is the kernel's task clock as a perf event (perf_event_open's
** software PERF_COUNT_SW_TASK_CLOCK): its overflows are timed by a
** high-resolution timer, so the period is APROF_HZ's, not the scheduler's
** tick, and each signal reads how much CPU time went by.  Where the kernel
** refuses perf events (perf_event_paranoid), a POSIX CPU-time timer, which
** the kernel checks at its tick only (250 Hz on Debian's kernels): one line
** says so.  The handler is async-signal-safe: it reads the thread's
** current context (its top entry's: the hooks change it with one store of
** the top) and adds to its ticks, which in this mode only it touches.
** A sample that lands in the runtime's own work is the profiler's time, not
** the program's: it goes to the thread's runtime_ticks (amon.out, --stats).
*/
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "clock.h"
#include "diag.h"
#include "sample.h"
#include "thread.h"
#include "transition.h"
#include "types.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define SAMPLE_SIGNAL SIGPROF


/* The stack pointer at the interruption, from UC; 0 where unknown. */
APROF_NOINSTR static uintptr_t interrupted_sp(const void *uc)
{
#if defined(__x86_64__)
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
#else
	(void)uc;
	return 0;
#endif
}


/* The address the signal interrupted, from its context UC; 0 where unknown. */
APROF_NOINSTR static uintptr_t interrupted_pc(const void *uc)
{
#if defined(__x86_64__)
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}


/*
** The context a sample belongs to, T's top entry TOP being current and the
** signal having interrupted the program at stack pointer SP: TOP's, or that
** of the routine TOP's routine calls, where it runs its own code outside
** its hooks.  An instrumented routine saves registers and passes the hook
** its arguments before its entry hook, and restores them after its exit
** hook: while it does, its caller's context is current, and a routine of a
** few instructions would leave much of its own time to its caller.  Its
** caller's body runs at the stack pointer TOP's entry hook saw (FRAME, on
** x86-64 when it pushes nothing), so SP below it is in a routine TOP's
** routine called, whose return address is the word under FRAME; if that is
** the return address of the entry above TOP (the one just left, or the
** last made from there: SITE), and the entry's context is TOP's successor
** for its routine, the sample is that context's.  Only where the return
** address is on the stack (x86-64), and only words of the thread's own
** stack are read.
*/
APROF_NOINSTR static struct aprof_context *sampled_context(const struct aprof_thread *t,
							   const struct aprof_frame *top, uintptr_t sp)
{
#if defined(__x86_64__)
	const uintptr_t marks = APROF_FN_JUMPED | APROF_FN_DROPPED | APROF_FN_WATCHED;
	const struct aprof_frame *next = top + 1;
	size_t at;

	if (top == t->stack || top >= t->end || next->site == 0 || (next->fn & marks) != 0 ||
	    sp >= top->frame || sp < t->stack_lo || top->frame > t->stack_hi ||
	    top->frame < t->stack_lo + sizeof(uintptr_t) ||
	    *(const uintptr_t *)(top->frame - sizeof(uintptr_t)) != next->site)
		return top->ctx;
	at = aprof_successor_at(top->ctx, next->fn);
	if (at == APROF_NO_WAY || aprof_way_at(top->ctx, at)->to != next->ctx)
		return top->ctx;
	return next->ctx;
#else
	(void)t;
	(void)sp;
	return top->ctx;
#endif
}


/* The code of modules' own copies of the hooks (aprof_hooks_text): [lo, hi), hi 0 if none. */
#define HOOKS_TEXTS 16
static struct {
	uintptr_t lo, hi;
} hooks_text[HOOKS_TEXTS];

/*
** Called from modules' constructors and destructors, which ld.so runs one
** at a time; read by the handler, which sees a range whole or none: HI
** set last on adding, cleared first on taking back.
*/
APROF_NOINSTR void aprof_hooks_text(const char *lo, const char *hi, int add)
{
	size_t i;

	for (i = 0; i < HOOKS_TEXTS; i++) {
		if (add && hooks_text[i].hi == 0) {
			__atomic_store_n(&hooks_text[i].lo, (uintptr_t)lo, __ATOMIC_RELAXED);
			__atomic_store_n(&hooks_text[i].hi, (uintptr_t)hi, __ATOMIC_RELEASE);
			return;
		}
		if (!add && hooks_text[i].hi != 0 && hooks_text[i].lo == (uintptr_t)lo) {
			__atomic_store_n(&hooks_text[i].hi, 0, __ATOMIC_RELAXED);
			return;
		}
	}
}

/* 1 if PC is in a module's own copy of the hooks. */
APROF_NOINSTR static int in_hooks_text(uintptr_t pc)
{
	size_t i;

	for (i = 0; i < HOOKS_TEXTS; i++) {
		uintptr_t hi = __atomic_load_n(&hooks_text[i].hi, __ATOMIC_ACQUIRE);

		if (pc < hi && pc >= __atomic_load_n(&hooks_text[i].lo, __ATOMIC_RELAXED))
			return 1;
	}
	return 0;
}


/* The sample period in ns: 1 s / APROF_HZ. */
static uint64_t period_ns;

/*
** The samples' worth of CPU time since T's last signal: the task clock's
** advance, whole periods, the rest kept for the next.  One signal may stand
** for several periods (overflows while the thread was in the kernel, whose
** SIGPROF is pending once); a timer's expiries are counted by the kernel
** in SI (si_overrun).  A SIGPROF sent by other means counts one period.
*/
APROF_NOINSTR static uint64_t samples_due(struct aprof_thread *t, const siginfo_t *si)
{
	uint64_t now, n;

	if (si->si_code == SI_TIMER)
		return 1 + (uint64_t)(si->si_overrun > 0 ? si->si_overrun : 0);
	if (t->sampler == 0 || (si->si_code != POLL_IN && si->si_code != SI_SIGIO) ||
	    si->si_fd != t->sampler - 1 || read(t->sampler - 1, &now, sizeof now) != (ssize_t)sizeof now)
		return 1; /* another SIGPROF (kill's, raise's): one period, as the timer's */
	t->sampled_rest += now - t->sampled_ns;
	t->sampled_ns = now;
	n = t->sampled_rest / period_ns;
	t->sampled_rest -= n * period_ns;
	return n;
}


/*
** A sample: the CPU time since the last one, in periods, charged where the
** thread is.  The runtime's own work is the interrupted code in section
** aprof_text (a hook from its first instruction, heap tracking), in a
** module's own copy of the hooks, or anything run while the guard is set
** (the runtime calling libc: start-up, allocating for itself, the writer).
*/
APROF_NOINSTR static void on_sample(int sig, siginfo_t *si, void *uc)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_context *c;
	int saved = errno;
	uint64_t n;

	(void)sig;
	if (t == NULL)
		return;
	n = samples_due(t, si);
	errno = saved;
	if (n == 0)
		return;
	if (aprof_busy || APROF_IN_RUNTIME(interrupted_pc(uc)) || in_hooks_text(interrupted_pc(uc))) {
		APROF_ADD(t->runtime_ticks, n);
		return;
	}
	/* After a jump the top is a routine left: the next hook finds where it landed. */
	if (__atomic_load_n(&t->jumped, __ATOMIC_RELAXED) == APROF_JUMPED) {
		APROF_ADD(t->jump_ticks, n);
		return;
	}
	/* aprof_thread_current, in the one mode in which this runs, or the routine it calls */
	c = sampled_context(t, __atomic_load_n(&aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top,
					       __ATOMIC_RELAXED),
			    interrupted_sp(uc));
	__atomic_store_n(&c->ticks, c->ticks + n, __ATOMIC_RELAXED);
}


APROF_NOINSTR void aprof_sample_init(void)
{
	const char *v = aprof_env("APROF_HZ");
	struct sigaction sa;
	char *end;
	unsigned long hz = v != NULL ? strtoul(v, &end, 10) : 0;

	if (v != NULL && (*end != '\0' || !(hz >= 1 && hz <= 1000000) || *v < '0' || *v > '9'))
		aprof_env_reject("APROF_HZ", v, "not a number from 1 to 1000000: 1000 is used");
	else if (v != NULL)
		aprof_sample_hz = (unsigned)hz;
	period_ns = 1000000000u / aprof_sample_hz;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SAMPLE_SIGNAL, &sa, NULL);
}


/*
** The calling thread's task clock as a perf event of period PERIOD ns that
** signals SIGPROF to thread TID alone at each overflow: its fd, or -1 with
** errno set.  Time in the kernel counts too where the kernel allows
** (perf_event_paranoid 1 or less, or privileged); elsewhere (2) the samples
** that would land in the kernel are not taken, but the clock still counts
** that time, which the next sample charges (samples_due).
*/
APROF_NOINSTR static int task_clock_open(pid_t tid, uint64_t period)
{
	struct perf_event_attr attr;
	struct f_owner_ex owner = { F_OWNER_TID, tid };
	int fd = -1, user_only;

	for (user_only = 0; user_only <= 1 && fd < 0; user_only++) {
		memset(&attr, 0, sizeof attr);
		attr.size = sizeof attr;
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_TASK_CLOCK;
		attr.sample_period = period;
		attr.disabled = 1;
		attr.exclude_kernel = (unsigned)user_only;
		attr.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -1;
	if (fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, SAMPLE_SIGNAL) != 0 ||
	    fcntl(fd, F_SETFL, O_ASYNC) != 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}


/* The POSIX CPU-time timer of T, for where perf events are refused: 0, or -1. */
APROF_NOINSTR static int cpu_timer_start(struct aprof_thread *t)
{
	struct sigevent sev;
	struct itimerspec every;

	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SAMPLE_SIGNAL;
	sev.sigev_notify_thread_id = (pid_t)t->tid;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t->timer) != 0) {
		t->timer = NULL;
		return -1;
	}
	every.it_interval.tv_sec = every.it_value.tv_sec = (time_t)(period_ns / 1000000000u);
	every.it_interval.tv_nsec = every.it_value.tv_nsec = (long)(period_ns % 1000000000u);
	timer_settime(t->timer, 0, &every, NULL);
	return 0;
}


APROF_NOINSTR void aprof_sample_thread_start(struct aprof_thread *t)
{
	static int said;
	int fd;

	if (t->sampler != 0) /* a fork child's copy of its parent's event */
		close(t->sampler - 1);
	t->sampler = 0;
	t->timer = NULL; /* a fork child has none of its parent's timers */
	t->sampled_ns = t->sampled_rest = 0;
	fd = task_clock_open((pid_t)t->tid, period_ns);
	if (fd >= 0) {
		t->sampler = fd + 1;
		return;
	}
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		aprof_say("sampling at the kernel's tick (often 250 Hz), not APROF_HZ: "
			  "perf_event_open refused (%s; see /proc/sys/kernel/perf_event_paranoid)",
			  strerror(errno));
	if (cpu_timer_start(t) != 0)
		aprof_say("no CPU-time timer for thread %llu (%s): its time is not sampled",
			  (unsigned long long)t->tid, strerror(errno));
}


APROF_NOINSTR void aprof_sample_thread_end(struct aprof_thread *t)
{
	if (t->sampler != 0) {
		close(t->sampler - 1);
		t->sampler = 0;
	}
	if (t->timer != NULL) {
		timer_delete(t->timer);
		t->timer = NULL;
	}
}
