/*
** alloctypes.c -- --types.  Where a C++ type shows:
** the containers' allocations are made under an allocator routine named for
** the element or node type (std::__new_allocator<T>::allocate), so the
** context's running routine tells it; new T(args) is charged to its caller
** and T::T is entered from there after the allocation returns, which the
** runtime notes as a candidate.  Names are read from the demangler's tree
** (libiberty's cplus_demangle_v3_components), never by matching brackets in
** strings: "operator<", lambdas and [abi:cxx11] tags make strings unsafe.
*/
#include <config.h>

#include <inttypes.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/report/contexts.h"
#include "aprof/report/alloctypes.h"
#include "aprof/util.h"

/* What a routine's name can tell of the type allocated. */
enum role {
	ROLE_ALLOCATOR,  /* X<T>::allocate, _Base_manager<T>::_M_create, basic_string<T>::...: T */
	ROLE_CTOR,       /* T::T: T */
};

#define DMGL (DMGL_PARAMS | DMGL_ANSI)


/* The name printed from tree node DC, malloc'd, or NULL. */
static char *print(struct demangle_component *dc)
{
	size_t size;

	return cplus_demangle_print(DMGL, dc, 64, &size);
}


/* 1 if the printed name of DC equals one of the NULL-terminated NAMES. */
static int named(struct demangle_component *dc, const char *const *names)
{
	char *s = print(dc);
	int found = 0;

	for (; s != NULL && *names != NULL && !found; names++)
		found = strcmp(s, *names) == 0;
	free(s);
	return found;
}


/*
** The type that the routine MANGLED tells in ROLE, malloc'd, or NULL.  The
** tree of "A<T, U>::f(args) const" is TYPED_NAME(QUAL_NAME(TEMPLATE(A,
** TEMPLATE_ARGLIST(T, ...)), f), params) with the qualifiers in between.
*/
static char *routine_type(const char *mangled, enum role role)
{
	static const char *const strings[] = { "std::__cxx11::basic_string", "std::basic_string",
					       NULL };
	static const char *const managers[] = { "std::_Function_base::_Base_manager", NULL };
	struct demangle_component *dc, *scope, *last;
	char *res = NULL;
	void *mem = NULL;

	if (mangled == NULL || strncmp(mangled, "_Z", 2) != 0 ||
	    (dc = cplus_demangle_v3_components(mangled, DMGL, &mem)) == NULL) {
		free(mem);
		return NULL;
	}
	if (dc->type == DEMANGLE_COMPONENT_TYPED_NAME)
		dc = dc->u.s_binary.left;
	while (dc->type == DEMANGLE_COMPONENT_CONST_THIS ||
	       dc->type == DEMANGLE_COMPONENT_VOLATILE_THIS ||
	       dc->type == DEMANGLE_COMPONENT_RESTRICT_THIS)
		dc = dc->u.s_binary.left;
	if (dc->type == DEMANGLE_COMPONENT_TEMPLATE) /* a member template: f<...> */
		dc = dc->u.s_binary.left;
	if (dc->type != DEMANGLE_COMPONENT_QUAL_NAME) {
		free(mem);
		return NULL;
	}
	scope = dc->u.s_binary.left;
	last = dc->u.s_binary.right;
	if (role == ROLE_CTOR) {
		if (last->type == DEMANGLE_COMPONENT_CTOR)
			res = print(scope);
	} else if (scope->type == DEMANGLE_COMPONENT_TEMPLATE &&
		   scope->u.s_binary.right != NULL &&
		   scope->u.s_binary.right->u.s_binary.left != NULL) {
		struct demangle_component *t = scope->u.s_binary.right->u.s_binary.left;
		int allocate = last->type == DEMANGLE_COMPONENT_NAME && last->u.s_name.len == 8 &&
			       memcmp(last->u.s_name.s, "allocate", 8) == 0;
		int create = last->type == DEMANGLE_COMPONENT_NAME && last->u.s_name.len == 9 &&
			     memcmp(last->u.s_name.s, "_M_create", 9) == 0;

		if (allocate || named(scope->u.s_binary.left, strings) ||
		    (create && named(scope->u.s_binary.left, managers)))
			res = print(t);
	}
	free(mem);
	return res;
}


/* The mangled name of the routine at ADDR, or NULL. */
static const char *mangled_at(const struct symbols *syms, const struct amon_data *d,
			      uint64_t addr)
{
	const struct symbol *s = symbols_find(syms, d, addr);

	return s != NULL ? s->mangled : NULL;
}


