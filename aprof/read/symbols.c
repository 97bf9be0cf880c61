/*
** symbols.c -- libbfd symbol tables (the recipe of gprof's corefile.c:
** bfd_openr, bfd_check_format, bfd_canonicalize_symtab, keep functions).
*/
#include <config.h>

#include <bfd.h>
#include <inttypes.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/read/symbols.h"
#include "aprof/read/units.h"
#include "aprof/util.h"

/* Preference when several symbols share an address: global, then weak, then local. */
static int symbol_rank(const asymbol *s)
{
	if (s->flags & BSF_GLOBAL)
		return 0;
	if (s->flags & BSF_WEAK)
		return 1;
	return 2;
}


/*
** An object's open bfd and symbol table, kept for its line table, and its
** DWARF units and lines (units.c), read on first use.
*/
struct object {
	bfd *abfd;
	asymbol **table;
	char *path;                /* as opened */
	struct units *units;       /* NULL if not read yet, or it has no DWARF */
	int units_read;
};

/* Every object a symbols_load opened, to close them all (symbols_free). */
struct symbol_objects {
	struct object **v;
	size_t n;
};

/*
** Where symbol i's source file is looked up: its object and its address in
** the object's file (VMA, as DWARF has it), or, for an object without
** DWARF (its debug information in a separate file), its section and its
** offset in that section (bfd_find_nearest_line's arguments); the answer
** once asked (FILE, malloc'd, and LINE, LOOKED set).  Its translation unit
** likewise (units_name), else FILE_SYMBOL (UNIT, UNIT_LOOKED set).
*/
struct symbol_source {
	struct object *obj;
	asection *section;
	bfd_vma offset;
	bfd_vma vma;               /* the symbol's value in the object's file */
	char *file;
	unsigned int line;
	int looked;
	int local;                 /* a local symbol (a static routine, a compiler's clone) */
	const char *file_symbol;   /* a local's unit as the symbol table names it, or NULL */
	const char *unit;
	int unit_looked;
};

/* A symbol as collected, before duplicates at one address are dropped. */
struct candidate {
	uint64_t addr;
	int rank;
	const char *name;
	struct symbol_source source;
};


static int candidate_cmp(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}


static bfd *open_object(const char *path)
{
	bfd *abfd = bfd_openr(path, NULL);

	if (abfd == NULL)
		util_die("%s: %s", path, bfd_errmsg(bfd_get_error()));
	abfd->flags |= BFD_DECOMPRESS;
	if (!bfd_check_format(abfd, bfd_object))
		util_die("%s: not an object file: %s", path, bfd_errmsg(bfd_get_error()));
	return abfd;
}


/* Dies unless ABFD's build-id is the one M recorded (when both have one). */
static void check_build_id(bfd *abfd, const char *path, const struct amon_module_info *m,
			   const char *amon)
{
	const struct bfd_build_id *id = abfd->build_id;

	if (m->build_id_length == 0 || id == NULL)
		return;
	if (id->size != m->build_id_length || memcmp(id->data, m->build_id, id->size) != 0)
		util_die("%s: build-id differs from the one in %s (%s was written by another "
			 "build of %s)", path, amon, amon, m->path);
}


/*
** Reads ABFD's static or (DYNAMIC) dynamic symbol table; NULL with *COUNT 0
** if it has none.
*/
static asymbol **read_table(bfd *abfd, const char *path, int dynamic, long *count)
{
	long size = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd)
			    : bfd_get_symtab_upper_bound(abfd);
	asymbol **table;

	*count = 0;
	if (size <= 0)
		return NULL; /* none, or an error that means none */
	table = xmalloc((size_t)size);
	*count = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, table)
			 : bfd_canonicalize_symtab(abfd, table);
	if (*count < 0)
		util_die("%s: %s", path, bfd_errmsg(bfd_get_error()));
	return table;
}


/*
** Appends to *C the function symbols of module M, read from PATH: those of
** its symbol table, or, if it has been stripped, those of its dynamic symbol
** table (*STRIPPED set to 1: see warn_stripped).  Returns the number added.
*/
static size_t collect(struct candidate **c, size_t *n, const char *path,
		      const struct amon_module_info *m, const char *amon, int *stripped,
		      struct symbol_objects *objects)
{
	bfd *abfd = open_object(path);
	struct object *obj = xcalloc(1, sizeof *obj);
	asymbol **table;
	long count, i;
	size_t added = 0;
	int dynamic;

