/*
** amon_read.c -- the amon reader.  The file is read whole and every length
** and count is checked against the bytes actually there before it is used,
** so a corrupt file gets a message, never a crash or a wrong report.
*/
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aprof/amon_read.h"
#include "aprof/util.h"

/* A cursor over the bytes [p, end) of one record. */
struct cursor {
	const unsigned char *p, *end;
};


static unsigned char *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;

	if (f == NULL)
		util_die("%s: %s", path, strerror(errno));
	for (;;) {
		size_t r;

		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = xrealloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f))
		util_die("%s: %s", path, strerror(errno));
	fclose(f);
	*size = n;
	return buf;
}


/* Copies N bytes out of C into DST; 0 if there are fewer than N left. */
static int take(struct cursor *c, void *dst, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return 0;
	memcpy(dst, c->p, n);
	c->p += n;
	return 1;
}


static void read_module(struct amon_data *d, struct cursor *c, int is_exe)
{
	struct amon_module m;
	struct amon_module_info *mi;
	const unsigned char *id;

	id = c->p + offsetof(struct amon_module, build_id);
	if (!take(c, &m, sizeof m) || m.build_id_length > AMON_BUILD_ID_MAX ||
	    m.path_length != (size_t)(c->end - c->p) || m.start > m.end)
		util_die("%s: corrupt module record", d->path);
	d->modules = xrealloc(d->modules, (size_t)(d->nmodules + 1) * sizeof d->modules[0]);
	mi = &d->modules[d->nmodules++];
	mi->load_bias = m.load_bias;
	mi->start = m.start;
	mi->end = m.end;
	mi->build_id = id;
	mi->build_id_length = m.build_id_length;
	mi->path = xmalloc(m.path_length + 1);
	memcpy(mi->path, c->p, m.path_length);
	mi->path[m.path_length] = '\0';
	mi->is_exe = is_exe;
	c->p = c->end;
}


static void read_heap(struct amon_data *d, struct cursor *c)
{
	uint32_t k;

	if (d->bins != NULL || !take(c, &d->heap, sizeof d->heap) ||
	    d->heap.nbins > AMON_BINS ||
	    (size_t)(c->end - c->p) != d->heap.nbins * sizeof(struct amon_heap_bin))
		util_die("%s: corrupt heap record", d->path);
	d->bins = xcalloc(d->heap.nbins, sizeof d->bins[0]);
	for (k = 0; k < d->heap.nbins; k++) {
		take(c, &d->bins[k], sizeof d->bins[k]);
		if (d->bins[k].bin >= AMON_BINS || (k > 0 && d->bins[k].bin <= d->bins[k - 1].bin))
			util_die("%s: corrupt heap record (bins out of order)", d->path);
	}
}


static void read_thread(struct amon_data *d, struct cursor *c)
{
	struct amon_thread th;
	struct amon_thread_info *ti;
	uint64_t *entries;
	size_t i;

	if (!take(c, &th, sizeof th))
		util_die("%s: corrupt thread record", d->path);
	/* Each context takes at least sizeof(struct amon_context) bytes. */
	if (th.contexts > (size_t)(c->end - c->p) / sizeof(struct amon_context))
		util_die("%s: corrupt thread record (%llu contexts cannot fit)", d->path,
			 (unsigned long long)th.contexts);
	d->threads = xrealloc(d->threads, (size_t)(d->nthreads + 1) * sizeof d->threads[0]);
	ti = &d->threads[d->nthreads++];
	ti->tid = th.tid;
	memcpy(ti->name, th.name, sizeof th.name);
	ti->name[sizeof th.name] = '\0';
	ti->flags = th.flags;
	ti->transitions = th.transitions;
	ti->ncontexts = th.contexts;
	ti->contexts = xcalloc(th.contexts, sizeof ti->contexts[0]);
	/* Histories are copied out: module paths leave records unaligned in the file. */
	entries = xmalloc((size_t)(c->end - c->p));
	for (i = 0; i < th.contexts; i++) {
		struct amon_context ac;
		struct amon_context_info *ci = &ti->contexts[i];
		uint32_t k;

		if (!take(c, &ac, sizeof ac) ||
		    ac.depth > (size_t)(c->end - c->p) / sizeof(uint64_t))
			util_die("%s: corrupt context record", d->path);
		ci->depth = ac.depth;
		ci->calls = ac.calls;
		ci->rec = ac.rec;
		ci->ticks = ac.ticks;
		ci->allocs = ac.allocs;
		ci->alloc_bytes = ac.alloc_bytes;
		ci->frees = ac.frees;
		ci->free_bytes = ac.free_bytes;
		memcpy(ci->class_alloc, ac.class_alloc, sizeof ci->class_alloc);
		memcpy(ci->class_free, ac.class_free, sizeof ci->class_free);
		ci->peak_bytes = ac.peak_bytes;
		if (ac.frees > ac.allocs || ac.free_bytes > ac.alloc_bytes)
			util_die("%s: corrupt context record (more freed than allocated)", d->path);
		memcpy(entries, c->p, ac.depth * sizeof(uint64_t));
		ci->history = entries;
		entries += ac.depth;
		c->p += ac.depth * sizeof(uint64_t);
		/* A history ends in its running routine, which is marked. */
		for (k = 0; k < ac.depth; k++)
			if (AMON_ADDR(ci->history[k]) == 0)
				util_die("%s: corrupt history (null address)", d->path);
		if (ac.depth > 0 && !AMON_MARKED(ci->history[ac.depth - 1]))
			util_die("%s: corrupt history (running routine unmarked)", d->path);
	}
	if (c->p != c->end)
		util_die("%s: corrupt thread record (%zu bytes left over)", d->path,
			 (size_t)(c->end - c->p));
}


