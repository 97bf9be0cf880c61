/*
** amon_read.c -- the amon reader.  The file is read whole, once its header,
** end record and seal say it is a profile (read_whole), and every length
** and count is checked against the bytes actually there before it is used,
** so a corrupt file gets a message, never a crash or a wrong report.  The
** parser reports a fault by a longjmp to amon_parse, which frees what was
** built and returns the message: no exit, so a fuzzer can drive it.
*/
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "aprof/read/amon_read.h"
#include "aprof/util.h"

/* A cursor over the bytes [p, end) of one record. */
struct cursor {
	const unsigned char *p, *end;
};

/* Where a fault in the parse of the file named NAME goes. */
struct parse {
	jmp_buf fault;
	char *message;             /* "NAME: what", malloc'd */
	void *scratch;             /* a malloc'd block of the record at hand, freed on a fault */
};

static struct parse *parsing; /* the parse under way (the analyser is single-threaded) */


/* Ends the parse with "FILE: FMT...". */
static void fail(const struct amon_data *d, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));

static void fail(const struct amon_data *d, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	n = strlen(d->path) + strlen(what) + 3;
	parsing->message = xmalloc(n);
	snprintf(parsing->message, n, "%s: %s", d->path, what);
	longjmp(parsing->fault, 1);
}


/*
** What is wrong with the header among the first N bytes of a file at P (N
** may be fewer than a header's), into WHAT (SIZE bytes); NULL if nothing.
*/
static const char *header_wrong(const unsigned char *p, size_t n, char *what, size_t size)
{
	struct amon_header h;

	if (n < AMON_MAGIC_SIZE || memcmp(p, AMON_MAGIC, AMON_MAGIC_SIZE) != 0)
		snprintf(what, size, "not an amon.out file (bad magic)");
	else if (n < sizeof h)
		snprintf(what, size, "truncated file (%zu bytes, header incomplete)", n);
	else if (memcpy(&h, p, sizeof h), h.byte_order != AMON_BYTE_ORDER)
		snprintf(what, size, "written on a machine of the other byte order");
	else if (h.version != AMON_VERSION)
		snprintf(what, size, "amon.out version %u; this aprof reads version %u", h.version,
			 AMON_VERSION);
	else if (h.header_size != AMON_HEADER_SIZE)
		snprintf(what, size, "corrupt header (size %u)", h.header_size);
	else if (!(h.ticks_per_second > 0))
		snprintf(what, size, "corrupt header (ticks per second %g)", h.ticks_per_second);
	else
		return NULL;
	return what;
}


/* "PATH: WHAT" into *ERROR, malloc'd. */
static void say(char **error, const char *path, const char *what)
{
	*error = xmalloc(strlen(path) + strlen(what) + 3);
	sprintf(*error, "%s: %s", path, what);
}


/* Reads up to N bytes of FD at OFFSET (-1: where it is) into BUF; the bytes read, or -1. */
static ssize_t read_at(int fd, void *buf, size_t n, off_t offset)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = offset < 0 ? read(fd, (char *)buf + done, n - done)
				       : pread(fd, (char *)buf + done, n - done, offset + (off_t)done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}


/*
** The checks a regular file of SIZE bytes passes before any memory is
** taken for it: its end record where the file ends, and the CRC-32 of
** its bytes, read 64 KiB at a time, matching the seal (check_seal says
** the same of the bytes in memory); NULL, or what is wrong.
*/
static const char *check_file(int fd, size_t size, char *what, size_t what_size)
{
	const size_t tail = sizeof(struct amon_record) + sizeof(uint32_t);
	unsigned char buf[65536];
	struct amon_record r;
	uint32_t crc;
	uLong sum = crc32_z(0L, Z_NULL, 0);
	size_t at;

	if (size < AMON_HEADER_SIZE + tail)
		return NULL; /* parse says what is missing */
	if (read_at(fd, buf, tail, (off_t)(size - tail)) != (ssize_t)tail)
		return strerror(errno);
	memcpy(&r, buf, sizeof r);
	memcpy(&crc, buf + sizeof r, sizeof crc);
	if (r.tag != AMON_TAG_END || r.length != sizeof crc) {
		snprintf(what, what_size, "truncated file (%zu bytes, no end record)", size);
		return what;
	}
	for (at = 0; at < size - sizeof crc;) {
		size_t n = size - sizeof crc - at < sizeof buf ? size - sizeof crc - at : sizeof buf;

		if (read_at(fd, buf, n, (off_t)at) != (ssize_t)n)
			return "file changed while read";
		sum = crc32_z(sum, buf, n);
		at += n;
	}
	return (uint32_t)sum != crc ? "checksum mismatch (file corrupted)" : NULL;
}


