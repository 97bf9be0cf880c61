/*
** writer.h -- writing amon.out (format: amon.h).
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

/*
** Writes the profile so far: charges the calling thread's last interval and
** writes every thread's contexts and the heap figures to the output path
** atomically (a temporary file, then rename).  Other threads run on.  A
** failure is reported on stderr with its reason.  Returns 0, or -1 on failure.
*/
APROF_HIDDEN int aprof_writer_dump(void);

/* The exit handler: aprof_writer_dump unless aprof_stop has stopped the profile. */
APROF_HIDDEN void aprof_writer_at_exit(void);

/*
** aprof_stop (STOPPED = 1) and aprof_restart (STOPPED = 0, PATH the new
** output path or NULL to keep it).  A stopped profile is not written at exit.
*/
APROF_HIDDEN void aprof_writer_set_stopped(int stopped, const char *path);

/* Every EVERY allocations, dump the profile (aprof_set_autosave); 0: only at exit. */
APROF_HIDDEN void aprof_writer_set_autosave(unsigned long every);

/* Counts one allocation towards the next autosave. */
APROF_HIDDEN void aprof_writer_count_allocation(void);

/* fork: hold the writer across the fork; the child gets its own output path. */
APROF_HIDDEN void aprof_writer_fork_prepare(void);
APROF_HIDDEN void aprof_writer_fork_parent(void);
APROF_HIDDEN void aprof_writer_fork_child(void);

/*
** A fatal signal's last word: writes the profile so far unless stopped or
** already writing.  Best effort: it must not wait for anything.
*/
APROF_HIDDEN void aprof_writer_dump_crash(void);

#endif /* APROF_RUNTIME_WRITER_H */
