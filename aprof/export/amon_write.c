/*
** amon_write.c -- the analyser's amon.out writer.  The file is built in
** memory, sealed with its CRC-32 (zlib, as the runtime's writer.c) and
** written at once.
*/
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aprof/export/amon_write.h"
#include "aprof/util.h"

/* The file as it is built. */
struct buffer {
	unsigned char *p;
	size_t n, cap;
};


/* Appends N bytes of DATA to B, or N bytes of room if DATA is NULL. */
static void put(struct buffer *b, const void *data, size_t n)
{
	if (n == 0)
		return;
	if (b->cap - b->n < n) {
		while (b->cap - b->n < n)
			b->cap = b->cap ? 2 * b->cap : 1 << 16;
		b->p = xrealloc(b->p, b->cap);
	}
	if (data != NULL)
		memcpy(b->p + b->n, data, n);
	b->n += n;
}


/* Starts a record of TAG whose payload is LENGTH bytes. */
static void put_record(struct buffer *b, uint32_t tag, uint64_t length)
{
	struct amon_record r;

	memset(&r, 0, sizeof r);
	r.tag = tag;
	r.length = length;
	put(b, &r, sizeof r);
}


static void put_module(struct buffer *b, const struct amon_module_info *m)
{
	struct amon_module am;
	size_t len = strlen(m->path);

	memset(&am, 0, sizeof am);
	am.load_bias = m->load_bias;
	am.start = m->start;
	am.end = m->end;
	am.build_id_length = m->build_id_length;
	am.path_length = (uint32_t)len;
	memcpy(am.build_id, m->build_id, m->build_id_length);
	put_record(b, m->is_exe ? AMON_TAG_EXE : AMON_TAG_MODULE, sizeof am + len);
	put(b, &am, sizeof am);
	put(b, m->path, len);
}


/* 1 if context C's whole history is the first LEN entries of H. */
static int is_prefix(const struct amon_context_info *c, const uint64_t *h, uint32_t len)
{
	return c->depth == len && memcmp(c->history, h, len * sizeof h[0]) == 0;
}


/*
** The thread's contexts coded as the runtime codes them (amon.h,
** amon_code_context): a history whose all but last entry is the history of
** the context before it is coded as that context plus one entry, any other
** whole; then its type sites (amon_code_site).
*/
static void put_thread(struct buffer *b, const struct amon_thread_info *ti)
{
	struct buffer coded = { NULL, 0, 0 };
	struct amon_thread th;
	uint64_t entries = 0;     /* the histories' entries, spelled out whole */
	size_t i;

	for (i = 0; i < ti->ncontexts; i++) {
		const struct amon_context_info *c = &ti->contexts[i];
		uint32_t len = i > 0 && c->depth > 0 && is_prefix(c - 1, c->history, c->depth - 1)
				       ? c->depth - 1 : 0;
		uint64_t v[AMON_COUNTS];
		unsigned char *end;
		size_t room;
		uint32_t k;

		memset(v, 0, sizeof v);
		v[AMON_CALLS] = c->calls;
		v[AMON_REC] = c->rec;
		v[AMON_TICKS] = c->ticks;
		v[AMON_HEAP_EVENTS] = c->heap_events;
		v[AMON_ALLOCS] = c->allocs;
		v[AMON_ALLOC_BYTES] = c->alloc_bytes;
		v[AMON_FREES] = c->frees;
		v[AMON_FREE_BYTES] = c->free_bytes;
		v[AMON_PEAK_BYTES] = c->peak_bytes;
		memcpy(v + AMON_CLASS_ALLOC, c->class_alloc, sizeof c->class_alloc);
		memcpy(v + AMON_CLASS_FREE, c->class_free, sizeof c->class_free);
		v[AMON_SITES] = c->nsites;
		room = AMON_CONTEXT_MAX(c->depth - len) + c->nsites * AMON_SITE_MAX;
		put(&coded, NULL, room);
		end = amon_code_context(coded.p + coded.n - room, 1, c->history, len, c->depth, v);
		for (k = 0; k < c->nsites; k++)
			end = amon_code_site(end, c->depth > 0 ? c->history[c->depth - 1] : 0,
					     &c->sites[k]);
		coded.n = (size_t)(end - coded.p);
		entries += c->depth;
	}
	memset(&th, 0, sizeof th);
	th.tid = ti->tid;
	memcpy(th.name, ti->name, sizeof th.name);
	th.contexts = ti->ncontexts;
	th.transitions = ti->transitions;
	th.resyncs = ti->resyncs;
	th.dropped = ti->dropped;
	th.unmatched = ti->unmatched;
	th.memory = ti->memory;
	th.history_entries = entries;
	th.runtime_ticks = ti->runtime_ticks;
	th.flags = ti->flags;
	put_record(b, AMON_TAG_THREAD, sizeof th + coded.n);
	put(b, &th, sizeof th);
	put(b, coded.p, coded.n);
	free(coded.p);
}


void amon_write(const struct amon_data *d, const char *path)
{
	struct buffer b = { NULL, 0, 0 };
	struct amon_header h = d->header;
	uint32_t crc;
	FILE *f;
	int k;

	amon_header_stamp(&h);
	put(&b, &h, sizeof h);
	for (k = 0; k < d->nmodules; k++)
		put_module(&b, &d->modules[k]);
	/* Newest thread first, as the runtime writes them (the reader reverses). */
	for (k = d->nthreads - 1; k >= 0; k--)
		put_thread(&b, &d->threads[k]);
	if (d->heap.flags != 0 || d->heap.nbins != 0) {
		put_record(&b, AMON_TAG_HEAP, sizeof d->heap + d->heap.nbins * sizeof d->bins[0]);
		put(&b, &d->heap, sizeof d->heap);
		put(&b, d->bins, d->heap.nbins * sizeof d->bins[0]);
	}
	put_record(&b, AMON_TAG_END, sizeof crc);
	crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), b.p, b.n);
	put(&b, &crc, sizeof crc);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0)
		util_die("%s: %s", path, strerror(errno));
	free(b.p);
}
