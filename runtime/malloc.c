/*
** malloc.c -- the malloc family, interposed: libaprof's definitions come
** before libc's in the program's symbol lookup, so the program, libc itself
** and libstdc++'s operator new and delete (all forms, sized and aligned
** included, which end in these) reach them.  The real allocator is glibc's
** __libc_* entry points, which never come back here, so no dlsym bootstrap
** is needed.  Each wrapper charges the block to the current context of the
** calling thread; each free charges the context that allocated it.  Every
** allocation charged counts towards the next autosave (policy.c).
*/
#include <config.h>

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "blocks.h"
#include "heap.h"
#include "policy.h"
#include "startup.h"
#include "thread.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

APROF_API void *malloc(size_t size);
APROF_API void *calloc(size_t n, size_t size);
APROF_API void *realloc(void *p, size_t size);
APROF_API void *reallocarray(void *p, size_t n, size_t size);
APROF_API void free(void *p);
APROF_API int posix_memalign(void **out, size_t alignment, size_t size);
APROF_API void *aligned_alloc(size_t alignment, size_t size);
APROF_API void *memalign(size_t alignment, size_t size);
APROF_API void *valloc(size_t size);
APROF_API void *pvalloc(size_t size);


/*
** Charges P, if the allocation succeeded, and counts it towards the next
** autosave; returns it.  A thread that allocates before its first hook gets
** its state here, once the runtime has started.
*/
APROF_NOINSTR static void *charged(void *p, size_t size)
{
	if (p == NULL)
		return p;
	if (APROF_UNLIKELY(aprof_self == NULL) && !aprof_busy &&
	    __atomic_load_n(&aprof_started, __ATOMIC_ACQUIRE) &&
	    __atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED))
		aprof_startup_thread();
	if (aprof_heap_alloc(p, size))
		aprof_policy_count_allocation();
	return p;
}


APROF_API void *malloc(size_t size)
{
	return charged(__libc_malloc(size), size);
}


APROF_API void *calloc(size_t n, size_t size)
{
	/* __libc_calloc fails on overflow, so n * size is exact when it succeeds. */
	return charged(__libc_calloc(n, size), n * size);
}


APROF_API void free(void *p)
{
	struct aprof_block b;

	if (p == NULL)
		return;
	if (aprof_heap_take(p, &b))
		aprof_heap_free(&b);
	__libc_free(p);
}


/* realloc is the free of the old block and the allocation of the new one. */
APROF_API void *realloc(void *p, size_t size)
{
	struct aprof_block b;
	int followed;
	void *q;

	if (p == NULL)
		return malloc(size);
	if (size == 0) { /* glibc frees P and returns NULL */
		free(p);
		return NULL;
	}
	followed = aprof_heap_take(p, &b);
	q = __libc_realloc(p, size);
	if (q == NULL) {
		if (followed)
			aprof_heap_put_back(&b); /* P is still allocated */
		return NULL;
	}
	if (followed)
		aprof_heap_free(&b);
	return charged(q, size);
}


APROF_API void *reallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, bytes);
}


APROF_API int posix_memalign(void **out, size_t alignment, size_t size)
{
	void *p;

	if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 ||
	    alignment == 0)
		return EINVAL;
	p = __libc_memalign(alignment, size);
	if (p == NULL)
		return ENOMEM;
	*out = charged(p, size);
	return 0;
}


/* glibc (2.36) makes aligned_alloc an alias of memalign. */
APROF_API void *aligned_alloc(size_t alignment, size_t size)
{
	return charged(__libc_memalign(alignment, size), size);
}


APROF_API void *memalign(size_t alignment, size_t size)
{
	return charged(__libc_memalign(alignment, size), size);
}


APROF_API void *valloc(size_t size)
{
	return charged(__libc_valloc(size), size);
}


APROF_API void *pvalloc(size_t size)
{
	return charged(__libc_pvalloc(size), size);
}
