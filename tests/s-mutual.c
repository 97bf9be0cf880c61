/*
** s-mutual.c -- mutual recursion P -> Q -> R -> P, each level doing some work
** of its own: no routine may be charged more than the run, nor twice.
** main calls p(30) 1000 times: p, q and r are each entered 10 times per
** descent (depth 30 counts down one per call), so 10000 calls each.
*/
static volatile unsigned long sink;

void p(int n);
void q(int n);
void r(int n);


static void spin(int k)
{
	int i;

	for (i = 0; i < k; i++)
		sink += (unsigned long)i;
}


void p(int n)
{
	spin(200);
	if (n > 0)
		q(n - 1);
}


void q(int n)
{
	spin(300);
	if (n > 0)
		r(n - 1);
}


void r(int n)
{
	spin(500);
	if (n > 0)
		p(n - 1);
}


int main(void)
{
	int i;

	for (i = 0; i < 1000; i++)
		p(29);
	return 0;
}
