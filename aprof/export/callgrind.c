/*
** callgrind.c -- --format=callgrind: the callgrind profile format
** (valgrind's docs/callgrind-format, "Callgrind Format Specification"), read
** by KCachegrind, callgrind_annotate and gprof2dot -f callgrind.  Written
** the way their parsers demand (doc/aprof.1, EXPORTS): "positions: line"
** with each routine's first line as the position of its costs and its
** calls' (callgrind_annotate --auto=yes warns of uninitialized values in
** a file whose costs are all at line 0), whole numbers and single spaces
** only, summary: right
** after events:, totals: last, fl= before every fn=, cob=/cfi= on a call
** to another object or file only (a callee without them is in the caller's:
** callgrind_annotate takes the current directory off fl= names, not off
** cfi= names, so a cfi= repeating the caller's file made a second routine).
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/export/callgrind.h"
#include "aprof/util.h"

/*
** Names already given an id, per kind ("ob", "fl", "fn": one id space
** each), in a hash table (open addressing, kept at most half full): a
** profile of many routines has as many names.
*/
struct names {
	const char **slot;         /* mask + 1 slots, NULL when free */
	int *id;                   /* the id of each slot's name */
	size_t mask;
	int n;                     /* ids given */
};


/* FNV-1a of NAME. */
static size_t name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *name != '\0'; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
	return (size_t)h;
}


/* Puts NAME with id ID in NS's table, which has room. */
static void names_put(struct names *ns, const char *name, int id)
{
	size_t i = name_hash(name) & ns->mask;

	while (ns->slot[i] != NULL)
		i = (i + 1) & ns->mask;
	ns->slot[i] = name;
	ns->id[i] = id;
}


/* Doubles NS's table (or makes its first). */
static void names_grow(struct names *ns)
{
	struct names old = *ns;
	size_t i;

	ns->mask = old.slot != NULL ? 2 * old.mask + 1 : 63;
	ns->slot = xcalloc(ns->mask + 1, sizeof ns->slot[0]);
	ns->id = xmalloc((ns->mask + 1) * sizeof ns->id[0]);
	for (i = 0; old.slot != NULL && i <= old.mask; i++)
		if (old.slot[i] != NULL)
			names_put(ns, old.slot[i], old.id[i]);
	free(old.slot);
	free(old.id);
}


/*
** Prints "KEY=(ID)" for NAME, with " NAME" the first time (the format's name
** compression); ids count from 1 in order of first use.
*/
static void put_name(FILE *out, const char *key, struct names *ns, const char *name)
{
	size_t i;

	if (ns->slot != NULL)
		for (i = name_hash(name) & ns->mask; ns->slot[i] != NULL; i = (i + 1) & ns->mask)
			if (strcmp(ns->slot[i], name) == 0) {
				fprintf(out, "%s=(%d)\n", key, ns->id[i]);
				return;
			}
	if (2 * ((size_t)ns->n + 1) > (ns->slot != NULL ? ns->mask + 1 : 0))
		names_grow(ns);
	names_put(ns, name, ++ns->n);
	fprintf(out, "%s=(%d) %s\n", key, ns->n, name);
}


/* The event line of METRIC: "NAME : description" (callgrind's event: line). */
static const char *event_line(enum prof_metric metric)
{
	switch (metric) {
	case PROF_BYTES:
		return "bytes : Heap bytes allocated";
	case PROF_ALLOCS:
		return "allocs : Heap allocations";
	case PROF_KEPT:
		return "kept : Heap bytes allocated and never freed";
	case PROF_PEAK:
		return "peak : Heap bytes live at the peak";
	case PROF_TIME:
	default:
		return "ns : Time (ns)";
	}
}


/* The object file of routine R of P: its module's path, or "???". */
static const char *object_of(const struct profile *p, int r, const struct amon_data *d)
{
	const struct amon_module_info *m = amon_module_of(d, p->procs[r].addr);

	return m != NULL ? m->path : "???";
}


/* The source file of routine R of P, or "???" (Callgrind's own word for none). */
static const char *file_of(const struct profile *p, int r)
{
	const char *file = profile_file(p, r);

	return file != NULL ? file : "???";
}


