/*
** widgets.c -- mprof's producer/consumer example (Zorn and Hilfinger, "A
** Memory Allocation Profiler for C and Lisp Programs", figure 1): two
** producers, make_red_widget and make_blue_widget, get their widgets from
** make_widget; the consumer frees blue widgets but, by a bug, never red
** ones.  The program counts the bytes it requests and those it never frees,
** and prints them, so that aprof --heap can be checked against it: the leak
** table must show one path, main > make_red_widget > make_widget, with the
** bytes never freed, and the tables' totals the bytes requested.
**
** Nothing else may allocate: stdout is unbuffered (no stdio buffer is
** malloc'ed) and the coin is a fixed linear congruential generator.
*/
#include <stdio.h>
#include <stdlib.h>

#define WIDGETS 10000

enum color { RED, BLUE };

/* 204 bytes, mprof's widget size: 10000 widgets of which 5019 leak make its 1,023,876 bytes. */
struct widget {
	enum color color;
	char data[200];
};

static unsigned long requested; /* bytes asked of malloc */
static unsigned long freed;     /* bytes given back to free */
static unsigned long seed = 1;


/* 1 or 0 with equal probability: bit 16 of a fixed LCG (POSIX's rand example). */
static int random_flip(void)
{
	seed = seed * 1103515245 + 12345;
	return (int)((seed >> 16) & 1);
}


static struct widget *make_widget(enum color c)
{
	struct widget *w = malloc(sizeof(*w));

	if (w == NULL) {
		perror("widgets");
		exit(1);
	}
	requested += sizeof(*w);
	w->color = c;
	return w;
}


static struct widget *make_red_widget(void)
{
	return make_widget(RED);
}


static struct widget *make_blue_widget(void)
{
	return make_widget(BLUE);
}


/* The bug of mprof's example: red widgets are never freed. */
static void consume_widget(struct widget *w)
{
	if (w->color == BLUE) {
		freed += sizeof(*w);
		free(w);
	}
}


int main(void)
{
	int i;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (i = 0; i < WIDGETS; i++)
		consume_widget(random_flip() ? make_red_widget() : make_blue_widget());
	printf("widgets: %d made, %lu bytes requested, %lu bytes never freed\n", WIDGETS,
	       requested, requested - freed);
	return 0;
}
