/*
** typeinfo.c -- the program's types from DWARF, with elfutils' libdw
** (Debian's libdw-dev).  Every unit of .debug_info is walked from its unit
** DIE through namespaces and records (so nested names are qualified, as the
** demangler qualifies them), never into functions.  Declarations
** (DW_AT_declaration) have no size and are skipped; a typedef counts with
** the size of the record it names, through typedefs and qualifiers
** (dwarf_peel_type).  A type is the program's own when its DW_AT_decl_file
** is not under /usr/ (the system's and the compiler's headers) and not
** GCC's "<built-in>".  The units of libaprof itself, linked into the
** program (libaprof.a) or loaded with it (libaprof.so), are left out: their
** records (the writer's, the heap's) are the profiler's, never the
** program's, and one of a block's size would be shown as its type.  They
** are told by their code, all in section aprof_text (runtime/internal.h).
*/
#include <config.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aprof/read/typeinfo.h"
#include "aprof/util.h"

/* Types collected so far. */
struct collect {
	struct typeinfo_type *v;
	size_t n, cap;
	Dwarf_Files *files;        /* the current unit's file table, NULL if none */
};


static int is_record(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type;
}


/* 1 if DIE was declared in the program's sources (see the top). */
static int program_file(const struct collect *c, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word i;
	const char *f = NULL;

	if (c->files != NULL && dwarf_formudata(dwarf_attr(die, DW_AT_decl_file, &a), &i) == 0)
		f = dwarf_filesrc(c->files, i, NULL, NULL);
	return f != NULL && strncmp(f, "/usr/", 5) != 0 && strstr(f, "<built-in>") == NULL;
}


static void add(struct collect *c, const char *name, uint64_t size, int program)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->v = xrealloc(c->v, c->cap * sizeof c->v[0]);
	}
	c->v[c->n].name = xstrdup(name);
	c->v[c->n].size = size;
	c->v[c->n].program = program;
	c->n++;
}


/* Collects the types among the children of PARENT, their names after PREFIX. */
static void walk(struct collect *c, Dwarf_Die *parent, const char *prefix)
{
	Dwarf_Die d, t;
	Dwarf_Word size;
	char *q;

	if (dwarf_child(parent, &d) != 0)
		return;
	do {
		int tag = dwarf_tag(&d);
		const char *name = dwarf_diename(&d);

		if (tag == DW_TAG_namespace) {
			if (name == NULL)
				name = "(anonymous namespace)";
		} else if (name == NULL || !(is_record(tag) || tag == DW_TAG_typedef) ||
			   dwarf_hasattr(&d, DW_AT_declaration)) {
			continue;
		}
		q = xmalloc(strlen(prefix) + strlen(name) + 3);
		strcat(strcpy(q, prefix), name);
		if (tag != DW_TAG_namespace && dwarf_peel_type(&d, &t) == 0 &&
		    is_record(dwarf_tag(&t)) && !dwarf_hasattr(&t, DW_AT_declaration) &&
		    dwarf_aggregate_size(&t, &size) == 0)
			add(c, q, size, program_file(c, &d));
		if (tag == DW_TAG_namespace || is_record(tag)) {
			strcat(q, "::");
			walk(c, &d, q);
		}
		free(q);
	} while (dwarf_siblingof(&d, &d) == 0);
}


/* The runtime's code in ELF file DBG (section aprof_text): [*LO, *HI), empty if none. */
static void runtime_text(Dwarf *dbg, Dwarf_Addr *lo, Dwarf_Addr *hi)
{
	Elf *elf = dwarf_getelf(dbg);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t strndx;
	const char *name;

	*lo = *hi = 0;
	if (elf == NULL || elf_getshdrstrndx(elf, &strndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    (name = elf_strptr(elf, strndx, sh.sh_name)) != NULL &&
		    strcmp(name, "aprof_text") == 0) {
			*lo = sh.sh_addr;
			*hi = sh.sh_addr + sh.sh_size;
			return;
		}
}


/* 1 if UNIT has code in [LO, HI): one of libaprof's own units. */
static int runtime_unit(Dwarf_Die *unit, Dwarf_Addr lo, Dwarf_Addr hi)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while (lo < hi && (off = dwarf_ranges(unit, off, &base, &start, &end)) > 0)
		if (start < hi && end > lo)
			return 1;
	return 0;
}


