/*
** policy.h -- when the profile is written (policy.c): at exit, before exec
** and _exit, on fatal signals and APROF_DUMP_SIGNAL, by autosave and by the
** program's own control (<aprof.h>); and a fork's child.
*/
#ifndef APROF_RUNTIME_POLICY_H
#define APROF_RUNTIME_POLICY_H

#include "internal.h"

/*
** At the runtime's start (startup.c): fork handlers, and handlers for
** APROF_DUMP_SIGNAL (write a snapshot; any name kill -l prints, or a number;
** a value that names no signal said on stderr) and for the signals that end
** the process (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT, SIGXCPU,
** SIGXFSZ, SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGVTALRM: write the
** profile, then the default action), each only where the signal's
** disposition is still the default.
*/
APROF_HIDDEN void aprof_policy_init(void);

/*
** The process ends (exit, or exec or _exit replaces it): the hooks
** calibrated again and the profile written, unless aprof_stop stopped it.
*/
APROF_HIDDEN void aprof_policy_exit(void);

#endif /* APROF_RUNTIME_POLICY_H */