/*
** 1 if SIZE bytes can be new T or new T[n] for a T of TSIZE bytes: n x
** TSIZE, plus an array cookie of max(8, alignof(T)) bytes (Itanium C++ ABI
** 2.7) for a T with a destructor.
*/
static int size_fits(uint64_t size, uint64_t tsize)
{
	uint64_t cookie;

	if (tsize == 0)
		return 0;
	if (size >= tsize && size % tsize == 0)
		return 1;
	for (cookie = 8; cookie <= 64; cookie *= 2)
		if (size > cookie && (size - cookie) % tsize == 0)
			return 1;
	return 0;
}


/* The type of site S: its first candidate that is a constructor of a type that fits. */
static char *site_type(const struct amon_type_site *s, const struct amon_data *d,
		       const struct symbols *syms, const struct typeinfo *ti)
{
	int k;

	for (k = 0; k < AMON_CANDIDATES && s->candidate[k] != 0; k++) {
		char *t = routine_type(mangled_at(syms, d, s->candidate[k]), ROLE_CTOR);
		uint64_t tsize;

		if (t != NULL && (!typeinfo_size(ti, t, &tsize) || size_fits(s->size, tsize)))
			return t;
		free(t);
	}
	return NULL;
}


/* The row of type NAME (NULL: unknown) in T, made if new; takes NAME. */
static struct types_row *row_of(struct alloctypes_table *t, char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (name == NULL ? t->rows[i].name == NULL
				 : t->rows[i].name != NULL && strcmp(t->rows[i].name, name) == 0) {
			free(name);
			return &t->rows[i];
		}
	t->rows = xrealloc(t->rows, (t->n + 1) * sizeof t->rows[0]);
	memset(&t->rows[t->n], 0, sizeof t->rows[0]);
	t->rows[t->n].name = name;
	return &t->rows[t->n++];
}


/* Charges C's ALLOCS and BYTES (of its KEPT and PEAK) to type NAME (taken), SHARED if a part. */
static void charge(struct alloctypes_table *t, char *name, const struct amon_context_info *c,
		   uint64_t allocs, uint64_t bytes, uint64_t kept, uint64_t peak, int shared)
{
	struct types_row *r;
	int k, j;

	if (allocs == 0 && bytes == 0)
		return;
	r = row_of(t, name);
	r->allocs += allocs;
	r->bytes += bytes;
	r->kept += kept;
	r->peak += peak;
	r->shared |= shared && (kept != 0 || peak != 0);
	for (k = 0; k < TYPES_PATHS; k++)
		if (r->paths[k].c == NULL || r->paths[k].bytes < bytes)
			break;
	if (k == TYPES_PATHS)
		return;
	for (j = TYPES_PATHS - 1; j > k; j--)
		r->paths[j] = r->paths[j - 1];
	r->paths[k].c = c;
	r->paths[k].bytes = bytes;
}


/* V x PART / WHOLE without overflow (PART <= WHOLE). */
static uint64_t share(uint64_t v, uint64_t part, uint64_t whole)
{
	return whole == 0 ? 0 : (uint64_t)((unsigned __int128)v * part / whole);
}


/* Charges context C of D to its types in T. */
static void charge_context(struct alloctypes_table *t, const struct amon_context_info *c,
			   const struct amon_data *d, const struct symbols *syms,
			   const struct typeinfo *ti)
{
	uint64_t kept = c->alloc_bytes - c->free_bytes, allocs = c->allocs, bytes = c->alloc_bytes;
	uint64_t kept_left = kept, peak_left = c->peak_bytes;
	char *name = NULL;
	uint32_t i;

	if (c->allocs == 0)
		return;
	if (c->depth > 0)
		name = routine_type(mangled_at(syms, d, AMON_ADDR(c->history[c->depth - 1])),
				    ROLE_ALLOCATOR);
	if (name != NULL) {
		charge(t, name, c, allocs, bytes, kept, c->peak_bytes, 0);
		return;
	}
	for (i = 0; i < c->nsites; i++) {
		const struct amon_type_site *s = &c->sites[i];
		uint64_t n = s->allocs, b;

		/* A write during the run may see a site count an allocation its context does not yet. */
		if (n > allocs)
			n = allocs;
		if (s->size != 0 && n > bytes / s->size)
			n = bytes / s->size;
		b = n * s->size;
		if (n == 0 || (name = site_type(s, d, syms, ti)) == NULL)
			continue;
		charge(t, name, c, n, b, share(kept, b, c->alloc_bytes),
		       share(c->peak_bytes, b, c->alloc_bytes), b != c->alloc_bytes);
		kept_left -= share(kept, b, c->alloc_bytes);
		peak_left -= share(c->peak_bytes, b, c->alloc_bytes);
		allocs -= n;
		bytes -= b;
	}
	charge(t, NULL, c, allocs, bytes, kept_left, peak_left, bytes != c->alloc_bytes);
}


