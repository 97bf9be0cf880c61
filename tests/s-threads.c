/*
** s-threads.c -- 4 threads, each calling leaf 1000 times from worker; main
** calls leaf 10 times itself.  Each thread has its own shadow stack and
** machine; the report merges them: worker 4 calls, leaf 4010.
*/
#include <pthread.h>
#include <stdio.h>

#define THREADS 4

static volatile unsigned long sink;

void leaf(int i);
void *worker(void *arg);


void leaf(int i)
{
	sink += (unsigned long)i;
}


void *worker(void *arg)
{
	int i;

	for (i = 0; i < 1000; i++)
		leaf(i);
	return arg;
}


int main(void)
{
	pthread_t t[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (i = 0; i < 10; i++)
		leaf(i);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("sink %lu\n", sink);
	return 0;
}
