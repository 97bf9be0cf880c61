/*
** sample.c -- sampling mode: a CPU-time timer per thread, SIGPROF, one tick
** to the current context per signal.  The handler is async-signal-safe: it
** reads the thread's current context (its top entry's: the hooks change it
** with one store of the top) and adds one to its ticks, which in this mode
** only it touches.
** A sample that lands in the runtime's own work is the profiler's time, not
** the program's: it goes to the thread's runtime_ticks (amon.out, --stats).
*/
#include <config.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "clock.h"
#include "diag.h"
#include "sample.h"
#include "thread.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define SAMPLE_SIGNAL SIGPROF


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


/*
** One expiry, or more: CPU-time timers are checked at the scheduler's tick,
** so a short period expires several times per signal (si_overrun more).
** The runtime's own work is the interrupted code in section aprof_text (a
** hook from its first instruction, heap tracking), in a module's own copy
** of the hooks, or anything run while the guard is set (the runtime calling
** libc: start-up, allocating for itself, the writer).
*/
APROF_NOINSTR static void on_sample(int sig, siginfo_t *si, void *uc)
{
	struct aprof_thread *t = aprof_self;
	struct aprof_context *c;
	uint64_t n = 1 + (uint64_t)(si->si_overrun > 0 ? si->si_overrun : 0);

	(void)sig;
	if (t == NULL)
		return;
	if (aprof_busy || APROF_IN_RUNTIME(interrupted_pc(uc)) || in_hooks_text(interrupted_pc(uc))) {
		APROF_ADD(t->runtime_ticks, n);
		return;
	}
	/* aprof_thread_current, in the one mode in which this runs */
	c = __atomic_load_n(&aprof_thread_ends_of(t, AMON_CLOCK_SAMPLE)->top, __ATOMIC_RELAXED)->ctx;
	__atomic_store_n(&c->ticks, c->ticks + n, __ATOMIC_RELAXED);
}


APROF_NOINSTR void aprof_sample_init(void)
{
	const char *v = aprof_env("APROF_HZ");
	struct sigaction sa;
	char *end;
	unsigned long hz = v != NULL ? strtoul(v, &end, 10) : 0;

	if (v != NULL && (*end != '\0' || !(hz >= 1 && hz <= 1000000) || *v < '0' || *v > '9'))
		aprof_env_reject("APROF_HZ", v, "not a number from 1 to 1000000: 10000 is used");
	else if (v != NULL)
		aprof_sample_hz = (unsigned)hz;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SAMPLE_SIGNAL, &sa, NULL);
}


APROF_NOINSTR void aprof_sample_thread_start(struct aprof_thread *t)
{
	struct sigevent sev;
	struct itimerspec every;
	long ns = 1000000000L / (long)aprof_sample_hz;

	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SAMPLE_SIGNAL;
	sev.sigev_notify_thread_id = (pid_t)t->tid;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &t->timer) != 0) {
		t->timer = NULL;
		return;
	}
	every.it_interval.tv_sec = every.it_value.tv_sec = ns / 1000000000L;
	every.it_interval.tv_nsec = every.it_value.tv_nsec = ns % 1000000000L;
	timer_settime(t->timer, 0, &every, NULL);
}


APROF_NOINSTR void aprof_sample_thread_end(struct aprof_thread *t)
{
	if (t->timer != NULL) {
		timer_delete(t->timer);
		t->timer = NULL;
	}
}
