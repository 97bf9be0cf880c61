/*
** stack-hooks.c -- the least the hooks of an exact call-graph profiler do:
** keep the thread's shadow stack, the routine entered pushed on entry and
** popped on exit, its top in thread-local storage with libaprof's TLS
** models (in a shared library its offset loaded from the GOT, as
** libaprof.so's is); no context, no count, no bound, no test.
** benchmarks/targets.sh links it in place of empty-hooks.c, static and
** shared: its cost beyond the empty hooks is the floor under sampling's own
** work (target T1 of benchmarks/targets.sh).  Single-threaded programs only (the
** benchmarks'): every thread starts on the one stack.
*/
#define NOINSTR __attribute__((no_instrument_function))

void __cyg_profile_func_enter(void *fn, void *site) NOINSTR;
void __cyg_profile_func_exit(void *fn, void *site) NOINSTR;

/* libaprof's TLS models (runtime/thread.h): local-exec linked in, initial-exec in a .so */
#if defined(__PIE__) || !defined(__PIC__)
#define STACK_TLS_MODEL "local-exec"
#else
#define STACK_TLS_MODEL "initial-exec"
#endif

static void *frames[1 << 16];                   /* deeper than any benchmark calls */
/* set before any constructor runs: C++'s static initializers call the hooks */
static __thread void **top __attribute__((tls_model(STACK_TLS_MODEL))) = frames;


void __cyg_profile_func_enter(void *fn, void *site)
{
	void **t = top;

	(void)site;
	t[1] = fn;
	top = t + 1;
}


void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
	top--;
}
