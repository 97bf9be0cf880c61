/*
** amon_write.h -- the analyser's amon.out writer: an amon_data (a sum of
** profiles) back to a file every report reads (format: runtime/amon.h).
*/
#ifndef APROF_EXPORT_AMON_WRITE_H
#define APROF_EXPORT_AMON_WRITE_H

#include "aprof/read/amon_read.h"

/*
** Writes D to PATH as an amon.out of the current version: header, the
** executable's and the other modules' records, one thread record per thread
** (newest first, as the runtime writes them), the heap record if D has heap
** data, and the CRC-32 seal.  Contexts are written with the ticks D charges
** them and no hook costs (events and the threads' calibration zero), so
** amon_read gives D's numbers back exactly.  Dies with one line if PATH
** cannot be written.
*/
void amon_write(const struct amon_data *d, const char *path);

#endif /* APROF_EXPORT_AMON_WRITE_H */