	check_build_id(abfd, path, m, amon);
	obj->path = xstrdup(path);
	for (dynamic = 0; dynamic < 2 && added == 0; dynamic++) {
		/*
		** ELF lists a unit's local symbols after a FILE symbol naming it
		** (empty for the linker's own): the unit of a copy without DWARF.
		*/
		const char *file_symbol = NULL;

		free(obj->table); /* the static table, no function in it: the dynamic one instead */
		table = read_table(abfd, path, dynamic, &count);
		*c = xrealloc(*c, (*n + (size_t)count + 1) * sizeof **c);
		for (i = 0; i < count; i++) {
			asymbol *s = table[i];

			if (s->flags & BSF_FILE) {
				file_symbol = *bfd_asymbol_name(s) != '\0' ? bfd_asymbol_name(s)
									   : NULL;
				continue;
			}
			if (!(s->flags & BSF_FUNCTION) || s->section == NULL ||
			    !(s->section->flags & SEC_CODE) || bfd_is_und_section(s->section))
				continue;
			(*c)[*n].addr = bfd_asymbol_value(s) + m->load_bias;
			(*c)[*n].rank = symbol_rank(s);
			(*c)[*n].name = bfd_asymbol_name(s);
			(*c)[*n].source.obj = obj;
			(*c)[*n].source.section = s->section;
			(*c)[*n].source.offset = bfd_asymbol_value(s) - bfd_section_vma(s->section);
			(*c)[*n].source.vma = bfd_asymbol_value(s);
			(*c)[*n].source.file = NULL;
			(*c)[*n].source.looked = 0;
			(*c)[*n].source.local = (s->flags & BSF_LOCAL) != 0;
			(*c)[*n].source.file_symbol = (s->flags & BSF_LOCAL) ? file_symbol : NULL;
			(*c)[*n].source.unit = NULL;
			(*c)[*n].source.unit_looked = 0;
			(*n)++;
			added++;
		}
		obj->abfd = abfd;
		obj->table = table;
		*stripped = dynamic;
	}
	/* TABLE and ABFD stay open: the names point into them, OBJ keeps them for lines. */
	objects->v = xrealloc(objects->v, (objects->n + 1) * sizeof objects->v[0]);
	objects->v[objects->n++] = obj;
	return added;
}


/*
** Warns about each stripped module (STRIPPED[k] 1, read from its dynamic
** symbols) that holds a routine of some context that no symbol names: the
** report shows it as an address.  A module none of whose routines the report
** needs, or whose routines it needs are all exported (libstdc++'s string
** members, instantiated there and inlined in the program), is not worth a
** word.
*/
static void warn_stripped(const struct symbols *s, const struct amon_data *d, const char *exe,
			  int *stripped)
{
	struct amon_each e = AMON_EACH(d);
	const struct amon_context_info *c;
	uint32_t i;
	int k;

	while ((c = amon_each_next(&e)) != NULL)
		for (i = 0; i < c->depth; i++) {
			uint64_t a = AMON_ADDR(c->history[i]);
			const struct symbol *sym = symbols_find(s, d, a);

			if (sym != NULL && sym->addr == a)
				continue;
			k = symbols_module(d, a);
			if (k >= 0 && stripped[k] == 1) {
				util_warn("%s: no symbols (stripped?): using its dynamic symbols",
					  d->modules[k].is_exe ? exe : d->modules[k].path);
				stripped[k] = 2;
			}
		}
}


/* O's DWARF units, read on first use; NULL if it has none (no -g, or stripped). */
static struct units *object_units(struct object *o)
{
	if (!o->units_read) {
		o->units_read = 1;
		o->units = units_open(o->path);
	}
	return o->units;
}


/* SYM's entry in S's sources; NULL when S was built by hand. */
static struct symbol_source *entry_of(const struct symbols *s, const struct symbol *sym)
{
	return s->source != NULL ? &s->source[sym - s->syms] : NULL;
}


const char *symbols_unit(const struct symbols *s, const struct symbol *sym)
{
	struct symbol_source *src = entry_of(s, sym);
	struct units *u;

	if (src == NULL)
		return NULL;
	if (!src->unit_looked) {
		src->unit_looked = 1;
		u = object_units(src->obj);
		src->unit = u != NULL ? units_name(u, src->vma) : NULL;
		if (src->unit == NULL)
			src->unit = src->file_symbol;
	}
	return src->unit;
}


/* The last K components of PATH, or all of it if it has no more. */
static const char *path_tail(const char *path, int k)
{
	const char *p = path + strlen(path);

	for (; p > path; p--)
		if (p[-1] == '/' && --k == 0)
			return p;
	return path;
}


