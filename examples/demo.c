/*
** demo.c -- a small program whose profile gprof gets wrong and aprof gets
** right.  It renders a "scene" of shapes: draw() is shared by two callers
** that call it equally often but with very different amounts of work (gprof
** splits draw's time between them by call counts, 1:1; the truth is about
** 9:1), and an expression evaluator recurses mutually through expr, term and
** factor (gprof lumps them into one cycle; aprof keeps each exact).
*/
#include <stdio.h>

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
		draw(900);
}


/* 100 small icons: as many calls of draw as the background, a ninth of the work. */
void paint_icons(void)
{
	int i;

	for (i = 0; i < 100; i++)
		draw(300);
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


int main(void)
{
	const char *text = "(1+2*(3+4*(5+6)))*((7+8)*9+(1+(2*3)))+4";
	long sum = 0;
	int i;

	paint_background();
	paint_icons();
	for (i = 0; i < 20000; i++) {
		const char *s = text;

		sum += expr(&s);
	}
	printf("demo: %lu pixels, expression sum %ld\n", pixels, sum);
	return 0;
}
