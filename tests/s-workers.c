/*
** s-workers.c -- 8 threads, named "worker-0".."worker-7" with
** pthread_setname_np, each doing known work: thread i calls leaf
** 1000 * (i + 1) times and step i + 1 times from worker, and step calls
** leaf once more.  Merged: worker 8 calls, step 36, leaf 36041 (36000
** from worker, 36 from step, 5 from main).  Thread i's own entries are
** 1 (worker) + 1000 * (i + 1) (leaf) + 2 * (i + 1) (step and its leaf).
*/
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

#define THREADS 8

static volatile unsigned long sink;
static pthread_barrier_t ready;

void leaf(int i);
void step(int i);
void *worker(void *arg);


void leaf(int i)
{
	__atomic_add_fetch(&sink, (unsigned long)i, __ATOMIC_RELAXED);
}


void step(int i)
{
	leaf(i);
}


void *worker(void *arg)
{
	int n = (int)(long)arg, i;
	char name[16];

	snprintf(name, sizeof name, "worker-%d", n);
	pthread_setname_np(pthread_self(), name);
	/* All eight run at once: the runtime sees them concurrently. */
	pthread_barrier_wait(&ready);
	for (i = 0; i < 1000 * (n + 1); i++)
		leaf(i);
	for (i = 0; i <= n; i++)
		step(i);
	return NULL;
}


int main(void)
{
	pthread_t t[THREADS];
	int i;

	pthread_barrier_init(&ready, NULL, THREADS);
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(long)i) != 0)
			return 1;
	for (i = 0; i < 5; i++)
		leaf(i);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("sink %lu\n", sink);
	return 0;
}
