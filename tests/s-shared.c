/*
** s-shared.c -- a routine shared by two callers that make the same number of
** calls but ask for 9:1 work.  gprof splits shared's time 1:1 between them
** (the average-time assumption); aprof must show 9:1 on the two arcs.  The
** callers take turns, 20 times each, so that a burst of load on the machine
** falls on both alike.
*/
static volatile unsigned long sink;

void shared(long n);
void big(void);
void small(void);


void shared(long n)
{
	long i;

	for (i = 0; i < n; i++)
		sink += (unsigned long)i;
}


void big(void)
{
	shared(22500000);
}


void small(void)
{
	shared(2500000);
}


int main(void)
{
	int i;

	for (i = 0; i < 20; i++) {
		big();
		small();
	}
	return 0;
}
