/*
** demo.c -- a small program whose profile gprof gets wrong and aprof gets
** right.  It renders a "scene" of shapes: draw() is shared by two callers
** that call it equally often but with very different amounts of work (gprof
** splits draw's time between them by call counts, 1:1; the truth is about
** 9:1), and an expression evaluator recurses mutually through expr, term and
** factor (gprof lumps them into one cycle; aprof keeps each exact).  The
** program times the two painters itself and prints the ratio it saw, the
** figure aprof's arcs into draw should show (tests/e2e-demo.sh checks it),
** in CPU time, the time aprof samples.  About a second of work, so that
** aprof's default thousand samples a second resolve the cycle's few percent.
*/
#include <stdio.h>
#include <time.h>

static volatile unsigned long pixels;

void draw(int size);
void paint_background(void);
void paint_icons(void);
long expr(const char **s);
long term(const char **s);
long factor(const char **s);


/* Fills SIZE x SIZE pixels. */
void draw(int size)
{
	int x, y;

	for (y = 0; y < size; y++)
		for (x = 0; x < size; x++)
			pixels += (unsigned long)(x ^ y);
}


/* 100 big rectangles. */
void paint_background(void)
{
	int i;

	for (i = 0; i < 100; i++)
		draw(2700);
}


/* 100 small icons: as many calls of draw as the background, a ninth of the work. */
void paint_icons(void)
{
	int i;

	for (i = 0; i < 100; i++)
		draw(900);
}


/* factor := digit | '(' expr ')' */
long factor(const char **s)
{
	long v;

	if (**s == '(') {
		(*s)++;
		v = expr(s);
		(*s)++; /* ')' */
		return v;
	}
	return *(*s)++ - '0';
}


/* term := factor { '*' factor } */
long term(const char **s)
{
	long v = factor(s);

	while (**s == '*') {
		(*s)++;
		v *= factor(s);
	}
	return v;
}


/* expr := term { '+' term } */
long expr(const char **s)
{
	long v = term(s);

	while (**s == '+') {
		(*s)++;
		v += term(s);
	}
	return v;
}


/* Seconds of the thread's CPU time (not profiled: no hooks, no entry in the report). */
static double now(void) __attribute__((no_instrument_function));

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


int main(void)
{
	const char *text = "(1+2*(3+4*(5+6)))*((7+8)*9+(1+(2*3)))+4";
	double t0, t1, t2;
	long sum = 0;
	int i;

	t0 = now();
	paint_background();
	t1 = now();
	paint_icons();
	t2 = now();
	for (i = 0; i < 180000; i++) {
		const char *s = text;

		sum += expr(&s);
	}
	printf("demo: %lu pixels, expression sum %ld; measured background:icons %.2f\n", pixels,
	       sum, (t1 - t0) / (t2 - t1));
	return 0;
}
