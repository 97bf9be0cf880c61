/*
** s-entries.c -- entries into a cycle of recursion, for --cycles: a and b
** call each other (a -> b -> a), entered 3 times from main (a(4), closed
** at a 4 times each), 5 times from c (b(1), closed at b once each) and once
** from d (a(1), once).  y, outside the cycle, calls b while a is active,
** 3 times: calls into a member that are no entry.  So: entered from c
** 5 times, main 3 times, d 1 time; traversed 3 * 4 + 5 + 1 = 18 times.
*/
void a(int n);
void b(int n);
void c(void);
void d(void);
void y(void);


/* Calls b while a is active and b is not: the cycle is under way. */
void y(void)
{
	b(0);
}


void a(int n)
{
	if (n == 4)
		y();
	b(n);
}


void b(int n)
{
	if (n > 0)
		a(n - 1);
}


void c(void)
{
	b(1);
}


void d(void)
{
	a(1);
}


int main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		a(4);
	for (i = 0; i < 5; i++)
		c();
	d();
	return 0;
}
