/*
** writer.h -- how amon.out is written (format: amon.h): where, and one
** writer at a time.  When is the policy's (policy.h).
*/
#ifndef APROF_RUNTIME_WRITER_H
#define APROF_RUNTIME_WRITER_H

#include "internal.h"

/*
** Fixes the output path while the current directory is still the one the
** program started in: $APROF_OUT if set (ignored in setuid programs), else
** amon.out, made absolute; "%p" in it stands for the process id.
*/
APROF_HIDDEN void aprof_writer_init(void);

/* Makes PATH (relative to the current directory, "%p" the pid) the output path: aprof_restart. */
APROF_HIDDEN void aprof_writer_set_path(const char *path);

/*
** Writes every thread's contexts and the heap figures to the output path
** atomically (a temporary file, then rename).  Other threads run on.  WAIT
** 0: give up, returning -1, if a write is under way (a signal handler's,
** which may have interrupted it).  A failure is reported on stderr with its
** reason; so is, once, the replacing of a profile that another process
** wrote to the same path during this run.  Returns 0, or -1 on failure.
*/
APROF_HIDDEN int aprof_writer_write(int wait);

/* fork: hold the writer across the fork; the child gets its own output path. */
APROF_HIDDEN void aprof_writer_fork_prepare(void);
APROF_HIDDEN void aprof_writer_fork_parent(void);
APROF_HIDDEN void aprof_writer_fork_child(void);

#endif /* APROF_RUNTIME_WRITER_H */
