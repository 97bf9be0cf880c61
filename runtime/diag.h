/*
** diag.h -- what the runtime tells the user: one line on stderr, and the
** APROF_* variables of the environment, read once at start-up with a value
** of the wrong form named in one such line (the default is then used).
*/
#ifndef APROF_RUNTIME_DIAG_H
#define APROF_RUNTIME_DIAG_H

#include "internal.h"

/*
** Writes "aprof: " and FORMAT (printf's, without the newline) as one line on
** stderr, with write(2): never the program's stdio or malloc, so it is safe
** in a signal handler and while the runtime holds its locks.
*/
APROF_HIDDEN void aprof_say(const char *format, ...) __attribute__((format(printf, 1, 2)));

/*
** The value of the variable NAME (an APROF_*), NULL if unset or empty, or in
** a set-user-ID or set-group-ID program (secure_getenv).
*/
APROF_HIDDEN const char *aprof_env(const char *name);

/* Reads the variables from ENVP, the process's first environment, not environ. */
APROF_HIDDEN void aprof_env_from(char **envp);

/*
** Says that NAME's VALUE is not of the form the variable takes: "aprof:
** NAME=VALUE: EXPECTED", EXPECTED saying what it takes and what is done.
*/
APROF_HIDDEN void aprof_env_reject(const char *name, const char *value, const char *expected);

#endif /* APROF_RUNTIME_DIAG_H */
