/*
** s-blocks.c -- the block header (runtime/blocks.h) in every shape of
** allocation: the memalign family aligned as asked, every usable byte
** (malloc_usable_size) written, realloc of plain and aligned blocks keeping
** their contents, realloc(NULL) and realloc(p, 0), and two blocks that
** glibc gave out itself (__libc_malloc, not through libaprof) freed and
** reallocated.  Exits 1 with a message if a block is misaligned or lost
** its contents.
**
** All of it is charged to blocks(): 12 allocations of 7,210 bytes plus a
** page (pvalloc(10)), 12 frees of as many bytes, none kept; the two frees of
** glibc's own blocks are untracked.  (Without glibc's blocks: 13 and 7,250.)
*/
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);

static int failed;


/* P must be aligned to ALIGN and take SIZE bytes, all its usable bytes; fills them with C. */
static void check(const char *what, void *p, size_t align, size_t size, int c)
{
	size_t usable = malloc_usable_size(p);

	if (p == NULL || (uintptr_t)p % align != 0 || usable < size) {
		fprintf(stderr, "s-blocks: %s: %p, usable %zu, want %zu bytes aligned to %zu\n", what, p,
			usable, size, align);
		failed = 1;
		return;
	}
	memset(p, c, usable);
}


/* The first N bytes of P must all be C. */
static void kept(const char *what, const void *p, size_t n, int c)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != (unsigned char)c) {
			fprintf(stderr, "s-blocks: %s: byte %zu changed\n", what, i);
			failed = 1;
			return;
		}
}


void blocks(int foreign)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *a, *c, *d, *e, *f, *g, *h, *x, *y;
	void *b;
	size_t i;

	a = malloc(100);
	check("malloc", a, 16, 100, 1);
	if (posix_memalign(&b, 64, 200) != 0)
		b = NULL;
	check("posix_memalign", b, 64, 200, 2);
	c = aligned_alloc(4096, 5000);
	check("aligned_alloc", c, 4096, 5000, 3);
	d = memalign(256, 10);
	check("memalign", d, 256, 10, 4);
	e = valloc(100);
	check("valloc", e, page, 100, 5);
	f = pvalloc(10);
	check("pvalloc", f, page, page, 6);
	g = calloc(10, 30);
	for (i = 0; g != NULL && i < 300; i++)
		if (g[i] != 0)
			failed = 1;
	check("calloc", g, 16, 300, 7);
	a = realloc(a, 1000);   /* grown: the first 100 bytes kept */
	kept("realloc grown", a, 100, 1);
	check("realloc grown", a, 16, 1000, 1);
	a = realloc(a, 50);     /* shrunk */
	kept("realloc shrunk", a, 50, 1);
	b = realloc(b, 300);    /* an aligned block, moved to a plain one */
	kept("realloc aligned", b, 200, 2);
	check("realloc aligned", b, 16, 300, 2);
	h = realloc(NULL, 70);
	check("realloc(NULL)", h, 16, 70, 8);
	if (realloc(h, 0) != NULL) /* glibc frees it */
		failed = 1;
	if (foreign) {
		x = __libc_malloc(40);  /* glibc's own blocks: freed, and reallocated */
		memset(x, 9, 40);
		free(x);
		y = __libc_malloc(40);
		memset(y, 9, 40);
	} else {
		y = malloc(40);
		memset(y, 9, 40);
	}
	y = realloc(y, 80);
	kept("realloc of glibc's own block", y, 40, 9);
	check("realloc of glibc's own block", y, 16, 80, 9);
	free(y);
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
	free(f);
	free(g);
}


int main(int argc, char **argv)
{
	(void)argv;
	blocks(argc == 1);
	return failed;
}
