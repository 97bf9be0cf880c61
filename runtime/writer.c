/*
** writer.c -- the amon writer: header, modules, each thread's contexts and a
** CRC-32 seal, written to a temporary file and renamed into place.  It uses
** only system calls and a static buffer, never the program's malloc or stdio.
*/
#include <config.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "amon.h"
#include "arena.h"
#include "clock.h"
#include "heap.h"
#include "thread.h"
#include "writer.h"

static char out_path[PATH_MAX]; /* absolute; fixed at start so chdir cannot move it */

/* A buffered output file whose bytes are summed into a CRC as they go out. */
struct out {
	int fd;
	int error;        /* errno of the first failure, 0 if none */
	uLong crc;        /* zlib crc32 of every byte flushed */
	size_t used;
	unsigned char buf[65536];
};

static struct out out; /* static: writes are serialized by write_lock */


/* Makes P (relative to the current directory) the absolute output path. */
APROF_NOINSTR static void set_out_path(const char *p)
{
	size_t n;

	if (p[0] == '/') {
		snprintf(out_path, sizeof out_path, "%s", p);
		return;
	}
	if (getcwd(out_path, sizeof out_path - 1) == NULL) {
		snprintf(out_path, sizeof out_path, "%s", p); /* cwd unknown: stay relative */
		return;
	}
	n = strlen(out_path);
	snprintf(out_path + n, sizeof out_path - n, "/%s", p);
}


APROF_NOINSTR void aprof_writer_init(void)
{
	const char *p = secure_getenv("APROF_OUT");

	set_out_path(p != NULL && *p != '\0' ? p : "amon.out");
}


APROF_NOINSTR static void out_flush(struct out *o)
{
	size_t done = 0;

	o->crc = crc32(o->crc, o->buf, (uInt)o->used);
	while (done < o->used && o->error == 0) {
		ssize_t r = write(o->fd, o->buf + done, o->used - done);

		if (r < 0 && errno != EINTR)
			o->error = errno;
		else if (r > 0)
			done += (size_t)r;
	}
	o->used = 0;
}


APROF_NOINSTR static void out_bytes(struct out *o, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n > 0) {
		size_t k = sizeof o->buf - o->used;

		if (k > n)
			k = n;
		memcpy(o->buf + o->used, b, k);
		o->used += k;
		b += k;
		n -= k;
		if (o->used == sizeof o->buf)
			out_flush(o);
	}
}


APROF_NOINSTR static void out_record(struct out *o, uint32_t tag, uint64_t length)
{
	struct amon_record r = { tag, 0, length };

	out_bytes(o, &r, sizeof r);
}


/* ---- modules ---------------------------------------------------------- */

/* What dl_iterate_phdr tells about one object, and whether contexts use it. */
struct module {
	struct amon_module m;
	const char *path;
	int is_exe;
};

/* A pass of dl_iterate_phdr: counts objects (mods == NULL) or fills mods[]. */
struct module_scan {
	struct module *mods;
	size_t n, cap;
};


APROF_NOINSTR static void read_build_id(const struct dl_phdr_info *info, const ElfW(Phdr) *ph,
					struct amon_module *m)
{
	const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
	const char *end = p + ph->p_memsz;

	while (p + sizeof(ElfW(Nhdr)) <= end) {
		const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
		const char *desc = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);

		p = desc + ((nh->n_descsz + 3) & ~3u);
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    memcmp((const char *)(nh + 1), "GNU", 4) == 0 && nh->n_descsz <= AMON_BUILD_ID_MAX &&
		    p <= end) {
			m->build_id_length = nh->n_descsz;
			memcpy(m->build_id, desc, nh->n_descsz);
			return;
		}
	}
}


APROF_NOINSTR static int module_visit(struct dl_phdr_info *info, size_t size, void *data)
{
	struct module_scan *s = data;
	struct module *mod;
	int i;

	(void)size;
	if (s->mods == NULL || s->n >= s->cap) {
		s->n++;
		return 0;
	}
	mod = &s->mods[s->n];
	mod->is_exe = s->n == 0; /* glibc lists the main program first */
	s->n++;
	mod->path = info->dlpi_name;
	mod->m.load_bias = info->dlpi_addr;
	mod->m.start = UINT64_MAX;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			if (a < mod->m.start)
				mod->m.start = a;
			if (a + ph->p_memsz > mod->m.end)
				mod->m.end = a + ph->p_memsz;
		} else if (ph->p_type == PT_NOTE && mod->m.build_id_length == 0) {
			read_build_id(info, ph, &mod->m);
		}
	}
	return 0;
}


