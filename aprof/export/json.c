/*
** json.c -- --format=json: the whole analysed profile, raw contexts
** included, as one JSON document for scripts; the schema is doc/aprof-json.md.
*/
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "aprof/export/json.h"

void json_put_string(FILE *out, const char *s, int in_html)
{
	if (s == NULL) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || (in_html && ch == '<'))
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}


/* S as a JSON string for --format=json. */
static void put_string(FILE *out, const char *s)
{
	json_put_string(out, s, 0);
}


/* The name of clock C as in doc/amon-format.md. */
static const char *clock_name(uint32_t c)
{
	switch (c) {
	case AMON_CLOCK_TSC:
		return "tsc";
	case AMON_CLOCK_CNTVCT:
		return "cntvct";
	case AMON_CLOCK_MONOTONIC:
		return "monotonic";
	case AMON_CLOCK_SAMPLE:
		return "sample";
	default:
		return "unknown";
	}
}


/* The --metric name of P's metric. */
static const char *metric_name(const struct profile *p)
{
	static const char *const names[] = { "time", "bytes", "allocs", "kept", "peak" };

	return names[p->metric];
}


static void put_metadata(FILE *out, const char *exe, const struct amon_data *d,
			 const struct profile *p)
{
	const struct amon_module_info *m = &d->modules[0];
	uint64_t ticks = 0, calls = 0, allocs = 0, bytes = 0, frees = 0, freed = 0;
	struct amon_each e = AMON_EACH(d);
	const struct amon_context_info *c;
	uint32_t k;
	int t;

	while ((c = amon_each_next(&e)) != NULL) {
		ticks += c->ticks;
		calls += c->calls;
		allocs += c->allocs;
		bytes += c->alloc_bytes;
		frees += c->frees;
		freed += c->free_bytes;
	}
	fputs("\"metadata\":{\"program\":", out);
	put_string(out, exe);
	fputs(",\"build_id\":\"", out);
	for (k = 0; k < m->build_id_length; k++)
		fprintf(out, "%02x", m->build_id[k]);
	fprintf(out, "\",\"clock\":\"%s\",\"ticks_per_second\":%.17g,\"metric\":\"%s\","
		"\"unit\":\"%s\",\"scale\":%.17g,\"heap\":%s,\n", clock_name(d->header.clock),
		d->header.ticks_per_second, metric_name(p),
		p->metric == PROF_TIME ? "ticks" : p->metric == PROF_ALLOCS ? "allocs" : "bytes",
		p->metric == PROF_TIME ? p->scale : 1.0,
		(d->heap.flags & AMON_HEAP_ON) ? "true" : "false");
	fprintf(out, " \"totals\":{\"value\":%" PRIu64 ",\"root\":%" PRIu64 ",\"ticks\":%" PRIu64
		",\"seconds\":%.9f,\"calls\":%" PRIu64 ",\"allocs\":%" PRIu64 ",\"bytes\":%" PRIu64
		",\"frees\":%" PRIu64 ",\"freed\":%" PRIu64 ",\"peak\":%" PRIu64 "},\n \"threads\":[",
		p->total, p->root, ticks, (double)ticks / d->header.ticks_per_second, calls, allocs,
		bytes, frees, freed, d->heap.peak_bytes);
	for (t = 0; t < d->nthreads; t++) {
		const struct amon_thread_info *th = &d->threads[t];

		fprintf(out, "%s{\"tid\":%" PRIu64 ",\"name\":", t > 0 ? "," : "", th->tid);
		put_string(out, th->name);
		fprintf(out, ",\"contexts\":%zu,\"transitions\":%" PRIu64 ",\"incomplete\":%s}",
			th->ncontexts, th->transitions,
			(th->flags & AMON_THREAD_INCOMPLETE) ? "true" : "false");
	}
	fputs("]},\n", out);
}


static void put_routines(FILE *out, const struct amon_data *d, const struct profile *p)
{
	int r;

	fputs("\"routines\":[", out);
	for (r = 0; r < p->nprocs; r++) {
		const struct prof_proc *f = &p->procs[r];
		const struct amon_module_info *m = amon_module_of(d, f->addr);

		fprintf(out, "%s\n {\"id\":%d,\"name\":", r > 0 ? "," : "", r);
		put_string(out, f->name);
		fputs(",\"module\":", out);
		put_string(out, m != NULL ? m->path : NULL);
		fputs(",\"file\":", out);
		put_string(out, profile_file(p, r));
		fputs(",\"unit\":", out);
		put_string(out, profile_unit(p, r));
		fputs(",\"base_name\":", out);
		put_string(out, profile_base_name(p, r));
		fprintf(out, ",\"address\":%" PRIu64 ",\"self\":%" PRIu64 ",\"child\":%"
			PRIu64 ",\"total\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"recursive\":%" PRIu64
			",\"cycle\":%d}", f->addr, f->self, f->child, f->self + f->child, f->calls,
			f->rec, f->cycle);
	}
	fputs("],\n", out);
}