/*
** The bytes of PATH, or NULL with *ERROR set.  Nothing is taken for a
** file before its first bytes say it is a profile and, for a regular file,
** its end record and CRC-32 (check_file) say it is whole: a sparse file
** of a gigabyte costs 64 KiB, not a gigabyte.  A regular file is then read
** in one block of its size; a pipe or a FIFO, whose size is not known, in
** a block that grows with the bytes that come.  Anything else (a device,
** such as /dev/zero, which never ends) is refused.
*/
static unsigned char *read_whole(const char *path, size_t *size, char **error)
{
	unsigned char *buf = NULL;
	char what[128];
	const char *wrong;
	size_t n, cap;
	ssize_t r;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) != 0)
		goto fault;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fault;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		say(error, path, "not a regular file or a pipe (a device?)");
		close(fd);
		return NULL;
	}
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size : 65536;
	if (S_ISREG(st.st_mode) && (off_t)cap != st.st_size) {
		errno = EFBIG;
		goto fault;
	}
	buf = xmalloc(AMON_HEADER_SIZE);
	r = read_at(fd, buf, AMON_HEADER_SIZE, S_ISREG(st.st_mode) ? 0 : -1);
	if (r < 0)
		goto fault;
	n = (size_t)r;
	if ((wrong = header_wrong(buf, n, what, sizeof what)) != NULL) {
		/* refused on its first bytes */
	} else if (S_ISREG(st.st_mode)) {
		wrong = check_file(fd, cap, what, sizeof what);
		if (wrong == NULL) {
			free(buf);
			buf = xmalloc(cap + 1);
			if ((r = read_at(fd, buf, cap, 0)) < 0)
				goto fault;
			n = (size_t)r;
		}
	} else {
		buf = xrealloc(buf, cap);
		while ((r = read_at(fd, buf + n, cap - n, -1)) > 0) {
			n += (size_t)r;
			if (n == cap)
				buf = xrealloc(buf, cap *= 2);
		}
		wrong = r < 0 ? strerror(errno) : NULL;
	}
	close(fd);
	if (wrong != NULL) {
		say(error, path, wrong);
		free(buf);
		return NULL;
	}
	*size = n;
	return buf;
fault:
	say(error, path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
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
		fail(d, "corrupt module record");
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
		fail(d, "corrupt heap record");
	d->bins = xcalloc(d->heap.nbins, sizeof d->bins[0]);
	for (k = 0; k < d->heap.nbins; k++) {
		take(c, &d->bins[k], sizeof d->bins[k]);
		if (d->bins[k].bin >= AMON_BINS || (k > 0 && d->bins[k].bin <= d->bins[k - 1].bin))
			fail(d, "corrupt heap record (bins out of order)");
	}
}


/* The next varint (amon.h) of context record C. */
static uint64_t varint(const struct amon_data *d, struct cursor *c)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; c->p < c->end; shift += 7) {
		unsigned b = *c->p++;

		if (shift == 63 && b > 1)
			break; /* more than 64 bits */
		v |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80)
			return v;
		if (shift == 63)
			break;
	}
	fail(d, "corrupt context record (bad varint)");
}