/* True if some context of some thread runs a routine inside MOD. */
APROF_NOINSTR static int module_used(const struct module *mod)
{
	const struct aprof_thread *t;
	const struct aprof_context *c;

	for (t = aprof_threads; t != NULL; t = t->next)
		for (c = t->machine.first; c != NULL; c = c->next)
			if (c->depth > 0) {
				uint64_t a = AMON_ADDR(c->history[c->depth - 1]);

				if (a >= mod->m.start && a < mod->m.end)
					return 1;
			}
	return 0;
}


/* Writes the EXE record and a MODULE record for each object holding profiled code. */
APROF_NOINSTR static void write_modules(struct out *o)
{
	static char exe[PATH_MAX];
	struct module_scan s = { NULL, 0, 0 };
	size_t i, bytes;
	ssize_t n;

	dl_iterate_phdr(module_visit, &s);
	s.cap = s.n + 8; /* room for objects loaded meanwhile by another thread */
	bytes = s.cap * sizeof s.mods[0];
	s.mods = aprof_map(bytes);
	if (s.mods == NULL) {
		o->error = ENOMEM;
		return;
	}
	s.n = 0;
	dl_iterate_phdr(module_visit, &s);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	for (i = 0; i < s.n && i < s.cap; i++) {
		struct module *mod = &s.mods[i];

		if (mod->is_exe)
			mod->path = exe;
		else if (!module_used(mod))
			continue;
		mod->m.path_length = (uint32_t)strlen(mod->path);
		out_record(o, mod->is_exe ? AMON_TAG_EXE : AMON_TAG_MODULE,
			   sizeof mod->m + mod->m.path_length);
		out_bytes(o, &mod->m, sizeof mod->m);
		out_bytes(o, mod->path, mod->m.path_length);
	}
	aprof_unmap(s.mods, bytes);
}


/* ---- threads and heap ------------------------------------------------ */

APROF_NOINSTR static void write_context(struct out *o, const struct aprof_context *c)
{
	const struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);
	struct amon_context ac;

	memset(&ac, 0, sizeof ac);
	ac.depth = c->depth;
	ac.calls = c->calls;
	ac.rec = c->rec;
	ac.ticks = c->ticks;
	if (h != NULL) {
		ac.allocs = h->allocs;
		ac.alloc_bytes = h->alloc_bytes;
		ac.frees = h->frees;
		ac.free_bytes = h->free_bytes;
		memcpy(ac.class_alloc, h->class_alloc, sizeof ac.class_alloc);
		memcpy(ac.class_free, h->class_free, sizeof ac.class_free);
		ac.peak_bytes = aprof_heap_at_peak(c);
	}
	out_bytes(o, &ac, sizeof ac);
	out_bytes(o, c->history, c->depth * sizeof c->history[0]);
}


APROF_NOINSTR static void write_thread(struct out *o, const struct aprof_thread *t)
{
	const struct aprof_machine *m = &t->machine;
	const struct aprof_context *c;
	struct amon_thread th;
	uint64_t length = sizeof th, i;

	/* The thread may still run: write the first 'contexts' it had published. */
	memset(&th, 0, sizeof th);
	th.contexts = __atomic_load_n(&m->contexts, __ATOMIC_ACQUIRE);
	th.tid = t->tid;
	memcpy(th.name, t->name, sizeof th.name);
	th.transitions = m->transitions;
	th.flags = m->full || t->lost ? AMON_THREAD_INCOMPLETE : 0;
	for (c = m->first, i = 0; i < th.contexts; c = c->next, i++)
		length += sizeof(struct amon_context) + c->depth * sizeof c->history[0];
	out_record(o, AMON_TAG_THREAD, length);
	out_bytes(o, &th, sizeof th);
	for (c = m->first, i = 0; i < th.contexts; c = c->next, i++)
		write_context(o, c);
}


/* The HEAP record: peak, and the size histogram summed over the threads. */
APROF_NOINSTR static void write_heap(struct out *o)
{
	struct amon_heap hp;
	struct amon_heap_bin b;
	const struct aprof_thread *t;
	uint32_t k;

	memset(&hp, 0, sizeof hp);
	hp.flags = aprof_heap_on ? AMON_HEAP_ON : 0;
	hp.peak_bytes = aprof_heap_peak(&hp.peak_ticks, &hp.untracked);
	for (k = 0; k < AMON_BINS; k++)
		for (t = aprof_threads; t != NULL; t = t->next)
			if (t->bins != NULL && t->bins[k].allocs + t->bins[k].frees != 0) {
				hp.nbins++;
				break;
			}
	out_record(o, AMON_TAG_HEAP, sizeof hp + hp.nbins * sizeof b);
	out_bytes(o, &hp, sizeof hp);
	for (k = 0; k < AMON_BINS && hp.nbins > 0; k++) {
		memset(&b, 0, sizeof b);
		b.bin = k;
		for (t = aprof_threads; t != NULL; t = t->next)
			if (t->bins != NULL) {
				b.allocs += t->bins[k].allocs;
				b.alloc_bytes += t->bins[k].alloc_bytes;
				b.frees += t->bins[k].frees;
				b.free_bytes += t->bins[k].free_bytes;
			}
		if (b.allocs + b.frees != 0) {
			out_bytes(o, &b, sizeof b);
			hp.nbins--;
		}
	}
}