static int row_cmp(const void *a, const void *b)
{
	const struct types_row *x = a, *y = b;

	if ((x->name == NULL) != (y->name == NULL))
		return x->name == NULL ? 1 : -1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->name == NULL ? 0 : strcmp(x->name, y->name);
}


struct alloctypes_table *alloctypes_build(const struct amon_data *d, const struct symbols *syms,
				const struct typeinfo *ti, int thread)
{
	struct alloctypes_table *t = xcalloc(1, sizeof *t);
	size_t i;
	int k;

	for (k = 0; k < d->nthreads; k++) {
		if (thread >= 0 && k != thread)
			continue;
		for (i = 0; i < d->threads[k].ncontexts; i++) {
			t->bytes += d->threads[k].contexts[i].alloc_bytes;
			charge_context(t, &d->threads[k].contexts[i], d, syms, ti);
		}
	}
	if (t->n > 0)
		qsort(t->rows, t->n, sizeof t->rows[0], row_cmp);
	return t;
}


struct alloctypes_table *alloctypes_context(const struct amon_data *d, const struct symbols *syms,
				  const struct typeinfo *ti, const struct amon_context_info *c)
{
	struct alloctypes_table *t = xcalloc(1, sizeof *t);

	t->bytes = c->alloc_bytes;
	charge_context(t, c, d, syms, ti);
	return t;
}


/* 1 if the routine at ADDR is the C++ library's (its name in std:: or __gnu_cxx::). */
static int library_routine(const struct symbols *syms, const struct amon_data *d, uint64_t addr)
{
	char *name = symbols_name(syms, d, addr);
	int lib = strncmp(name, "std::", 5) == 0 || strncmp(name, "__gnu_cxx::", 11) == 0;

	free(name);
	return lib;
}


/*
** One path line under a type: its bytes and its history up to the first
** routine of the C++ library, the rest (allocator and container internals)
** shown as "...".
*/
static void print_path(FILE *out, const struct types_path *p, const struct amon_data *d,
		       const struct symbols *syms)
{
	struct amon_context_info shown = *p->c;
	uint32_t k;

	for (k = 0; k < shown.depth; k++)
		if (library_routine(syms, d, AMON_ADDR(shown.history[k])))
			break;
	if (k + 1 < shown.depth)
		shown.depth = k + 1;
	fprintf(out, "%21" PRIu64 " bytes from ", p->bytes);
	contexts_print_history(out, &shown, d, syms);
	fputs(shown.depth < p->c->depth ? " > ...\n" : "\n", out);
}


void alloctypes_print(FILE *out, const struct alloctypes_table *t, const struct amon_data *d,
		 const struct symbols *syms, int brief)
{
	size_t i;
	int k;

	fputs("--------- Allocated Types ------------\n\n", out);
	if (!brief)
		fputs("Heap allocations by type, by bytes: C++ types from the allocator routines\n"
		      "(std::allocator<T>) and from the constructor that ran on each block (new T),\n"
		      "checked against the DWARF sizes; the last row is of unknown type (C's\n"
		      "malloc, raw operator new).  Kept and at-peak bytes marked ~ are shares of a\n"
		      "context that allocated other types too, in proportion to bytes.  Under each\n"
		      "type, its top allocating paths.\n\n", out);
	fprintf(out, "%12s %5s %10s %10s %12s %12s  %s\n", "bytes", "%", "allocs", "avg size",
		"kept", "at peak", "type");
	for (i = 0; i < t->n; i++) {
		const struct types_row *r = &t->rows[i];
		char kept[24], peak[24];

		snprintf(kept, sizeof kept, "%s%" PRIu64, r->shared ? "~" : "", r->kept);
		snprintf(peak, sizeof peak, "%s%" PRIu64, r->shared ? "~" : "", r->peak);
		fprintf(out, "%12" PRIu64 " %5.1f %10" PRIu64 " %10" PRIu64 " %12s %12s  %s\n",
			r->bytes, t->bytes ? 100.0 * (double)r->bytes / (double)t->bytes : 0.0,
			r->allocs, r->allocs ? r->bytes / r->allocs : 0, kept, peak,
			r->name != NULL ? r->name : "<unknown>");
		for (k = 0; k < TYPES_PATHS && r->paths[k].c != NULL; k++)
			print_path(out, &r->paths[k], d, syms);
	}
	fprintf(out, "%12" PRIu64 " %5s %10s %10s %12s %12s  <TOTAL>\n", t->bytes, "", "", "", "",
		"");
}


void alloctypes_free(struct alloctypes_table *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->rows[i].name);
	free(t->rows);
	free(t);
}
