/*
** modules.h -- the loaded objects that hold instrumented routines, noted
** when a thread first meets one of their routines, so that an object
** dlclose'd before exit is still in amon.out with its path, load bias and
** build-id.
*/
#ifndef APROF_RUNTIME_MODULES_H
#define APROF_RUNTIME_MODULES_H

#include <limits.h>
#include <stdint.h>

#include "amon.h"
#include "internal.h"

/* An object as amon.out records it (struct amon_module) and its path. */
struct aprof_module {
	struct amon_module m;
	char path[PATH_MAX];
};

/*
** Notes the object holding ADDR, unless already noted.  Slow path only (a
** routine new to a thread); takes a spin lock and may walk dl_iterate_phdr.
*/
APROF_HIDDEN void aprof_module_note(uintptr_t addr);

/* Fills *M with the main executable (path from /proc/self/exe). */
APROF_HIDDEN void aprof_module_exe(struct aprof_module *m);

/* The noted objects, N of them, in the order noted (a table never unmapped). */
APROF_HIDDEN const struct aprof_module *aprof_modules(size_t *n);

#endif /* APROF_RUNTIME_MODULES_H */
