/*
** aprof.h -- the public interface of libaprof.
**
** A program profiled with aprof is compiled with `gcc -finstrument-functions
** -g` and linked with -laprof; it then writes amon.out when it exits, for
** the aprof command to read (aprof(1), doc/amon-format.md).
**
** Environment (ignored in setuid and setgid programs):
**   APROF_OUT    path of the profile, default amon.out in the directory
**                that was current when the program started
**   APROF_CLOCK  "monotonic" to time with clock_gettime(CLOCK_MONOTONIC)
**                instead of the CPU's cycle counter
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

#ifdef __cplusplus
}
#endif

#endif /* APROF_H */
