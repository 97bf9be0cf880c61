/*
** s-structs.c -- C allocations of structs and typedef'd structs, for the
** types column of aprof --heap's bins (tests/e2e-types.sh): each size
** allocated is the size of exactly the types the comment names (x86-64).
**
**   struct widget (32) and its typedef widget_t     3 allocations of 32
**   union value (16)                                2 allocations of 16
**   field, a typedef of an unnamed struct (40)      1 allocation of 40
**   77 bytes, no type of that size                  1 allocation of 77
**
** With the argument "sweep", also one block of every multiple of 8 bytes up
** to 2048: linked with libaprof.a (s-structs-static), its bins must name
** none of the runtime's own records, whatever their sizes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct widget {
	char name[16];
	struct widget *next;
	long id;
};
typedef struct widget widget_t;

union value {
	double d;
	long l[2];
};

typedef struct {
	char label[32];
	double weight;
} field;

_Static_assert(sizeof(struct widget) == 32 && sizeof(union value) == 16 && sizeof(field) == 40,
	       "sizes");

static void *keep[8];

void make_all(void)
{
	widget_t *w;
	union value *v;
	field *f;
	int i;

	for (i = 0; i < 3; i++) {
		keep[i] = w = malloc(sizeof *w);
		w->id = i;
	}
	for (i = 3; i < 5; i++) {
		keep[i] = v = malloc(sizeof *v);
		v->d = i;
	}
	keep[5] = f = malloc(sizeof *f);
	f->weight = 1;
	keep[6] = malloc(77);
}

/* One block of each multiple of 8 bytes up to 2048. */
void sweep(void)
{
	size_t n;

	for (n = 8; n <= 2048; n += 8)
		free(malloc(n));
}

int main(int argc, char **argv)
{
	int i;

	make_all();
	if (argc > 1 && strcmp(argv[1], "sweep") == 0)
		sweep();
	for (i = 0; i < 7; i++)
		free(keep[i]);
	puts("done");
	return 0;
}