/* How many components PATH has. */
static int path_length(const char *path)
{
	int k = 1;

	for (; *path != '\0'; path++)
		k += *path == '/';
	return k;
}


/* True if units A and B (either NULL: unknown) are the same. */
static int same_unit(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}


/*
** Renames copy G[I] of a routine whose copies are G[0..N) (S's symbol
** indices, N > 1): "NAME (TAG)", TAG saying what the other copies do not
** have.  That is its translation unit, by as few trailing components as
** tell it from the other copies' units ("jv_aux.c", "src/util.c"): the
** unit, not the file of its lines, which for a static in a header is the
** header, alike in every copy.  Then, if another copy has the same unit
** (or the unit is unknown), its module's file name ("libfoo.so"), and if
** one in the same module does, its address as in the module's file.  The
** bare name stays in BARE for the symspecs.
*/
static void tag_copy(struct symbols *s, const size_t *g, size_t n, size_t i)
{
	struct symbol *sym = &s->syms[g[i]];
	const struct symbol_source *src = &s->source[g[i]];
	const char *unit = symbols_unit(s, sym), *slash = strrchr(src->obj->path, '/');
	int k = 1, module = unit == NULL, address = 0;
	char addr[32] = "";
	size_t j;

	for (; unit != NULL && k < path_length(unit); k++) {
		for (j = 0; j < n; j++) {
			const char *other = symbols_unit(s, &s->syms[g[j]]);

			if (other != NULL && strcmp(other, unit) != 0 &&
			    strcmp(path_tail(other, k), path_tail(unit, k)) == 0)
				break;
		}
		if (j == n)
			break;
	}
	for (j = 0; j < n; j++)
		if (j != i && same_unit(unit, symbols_unit(s, &s->syms[g[j]]))) {
			if (s->source[g[j]].obj != src->obj)
				module = 1;
			else
				address = 1;
		}
	if (address)
		snprintf(addr, sizeof addr, "0x%" PRIx64, (uint64_t)src->vma);
	sym->bare = sym->name;
	sym->name = xmalloc(strlen(sym->bare) + (unit != NULL ? strlen(unit) : 0) +
			    strlen(src->obj->path) + strlen(addr) + 10);
	sprintf(sym->name, "%s (%s%s%s%s%s)", sym->bare, unit != NULL ? path_tail(unit, k) : "",
		unit != NULL && module ? ", " : "",
		module ? (slash != NULL ? slash + 1 : src->obj->path) : "",
		(unit != NULL || module) && address ? ", " : "", addr);
}


/* S's symbol indices in name order (then in address order): for tag_copies. */
static const struct symbols *sort_symbols;

static int by_name(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_symbols->syms[x].name, sort_symbols->syms[y].name);

	return c != 0 ? c : (x > y) - (x < y);
}


/*
** Tells apart the copies of a routine: symbols of one name, one of them at
** least local (a static routine of each unit that defines it or includes
** it from a header, a compiler's clone such as "f.part.0").  Global copies
** alone are one routine by the linker's rules (an inline function emitted
** in two modules) and keep their name, as a name no other symbol has
** does.  Each copy is renamed by tag_copy.
*/
static void tag_copies(struct symbols *s)
{
	size_t *order = xmalloc((s->n + 1) * sizeof order[0]), i, j, k;

	for (i = 0; i < s->n; i++)
		order[i] = i;
	sort_symbols = s;
	qsort(order, s->n, sizeof order[0], by_name);
	for (i = 0; i < s->n; i = j) {
		int local = s->source[order[i]].local;

		for (j = i + 1; j < s->n && strcmp(s->syms[order[j]].name,
						   s->syms[order[i]].name) == 0; j++)
			local |= s->source[order[j]].local;
		if (j - i < 2 || !local)
			continue;
		for (k = i; k < j; k++)
			symbols_unit(s, &s->syms[order[k]]); /* every unit known before any renaming */
		for (k = i; k < j; k++)
			tag_copy(s, order + i, j - i, k - i);
	}
	free(order);
}


struct symbols *symbols_load(const struct amon_data *d, const char *exe, int demangle)
{
	struct symbols *s = xcalloc(1, sizeof *s);
	struct candidate *c = NULL;
	int *stripped = xcalloc((size_t)d->nmodules + 1, sizeof stripped[0]);
	size_t n = 0, i;
	int k;

