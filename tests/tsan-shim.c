/*
** tsan-shim.c -- the real allocator of libaprof's malloc wrappers in the
** ThreadSanitizer build of tests/e2e-heap-threads.sh.
**
** ThreadSanitizer interposes the malloc family itself (its runtime comes
** first in the symbol lookup), so in a TSan program libaprof's malloc would
** never be called; and were it called, its __libc_* calls would hand TSan
** memory it never saw allocated.  So that build compiles runtime/malloc.c
** with its entry points renamed (malloc -> aprof_t_malloc ...) and its
** __libc_* calls (and heap.c's __libc_free) renamed to the functions
** below, which call the malloc family TSan intercepts: the program calls
** the renamed wrappers, which
** run all of libaprof's accounting (heap.c, blocks.c, the writer) under
** TSan, over memory TSan knows.
*/
#include <malloc.h>
#include <stdlib.h>

void *aprof_t_real_malloc(size_t size);
void *aprof_t_real_calloc(size_t n, size_t size);
void *aprof_t_real_realloc(void *p, size_t size);
void aprof_t_real_free(void *p);
void *aprof_t_real_memalign(size_t alignment, size_t size);
void *aprof_t_real_valloc(size_t size);
void *aprof_t_real_pvalloc(size_t size);


void *aprof_t_real_malloc(size_t size)
{
	return malloc(size);
}


void *aprof_t_real_calloc(size_t n, size_t size)
{
	return calloc(n, size);
}


void *aprof_t_real_realloc(void *p, size_t size)
{
	return realloc(p, size);
}


void aprof_t_real_free(void *p)
{
	free(p);
}


void *aprof_t_real_memalign(size_t alignment, size_t size)
{
	return memalign(alignment, size);
}


void *aprof_t_real_valloc(size_t size)
{
	return valloc(size);
}


void *aprof_t_real_pvalloc(size_t size)
{
	return pvalloc(size);
}