/* ---- writing, dumps and control ------------------------------------------ */

static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER; /* one writer at a time */
static int stopped;                   /* aprof_stop: nothing to write at exit */
static unsigned long autosave_every;  /* aprof_set_autosave; 0: off */
static unsigned long autosave_left;   /* allocations until the next autosave */
static unsigned dumps;                /* writes so far, for unique temporary names */


APROF_NOINSTR static void report_failure(const char *what, int err)
{
	char msg[PATH_MAX + 128];
	int n = snprintf(msg, sizeof msg, "aprof: cannot write %s: %s: %s\n", out_path, what,
			 strerror(err));

	if (n > 0)
		(void)!write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}


/* Writes the whole file to a temporary name and renames it into place (write_lock held). */
APROF_NOINSTR static int write_profile(void)
{
	char tmp[PATH_MAX + 48];
	struct aprof_thread *self = aprof_self;
	struct amon_header h;
	const struct aprof_thread *t;
	uint64_t now;
	uint32_t crc;

	if (self != NULL) {
		now = aprof_clock_read();
		self->cur->ticks += now - self->last;
		self->last = now;
	}
	memset(&h, 0, sizeof h);
	memcpy(h.magic, AMON_MAGIC, AMON_MAGIC_SIZE);
	h.version = AMON_VERSION;
	h.byte_order = AMON_BYTE_ORDER;
	h.header_size = AMON_HEADER_SIZE;
	h.clock = aprof_clock_kind;
	h.ticks_per_second = aprof_clock_ticks_per_second();
	h.total_ticks = aprof_clock_read() - aprof_clock_start;
	h.pid = (uint64_t)getpid();

	snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", out_path, (long)getpid(), dumps++);
	out.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (out.fd < 0) {
		report_failure("cannot create temporary file", errno);
		return -1;
	}
	out.error = 0;
	out.used = 0;
	out.crc = crc32(0L, Z_NULL, 0);
	out_bytes(&out, &h, sizeof h);
	write_modules(&out);
	write_heap(&out);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
		write_thread(&out, t);
	out_record(&out, AMON_TAG_END, sizeof crc);
	out_flush(&out);
	crc = (uint32_t)out.crc;
	out_bytes(&out, &crc, sizeof crc);
	out_flush(&out);
	if (close(out.fd) != 0 && out.error == 0)
		out.error = errno;
	if (out.error == 0 && rename(tmp, out_path) != 0)
		out.error = errno;
	if (out.error != 0) {
		report_failure("write failed", out.error);
		unlink(tmp);
		return -1;
	}
	return 0;
}


APROF_NOINSTR int aprof_writer_dump(void)
{
	int r;

	aprof_busy++;
	pthread_mutex_lock(&write_lock);
	r = write_profile();
	pthread_mutex_unlock(&write_lock);
	aprof_busy--;
	return r;
}


APROF_NOINSTR void aprof_writer_at_exit(void)
{
	if (!__atomic_load_n(&stopped, __ATOMIC_ACQUIRE))
		aprof_writer_dump();
}


APROF_NOINSTR void aprof_writer_set_stopped(int stop, const char *path)
{
	pthread_mutex_lock(&write_lock);
	if (path != NULL && *path != '\0')
		set_out_path(path);
	__atomic_store_n(&stopped, stop, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&write_lock);
}


APROF_NOINSTR void aprof_writer_set_autosave(unsigned long every)
{
	__atomic_store_n(&autosave_left, every, __ATOMIC_RELAXED);
	__atomic_store_n(&autosave_every, every, __ATOMIC_RELEASE);
}


APROF_NOINSTR void aprof_writer_count_allocation(void)
{
	unsigned long every = __atomic_load_n(&autosave_every, __ATOMIC_RELAXED);

	if (every != 0 && __atomic_sub_fetch(&autosave_left, 1, __ATOMIC_RELAXED) == 0) {
		__atomic_store_n(&autosave_left, every, __ATOMIC_RELAXED);
		aprof_writer_dump();
	}
}