	if (bfd_init() != BFD_INIT_MAGIC)
		util_die("libbfd version mismatch");
	s->objects = xcalloc(1, sizeof *s->objects);
	for (k = 0; k < d->nmodules; k++) {
		const struct amon_module_info *m = &d->modules[k];

		collect(&c, &n, m->is_exe ? exe : m->path, m, d->path, &stripped[k], s->objects);
	}
	qsort(c, n, sizeof c[0], candidate_cmp);
	s->syms = xcalloc(n, sizeof s->syms[0]);
	s->source = xcalloc(n, sizeof s->source[0]);
	for (i = 0; i < n; i++) {
		char *dm;

		if (s->n > 0 && s->syms[s->n - 1].addr == c[i].addr)
			continue; /* an alias: the best-ranked name is already in */
		dm = demangle ? bfd_demangle(c[i].source.obj->abfd, c[i].name,
					     DMGL_PARAMS | DMGL_ANSI) : NULL;
		s->source[s->n] = c[i].source;
		s->syms[s->n].addr = c[i].addr;
		s->syms[s->n].name = dm != NULL ? dm : xstrdup(c[i].name);
		s->syms[s->n].mangled = c[i].name;
		s->n++;
	}
	free(c);
	tag_copies(s);
	warn_stripped(s, d, exe, stripped);
	free(stripped);
	return s;
}


void symbols_free(struct symbols *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++) {
		free(s->syms[i].name);
		free(s->syms[i].bare);
		if (s->source != NULL)
			free(s->source[i].file);
	}
	for (i = 0; s->objects != NULL && i < s->objects->n; i++) {
		struct object *o = s->objects->v[i];

		units_close(o->units);
		bfd_close(o->abfd);
		free(o->table);
		free(o->path);
		free(o);
	}
	if (s->objects != NULL)
		free(s->objects->v);
	free(s->objects);
	free(s->syms);
	free(s->source);
	free(s);
}


const struct symbol *symbols_find(const struct symbols *s, const struct amon_data *d,
				  uint64_t addr)
{
	size_t lo = 0, hi = s->n;
	int k;

	while (lo < hi) { /* first symbol above ADDR */
		size_t mid = lo + (hi - lo) / 2;

		if (s->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* The symbol must lie in the module that holds ADDR. */
	k = symbols_module(d, addr);
	return k >= 0 && s->syms[lo - 1].addr >= d->modules[k].start ? &s->syms[lo - 1] : NULL;
}


int symbols_module(const struct amon_data *d, uint64_t addr)
{
	int k;

	for (k = 0; k < d->nmodules; k++)
		if (addr >= d->modules[k].start && addr < d->modules[k].end)
			return k;
	return -1;
}


/*
** SYM's entry in S's sources, its file and line looked up on first use:
** in the object's DWARF, else by libbfd (which follows a separate debug
** file); NULL without sources.
*/
static struct symbol_source *source_of(const struct symbols *s, const struct symbol *sym)
{
	struct symbol_source *src = entry_of(s, sym);
	const char *file = NULL, *func = NULL;
	struct units *u;

	if (src == NULL || src->looked)
		return src;
	src->looked = 1;
	u = object_units(src->obj);
	if (u != NULL)
		src->file = units_line(u, src->vma, &src->line);
	else if (bfd_find_nearest_line(src->obj->abfd, src->section, src->obj->table,
				       src->offset, &file, &func, &src->line) && file != NULL)
		src->file = xstrdup(file);
	else
		src->line = 0;
	return src;
}


const char *symbols_file(const struct symbols *s, const struct symbol *sym)
{
	const struct symbol_source *src = source_of(s, sym);

	return src != NULL ? src->file : NULL;
}


unsigned int symbols_line(const struct symbols *s, const struct symbol *sym)
{
	const struct symbol_source *src = source_of(s, sym);

	return src != NULL ? src->line : 0;
}


char *symbols_name(const struct symbols *s, const struct amon_data *d, uint64_t addr)
{
	const struct symbol *sym = symbols_find(s, d, addr);
	char buf[64];
	int k;

	if (sym != NULL)
		return xstrdup(sym->name);
	k = symbols_module(d, addr);
	if (k >= 0) {
		const struct amon_module_info *m = &d->modules[k];
		const char *base = strrchr(m->path, '/');
		char *name;

		snprintf(buf, sizeof buf, "0x%" PRIx64 " in ", addr - m->load_bias);
		base = base != NULL ? base + 1 : m->path;
		name = xmalloc(strlen(buf) + strlen(base) + 1);
		return strcat(strcpy(name, buf), base);
	}
	snprintf(buf, sizeof buf, "0x%" PRIx64 " in <unknown>", addr);
	return xstrdup(buf);
}
