/*
** writer.c -- how the profile is written: the output path, then header,
** modules, each thread's contexts and a CRC-32 seal, written to a temporary
** file and renamed into place, one writer at a time.  It uses only system
** calls and a static buffer, never the program's malloc or stdio.  When to
** write is the policy's (policy.c).
*/
#include <config.h>

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
#include "cost.h"
#include "heap.h"
#include "modules.h"
#include "thread.h"
#include "writer.h"

static char out_template[PATH_MAX]; /* absolute, fixed at start: chdir cannot move it */
static char out_path[PATH_MAX];     /* out_template for this process (see expand_out_path) */

/* A buffered output file whose bytes are summed into a CRC as they go out. */
struct out {
	int fd;
	int error;        /* errno of the first failure, 0 if none */
	uLong crc;        /* zlib crc32 of every byte flushed */
	size_t used;
	unsigned char buf[65536];
};

static struct out out; /* static: writes are serialized by write_lock */


/*
** The output path of this process: TEMPLATE with every "%p" replaced by the
** pid; a forked child without "%p" in TEMPLATE appends ".<pid>" so that it
** does not overwrite its parent's profile.
*/
APROF_NOINSTR static void expand_out_path(int child)
{
	const char *t = out_template;
	char pid[24];
	size_t n = 0;
	int with_pid = 0;

	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	while (*t != '\0' && n + 1 < sizeof out_path) {
		if (t[0] == '%' && t[1] == 'p') {
			n += (size_t)snprintf(out_path + n, sizeof out_path - n, "%s", pid);
			t += 2;
			with_pid = 1;
		} else {
			out_path[n++] = *t++;
		}
	}
	out_path[n < sizeof out_path ? n : sizeof out_path - 1] = '\0';
	if (child && !with_pid)
		snprintf(out_path + strlen(out_path), sizeof out_path - strlen(out_path), ".%s", pid);
}


