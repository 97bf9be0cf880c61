/*
** callgrind.c -- --format=callgrind: the callgrind profile format
** (valgrind's docs/callgrind-format, "Callgrind Format Specification"), read
** by KCachegrind, callgrind_annotate and gprof2dot -f callgrind.  Written
** the way their parsers demand (doc/aprof.1, EXPORTS): "positions: line"
** with position 0, whole numbers and single spaces only, summary: right
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

/* Names already given an id, per kind ("ob", "fl", "fn": one id space each). */
struct names {
	const char **name;
	int n;
};


/*
** Prints "KEY=(ID)" for NAME, with " NAME" the first time (the format's name
** compression); ids count from 1 in order of first use.
*/
static void put_name(FILE *out, const char *key, struct names *ns, const char *name)
{
	int i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->name[i], name) == 0) {
			fprintf(out, "%s=(%d)\n", key, i + 1);
			return;
		}
	ns->name = xrealloc(ns->name, (size_t)(ns->n + 1) * sizeof ns->name[0]);
	ns->name[ns->n++] = name;
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


void callgrind_write(FILE *out, const char *exe, const struct amon_data *d,
		     struct profile *const *ps, int np)
{
	struct names obs = { NULL, 0 }, fls = { NULL, 0 }, fns = { NULL, 0 };
	uint64_t *running = xcalloc((size_t)np, sizeof running[0]);
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
		/* Self cost first: KCachegrind binds a function to its first cost's file. */
		fputc('\n', out);
		put_name(out, "ob", &obs, object_of(p, r, d));
		put_name(out, "fl", &fls, file_of(p, r));
		put_name(out, "fn", &fns, p->procs[r].name);
		fputc('0', out);
		for (e = 0; e < np; e++)
			fprintf(out, " %" PRIu64, profile_export(ps[e], ps[e]->procs[r].self,
								 &running[e]));
		fputc('\n', out);
		/* Calls: each arc's exact count and inclusive cost, the outgoing self1 + child1. */
		for (a = p->procs[r].out; a != NULL; a = a->next_out) {
			if (strcmp(object_of(p, a->to, d), object_of(p, r, d)) != 0)
				put_name(out, "cob", &obs, object_of(p, a->to, d));
			if (strcmp(file_of(p, a->to), file_of(p, r)) != 0)
				put_name(out, "cfi", &fls, file_of(p, a->to));
			put_name(out, "cfn", &fns, p->procs[a->to].name);
			fprintf(out, "calls=%" PRIu64 " 0\n0", a->count);
			for (e = 0; e < np; e++) {
				const struct prof_arc *ae = e == 0 ? a : profile_arc(ps[e], r, a->to);

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
	free(obs.name);
	free(fls.name);
	free(fns.name);
	free(running);
}