/* The line of routine R's entry in file_of's file, 0 if unknown. */
static unsigned int line_of(const struct profile *p, int r)
{
	const struct symbol *s = p->procs[r].sym;

	return s != NULL && p->syms != NULL ? symbols_line(p->syms, s) : 0;
}


void callgrind_write(FILE *out, const char *exe, const struct amon_data *d,
		     struct profile *const *ps, int np)
{
	struct names obs = { NULL, NULL, 0, 0 }, fls = { NULL, NULL, 0, 0 },
		     fns = { NULL, NULL, 0, 0 };
	uint64_t *running = xcalloc((size_t)np, sizeof running[0]);
	/*
	** For each other profile, routine R's arcs out by callee: the profiles
	** have the same routines and arcs (profile_build makes an arc for every
	** marked item, whatever it is charged), so each of ps[0]'s is there.
	*/
	const struct prof_arc **to = xcalloc((size_t)np * (size_t)ps[0]->nprocs + 1, sizeof to[0]);
	const struct profile *p = ps[0];
	const struct prof_arc *a;
	int r, e;

	fprintf(out, "# callgrind format\nversion: 1\ncreator: aprof %s\ncmd: %s\n"
		"positions: line\n", PACKAGE_VERSION, exe);
	for (e = 0; e < np; e++)
		fprintf(out, "event: %s\n", event_line(ps[e]->metric));
	fputs("events:", out);
	for (e = 0; e < np; e++)
		fprintf(out, " %.*s", (int)strcspn(event_line(ps[e]->metric), " "),
			event_line(ps[e]->metric));
	fputs("\nsummary:", out);
	for (e = 0; e < np; e++)
		fprintf(out, " %" PRIu64, profile_export(ps[e], ps[e]->total, NULL));
	fputc('\n', out);
	for (r = 0; r < p->nprocs; r++) {
		unsigned int line = line_of(p, r);

		/* Self cost first: KCachegrind binds a function to its first cost's file. */
		fputc('\n', out);
		put_name(out, "ob", &obs, object_of(p, r, d));
		put_name(out, "fl", &fls, file_of(p, r));
		put_name(out, "fn", &fns, p->procs[r].name);
		fprintf(out, "%u", line);
		for (e = 0; e < np; e++)
			fprintf(out, " %" PRIu64, profile_export(ps[e], ps[e]->procs[r].self,
								 &running[e]));
		fputc('\n', out);
		for (e = 1; e < np; e++)
			for (a = ps[e]->procs[r].out; a != NULL; a = a->next_out)
				to[(size_t)e * (size_t)p->nprocs + (size_t)a->to] = a;
		/*
		** Calls: each arc's exact count and inclusive cost, the outgoing
		** self1 + child1, at the caller's first line (amon.out keeps no call
		** site), to the callee's.
		*/
		for (a = p->procs[r].out; a != NULL; a = a->next_out) {
			if (strcmp(object_of(p, a->to, d), object_of(p, r, d)) != 0)
				put_name(out, "cob", &obs, object_of(p, a->to, d));
			if (strcmp(file_of(p, a->to), file_of(p, r)) != 0)
				put_name(out, "cfi", &fls, file_of(p, a->to));
			put_name(out, "cfn", &fns, p->procs[a->to].name);
			fprintf(out, "calls=%" PRIu64 " %u\n%u", a->count, line_of(p, a->to), line);
			for (e = 0; e < np; e++) {
				const struct prof_arc *ae =
					e == 0 ? a : to[(size_t)e * (size_t)p->nprocs + (size_t)a->to];

				fprintf(out, " %" PRIu64, profile_export(ps[e], ae->self1 + ae->child1,
									 NULL));
			}
			fputc('\n', out);
		}
	}
	fputs("\ntotals:", out);
	for (e = 0; e < np; e++)
		fprintf(out, " %" PRIu64, profile_export(ps[e], ps[e]->total, NULL));
	fputc('\n', out);
	free(obs.slot);
	free(obs.id);
	free(fls.slot);
	free(fls.id);
	free(fns.slot);
	free(fns.id);
	free(to);
	free(running);
}
