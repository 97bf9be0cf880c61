/*
** writer.h -- writing amon.out (format: amon.h).
*/
#ifndef APROF_RUNTIME_WRITER_H
#define APROF_RUNTIME_WRITER_H

#include "internal.h"

/*
** Fixes the output path while the current directory is still the one the
** program started in: $APROF_OUT if set (ignored in setuid programs), else
** amon.out, made absolute.
*/
APROF_HIDDEN void aprof_writer_init(void);

/*
** The exit handler: charges the calling thread's last interval and writes
** every thread's contexts to the output path atomically (a temporary file,
** then rename).  A failure is reported on stderr with its reason.
*/
APROF_HIDDEN void aprof_writer_at_exit(void);

#endif /* APROF_RUNTIME_WRITER_H */