/*
** The N type sites (amon.h, amon_code_site) of context CI, whose running
** routine's entry is PREV, from C into a malloc'd array CI owns: each with
** 1 to AMON_CANDIDATES candidates, unmarked and not null, and allocs x size
** within 64 bits.
*/
static void read_sites(struct amon_data *d, struct cursor *c, struct amon_context_info *ci,
		       uint64_t n, uint64_t prev)
{
	struct amon_type_site *s;
	uint64_t i, k, m;

	/* Each site takes at least four bytes: size, allocs, number, a candidate. */
	if (n > (uint64_t)(c->end - c->p) / 4)
		fail(d, "corrupt context record (%llu type sites cannot fit)", (unsigned long long)n);
	ci->sites = s = xcalloc(n, sizeof s[0]);
	ci->sites_owned = 1;
	for (i = 0; i < n; i++, ci->nsites++) {
		uint64_t last = prev;

		s[i].size = varint(d, c);
		s[i].allocs = varint(d, c);
		m = varint(d, c);
		if (m == 0 || m > AMON_CANDIDATES ||
		    (s[i].size != 0 && s[i].allocs > UINT64_MAX / s[i].size))
			fail(d, "corrupt type site");
		for (k = 0; k < m; k++) {
			s[i].candidate[k] = last = amon_entry_decode(last, varint(d, c));
			if (AMON_ADDR(last) == 0 || AMON_MARKED(last))
				fail(d, "corrupt type site (candidate)");
		}
	}
}


/*
** Context I of thread TI from C: its history into TI's block of entries
** (*USED of *CAP in use, grown as needed, at most LIMIT: the thread record's
** history_entries), at offset AT[I] (the block may move before the last
** context), and its counters.
*/
static void read_context(struct amon_data *d, struct cursor *c, struct amon_thread_info *ti,
			 size_t i, size_t *at, size_t *used, size_t *cap, uint64_t limit)
{
	struct amon_context_info *ci = &ti->contexts[i];
	uint64_t ref, more, present, v[AMON_COUNTS], prev = 0, depth = 0, *h;
	int k;

	ref = varint(d, c);
	more = varint(d, c);
	if (ref > i)
		fail(d, "corrupt context record (history of a context that does not exist)");
	if (ref > 0)
		depth = ti->contexts[i - ref].depth;
	if (more > (uint64_t)(c->end - c->p) || depth + more > UINT32_MAX ||
	    depth + more > limit - *used)
		fail(d, "corrupt context record (histories longer than the %llu entries the "
			 "thread record gives)", (unsigned long long)limit);
	if (*cap - *used < depth + more) {
		*cap = 2 * (*used + depth + more) < limit ? 2 * (*used + depth + more) : limit;
		ti->histories = xrealloc(ti->histories, *cap * sizeof ti->histories[0]);
	}
	h = ti->histories + *used;
	if (depth > 0) {
		memcpy(h, ti->histories + at[i - ref], depth * sizeof h[0]);
		prev = h[depth - 1];
	}
	for (; more > 0; more--, depth++) {
		h[depth] = prev = amon_entry_decode(prev, varint(d, c));
		if (AMON_ADDR(prev) == 0)
			fail(d, "corrupt history (null address)");
	}
	/* A history ends in its running routine, which is marked. */
	if (depth > 0 && !AMON_MARKED(h[depth - 1]))
		fail(d, "corrupt history (running routine unmarked)");
	at[i] = *used;
	*used += depth;
	ci->depth = (uint32_t)depth;
	present = varint(d, c);
	if (present >> AMON_COUNTS != 0)
		fail(d, "corrupt context record (unknown counter)");
	for (k = 0; k < AMON_COUNTS; k++)
		v[k] = (present >> k & 1) != 0 ? varint(d, c) : 0;
	if (v[AMON_FREES] > v[AMON_ALLOCS] || v[AMON_FREE_BYTES] > v[AMON_ALLOC_BYTES])
		fail(d, "corrupt context record (more freed than allocated)");
	ci->calls = v[AMON_CALLS];
	ci->rec = v[AMON_REC];
	ci->ticks = v[AMON_TICKS];
	ci->events = v[AMON_EVENTS];
	ci->heap_events = v[AMON_HEAP_EVENTS];
	ci->allocs = v[AMON_ALLOCS];
	ci->alloc_bytes = v[AMON_ALLOC_BYTES];
	ci->frees = v[AMON_FREES];
	ci->free_bytes = v[AMON_FREE_BYTES];
	ci->peak_bytes = v[AMON_PEAK_BYTES];
	memcpy(ci->class_alloc, v + AMON_CLASS_ALLOC, sizeof ci->class_alloc);
	memcpy(ci->class_free, v + AMON_CLASS_FREE, sizeof ci->class_free);
	if (v[AMON_SITES] != 0)
		read_sites(d, c, ci, v[AMON_SITES], depth > 0 ? h[depth - 1] : 0);
}


