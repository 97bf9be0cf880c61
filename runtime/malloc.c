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
#include <string.h>
#include <unistd.h>

#include "blocks.h"
#include "heap.h"
#include "heapcommon.h"
#include "interpose.h"

extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

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
APROF_API size_t malloc_usable_size(void *p);


/* 0 with APROF_HEAP=0: blocks are then glibc's, without a header. */
APROF_NOINSTR static inline int with_headers(void)
{
	return __atomic_load_n(&aprof_heap_wanted, __ATOMIC_RELAXED);
}


/*
** malloc, inline in realloc too (no call through the PLT): one comparison
** for APROF_HEAP=0 and the size (aprof_heap_malloc_below), then the common
** case (heapcommon.h) in place.  The size is copied to the register kept
** across glibc's call by the asm, after the comparison: GCC copies it
** before, for the comparison, and then saves and restores that register
** on APROF_HEAP=0's path too (3 instructions more a malloc).
*/
APROF_NOINSTR __attribute__((always_inline)) static inline void *malloc_inline(size_t size)
{
	size_t kept;

	if (APROF_UNLIKELY(size >= __atomic_load_n(&aprof_heap_malloc_below, __ATOMIC_RELAXED)))
		return __libc_malloc(size);
	__asm__("mov %1, %0" : "=r"(kept) : "r"(size));
	return aprof_heap_malloc(kept);
}


APROF_API void *malloc(size_t size)
{
	return malloc_inline(size);
}


APROF_API void *calloc(size_t n, size_t size)
{
	size_t bytes, total;

	if (!with_headers())
		return __libc_calloc(n, size);
	if (__builtin_mul_overflow(n, size, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	if (aprof_block_total(bytes, APROF_BLOCK_HEADER, &total) != 0)
		return NULL;
	return aprof_heap_block(__libc_calloc(1, total), bytes, APROF_BLOCK_HEADER);
}


APROF_API void free(void *p)
{
	if (p != NULL)
		aprof_heap_release(p);
}


/*
** realloc is the free of the old block and the allocation of the new one:
** every case but realloc_malloced's.  A block with a larger offset
** (memalign) is moved to a new malloc block.  P not NULL.
*/
APROF_NOINSTR __attribute__((noinline)) static void *realloc_block(void *p, size_t size)
{
	struct aprof_block b;
	void *q;

	if (size == 0) { /* glibc frees P and returns NULL */
		free(p);
		return NULL;
	}
	if (!aprof_block_get(p, &b)) {
		if (!with_headers())
			return __libc_realloc(p, size);
		/* glibc's own block: its copy, then the free of the old, as glibc would */
		q = malloc(size);
		if (q != NULL) {
			memcpy(q, p, size < malloc_usable_size(p) ? size : malloc_usable_size(p));
			free(p);
		}
		return q;
	}
	if (b.offset != APROF_BLOCK_HEADER) {
		q = malloc(size);
		if (q != NULL) {
			memcpy(q, p, size < b.size ? size : b.size);
			free(p);
		}
		return q;
	}
	/* a malloc block, which realloc_malloced leaves here only when SIZE is too large */
	errno = ENOMEM;
	return NULL;
}


/*
** realloc of a block, P not NULL: the common case, a malloc block (its
** header's tag tested as aprof_heap_release does) of 1 to
** APROF_BLOCK_SIZE_MAX bytes, its header words passed as they are, read
** before glibc frees them; realloc_block the others.  A function of its
** own, so that it saves three registers, not realloc_block's five (Lua
** binary-trees 12, callgrind: 21 instructions fewer a realloc).
*/
APROF_NOINSTR __attribute__((noinline)) static void *realloc_malloced(void *p, size_t size)
{
	const uint64_t *w = p;
	uint64_t word, tag, kept;
	void *q;

	if (APROF_UNLIKELY(size - 1 >= APROF_BLOCK_SIZE_MAX ||
			   ((w[-1] - APROF_BLOCK_MARK) & 63) != 0))
		return realloc_block(p, size);
	/*
	 * Copied to the registers kept across glibc's call after the tests, so
	 * that GCC saves them there alone (APROF_HEAP=0's realloc_block
	 * reached with none saved): the size as in malloc_inline, the tag
	 * read again (an atomic load, which GCC does not merge with the test's).
	 */
	__asm__("mov %1, %0" : "=r"(kept) : "r"(size));
	tag = __atomic_load_n(&w[-1], __ATOMIC_RELAXED);
	word = w[-2];
	q = __libc_realloc((char *)p - APROF_BLOCK_HEADER, size + APROF_BLOCK_HEADER);
	if (q == NULL)
		return NULL; /* P is still allocated, its header unchanged */
	return aprof_heap_realloc(q, kept, word, tag);
}


/* realloc(NULL, SIZE), a malloc, costs a test more: Lua allocates every object so. */
APROF_API void *realloc(void *p, size_t size)
{
	if (p == NULL)
		return malloc_inline(size);
	return realloc_malloced(p, size);
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


/*
** A block of SIZE bytes aligned to ALIGNMENT (a power of two): malloc's for
** up to 16, else glibc's memalign of ALIGNMENT more bytes, the program's
** block ALIGNMENT bytes in, the header just before it.
*/
APROF_NOINSTR static void *aligned(size_t alignment, size_t size)
{
	size_t total;

	if (alignment <= APROF_BLOCK_HEADER)
		return malloc(size);
	if (!with_headers())
		return __libc_memalign(alignment, size);
	if (alignment > APROF_BLOCK_OFFSET_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if (aprof_block_total(size, alignment, &total) != 0)
		return NULL;
	return aprof_heap_block(__libc_memalign(alignment, total), size, alignment);
}


APROF_API int posix_memalign(void **out, size_t alignment, size_t size)
{
	int saved = errno;
	void *p;

	if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 ||
	    alignment == 0)
		return EINVAL;
	p = aligned(alignment, size);
	if (p == NULL) {
		int e = errno;

		errno = saved;
		return e;
	}
	*out = p;
	return 0;
}


/* glibc (2.36) makes aligned_alloc an alias of memalign. */
APROF_API void *aligned_alloc(size_t alignment, size_t size)
{
	return memalign(alignment, size);
}


/* As glibc's: an alignment that is not a power of two is taken up to the next one. */
APROF_API void *memalign(size_t alignment, size_t size)
{
	size_t a = 1;

	while (a < alignment && a < APROF_BLOCK_OFFSET_MAX * 2)
		a *= 2;
	return aligned(a, size);
}


APROF_API void *valloc(size_t size)
{
	return aligned((size_t)sysconf(_SC_PAGESIZE), size);
}


APROF_API void *pvalloc(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (size > SIZE_MAX - page) {
		errno = ENOMEM;
		return NULL;
	}
	return aligned(page, size == 0 ? page : (size + page - 1) & ~(page - 1));
}


/* The bytes the program may use at P: glibc's figure for the real block, less the header's. */
APROF_API size_t malloc_usable_size(void *p)
{
	static void *real;
	size_t (*usable)(void *) = (size_t (*)(void *))aprof_next_definition(&real,
									"malloc_usable_size");
	struct aprof_block b;

	if (p == NULL)
		return 0;
	if (!aprof_block_get(p, &b))
		return usable(p);
	return usable((char *)p - b.offset) - b.offset;
}
