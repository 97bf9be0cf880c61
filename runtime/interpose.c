/*
** interpose.c -- reaching the definition that an interposed entry point of
** libaprof hides, without the program's malloc seeing dlsym's.
*/
#include <config.h>

#include <dlfcn.h>
#include <stdlib.h>

#include "diag.h"
#include "interpose.h"
#include "thread.h"


APROF_NOINSTR void *aprof_next_definition_or_null(void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);

	if (f == NULL) {
		aprof_busy++; /* dlsym may allocate */
		f = dlsym(RTLD_NEXT, name);
		aprof_busy--;
		__atomic_store_n(cache, f, __ATOMIC_RELEASE);
	}
	return f;
}


APROF_NOINSTR void *aprof_next_definition(void **cache, const char *name)
{
	void *f = aprof_next_definition_or_null(cache, name);

	if (f == NULL) {
		aprof_say("%s: the C library's own is not in this program (linked -static?): "
			  "link it dynamically to profile it", name);
		abort();
	}
	return f;
}
