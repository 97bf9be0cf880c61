/*
** util.h -- the analyser's error reporting and checked allocation.
*/
#ifndef APROF_APROF_UTIL_H
#define APROF_APROF_UTIL_H

#include <stddef.h>

/* The program name used in messages ("aprof"). */
extern const char *util_progname;

/*
** Prints "aprof: FMT...\n" on stderr and exits with status 1: the one way the
** analyser reports bad input (one clear line, non-zero exit).
*/
void util_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Prints "aprof: warning: FMT...\n" on stderr. */
void util_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "aprof: FMT...\n" on stderr: what aprof chose for the user (no warning). */
void util_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* malloc/calloc/realloc/strdup that die with a message instead of returning NULL. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif /* APROF_APROF_UTIL_H */
