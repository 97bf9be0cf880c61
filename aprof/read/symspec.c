/*
** symspec.c -- parsing and matching symbol specifications (gprof's
** sym_ids.c: NAME and FILE:NAME; here both parts may be fnmatch patterns).
*/
#include <config.h>

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/read/symspec.h"
#include "aprof/util.h"

/* The ':' that separates FILE from NAME in TEXT: a single one, not part of "::". */
static const char *file_colon(const char *text)
{
	const char *p;

	for (p = text; (p = strchr(p, ':')) != NULL; p++) {
		if (p[1] == ':') {
			p++;
			continue;
		}
		return p;
	}
	return NULL;
}


void symspec_add(struct symspec *s, const char *text)
{
	struct symspec_item *it;
	const char *colon = file_colon(text);

	s->items = xrealloc(s->items, (size_t)(s->n + 1) * sizeof s->items[0]);
	it = &s->items[s->n++];
	it->text = text;
	it->file = NULL;
	if (colon != NULL) {
		it->file = xstrdup(text);
		it->file[colon - text] = '\0';
		text = colon + 1;
	}
	if (*text == '\0')
		util_die("empty routine name in '%s'", it->text);
	it->name = xstrdup(text);
}


/* True if PATTERN matches NAME, or NAME without its parameter list. */
static int name_matches(const char *pattern, const char *name)
{
	const char *paren;
	char *bare;
	int r;

	if (strcmp(pattern, name) == 0 || fnmatch(pattern, name, 0) == 0)
		return 1;
	paren = strchr(name, '(');
	if (paren == NULL || paren == name)
		return 0;
	bare = xstrdup(name);
	bare[paren - name] = '\0';
	r = strcmp(pattern, bare) == 0 || fnmatch(pattern, bare, 0) == 0;
	free(bare);
	return r;
}


/*
** True if PATTERN matches FILE, or FILE's end from a component on: a path
** as DWARF holds it may be absolute ("/home/u/jq/src/parse.c") where the
** pattern is relative ("src/p*.c", "parse.c").  On an end, '*' and '?'
** stay within a component (FNM_PATHNAME), so "src/p*.c" is a file of a
** directory src.
*/
static int file_matches(const char *pattern, const char *file)
{
	const char *p;

	if (fnmatch(pattern, file, 0) == 0)
		return 1;
	for (p = strchr(file, '/'); p != NULL; p = strchr(p + 1, '/'))
		if (fnmatch(pattern, p + 1, FNM_PATHNAME) == 0)
			return 1;
	return 0;
}


/*
** symspec_has for a routine printed as NAME, BARE without its copy's tag
** (NULL: NAME has none), its files found through GET(ARG, 0) (of its
** lines) and GET(ARG, 1) (its unit) only when an item has a file part.
*/
static int has(const struct symspec *s, const char *name, const char *bare,
	       const char *(*get)(const void *, int), const void *arg)
{
	int i, k;

	if (s == NULL)
		return 0;
	for (i = 0; i < s->n; i++) {
		const struct symspec_item *it = &s->items[i];

		if (!name_matches(it->name, name) && (bare == NULL || !name_matches(it->name, bare)))
			continue;
		if (it->file == NULL)
			return 1;
		for (k = 0; k < 2; k++) {
			const char *file = get(arg, k);

			if (file != NULL && file_matches(it->file, file))
				return 1;
		}
	}
	return 0;
}


/* The file given to symspec_has: of the lines and the unit alike. */
static const char *given_file(const void *arg, int unit)
{
	(void)unit;
	return arg;
}


void symspec_free(struct symspec *s)
{
	int i;

	for (i = 0; i < s->n; i++) {
		free(s->items[i].file);
		free(s->items[i].name);
	}
	free(s->items);
	s->items = NULL;
	s->n = 0;
}


int symspec_has(const struct symspec *s, const char *name, const char *file)
{
	return has(s, name, NULL, given_file, file);
}


/* A symbol and its table, for looking its file up lazily. */
struct lookup {
	const struct symbols *syms;
	const struct symbol *sym;
};


static const char *symbol_file(const void *arg, int unit)
{
	const struct lookup *l = arg;

	return unit ? symbols_unit(l->syms, l->sym) : symbols_file(l->syms, l->sym);
}


int symspec_has_symbol(const struct symspec *s, const struct symbols *syms,
		       const struct symbol *sym)
{
	struct lookup l = { syms, sym };

	return has(s, sym->name, sym->bare, symbol_file, &l);
}


void symspec_check(const struct symspec *s, const struct symbols *syms)
{
	int i;
	size_t k;

	for (i = 0; i < s->n; i++) {
		struct symspec one = { &s->items[i], 1 };

		for (k = 0; k < syms->n; k++)
			if (symspec_has_symbol(&one, syms, &syms->syms[k]))
				break;
		if (k == syms->n)
			util_die("no routine matches '%s'", s->items[i].text);
	}
}