/* Makes P (relative to the current directory) the absolute output template. */
APROF_NOINSTR static void set_out_path(const char *p)
{
	size_t n;

	if (p[0] == '/') {
		snprintf(out_template, sizeof out_template, "%s", p);
	} else if (getcwd(out_template, sizeof out_template - 1) == NULL) {
		snprintf(out_template, sizeof out_template, "%s", p); /* cwd unknown: relative */
	} else {
		n = strlen(out_template);
		snprintf(out_template + n, sizeof out_template - n, "/%s", p);
	}
	expand_out_path(0);
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

APROF_NOINSTR static void write_module(struct out *o, uint32_t tag, const struct aprof_module *m)
{
	out_record(o, tag, sizeof m->m + m->m.path_length);
	out_bytes(o, &m->m, sizeof m->m);
	out_bytes(o, m->path, m->m.path_length);
}


/*
** Writes the EXE record, then a MODULE record for each other object that
** holds a routine of some context (modules.c noted them, dlclose'd or not).
*/
APROF_NOINSTR static void write_modules(struct out *o)
{
	static struct aprof_module exe; /* static: big, and the writer is serialized */
	const struct aprof_module *m;
	size_t i, n;

	aprof_module_exe(&exe);
	exe.m.path_length = (uint32_t)strlen(exe.path);
	write_module(o, AMON_TAG_EXE, &exe);
	m = aprof_modules(&n);
	for (i = 0; i < n; i++)
		if (m[i].m.start != exe.m.start)
			write_module(o, AMON_TAG_MODULE, &m[i]);
}


/* ---- threads and heap ------------------------------------------------ */

APROF_NOINSTR static void write_context(struct out *o, const struct aprof_context *c)
{
	struct aprof_heap_counts h; /* a copy: other threads may free blocks of C meanwhile */
	struct amon_context ac;

	memset(&ac, 0, sizeof ac);
	ac.depth = c->depth;
	ac.calls = APROF_GET(c->calls);
	ac.rec = APROF_GET(c->rec);
	ac.ticks = APROF_GET(c->ticks);
	ac.events = APROF_GET(c->events);
	aprof_heap_read(c, &h);
	ac.allocs = h.allocs;
	ac.alloc_bytes = h.alloc_bytes;
	ac.frees = h.frees;
	ac.free_bytes = h.free_bytes;
	memcpy(ac.class_alloc, h.class_alloc, sizeof ac.class_alloc);
	memcpy(ac.class_free, h.class_free, sizeof ac.class_free);
	ac.peak_bytes = aprof_heap_at_peak(c);
	ac.heap_events = APROF_GET(c->heap_events);
	out_bytes(o, &ac, sizeof ac);
	out_bytes(o, c->history, c->depth * sizeof c->history[0]);
}


/* The current name of thread TID of this process into NAME[16], if the thread still runs. */
APROF_NOINSTR static void thread_name(uint64_t tid, char *name)
{
	char path[64], buf[16];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/self/task/%llu/comm", (unsigned long long)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return;
	if (buf[n - 1] == '\n')
		n--;
	memset(name, 0, 16);
	memcpy(name, buf, (size_t)n);
}


APROF_NOINSTR static void write_thread(struct out *o, const struct aprof_thread *t)
{
	const struct aprof_machine *m = &t->machine;
	struct aprof_context *c;
	struct amon_thread th;
	uint64_t length = sizeof th, i;

	/* The thread may still run: write the first 'contexts' it had published. */
	memset(&th, 0, sizeof th);
	th.contexts = aprof_machine_published(m);
	th.tid = t->tid;
	memcpy(th.name, t->name, sizeof th.name);
	thread_name(t->tid, th.name);
	th.transitions = APROF_GET(m->transitions);
	th.resyncs = APROF_GET(t->resyncs);
	th.dropped = APROF_GET(t->dropped);
	th.unmatched = APROF_GET(t->unmatched);
	th.runtime_ticks = APROF_GET(t->runtime_ticks);
	th.exit_ticks = aprof_hook_cost.exit;
	th.entry_ticks = aprof_hook_cost.entry;
	th.entry_probe_base = aprof_hook_cost.probe_entry;
	th.exit_probe_base = aprof_hook_cost.probe_exit;
	th.probe_empty = aprof_hook_cost.probe_empty;
	th.entry_probes = APROF_GET(t->probes.entries);
	th.entry_probe_ticks = APROF_GET(t->probes.entry_ticks);
	th.empty_probe_ticks = APROF_GET(t->probes.empty_ticks);
	th.exit_probes = APROF_GET(t->probes.exits);
	th.exit_probe_ticks = APROF_GET(t->probes.exit_ticks);
	th.heap_probes = APROF_GET(t->probes.heap);
	th.heap_probe_ticks = APROF_GET(t->probes.heap_ticks);
	th.memory = APROF_GET(m->arena.used) + (APROF_GET(m->mask) + 1) * sizeof m->slots[0];
	th.flags = APROF_GET(m->full) || APROF_GET(t->lost) ? AMON_THREAD_INCOMPLETE : 0;
	for (c = m->first, i = 0; i < th.contexts; c = aprof_context_next(c, ++i, th.contexts))
		length += sizeof(struct amon_context) + c->depth * sizeof c->history[0];
	out_record(o, AMON_TAG_THREAD, length);
	out_bytes(o, &th, sizeof th);
	for (c = m->first, i = 0; i < th.contexts; c = aprof_context_next(c, ++i, th.contexts))
		write_context(o, c);
}


/*
** The HEAP record: peak, and the size histogram summed over the threads.
** The sums are taken once, into a copy, so the record's length and its bins
** agree even while other threads allocate (or aprof_restart clears them).
*/
APROF_NOINSTR static void write_heap(struct out *o)
{
	static struct amon_heap_bin sum[AMON_BINS]; /* static: big, and the writer is serialized */
	struct amon_heap hp;
	const struct aprof_thread *t;
	uint32_t k;

	memset(&hp, 0, sizeof hp);
	memset(sum, 0, sizeof sum);
	hp.flags = __atomic_load_n(&aprof_heap_on, __ATOMIC_RELAXED) ? AMON_HEAP_ON : 0;
	hp.peak_bytes = aprof_heap_peak(&hp.peak_ticks, &hp.untracked);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next) {
		const struct aprof_heap_bin *bins = __atomic_load_n(&t->bins, __ATOMIC_ACQUIRE);

		for (k = 0; bins != NULL && k < AMON_BINS; k++) {
			sum[k].allocs += __atomic_load_n(&bins[k].allocs, __ATOMIC_RELAXED);
			sum[k].alloc_bytes += __atomic_load_n(&bins[k].alloc_bytes, __ATOMIC_RELAXED);
			sum[k].frees += __atomic_load_n(&bins[k].frees, __ATOMIC_RELAXED);
			sum[k].free_bytes += __atomic_load_n(&bins[k].free_bytes, __ATOMIC_RELAXED);
		}
	}
	for (k = 0; k < AMON_BINS; k++) {
		sum[k].bin = k;
		hp.nbins += sum[k].allocs + sum[k].frees != 0;
	}
	out_record(o, AMON_TAG_HEAP, sizeof hp + hp.nbins * sizeof sum[0]);
	out_bytes(o, &hp, sizeof hp);
	for (k = 0; k < AMON_BINS; k++)
		if (sum[k].allocs + sum[k].frees != 0)
			out_bytes(o, &sum[k], sizeof sum[k]);
}


/* ---- writing, dumps and control ------------------------------------------ */

static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER; /* one writer at a time */
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
	struct amon_header h;
	const struct aprof_thread *t;
	uint32_t crc;

	memset(&h, 0, sizeof h);
	memcpy(h.magic, AMON_MAGIC, AMON_MAGIC_SIZE);
	h.version = AMON_VERSION;
	h.byte_order = AMON_BYTE_ORDER;
	h.header_size = AMON_HEADER_SIZE;
	h.clock = aprof_clock_kind;
	h.ticks_per_second = aprof_clock_ticks_per_second();
	h.total_ticks = aprof_clock_elapsed();
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


APROF_NOINSTR int aprof_writer_write(int wait)
{
	int r = -1;

	aprof_busy++;
	/* Not waiting: a signal may have come while this very thread was writing. */
	if (wait ? pthread_mutex_lock(&write_lock) == 0 : pthread_mutex_trylock(&write_lock) == 0) {
		r = write_profile();
		pthread_mutex_unlock(&write_lock);
	}
	aprof_busy--;
	return r;
}


APROF_NOINSTR void aprof_writer_set_path(const char *path)
{
	pthread_mutex_lock(&write_lock);
	set_out_path(path);
	pthread_mutex_unlock(&write_lock);
}


APROF_NOINSTR void aprof_writer_fork_prepare(void)
{
	pthread_mutex_lock(&write_lock);
}


APROF_NOINSTR void aprof_writer_fork_parent(void)
{
	pthread_mutex_unlock(&write_lock);
}


APROF_NOINSTR void aprof_writer_fork_child(void)
{
	pthread_mutex_init(&write_lock, NULL);
	expand_out_path(1);
}
