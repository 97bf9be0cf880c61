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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "amon.h"
#include "arena.h"
#include "clock.h"
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

static struct out out; /* static: the writer runs once, at exit */


APROF_NOINSTR void aprof_writer_init(void)
{
	const char *p = secure_getenv("APROF_OUT");
	size_t n;

	if (p == NULL || *p == '\0')
		p = "amon.out";
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


/* ---- threads ---------------------------------------------------------- */

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
	for (c = m->first, i = 0; i < th.contexts; c = c->next, i++) {
		struct amon_context ac = { c->depth, 0, c->calls, c->rec, c->ticks };

		out_bytes(o, &ac, sizeof ac);
		out_bytes(o, c->history, c->depth * sizeof c->history[0]);
	}
}


APROF_NOINSTR static void report_failure(const char *what, int err)
{
	char msg[PATH_MAX + 128];
	int n = snprintf(msg, sizeof msg, "aprof: cannot write %s: %s: %s\n", out_path, what,
			 strerror(err));

	if (n > 0)
		(void)!write(STDERR_FILENO, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
}


APROF_NOINSTR void aprof_writer_at_exit(void)
{
	char tmp[PATH_MAX + 32];
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

	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", out_path, (long)getpid());
	out.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (out.fd < 0) {
		report_failure("cannot create temporary file", errno);
		return;
	}
	out.error = 0;
	out.used = 0;
	out.crc = crc32(0L, Z_NULL, 0);
	out_bytes(&out, &h, sizeof h);
	write_modules(&out);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
		write_thread(&out, t);
	out_record(&out, AMON_TAG_END, sizeof crc);
	out_flush(&out);
	crc = (uint32_t)out.crc;
	out_bytes(&out, &crc, sizeof crc);
	out_flush(&out);
	if (out.error == 0 && close(out.fd) != 0)
		out.error = errno;
	if (out.error == 0 && rename(tmp, out_path) != 0)
		out.error = errno;
	if (out.error != 0) {
		report_failure("write failed", out.error);
		unlink(tmp);
	}
}
