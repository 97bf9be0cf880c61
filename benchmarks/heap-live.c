/*
** heap-live.c -- heap tracking on a real heap: a large live set
** that no cache holds, as a compiler's or a server's.  LIVE blocks of 16 to
** 271 bytes are allocated, then REPLACEMENTS times one of them, picked at
** random, is freed and replaced by a new block of a random size; at the end
** every block is freed.  Each new block's first byte is written, as a
** program would.  The work is one routine that is never instrumented, so an
** instrumented build makes no hook calls in the loop: what the profiler adds
** to a malloc/free pair is its heap tracking alone.  Deterministic: the same sizes in every run.
**
** Usage: heap-live [LIVE [REPLACEMENTS]]   (defaults 1000000 10000000)
** Prints one line: the replacement loop's CPU time in seconds (the
** process's: steadier than wall time on a busy machine), its
** malloc/free pairs, the run's allocations, bytes allocated, frees and bytes
** freed (exact: what aprof must report), and the peak RSS in KiB
** (getrusage).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t state = 0x9E3779B97F4A7C15ull;

/* xorshift64*: a fixed sequence, inlined and never instrumented (no hook in the loop). */
static inline __attribute__((no_instrument_function)) uint64_t next_random(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545F4914F6CDD1Dull;
}


static __attribute__((no_instrument_function)) double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}


/* What a run did: exact counts, what aprof must report. */
struct run {
	double loop;                 /* CPU seconds of the replacement loop */
	unsigned long allocs, frees;
	uint64_t bytes, freed;
	long rss;                    /* peak RSS, KiB */
};


/*
** The work, never instrumented and never inlined, so that it is the same
** machine code in the bare and the instrumented build: only main, which
** calls it, makes hook calls (and so starts the profiler).
*/
static __attribute__((no_instrument_function, noinline)) int work(size_t live, unsigned long n,
								 struct run *r)
{
	unsigned char **block;
	uint16_t *size;
	struct rusage ru;
	unsigned long i;
	double start;

	block = calloc(live, sizeof block[0]);
	size = calloc(live, sizeof size[0]);
	if (block == NULL || size == NULL || live == 0)
		return 1;
	r->allocs += 2;
	r->bytes += live * (sizeof block[0] + sizeof size[0]);
	for (i = 0; i < live; i++) {
		size[i] = (uint16_t)(16 + next_random() % 256);
		block[i] = malloc(size[i]);
		block[i][0] = (unsigned char)i;
		r->allocs++;
		r->bytes += size[i];
	}
	start = now();
	for (i = 0; i < n; i++) {
		uint64_t x = next_random();
		size_t k = (size_t)(x % live);

		free(block[k]);
		r->frees++;
		r->freed += size[k];
		size[k] = (uint16_t)(16 + (x >> 32) % 256);
		block[k] = malloc(size[k]);
		block[k][0] = (unsigned char)x;
		r->allocs++;
		r->bytes += size[k];
	}
	r->loop = now() - start;
	getrusage(RUSAGE_SELF, &ru);
	r->rss = ru.ru_maxrss;
	for (i = 0; i < live; i++) {
		free(block[i]);
		r->frees++;
		r->freed += size[i];
	}
	free(block);
	free(size);
	r->frees += 2;
	r->freed += live * (sizeof block[0] + sizeof size[0]);
	return 0;
}


int main(int argc, char **argv)
{
	size_t live = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000000;
	struct run r = { 0, 0, 0, 0, 0, 0 };

	setvbuf(stdout, NULL, _IONBF, 0); /* no stdio buffer: the allocations are work's */
	if (work(live, n, &r) != 0)
		return 1;
	printf("%.6f %lu %lu %llu %lu %llu %ld\n", r.loop, n, r.allocs, (unsigned long long)r.bytes,
	       r.frees, (unsigned long long)r.freed, r.rss);
	return 0;
}