static void read_thread(struct amon_data *d, struct cursor *c)
{
	struct amon_thread th;
	struct amon_thread_info *ti;
	size_t i, *at, used = 0, cap;

	if (!take(c, &th, sizeof th))
		fail(d, "corrupt thread record");
	/* Each context takes at least three bytes (ref, more, present). */
	if (th.contexts > (size_t)(c->end - c->p) / 3)
		fail(d, "corrupt thread record (%llu contexts cannot fit)",
			 (unsigned long long)th.contexts);
	d->threads = xrealloc(d->threads, (size_t)(d->nthreads + 1) * sizeof d->threads[0]);
	ti = &d->threads[d->nthreads++];
	memset(ti, 0, sizeof *ti);
	ti->tid = th.tid;
	memcpy(ti->name, th.name, sizeof th.name);
	ti->name[sizeof th.name] = '\0';
	ti->flags = th.flags;
	ti->transitions = th.transitions;
	ti->resyncs = th.resyncs;
	ti->dropped = th.dropped;
	ti->unmatched = th.unmatched;
	ti->memory = th.memory;
	ti->runtime_ticks = th.runtime_ticks;
	ti->record = th;
	ti->ncontexts = th.contexts;
	ti->contexts = xcalloc(th.contexts, sizeof ti->contexts[0]);
	/*
	** The writer gives the histories' entries spelled out whole, exactly: a
	** bound that keeps a corrupt chain of prefixes (each context its
	** predecessor's history and one entry more: quadratic) from asking for
	** more than the file says, checked before the block grows; and a sum
	** that must come out right.  The block grows with what the contexts
	** really hold, so a corrupt count alone asks for nothing.
	*/
	cap = th.history_entries < 256 ? (size_t)th.history_entries : 256;
	ti->histories = xmalloc(cap * sizeof ti->histories[0]);
	at = parsing->scratch = xcalloc(th.contexts, sizeof at[0]);
	for (i = 0; i < th.contexts; i++)
		read_context(d, c, ti, i, at, &used, &cap, th.history_entries);
	for (i = 0; i < th.contexts; i++)
		ti->contexts[i].history = ti->histories + at[i];
	free(at);
	parsing->scratch = NULL;
	if (c->p != c->end)
		fail(d, "corrupt thread record (%zu bytes left over)",
			 (size_t)(c->end - c->p));
	if (used != th.history_entries)
		fail(d, "corrupt thread record (histories of %zu entries, not the %llu it gives)",
			 used, (unsigned long long)th.history_entries);
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
		fail(d, "truncated file (%zu bytes, no end record)", d->size);
	memcpy(&r, d->image + d->size - tail, sizeof r);
	memcpy(&crc, d->image + d->size - sizeof crc, sizeof crc);
	if (r.tag != AMON_TAG_END || r.length != sizeof crc)
		fail(d, "truncated file (%zu bytes, no end record)", d->size);
	if ((uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), d->image, d->size - sizeof crc) != crc)
		fail(d, "checksum mismatch (file corrupted)");
}