/*
** The file must end in the END record and its CRC-32 must match: checked
** before any record is parsed, so truncation and corruption are told apart
** from a bug and never reach the report.
*/
static void check_seal(const struct amon_data *d)
{
	const size_t tail = sizeof(struct amon_record) + sizeof(uint32_t);
	struct amon_record r;
	uint32_t crc;

	if (d->size < AMON_HEADER_SIZE + tail)
		util_die("%s: truncated file (%zu bytes, no end record)", d->path, d->size);
	memcpy(&r, d->image + d->size - tail, sizeof r);
	memcpy(&crc, d->image + d->size - sizeof crc, sizeof crc);
	if (r.tag != AMON_TAG_END || r.length != sizeof crc)
		util_die("%s: truncated file (%zu bytes, no end record)", d->path, d->size);
	if ((uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), d->image, d->size - sizeof crc) != crc)
		util_die("%s: checksum mismatch (file corrupted)", d->path);
}


struct amon_data *amon_read(const char *path)
{
	struct amon_data *d = xcalloc(1, sizeof *d);
	struct cursor file;
	int ended = 0;

	d->path = path;
	d->image = read_whole(path, &d->size);
	file.p = d->image;
	file.end = d->image + d->size;
	if (d->size < AMON_MAGIC_SIZE || memcmp(d->image, AMON_MAGIC, AMON_MAGIC_SIZE) != 0)
		util_die("%s: not an amon.out file (bad magic)", path);
	if (!take(&file, &d->header, sizeof d->header))
		util_die("%s: truncated file (%zu bytes, header incomplete)", path, d->size);
	if (d->header.byte_order != AMON_BYTE_ORDER)
		util_die("%s: written on a machine of the other byte order", path);
	if (d->header.version != AMON_VERSION)
		util_die("%s: amon.out version %u; this aprof reads version %u", path,
			 d->header.version, AMON_VERSION);
	if (d->header.header_size != AMON_HEADER_SIZE)
		util_die("%s: corrupt header (size %u)", path, d->header.header_size);
	if (!(d->header.ticks_per_second > 0))
		util_die("%s: corrupt header (ticks per second %g)", path,
			 d->header.ticks_per_second);
	check_seal(d);
	while (!ended) {
		struct amon_record r;
		struct cursor rec;

		if (!take(&file, &r, sizeof r) || r.length > (uint64_t)(file.end - file.p))
			util_die("%s: truncated file (%zu bytes, no end record)", path, d->size);
		rec.p = file.p;
		rec.end = file.p + r.length;
		switch (r.tag) {
		case AMON_TAG_EXE:
		case AMON_TAG_MODULE:
			read_module(d, &rec, r.tag == AMON_TAG_EXE);
			break;
		case AMON_TAG_THREAD:
			read_thread(d, &rec);
			break;
		case AMON_TAG_HEAP:
			read_heap(d, &rec);
			break;
		case AMON_TAG_END:
			ended = 1; /* check_seal verified it */
			break;
		default:
			util_die("%s: unknown record tag %u (file corrupted?)", path, r.tag);
		}
		file.p = rec.end;
	}
	if (file.p != file.end)
		util_die("%s: %zu bytes of garbage after the end record", path,
			 (size_t)(file.end - file.p));
	if (d->nmodules == 0 || !d->modules[0].is_exe)
		util_die("%s: no executable record (file corrupted?)", path);
	return d;
}
