/*
** s-heap-threads.c -- allocations and frees across threads.  Four threads
** each make BLOCKS blocks and hand every one to the next thread through
** that thread's mailbox (a mutex-protected queue), so every block is freed
** by another thread than the one that allocated it, while both run:
**
**   make_block    thread i allocates blocks of 24 + 8 i bytes: 2000 x
**                 (24 + 32 + 40 + 48) = 288000 bytes, 8000 allocations,
**                 all freed (by the next thread): kept 0;
**   grow_block    the receiving thread reallocs every even-numbered block
**                 it receives to 100 bytes: the free of the old block goes
**                 to make_block in the other thread, the new block to
**                 grow_block: 4000 x 100 = 400000 bytes, freed: kept 0;
**   consume       frees what it receives: charged nothing itself;
**   leak_block    thread i leaks 25 blocks of calloc(1, 1000 + i):
**                 25 x 4006 = 100150 bytes, 100 allocations, all kept;
**   early_block   main, before any thread exists (the runtime's heap then
**                 takes no lock: runtime/internal.h), allocates 400 blocks
**                 of 64 bytes, which the four threads free, 100 each,
**                 while they run: 25600 bytes, 400 allocations, kept 0.
**
** Each block carries its maker and number, checked by the receiver, so a
** block handed out twice or overwritten shows as a failure.  With the
** argument "dump", main also writes snapshots (aprof_dump) while the
** threads run: the writer reading counters that other threads change.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define BLOCKS 2000
#define LEAKS 25
#define EARLY 400

struct block {
	int maker;
	int k;
	char fill[];
};

/* A thread's mailbox: blocks from the previous thread, in order. */
struct mailbox {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct block *slot[BLOCKS];
	int head, tail;
};

static struct mailbox box[THREADS];
static void *leaked[THREADS][LEAKS]; /* each thread's own row */
static void *early[EARLY];           /* thread i frees the i-th quarter */

int aprof_dump(void) __attribute__((weak)); /* absent when built without libaprof */

struct block *make_block(int maker, int k);
struct block *grow_block(struct block *b);
void consume(int self, struct block *b);
void leak_block(int self, int k);
void early_block(int k);
void *worker(void *arg);


static size_t block_size(int maker)
{
	return 24 + 8 * (size_t)maker;
}


struct block *make_block(int maker, int k)
{
	struct block *b = malloc(block_size(maker));

	if (b == NULL)
		abort();
	b->maker = maker;
	b->k = k;
	memset(b->fill, 'a' + maker, block_size(maker) - sizeof *b);
	return b;
}


struct block *grow_block(struct block *b)
{
	struct block *g = realloc(b, 100);

	if (g == NULL)
		abort();
	return g;
}


void consume(int self, struct block *b)
{
	int from = (self + THREADS - 1) % THREADS;
	size_t i, n = block_size(from) - sizeof *b;

	if (b->maker != from)
		abort();
	for (i = 0; i < n; i++)
		if (b->fill[i] != 'a' + from)
			abort();
	if (b->k % 2 == 0)
		b = grow_block(b);
	free(b);
}


void leak_block(int self, int k)
{
	leaked[self][k] = calloc(1, 1000 + (size_t)self);
	if (leaked[self][k] == NULL)
		abort();
}


void early_block(int k)
{
	early[k] = malloc(64);
	if (early[k] == NULL)
		abort();
}


static void post(struct mailbox *m, struct block *b)
{
	pthread_mutex_lock(&m->lock);
	m->slot[m->tail++] = b;
	pthread_cond_signal(&m->more);
	pthread_mutex_unlock(&m->lock);
}


/* The next block in M; waits for one if WAIT, else NULL if none. */
static struct block *fetch(struct mailbox *m, int wait)
{
	struct block *b = NULL;

	pthread_mutex_lock(&m->lock);
	while (wait && m->head == m->tail)
		pthread_cond_wait(&m->more, &m->lock);
	if (m->head != m->tail)
		b = m->slot[m->head++];
	pthread_mutex_unlock(&m->lock);
	return b;
}


void *worker(void *arg)
{
	int self = (int)(long)arg, k, got = 0;
	struct mailbox *next = &box[(self + 1) % THREADS], *mine = &box[self];
	struct block *b;

	for (k = self * (EARLY / THREADS); k < (self + 1) * (EARLY / THREADS); k++)
		free(early[k]);
	for (k = 0; k < BLOCKS; k++) {
		post(next, make_block(self, k));
		while ((b = fetch(mine, 0)) != NULL) {
			consume(self, b);
			got++;
		}
		if (k < LEAKS)
			leak_block(self, k);
	}
	for (; got < BLOCKS; got++)
		consume(self, fetch(mine, 1));
	return NULL;
}


int main(int argc, char **argv)
{
	pthread_t t[THREADS];
	int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
	long i;

	for (i = 0; i < THREADS; i++) {
		pthread_mutex_init(&box[i].lock, NULL);
		pthread_cond_init(&box[i].more, NULL);
	}
	for (i = 0; i < EARLY; i++)
		early_block((int)i);
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 1;
	for (i = 0; dump && aprof_dump != NULL && i < 20; i++)
		if (aprof_dump() != 0)
			return 1;
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < THREADS; i++)
		if (box[i].head != BLOCKS || box[i].tail != BLOCKS)
			return 1;
	printf("blocks %d\n", THREADS * BLOCKS);
	return 0;
}
