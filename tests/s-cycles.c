/*
** s-cycles.c -- two separate cycles of recursion, for --cycles: A -> B -> A
** (entered 3 times from main, traversed 4 times each: 12) and C -> D -> E ->
** C (entered once, traversed 5 times), and nothing else recursive.  The
** paper's single cycle is tests/s-pqrs.c.
*/
void A(int n);
void B(int n);
void C(int n);
void D(int n);
void E(int n);


void A(int n)
{
	B(n);
}


void B(int n)
{
	if (n > 0)
		A(n - 1);
}


void C(int n)
{
	D(n);
}


void D(int n)
{
	E(n);
}


void E(int n)
{
	if (n > 0)
		C(n - 1);
}


int main(void)
{
	int i;

	for (i = 0; i < 3; i++)
		A(4);
	C(5);
	return 0;
}
