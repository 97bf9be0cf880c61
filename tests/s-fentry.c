/*
** s-fentry.c -- what a return trampoline could break, built -O2 -pg
** -mfentry (tests/e2e-fentry.sh): tail calls (top reaches mid or leaf by
** a jump; even and odd call each other by jumps, 100000 deep, which must
** not grow the shadow stack), values returned in every register (rax:rdx,
** xmm0:xmm1, the x87 stack), arguments in vector registers and on the
** stack, a variadic call, and backtrace() from 3 routines deep.  It prints
** what it computed, which must not change with the profiler: the test
** compares it with the same objects run on glibc's own __fentry__.
*/
#include <execinfo.h>
#include <stdarg.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline, noclone))

struct two_longs { long a, b; };
struct two_doubles { double x, y; };

volatile int sink;

NOINLINE int leaf(int i)
{
	sink += i;
	return i + 1;
}

/* Tail calls: mid's call of leaf, top's of mid and leaf are jumps at -O2. */
NOINLINE int mid(int i)
{
	sink++;
	return leaf(i * 2);
}

NOINLINE int top(int i)
{
	if (i & 1)
		return mid(i);
	sink--;
	return leaf(i);
}

NOINLINE long odd(long n);

NOINLINE long even(long n)
{
	sink++;
	return n == 0 ? 1 : odd(n - 1);
}

NOINLINE long odd(long n)
{
	sink++;
	return n == 0 ? 0 : even(n - 1);
}

NOINLINE struct two_longs pair(long a, long b)
{
	struct two_longs r = { a * 3, b * 5 };

	sink++;
	return r;
}

NOINLINE struct two_doubles halves(double x, double y)
{
	struct two_doubles r = { x / 2, y / 4 };

	sink++;
	return r;
}

NOINLINE long double extended(long double x)
{
	sink++;
	return x * 3;
}

/* Eight vector arguments and two on the stack. */
NOINLINE double many(double a, double b, double c, double d, double e, double f, double g,
		     double h, double i, double j)
{
	sink++;
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

NOINLINE double sum(int n, ...)
{
	va_list ap;
	double s = 0;

	va_start(ap, n);
	while (n-- > 0)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

NOINLINE int trace3(void)
{
	void *frames[64];

	return backtrace(frames, 64);
}

/* No tail calls: sink written after the call. */
NOINLINE int trace2(void)
{
	int n = trace3();

	sink++;
	return n;
}

NOINLINE int trace1(void)
{
	int n = trace2();

	sink++;
	return n;
}

int main(void)
{
	int i, s = 0;
	long p = 0;
	double d = 0;
	long double x = 0;

	for (i = 0; i < 10; i++) {
		struct two_longs l = pair(i, -i);
		struct two_doubles h = halves(i, i + 1);

		s += top(i);
		p += l.a + l.b;
		d += h.x + h.y + many(i, 1, 2, 3, 4, 5, 6, 7, 8, 9);
		x += extended(i + 0.5L);
		d += sum(3, 0.25, 0.5, (double)i);
	}
	printf("top %d pair %ld double %.3f extended %.3Lf\n", s, p, d, x);
	printf("even(100000) %ld\n", even(100000));
	printf("backtrace depth %d\n", trace1());
	return 0;
}
