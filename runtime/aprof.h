/*
** aprof.h -- the public interface of libaprof.
**
** A program profiled with aprof is compiled with `gcc -finstrument-functions
** -g` and linked with -laprof; it then writes amon.out when it exits, for
** the aprof command to read (aprof(1), doc/amon-format.md).
**
** Environment (ignored in setuid and setgid programs):
**   APROF_OUT    path of the profile, default amon.out in the directory
**                that was current when the program started; "%p" stands
**                for the pid; a fork child appends ".<pid>" otherwise
**   APROF_CLOCK  "sample" (the default): the thread's CPU time, sampled;
**                "counter": wall-clock time, the CPU's cycle counter read
**                at every hook; "monotonic": clock_gettime(CLOCK_MONOTONIC)
**   APROF_HZ     samples per second of CPU time, from 1 to 1000000,
**                default 1000 (APROF_CLOCK=sample)
**   APROF_HEAP   "0" to leave heap allocations alone (time only)
**   APROF_DUMP_SIGNAL  a signal ("USR1", "SIGUSR2", a number) that makes
**                the program write a snapshot of its profile
*/
#ifndef APROF_H
#define APROF_H

#ifdef __cplusplus
extern "C" {
#endif

/*
** GCC's instrumentation hooks, called at the entry and exit of every function
** compiled with -finstrument-functions.  FN is the function's entry address,
** CALL_SITE the return address in its caller.  Defined by libaprof; a program
** never calls them itself.
*/
void __cyg_profile_func_enter(void *fn, void *call_site)
	__attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *call_site)
	__attribute__((no_instrument_function));

/*
** Control of the profile from the program, after mprof's mprof_stop,
** mprof_restart and set_mprof_autosave (mprof(1)).  All are safe to call
** from any thread at any time; none stops the program.
*/

/*
** Writes the profile so far (amon.out, or the path set) and goes on
** profiling: a snapshot.  The file is replaced atomically.  Returns 0, or -1
** if it could not be written (the reason is on stderr).
*/
int aprof_dump(void) __attribute__((no_instrument_function));

/*
** Writes the profile so far, as aprof_dump, and stops: allocations are no
** longer followed and nothing more is written at exit, unless
** aprof_restart is called.  Returns what aprof_dump returns.
*/
int aprof_stop(void) __attribute__((no_instrument_function));

/*
** Starts a fresh profile: every count so far (time, calls, bytes) is
** forgotten, blocks allocated before are not charged when freed, and the
** profile goes to FILE (relative to the current directory; NULL or "" keeps
** the path) when the program exits or dumps.
*/
void aprof_restart(const char *file) __attribute__((no_instrument_function));

/*
** Writes the profile (as aprof_dump) after every COUNT allocations, for
** long-running programs; 0, the default, writes only at exit.  mprof
** suggests 10,000 to 100,000.
*/
void aprof_set_autosave(unsigned long count) __attribute__((no_instrument_function));

#ifdef __cplusplus
}
#endif

#endif /* APROF_H */