/* Collects the types of the object file PATH, if it has DWARF (not libaprof's own). */
static void load_file(struct collect *c, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dbg = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, sub;
	Dwarf_Half version;
	Dwarf_Addr lo = 0, hi = 0;
	uint8_t unit_type;
	size_t n;

	if (dbg != NULL)
		runtime_text(dbg, &lo, &hi);
	while (dbg != NULL &&
	       dwarf_get_units(dbg, cu, &cu, &version, &unit_type, &cudie, &sub) == 0) {
		/* A -gsplit-dwarf skeleton: its split unit holds the types. */
		Dwarf_Die *unit = unit_type == DW_UT_skeleton ? &sub : &cudie;

		if (runtime_unit(&cudie, lo, hi))
			continue;
		if (dwarf_getsrcfiles(unit, &c->files, &n) != 0)
			c->files = NULL;
		walk(c, unit, "");
	}
	if (dbg != NULL)
		dwarf_end(dbg);
	if (fd >= 0)
		close(fd);
}


/* Name order with blanks ignored. */
static int name_cmp(const char *x, const char *y)
{
	for (;;) {
		while (*x == ' ')
			x++;
		while (*y == ' ')
			y++;
		if (*x != *y || *x == '\0')
			return (unsigned char)*x - (unsigned char)*y;
		x++, y++;
	}
}


/* By name, then the program's own first. */
static int by_name(const void *a, const void *b)
{
	const struct typeinfo_type *x = a, *y = b;
	int k = name_cmp(x->name, y->name);

	if (k != 0)
		return k;
	return y->program - x->program;
}


static int by_size(const void *a, const void *b)
{
	const struct typeinfo_type *x = *(struct typeinfo_type *const *)a;
	const struct typeinfo_type *y = *(struct typeinfo_type *const *)b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}


struct typeinfo *typeinfo_load(const struct amon_data *d, const char *exe)
{
	struct typeinfo *t = xcalloc(1, sizeof *t);
	struct collect c = { NULL, 0, 0, NULL };
	size_t i, k;
	int m;

	for (m = 0; m < d->nmodules; m++)
		load_file(&c, d->modules[m].is_exe ? exe : d->modules[m].path);
	if (c.n > 0)
		qsort(c.v, c.n, sizeof c.v[0], by_name);
	/* One entry per name: the first of equal names (a type is in every unit using it). */
	for (i = k = 0; i < c.n; i++) {
		if (k > 0 && name_cmp(c.v[k - 1].name, c.v[i].name) == 0) {
			free(c.v[i].name);
			continue;
		}
		c.v[k++] = c.v[i];
	}
	t->by_name = c.v;
	t->n = k;
	t->by_size = xcalloc(k + 1, sizeof t->by_size[0]);
	for (i = 0; i < k; i++)
		if (t->by_name[i].program)
			t->by_size[t->nsize++] = &t->by_name[i];
	if (t->nsize > 0)
		qsort(t->by_size, t->nsize, sizeof t->by_size[0], by_size);
	return t;
}


int typeinfo_size(const struct typeinfo *t, const char *name, uint64_t *size)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int k = name_cmp(name, t->by_name[mid].name);

		if (k == 0) {
			*size = t->by_name[mid].size;
			return 1;
		}
		if (k < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}


size_t typeinfo_of_size(const struct typeinfo *t, uint64_t size,
			struct typeinfo_type *const **first)
{
	size_t lo = 0, hi = t->nsize, end;

	while (lo < hi) { /* the first of SIZE or larger */
		size_t mid = lo + (hi - lo) / 2;

		if (t->by_size[mid]->size < size)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < t->nsize && t->by_size[end]->size == size; end++)
		;
	*first = t->by_size + lo;
	return end - lo;
}


void typeinfo_free(struct typeinfo *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->by_name[i].name);
	free(t->by_name);
	free(t->by_size);
	free(t);
}
