/*
** heap-bench.c -- the allocation-tracking benchmark: an allocation-heavy
** program, many mallocs, reallocs and frees of mixed sizes through a few
** routines, with a live set that stays near SLOTS blocks, so that the cost
** of following allocations (libaprof's wrappers, side table and counters;
** heaptrack's) shows against the bare program.
**
** Each step picks a slot with a fixed linear congruential generator and
** frees the block in it, if any (release), then allocates a new one:
** mostly small (alloc_small, 8-256 bytes, 7 of 10), some medium
** (alloc_medium, 257-4096, 2 of 10), a few large (alloc_large, 4 KiB-64 KiB,
** 1 of 20, one in four of them grown once with realloc), the rest
** calloc'ed (alloc_zeroed, 16-512).  Every block's first and last bytes are
** written, so blocks are real memory.  Three profiled calls per allocation
** (step, release, an allocator); the helpers are left out of the profile.
** Deterministic: the same allocations in every run and build.
**
** Usage: heap-bench [millions of allocations, default 4]
** Prints the allocations made and a checksum.
*/
#include <stdio.h>
#include <stdlib.h>

#define SLOTS 4096

/* Left out of the profile (never instrumented). */
#define HELPER __attribute__((no_instrument_function))

static void *slot[SLOTS];
static unsigned long seed = 12345;
static unsigned long sum;

void *alloc_small(size_t n);
void *alloc_medium(size_t n);
void *alloc_large(size_t n);
void *alloc_zeroed(size_t n);
void release(int i);
unsigned long step(void);


HELPER static unsigned long next_random(void)
{
	seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	return seed >> 33;
}


HELPER static void *touch(void *p, size_t n)
{
	if (p == NULL) {
		perror("heap-bench");
		exit(1);
	}
	((char *)p)[0] = (char)n;
	((char *)p)[n - 1] = (char)n;
	return p;
}


void *alloc_small(size_t n)
{
	return touch(malloc(n), n);
}


void *alloc_medium(size_t n)
{
	return touch(malloc(n), n);
}


void *alloc_large(size_t n)
{
	void *p = touch(malloc(n), n);

	if (n % 4 == 0) /* one in four grows */
		p = touch(realloc(p, n + n / 2), n + n / 2);
	return p;
}


void *alloc_zeroed(size_t n)
{
	return touch(calloc(1, n), n);
}


void release(int i)
{
	if (slot[i] != NULL) {
		sum += (unsigned char)((char *)slot[i])[0];
		free(slot[i]);
		slot[i] = NULL;
	}
}


/* One step: frees a slot's block and allocates another; returns the allocations made. */
unsigned long step(void)
{
	unsigned long r = next_random();
	int i = (int)(r % SLOTS);
	unsigned long kind = (r >> 12) % 20;
	size_t n;

	release(i);
	if (kind < 14) {
		n = 8 + (r >> 17) % 249;
		slot[i] = alloc_small(n);
	} else if (kind < 18) {
		n = 257 + (r >> 17) % 3840;
		slot[i] = alloc_medium(n);
	} else if (kind < 19) {
		n = 4096 + (r >> 17) % 61441;
		slot[i] = alloc_large(n);
		return n % 4 == 0 ? 2 : 1; /* a realloc is a second allocation */
	} else {
		n = 16 + (r >> 17) % 497;
		slot[i] = alloc_zeroed(n);
	}
	return 1;
}


int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
	unsigned long allocations = 0, target = millions * 1000000ul;
	int i;

	while (allocations < target)
		allocations += step();
	for (i = 0; i < SLOTS; i++)
		release(i);
	printf("%lu allocations, checksum %lu\n", allocations, sum);
	return 0;
}
