/*
** html.c -- --format=html: the page of aprof/html/page.html with the
** profile inside.  The data is --format=json's document, so the page reads
** the same routines and split arcs as scripts do, but its contexts are
** written compactly: histories share their prefixes in a tree of paths
** and counters are plain arrays (doc/html-report.md), which keeps the page
** of a large profile a fraction of the size.  What the page shows (flame
** graph, sandwich, flat table, search, focus) it computes from them.
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/export/html.h"
#include "aprof/export/json.h"
#include "aprof/util.h"

/*
** Copies JSON text S of length N, every '<' written "\u003c": '<' occurs
** only inside JSON strings, where the escape means the same, and so no name
** can close the <script> element that holds the data.
*/
static void put_escaped(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '<')
			fputs("\\u003c", out);
		else
			fputc(s[i], out);
}


/*
** The tree of the histories' prefixes: node 0 the empty history, every
** other node a parent node and an item, routine * 2 + marked.  Nodes are
** found again through an open-addressing table keyed by (parent, item).
*/
struct paths {
	uint32_t *parent, *item; /* per node */
	size_t n, cap;
	uint32_t *slot;          /* node + 1 per slot, 0 if free */
	size_t nslots;           /* a power of two, at least twice n */
};


static size_t path_hash(uint32_t parent, uint32_t item, size_t nslots)
{
	uint64_t k = ((uint64_t)parent << 32 | item) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(k >> 32) & (nslots - 1);
}


static void paths_grow(struct paths *t)
{
	size_t i, j;

	free(t->slot);
	t->nslots = t->nslots == 0 ? 1024 : t->nslots * 2;
	t->slot = xcalloc(t->nslots, sizeof t->slot[0]);
	for (i = 1; i < t->n; i++) {
		for (j = path_hash(t->parent[i], t->item[i], t->nslots); t->slot[j] != 0;
		     j = (j + 1) & (t->nslots - 1))
			;
		t->slot[j] = (uint32_t)i + 1;
	}
}


/* The node of PARENT's child ITEM, added if new. */
static uint32_t paths_child(struct paths *t, uint32_t parent, uint32_t item)
{
	size_t j;

	if (2 * (t->n + 1) > t->nslots)
		paths_grow(t);
	for (j = path_hash(parent, item, t->nslots); t->slot[j] != 0; j = (j + 1) & (t->nslots - 1))
		if (t->parent[t->slot[j] - 1] == parent && t->item[t->slot[j] - 1] == item)
			return t->slot[j] - 1;
	if (t->n == t->cap) {
		t->cap *= 2;
		t->parent = xrealloc(t->parent, t->cap * sizeof t->parent[0]);
		t->item = xrealloc(t->item, t->cap * sizeof t->item[0]);
	}
	t->parent[t->n] = parent;
	t->item[t->n] = item;
	t->slot[j] = (uint32_t)t->n + 1;
	return (uint32_t)t->n++;
}


/* S as a JSON string inside the page (json_put_string). */
static void put_string(FILE *out, const char *s)
{
	json_put_string(out, s, 1);
}


/*
** "paths": [parent, item, ...] for nodes 1, 2, ... (node 0, the empty
** history, implied); "contexts": nine numbers per context, in
** --format=json's order: thread, node of its history, calls, recursive
** calls, ticks, allocations, bytes allocated, bytes freed, bytes live at
** the peak.
*/
static void put_contexts(FILE *out, const struct amon_data *d, const struct profile *p)
{
	struct paths t = { NULL, NULL, 1, 1024, NULL, 0 };
	uint32_t *node = xmalloc((amon_ncontexts(d) + 1) * sizeof node[0]);
	size_t i, k, n = 0;
	int th;

	t.parent = xmalloc(t.cap * sizeof t.parent[0]);
	t.item = xmalloc(t.cap * sizeof t.item[0]);
	t.parent[0] = t.item[0] = 0;
	for (th = 0; th < d->nthreads; th++)
		for (i = 0; i < d->threads[th].ncontexts; i++) {
			const struct amon_context_info *c = &d->threads[th].contexts[i];
			uint32_t at = 0;

			for (k = 0; k < c->depth; k++)
				at = paths_child(&t, at, (uint32_t)profile_routine(p, c->history[k]) * 2 +
						 (AMON_MARKED(c->history[k]) ? 1 : 0));
			node[n++] = at;
		}
	fputs(",\n\"paths\":[", out);
	for (i = 1; i < t.n; i++)
		fprintf(out, "%s%" PRIu32 ",%" PRIu32, i > 1 ? "," : "", t.parent[i], t.item[i]);
	fputs("],\n\"contexts\":[", out);
	for (th = 0, n = 0; th < d->nthreads; th++)
		for (i = 0; i < d->threads[th].ncontexts; i++, n++) {
			const struct amon_context_info *c = &d->threads[th].contexts[i];

			fprintf(out, "%s%d,%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", n > 0 ? "," : "", th, node[n],
				c->calls, c->rec, c->ticks, c->allocs, c->alloc_bytes, c->free_bytes,
				c->peak_bytes);
		}
	fputs("]", out);
	free(node);
	free(t.parent);
	free(t.item);
	free(t.slot);
}


/*
** --diff's old profile: "old": {"routines": [{"name", "file", "unit",
** "base_name"}...],
** "paths", "contexts"} as put_contexts writes them, routines numbered in
** OLD_P: the page pairs frames by their routines' names.
*/
static void put_old(FILE *out, const struct amon_data *old_d, const struct profile *old_p)
{
	int r;

	fputs(",\n\"old\":{\"routines\":[", out);
	for (r = 0; r < old_p->nprocs; r++) {
		fputs(r > 0 ? ",{\"name\":" : "{\"name\":", out);
		put_string(out, old_p->procs[r].name);
		fputs(",\"file\":", out);
		put_string(out, profile_file(old_p, r));
		fputs(",\"unit\":", out);
		put_string(out, profile_unit(old_p, r));
		fputs(",\"base_name\":", out);
		put_string(out, profile_base_name(old_p, r));
		fputc('}', out);
	}
	fputc(']', out);
	put_contexts(out, old_d, old_p);
	fputc('}', out);
}


void html_write(FILE *out, const char *exe, const struct amon_data *d, const struct profile *p,
		const struct alloctypes_table *types, int decimals, const struct amon_data *old_d,
		const struct profile *old_p)
{
	char *json = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&json, &n);
	int r;

	if (mem == NULL)
		util_die("out of memory");
	json_write_members(mem, exe, d, p, types, 0);
	if (fclose(mem) != 0)
		util_die("out of memory");
	fputs(html_page_head, out);
	fputs("{\"profile\":{", out);
	put_escaped(out, json, n);
	put_contexts(out, d, p);
	if (old_p != NULL)
		put_old(out, old_d, old_p);
	fprintf(out, "},\n\"view\":{\"decimals\":%d,\"unit\":\"%s\",\"scale\":%.17g,\"lines\":[",
		decimals, p->unit, p->scale);
	for (r = 0; r < p->nprocs; r++)
		fprintf(out, "%s%u", r > 0 ? "," : "",
			p->syms != NULL && p->procs[r].sym != NULL
				? symbols_line(p->syms, p->procs[r].sym) : 0u);
	fputs("]}}\n", out);
	fputs(html_page_tail, out);
	free(json);
}
