/*
** s-structs.c -- C allocations of structs and typedef'd structs, for the
** types column of aprof --heap's bins (tests/e2e-types.sh): each size
** allocated is the size of exactly the types the comment names (x86-64).
**
**   struct widget (32) and its typedef widget_t     3 allocations of 32
**   union value (16)                                2 allocations of 16
**   field, a typedef of an unnamed struct (40)      1 allocation of 40
**   77 bytes, no type of that size                  1 allocation of 77
*/
#include <stdio.h>
#include <stdlib.h>

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

int main(void)
{
	int i;

	make_all();
	for (i = 0; i < 7; i++)
		free(keep[i]);
	puts("done");
	return 0;
}
