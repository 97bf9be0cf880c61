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

#include "aprof/amon_write.h"
#include "aprof/util.h"

/* The file as it is built. */
struct buffer {
	unsigned char *p;
	size_t n, cap;
};


static void put(struct buffer *b, const void *data, size_t n)
{
	if (n == 0)
		return;
	if (b->cap - b->n < n) {
		while (b->cap - b->n < n)
			b->cap = b->cap ? 2 * b->cap : 1 << 16;
		b->p = xrealloc(b->p, b->cap);
	}
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


static void put_thread(struct buffer *b, const struct amon_thread_info *ti)
{
	struct amon_thread th;
	uint64_t length = sizeof th;
	size_t i;

	for (i = 0; i < ti->ncontexts; i++)
		length += sizeof(struct amon_context) + ti->contexts[i].depth * sizeof(uint64_t);
	memset(&th, 0, sizeof th);
	th.tid = ti->tid;
	memcpy(th.name, ti->name, sizeof th.name);
	th.contexts = ti->ncontexts;
	th.transitions = ti->transitions;
	th.resyncs = ti->resyncs;
	th.dropped = ti->dropped;
	th.unmatched = ti->unmatched;
	th.memory = ti->memory;
	th.runtime_ticks = ti->runtime_ticks;
	th.flags = ti->flags;
	put_record(b, AMON_TAG_THREAD, length);
	put(b, &th, sizeof th);
	for (i = 0; i < ti->ncontexts; i++) {
		const struct amon_context_info *c = &ti->contexts[i];
		struct amon_context ac;

		memset(&ac, 0, sizeof ac);
		ac.depth = c->depth;
		ac.calls = c->calls;
		ac.rec = c->rec;
		ac.ticks = c->ticks;
		ac.allocs = c->allocs;
		ac.alloc_bytes = c->alloc_bytes;
		ac.frees = c->frees;
		ac.free_bytes = c->free_bytes;
		memcpy(ac.class_alloc, c->class_alloc, sizeof ac.class_alloc);
		memcpy(ac.class_free, c->class_free, sizeof ac.class_free);
		ac.peak_bytes = c->peak_bytes;
		ac.heap_events = c->heap_events;
		put(b, &ac, sizeof ac);
		put(b, c->history, c->depth * sizeof(uint64_t));
	}
}


void amon_write(const struct amon_data *d, const char *path)
{
	struct buffer b = { NULL, 0, 0 };
	struct amon_header h = d->header;
	uint32_t crc;
	FILE *f;
	int k;

	memcpy(h.magic, AMON_MAGIC, AMON_MAGIC_SIZE);
	h.version = AMON_VERSION;
	h.byte_order = AMON_BYTE_ORDER;
	h.header_size = AMON_HEADER_SIZE;
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
