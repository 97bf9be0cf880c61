/*
** s-leaks.c -- a program with a known leak pattern through the whole malloc
** family, for exact byte counts per routine and for the comparison with
** valgrind memcheck (tests/e2e-valgrind.sh).
**
**   list_build > make_node   100 nodes: malloc(24) + strdup of a 10-byte
**                            name each: 3400 bytes, 200 allocations;
**   list_release             frees every node but leaks the odd nodes'
**                            names: make_node keeps 50 x 10 = 500 bytes;
**   grow_buffer              realloc from NULL through 16, 32 ... 4096:
**                            8176 bytes, 9 allocations, keeps the last 4096;
**   aligned                  posix_memalign 100 (kept), aligned_alloc 256,
**                            memalign 48 (kept), valloc 10: 414 bytes,
**                            4 allocations, keeps 148;
**   zeroed                   calloc 10 x 12 (kept), reallocarray 5 x 8,
**                            malloc 77 then realloc(p, 0): 237 bytes,
**                            3 allocations, keeps 120;
**   main                     printf: stdio's stdout buffer, never freed by
**                            glibc before exit (only by __libc_freeres).
**
** Frees are charged back to the routine that allocated, wherever they run.
** The last line printed is the program's own count of the bytes it left
** allocated (stdout's buffer aside).
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODES 100

/*
** Every block is stored here: a pointer that escapes keeps the compiler from
** eliding a malloc/free pair (GCC does at -O2, whatever -O0 the test asks:
** CFLAGS come last).
*/
void *volatile seen;

struct node {
	struct node *next;
	char *name;
	int value;
};

struct node *make_node(int value);
struct node *list_build(int n);
size_t list_release(struct node *list);
size_t grow_buffer(void);
size_t aligned(void);
size_t zeroed(void);


struct node *make_node(int value)
{
	struct node *n = malloc(sizeof *n);
	char name[16];

	if (n == NULL)
		exit(2);
	snprintf(name, sizeof name, "node-%04d", value); /* 9 characters */
	n->name = strdup(name);
	n->value = value;
	n->next = NULL;
	return n;
}


struct node *list_build(int n)
{
	struct node *head = NULL;
	int i;

	for (i = n - 1; i >= 0; i--) {
		struct node *x = make_node(i);

		x->next = head;
		head = x;
	}
	return head;
}


/* Frees every node; the odd nodes' names leak.  Returns the bytes leaked. */
size_t list_release(struct node *list)
{
	size_t leaked = 0;

	while (list != NULL) {
		struct node *next = list->next;

		if (list->value % 2 == 0)
			free(list->name);
		else
			leaked += strlen(list->name) + 1;
		free(list);
		list = next;
	}
	return leaked;
}


size_t grow_buffer(void)
{
	char *p = NULL;
	size_t size;

	for (size = 16; size <= 4096; size *= 2) {
		p = realloc(p, size);
		if (p == NULL)
			exit(2);
		memset(p, 'x', size);
	}
	seen = p;
	return size / 2; /* p leaks */
}


size_t aligned(void)
{
	void *a, *b, *c, *d;

	if (posix_memalign(&a, 64, 100) != 0)
		exit(2);
	b = aligned_alloc(128, 256);
	c = memalign(32, 48);
	d = valloc(10);
	if (b == NULL || c == NULL || d == NULL)
		exit(2);
	seen = a;
	seen = b;
	seen = c;
	seen = d;
	free(b);
	free(d);
	return 100 + 48; /* a and c leak */
}


size_t zeroed(void)
{
	int *z = calloc(10, 12);
	long *r = reallocarray(NULL, 5, sizeof(long));
	char *q = malloc(77);

	if (z == NULL || r == NULL || q == NULL)
		exit(2);
	seen = z;
	seen = r;
	seen = q;
	free(r);
	q = realloc(q, 0); /* glibc: frees q, returns NULL */
	free(q);
	return 10 * 12; /* z leaks */
}


int main(void)
{
	size_t leaked;

	leaked = list_release(list_build(NODES));
	leaked += grow_buffer();
	leaked += aligned();
	leaked += zeroed();
	printf("leaked %zu\n", leaked);
	return 0;
}
