/*
** s-ownmalloc.c -- a program with its own malloc, calloc, realloc and free
** over dlsym(RTLD_NEXT, ...), as counting shims and allocation debuggers
** write them.  Each appends a letter to file descriptor 3, if open (m, c, r
** or f), so that every call is seen, whoever makes it.  main allocates 3
** blocks (malloc, calloc, realloc), looks up a symbol that does not exist
** (dlsym: an error message, allocated), frees the 3 blocks and prints the
** message.
*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef void *malloc_fn(size_t);
typedef void *calloc_fn(size_t, size_t);
typedef void *realloc_fn(void *, size_t);
typedef void free_fn(void *);

static malloc_fn *next_malloc;
static realloc_fn *next_realloc;
static free_fn *next_free;
static calloc_fn *next_calloc;

/* A block for dlsym's calloc, which may come before next_calloc is known. */
static char early[1024];
static int resolving;
static void *volatile seen;


static void note(char c)
{
	ssize_t r = write(3, &c, 1);

	(void)r;
}


/* The next definitions, all at once, at the first call of any. */
static void resolve(void)
{
	if (next_free != NULL || resolving)
		return;
	resolving = 1;
	next_malloc = (malloc_fn *)dlsym(RTLD_NEXT, "malloc");
	next_calloc = (calloc_fn *)dlsym(RTLD_NEXT, "calloc");
	next_realloc = (realloc_fn *)dlsym(RTLD_NEXT, "realloc");
	next_free = (free_fn *)dlsym(RTLD_NEXT, "free");
	resolving = 0;
}


void *malloc(size_t size)
{
	note('m');
	resolve();
	return next_malloc(size);
}


void *calloc(size_t n, size_t size)
{
	note('c');
	resolve();
	if (next_calloc == NULL)
		return n * size <= sizeof early ? early : NULL;
	return next_calloc(n, size);
}


void *realloc(void *p, size_t size)
{
	note('r');
	resolve();
	return next_realloc(p, size);
}


void free(void *p)
{
	note('f');
	if (p == early)
		return;
	resolve();
	next_free(p);
}


int main(void)
{
	char *a = malloc(10), *b = calloc(4, 8), *c = realloc(NULL, 100);
	void *none = dlsym(RTLD_DEFAULT, "aprof_no_such_symbol");

	seen = a; /* the blocks escape: no compiler may drop them */
	seen = b;
	seen = c;
	free(a);
	free(b);
	free(c);
	printf("%s %s\n", none == NULL ? "absent" : "present", dlerror() != NULL ? "said" : "silent");
	return 0;
}
