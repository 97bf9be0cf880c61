/*
** s-bigframe.c -- after a longjmp, the first routine entered has a 100000-byte
** frame, whose uninitialised bytes hold stale copies of return addresses from
** earlier rounds: the runtime must still find its true caller (main), 10 times.
*/
#include <setjmp.h>

static jmp_buf env;
static volatile int sink;

void bail(void);
void descend(int n);
void after_big(void);
void later(void);


void bail(void)
{
	longjmp(env, 1);
}


void descend(int n)
{
	sink++;
	if (n == 0)
		bail();
	else
		descend(n - 1);
	sink++;
}


void after_big(void)
{
	volatile char buf[100000];

	buf[0] = 1;
	buf[99999] = 2;
	sink += buf[0] + buf[99999];
}


void later(void)
{
	sink++;
}


int main(void)
{
	volatile int round;

	for (round = 0; round < 10; round++) {
		if (setjmp(env) == 0)
			descend(3);
		after_big();
		later();
	}
	return 0;
}