/* The parse proper: every fault leaves through fail(). */
static void parse(struct amon_data *d)
{
	struct cursor file;
	int ended = 0, k;

	char what[128];

	file.p = d->image;
	file.end = d->image + d->size;
	if (header_wrong(d->image, d->size, what, sizeof what) != NULL)
		fail(d, "%s", what);
	take(&file, &d->header, sizeof d->header);
	check_seal(d);
	while (!ended) {
		struct amon_record r;
		struct cursor rec;

		if (!take(&file, &r, sizeof r) || r.length > (uint64_t)(file.end - file.p))
			fail(d, "truncated file (%zu bytes, no end record)", d->size);
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
			fail(d, "unknown record tag %u (file corrupted?)", r.tag);
		}
		file.p = rec.end;
	}
	if (file.p != file.end)
		fail(d, "%zu bytes of garbage after the end record",
			 (size_t)(file.end - file.p));
	if (d->nmodules == 0 || !d->modules[0].is_exe)
		fail(d, "no executable record (file corrupted?)");
	/* The runtime writes the newest thread first; list them as they started. */
	for (k = 0; k < d->nthreads / 2; k++) {
		struct amon_thread_info t = d->threads[k];

		d->threads[k] = d->threads[d->nthreads - 1 - k];
		d->threads[d->nthreads - 1 - k] = t;
	}
}


struct amon_data *amon_parse(unsigned char *image, size_t size, const char *name, char **error)
{
	struct amon_data *d = xcalloc(1, sizeof *d);
	struct parse p;

	d->path = name;
	d->image = image;
	d->size = size;
	p.message = NULL;
	p.scratch = NULL;
	parsing = &p;
	if (setjmp(p.fault) != 0) {
		parsing = NULL;
		free(p.scratch);
		amon_free(d);
		*error = p.message;
		return NULL;
	}
	parse(d);
	parsing = NULL;
	return d;
}


struct amon_data *amon_read(const char *path)
{
	unsigned char *image;
	char *error = NULL;
	size_t size;
	struct amon_data *d;

	image = read_whole(path, &size, &error);
	d = image != NULL ? amon_parse(image, size, path, &error) : NULL;
	if (d == NULL)
		util_die("%s", error);
	return d;
}


int amon_is_profile(const char *path)
{
	char magic[AMON_MAGIC_SIZE];
	FILE *f = fopen(path, "rb");
	int is;

	if (f == NULL)
		return 0;
	is = fread(magic, 1, sizeof magic, f) == sizeof magic &&
	     memcmp(magic, AMON_MAGIC, AMON_MAGIC_SIZE) == 0;
	fclose(f);
	return is;
}


const struct amon_module_info *amon_module_of(const struct amon_data *d, uint64_t addr)
{
	int k;

	for (k = 0; k < d->nmodules; k++)
		if (addr >= d->modules[k].start && addr < d->modules[k].end)
			return &d->modules[k];
	return NULL;
}


struct amon_context_info *amon_each_next(struct amon_each *e)
{
	while (e->t < e->d->nthreads) {
		const struct amon_thread_info *th = &e->d->threads[e->t];

		if (e->i < th->ncontexts) {
			e->thread = th;
			return &th->contexts[e->i++];
		}
		e->t++;
		e->i = 0;
	}
	return NULL;
}


size_t amon_ncontexts(const struct amon_data *d)
{
	size_t n = 0;
	int t;

	for (t = 0; t < d->nthreads; t++)
		n += d->threads[t].ncontexts;
	return n;
}


void amon_free(struct amon_data *d)
{
	int k;

	if (d == NULL)
		return;
	for (k = 0; k < d->nmodules; k++)
		free(d->modules[k].path);
	free(d->modules);
	for (k = 0; k < d->nthreads; k++) {
		size_t i;

		for (i = 0; i < d->threads[k].ncontexts; i++)
			if (d->threads[k].contexts[i].sites_owned)
				free((void *)d->threads[k].contexts[i].sites);
		free(d->threads[k].histories);
		free(d->threads[k].contexts);
	}
	free(d->threads);
	free(d->bins);
	free(d->image);
	free(d);
}