static void put_arcs(FILE *out, const struct profile *p)
{
	const struct prof_arc *a;
	int r, n = 0;

	fputs("\"arcs\":[", out);
	for (r = 0; r < p->nprocs; r++)
		for (a = p->procs[r].in; a != NULL; a = a->next_in) {
			fprintf(out, "%s\n {\"caller\":", n++ > 0 ? "," : "");
			if (a->from == PROF_SPONTANEOUS)
				fputs("null", out);
			else
				fprintf(out, "%d", a->from);
			fprintf(out, ",\"callee\":%d,\"calls\":%" PRIu64 ",\"self1\":%" PRIu64
				",\"child1\":%" PRIu64 ",\"self2\":%" PRIu64 ",\"child2\":%" PRIu64 "}",
				a->to, a->count, a->self1, a->child1, a->self2, a->child2);
		}
	fputs("],\n", out);
}


static void put_contexts(FILE *out, const struct amon_data *d, const struct profile *p)
{
	size_t i, n = 0;
	uint32_t k;
	int t;

	fputs("\"contexts\":[", out);
	for (t = 0; t < d->nthreads; t++)
		for (i = 0; i < d->threads[t].ncontexts; i++) {
			const struct amon_context_info *c = &d->threads[t].contexts[i];

			fprintf(out, "%s\n {\"thread\":%d,\"history\":[", n++ > 0 ? "," : "", t);
			for (k = 0; k < c->depth; k++)
				fprintf(out, "%s{\"routine\":%d,\"marked\":%s}", k > 0 ? "," : "",
					profile_routine(p, c->history[k]),
					AMON_MARKED(c->history[k]) ? "true" : "false");
			fprintf(out, "],\"calls\":%" PRIu64 ",\"recursive\":%" PRIu64 ",\"ticks\":%"
				PRIu64 ",\"seconds\":%.9f,\"allocs\":%" PRIu64 ",\"bytes\":%" PRIu64
				",\"frees\":%" PRIu64 ",\"freed\":%" PRIu64 ",\"peak\":%" PRIu64 "}",
				c->calls, c->rec, c->ticks,
				(double)c->ticks / d->header.ticks_per_second, c->allocs,
				c->alloc_bytes, c->frees, c->free_bytes, c->peak_bytes);
		}
	fputs("],\n", out);
}


static void put_cycles(FILE *out, const struct profile *p)
{
	int c, k;

	fputs("\"cycles\":[", out);
	for (c = 0; c < p->ncycles; c++) {
		const struct prof_cycle *y = &p->cycles[c];

		fprintf(out, "%s\n {\"number\":%d,\"members\":[", c > 0 ? "," : "", y->number);
		for (k = 0; k < y->nmembers; k++)
			fprintf(out, "%s%d", k > 0 ? "," : "", y->members[k]);
		fprintf(out, "],\"self\":%" PRIu64 ",\"child\":%" PRIu64 ",\"calls\":%" PRIu64
			",\"internal\":%" PRIu64 "}", y->self, y->child, y->calls, y->internal);
	}
	fputs("]\n", out);
}


/* The index in "contexts" of context C of D. */
static size_t context_index(const struct amon_data *d, const struct amon_context_info *c)
{
	size_t n = 0;
	int t;

	for (t = 0; t < d->nthreads; n += d->threads[t++].ncontexts)
		if (c >= d->threads[t].contexts && c < d->threads[t].contexts + d->threads[t].ncontexts)
			return n + (size_t)(c - d->threads[t].contexts);
	return n;
}


/* The rows of --types (alloctypes.h), the unknown one with "type": null. */
static void put_types(FILE *out, const struct amon_data *d, const struct alloctypes_table *tt)
{
	size_t i;
	int k;

	fputs(",\n\"types\":[", out);
	for (i = 0; i < tt->n; i++) {
		const struct types_row *r = &tt->rows[i];

		fprintf(out, "%s\n {\"type\":", i > 0 ? "," : "");
		if (r->name != NULL)
			put_string(out, r->name);
		else
			fputs("null", out);
		fprintf(out, ",\"allocs\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"kept\":%" PRIu64
			",\"peak\":%" PRIu64 ",\"shared\":%s,\"paths\":[", r->allocs, r->bytes,
			r->kept, r->peak, r->shared ? "true" : "false");
		for (k = 0; k < TYPES_PATHS && r->paths[k].c != NULL; k++)
			fprintf(out, "%s{\"context\":%zu,\"bytes\":%" PRIu64 "}", k > 0 ? "," : "",
				context_index(d, r->paths[k].c), r->paths[k].bytes);
		fputs("]}", out);
	}
	fputs("]", out);
}


void json_write_members(FILE *out, const char *exe, const struct amon_data *d,
			const struct profile *p, const struct alloctypes_table *types, int contexts)
{
	fputs("\"format\":\"aprof\",\"version\":1,\n", out);
	put_metadata(out, exe, d, p);
	put_routines(out, d, p);
	put_arcs(out, p);
	if (contexts)
		put_contexts(out, d, p);
	put_cycles(out, p);
	if (types != NULL)
		put_types(out, d, types);
}


void json_write(FILE *out, const char *exe, const struct amon_data *d, const struct profile *p,
		const struct alloctypes_table *types)
{
	fputc('{', out);
	json_write_members(out, exe, d, p, types, 1);
	fputs("}\n", out);
}
