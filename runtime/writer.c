/*
** writer.c -- how the profile is written: the output path, then header,
** modules, each thread's contexts (coded compactly, amon.h) and a CRC-32
** seal, written to a temporary file, synced and renamed into place (in
** place on a device or a FIFO), one writer at a time.  It uses only system
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
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "amon.h"
#include "arena.h"
#include "clock.h"
#include "cost.h"
#include "diag.h"
#include "heap.h"
#include "modules.h"
#include "thread.h"
#include "writer.h"

static char out_template[PATH_MAX]; /* absolute, fixed at start: chdir cannot move it */
static char out_path[PATH_MAX];     /* out_template for this process (see expand_out_path) */
static struct timespec run_start;   /* this process's run began, in the file system's clock */

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


/*
** When this process started (not this image: exec keeps it), in the file
** system's clock, from /proc/self/stat's start time (clock ticks since
** boot, rounded down) less one tick for file stamps of the coarse clock;
** 0 if unknown.
*/
APROF_NOINSTR static int64_t process_start_ns(void)
{
	char buf[1024], *p, *end;
	struct timespec now, boot;
	unsigned long long ticks;
	long hz = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0 || hz <= 0)
		return 0;
	buf[n] = '\0';
	/* Field 22, counted after the command's closing parenthesis (field 2). */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	for (field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || (ticks = strtoull(p + 1, &end, 10)) == 0 || *end != ' ')
		return 0;
	clock_gettime(CLOCK_REALTIME, &now);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
	       ((int64_t)boot.tv_sec * 1000000000 + boot.tv_nsec) +
	       (int64_t)(ticks - 1) * (1000000000 / hz);
}


/* 1 if PATH holds a profile this process wrote since START (ns): an earlier image's. */
APROF_NOINSTR static int earlier_image(const char *path, int64_t start)
{
	struct amon_header h;
	struct stat st;
	int fd, mine;

	/* Only a regular file is opened: opening a device may do something. */
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	mine = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec >= start &&
	       read(fd, &h, sizeof h) == (ssize_t)sizeof h &&
	       memcmp(h.magic, AMON_MAGIC, AMON_MAGIC_SIZE) == 0 && h.pid == (uint64_t)getpid();
	close(fd);
	return mine;
}


/*
** run_start: now, one tick of the coarse clock on, since the file system
** stamps a file with the tick in which it was written: a profile that the
** process before this one wrote in the tick this one started (runs one
** after another, as perf stat -r makes them) is not one written during
** this run.
*/
APROF_NOINSTR static void stamp_run_start(void)
{
	struct timespec tick;

	clock_gettime(CLOCK_REALTIME_COARSE, &run_start);
	if (clock_getres(CLOCK_REALTIME_COARSE, &tick) != 0 || tick.tv_sec != 0)
		return;
	run_start.tv_nsec += tick.tv_nsec;
	if (run_start.tv_nsec >= 1000000000L) {
		run_start.tv_sec++;
		run_start.tv_nsec -= 1000000000L;
	}
}


/*
** An image that exec replaced wrote its profile first, to the path this
** image would write too (or, in a forked child, to that path ".<pid>"):
** this one writes to that path ".1", the next exec'd image ".2", and so
** on, so that every image's profile is kept.
*/
APROF_NOINSTR static void after_earlier_images(void)
{
	char pid_path[PATH_MAX + 24];
	int64_t start = process_start_ns();
	size_t n;
	unsigned seq;

	if (start == 0)
		return;
	snprintf(pid_path, sizeof pid_path, "%s.%ld", out_path, (long)getpid());
	if (strlen(pid_path) < sizeof out_path && earlier_image(pid_path, start))
		memcpy(out_path, pid_path, strlen(pid_path) + 1);
	else if (!earlier_image(out_path, start))
		return;
	n = strlen(out_path);
	for (seq = 1; earlier_image(out_path, start) && seq < 1000000; seq++)
		snprintf(out_path + n, sizeof out_path - n, ".%u", seq);
}


APROF_NOINSTR void aprof_writer_init(void)
{
	const char *p = aprof_env("APROF_OUT");

	set_out_path(p != NULL ? p : "amon.out");
	after_earlier_images();
	stamp_run_start();
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

/*
** Memory for coding a thread's record, mapped (never the program's malloc)
** and grown by doubling: the record's length is known only once its
** contexts are coded, and a thread that still runs may change them between
** two passes.
*/
struct grow {
	unsigned char *p;
	size_t used, size;    /* bytes in use, bytes mapped */
};


/* Room for N more bytes at G->p + G->used; 0, or -1 if no memory. */
APROF_NOINSTR static int grow_reserve(struct grow *g, size_t n)
{
	size_t size = g->size ? g->size : 65536;
	unsigned char *p;

	if (g->size - g->used >= n)
		return 0;
	while (size - g->used < n)
		size *= 2;
	p = aprof_map(size);
	if (p == NULL)
		return -1;
	if (g->p != NULL) {
		memcpy(p, g->p, g->used);
		aprof_unmap(g->p, g->size);
	}
	g->p = p;
	g->size = size;
	return 0;
}


APROF_NOINSTR static void grow_free(struct grow *g)
{
	if (g->p != NULL)
		aprof_unmap(g->p, g->size);
	memset(g, 0, sizeof *g);
}


/* A slot of the table of contexts coded: the top half of its history's hash, its index + 1. */
struct coded {
	uint32_t tag;
	uint32_t index1;                /* 0: an empty slot */
};

/*
** One thread's contexts being coded: the bytes so far, the contexts coded (in
** order, and in an open-addressing table by the hash of their history, at
** most half full), and the entries of the history at hand that its coding
** reads.
*/
struct coder {
	struct grow bytes;
	const struct aprof_context **context; /* [index]: the contexts coded */
	struct coded *coded;
	size_t mask;              /* slots of 'coded' - 1 */
	unsigned shift;           /* 64 - log2(slots) */
	struct grow history;      /* uint64: s_{n-own}..s_n of the context at hand, at their places */
};


/* The slot where hash H's probe sequence starts in K: its top bits, mixed. */
APROF_NOINSTR static size_t coded_home(const struct coder *k, uint64_t h)
{
	return (size_t)((h * 0x9E3779B97F4A7C15ull) >> k->shift);
}


/*
** The index of C among the contexts coded, found by its history's hash.  A
** context's prefix (transition.h) was made, so coded, before it: always
** there.
*/
APROF_NOINSTR static uint64_t coded_index(const struct coder *k, const struct aprof_context *c)
{
	size_t i;

	for (i = coded_home(k, c->hash); k->coded[i].index1 != 0; i = (i + 1) & k->mask)
		if (k->coded[i].tag == (uint32_t)(c->hash >> 32) &&
		    k->context[k->coded[i].index1 - 1] == c)
			break;
	return k->coded[i].index1 - 1;
}


/* The first site of C's constructor candidates (types.h), NULL if none. */
APROF_NOINSTR static const struct aprof_type_site *first_site(const struct aprof_context *c)
{
	const struct aprof_heap_counts *h = __atomic_load_n(&c->heap, __ATOMIC_ACQUIRE);

	return h != NULL ? __atomic_load_n(&h->sites, __ATOMIC_ACQUIRE) : NULL;
}


/* The site after S: its thread may be appending more meanwhile. */
APROF_NOINSTR static const struct aprof_type_site *next_site(const struct aprof_type_site *s)
{
	return __atomic_load_n(&s->next, __ATOMIC_ACQUIRE);
}


/* The counters of C in amon.h's order (enum amon_count) into V, its type sites counted. */
APROF_NOINSTR static void context_counts(const struct aprof_context *c, uint64_t *v)
{
	const struct aprof_type_site *s;

	aprof_heap_read(c, v); /* a copy: other threads may free blocks of C meanwhile */
	v[AMON_CALLS] = APROF_GET(c->calls) + c->through; /* aprof_machine_tally */
	v[AMON_REC] = aprof_context_rec(c);
	v[AMON_TICKS] = APROF_GET(c->ticks);
	v[AMON_EVENTS] = APROF_GET(c->events);
	v[AMON_HEAP_EVENTS] = APROF_GET(c->heap_events);
	v[AMON_PEAK_BYTES] = aprof_heap_at_peak(c);
	v[AMON_SITES] = 0;
	for (s = first_site(c); s != NULL && v[AMON_SITES] < AMON_SITES_MAX; s = next_site(s))
		v[AMON_SITES]++;
}


/*
** Codes the first V[AMON_SITES] type sites of C into K after its counters
** (sites are only appended, so C holds at least that many); 0, or -1 if no
** memory.
*/
APROF_NOINSTR static int code_sites(struct coder *k, const struct aprof_context *c,
				    const uint64_t *v)
{
	const struct aprof_type_site *s = first_site(c);
	uint64_t prev = c->own > 0 ? aprof_context_entry(c, c->own - 1) : 0, i; /* s_n */
	struct amon_type_site as;

	if (grow_reserve(&k->bytes, v[AMON_SITES] * AMON_SITE_MAX) != 0)
		return -1;
	for (i = 0; i < v[AMON_SITES]; i++, s = next_site(s)) {
		as.size = s->s.size; /* size and candidates are fixed once published */
		as.allocs = APROF_GET(s->s.allocs);
		memcpy(as.candidate, s->s.candidate, sizeof as.candidate);
		k->bytes.used = (size_t)(amon_code_site(k->bytes.p + k->bytes.used, prev, &as) -
					 k->bytes.p);
	}
	return 0;
}


/* Codes C, the INDEX-th context of its thread, into K (amon.h); 0, or -1 if no memory. */
APROF_NOINSTR static int code_context(struct coder *k, const struct aprof_context *c,
				      uint64_t index)
{
	uint64_t v[AMON_COUNTS], *h, ref = 0;
	uint32_t n = c->depth, len = n - c->own, j;
	size_t i;

	if (grow_reserve(&k->history, n * sizeof *h) != 0 ||
	    grow_reserve(&k->bytes, AMON_CONTEXT_MAX(c->own)) != 0)
		return -1;
	/*
	** The file's reference is the context's own prefix: the longest proper
	** one that is a context's whole history, that context made before it.
	** Coding reads that context's last entry and the context's own.
	*/
	h = (uint64_t *)k->history.p;
	if (len > 0) {
		ref = coded_index(k, c->prefix);
		h[len - 1] = aprof_context_entry(c->prefix, c->prefix->own - 1);
	}
	for (j = 0; j < c->own; j++)
		h[len + j] = aprof_context_entry(c, j);
	context_counts(c, v);
	k->bytes.used = (size_t)(amon_code_context(k->bytes.p + k->bytes.used, index - ref,
						   h, len, n, v) - k->bytes.p);
	if (v[AMON_SITES] != 0 && code_sites(k, c, v) != 0)
		return -1;
	k->context[index] = c;
	for (i = coded_home(k, c->hash); k->coded[i].index1 != 0; i = (i + 1) & k->mask)
		;
	k->coded[i].tag = (uint32_t)(c->hash >> 32);
	k->coded[i].index1 = (uint32_t)index + 1;
	return 0;
}


/*
** Codes the first N contexts of machine M into K, and adds up their
** histories' entries in *ENTRIES (amon.h's 'history_entries'); 0, or -1 if
** no memory.
*/
APROF_NOINSTR static int code_contexts(struct coder *k, const struct aprof_machine *m, uint64_t n,
				       uint64_t *entries)
{
	struct aprof_context *c;
	size_t slots = 16;
	uint64_t i;

	for (k->shift = 64 - 4; slots < 2 * n; k->shift--)
		slots *= 2;
	k->mask = slots - 1;
	if (n >= UINT32_MAX || (k->coded = aprof_map(slots * sizeof k->coded[0])) == NULL ||
	    (k->context = aprof_map(n * sizeof k->context[0] + 1)) == NULL)
		return -1;
	aprof_machine_tally(m, n); /* the calls the ways count, which code_context adds */
	for (c = m->first, i = 0; i < n; c = aprof_context_next(c, ++i, n)) {
		if (code_context(k, c, i) != 0)
			return -1;
		*entries += c->depth;
	}
	return 0;
}


/* Unmaps what coding the N contexts of a thread took. */
APROF_NOINSTR static void coder_free(struct coder *k, uint64_t n)
{
	if (k->coded != NULL)
		aprof_unmap(k->coded, (k->mask + 1) * sizeof k->coded[0]);
	if (k->context != NULL)
		aprof_unmap(k->context, n * sizeof k->context[0] + 1);
	grow_free(&k->bytes);
	grow_free(&k->history);
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
	struct amon_thread th;
	struct coder k;

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
	th.memory = aprof_machine_memory(m);
	th.flags = APROF_GET(m->full) || APROF_GET(t->lost) ? AMON_THREAD_INCOMPLETE : 0;
	memset(&k, 0, sizeof k);
	/* history_entries: exactly those of the contexts coded, which the reader checks. */
	if (code_contexts(&k, m, th.contexts, &th.history_entries) == 0) {
		out_record(o, AMON_TAG_THREAD, sizeof th + k.bytes.used);
		out_bytes(o, &th, sizeof th);
		out_bytes(o, k.bytes.p, k.bytes.used);
	} else if (o->error == 0) {
		o->error = ENOMEM;
	}
	coder_free(&k, th.contexts);
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
		const struct aprof_heap_bins *bins = __atomic_load_n(&t->bins, __ATOMIC_ACQUIRE);

		for (k = 0; bins != NULL && k < AMON_BINS; k++)
			aprof_heap_bin_add(bins, k, &sum[k]);
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
static unsigned dumps;                /* temporary names made without getrandom */
static int replaced_said;             /* notice_replaced has spoken */


/*
** Says, once, that out_path holds a profile another process wrote during
** this run (two instrumented programs in one directory: prog | prog), which
** this write replaces; and how to keep one per process.  The file system
** stamps files from the coarse clock, as run_start was read.
*/
APROF_NOINSTR static void notice_replaced(void)
{
	struct amon_header h;
	struct stat st;
	int fd;

	if (replaced_said ||
	    (fd = open(out_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
		return;
	if (fstat(fd, &st) == 0 && read(fd, &h, sizeof h) == (ssize_t)sizeof h &&
	    memcmp(h.magic, AMON_MAGIC, AMON_MAGIC_SIZE) == 0 && h.pid != (uint64_t)getpid() &&
	    (st.st_mtim.tv_sec > run_start.tv_sec ||
	     (st.st_mtim.tv_sec == run_start.tv_sec && st.st_mtim.tv_nsec >= run_start.tv_nsec))) {
		replaced_said = 1;
		aprof_say("%s: replacing the profile that process %llu wrote during this run; "
			  "APROF_OUT=amon.out.%%p gives each process its own", out_path,
			  (unsigned long long)h.pid);
	}
	close(fd);
}


APROF_NOINSTR static void report_failure(const char *what, int err)
{
	aprof_say("cannot write %s: %s: %s", out_path, what, strerror(err));
}


/*
** Creates a temporary file beside out_path, its name TMP (PATH_MAX + 48
** bytes), with a random suffix: a name another process knows in advance
** (a planted file, a symbolic link) makes only another try, up to 100.
** The descriptor, or -1 with errno set.
*/
APROF_NOINSTR static int create_temporary(char *tmp)
{
	uint64_t r;
	int fd = -1, tries;

	for (tries = 0; fd < 0 && tries < 100; tries++) {
		if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
			struct timespec ts;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			r = ((uint64_t)ts.tv_nsec << 20 ^ (uint64_t)ts.tv_sec) * 0x9E3779B97F4A7C15ull ^
			    (uint64_t)getpid() << 32 ^ dumps++;
		}
		snprintf(tmp, PATH_MAX + 48, "%s.tmp.%016llx", out_path, (unsigned long long)r);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	return fd;
}


/*
** Opens out_path when it is not a regular file: a character device
** (APROF_OUT=/dev/null, /dev/stdout on a terminal) or a FIFO with a reader
** is written in place, never replaced; a FIFO without one, a directory, a
** socket or a block device is refused.  The descriptor, or -1 (said).
*/
APROF_NOINSTR static int open_in_place(const struct stat *st)
{
	int fd;

	if (!S_ISCHR(st->st_mode) && !S_ISFIFO(st->st_mode)) {
		aprof_say("cannot write %s: not a regular file, a character device or a FIFO; "
			  "left as it is", out_path);
		return -1;
	}
	/* Not blocking: a FIFO without a reader is refused (ENXIO) rather than waited on. */
	fd = open(out_path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		report_failure(errno == ENXIO ? "a FIFO without a reader" : "cannot open", errno);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}


/*
** Writes the whole file (write_lock held): to a temporary name, synced to
** the disk and renamed into place, so that neither a reader nor a crash of
** the machine ever sees half of it; or in place, when out_path is not a
** regular file (open_in_place).
*/
APROF_NOINSTR static int write_profile(void)
{
	char tmp[PATH_MAX + 48];
	struct amon_header h;
	struct stat st;
	const struct aprof_thread *t;
	uint32_t crc;
	int in_place = stat(out_path, &st) == 0 && !S_ISREG(st.st_mode);

	memset(&h, 0, sizeof h);
	amon_header_stamp(&h);
	h.clock = aprof_clock_kind;
	h.ticks_per_second = aprof_clock_ticks_per_second();
	h.total_ticks = aprof_clock_elapsed();
	h.pid = (uint64_t)getpid();

	out.fd = in_place ? open_in_place(&st) : create_temporary(tmp);
	if (out.fd < 0) {
		if (!in_place)
			report_failure("cannot create temporary file", errno);
		return -1;
	}
	out.error = 0;
	out.used = 0;
	out.crc = crc32(0L, Z_NULL, 0);
	out_bytes(&out, &h, sizeof h);
	write_modules(&out);
	aprof_heap_flush();
	write_heap(&out);
	for (t = __atomic_load_n(&aprof_threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next)
		write_thread(&out, t);
	out_record(&out, AMON_TAG_END, sizeof crc);
	out_flush(&out);
	crc = (uint32_t)out.crc;
	out_bytes(&out, &crc, sizeof crc);
	out_flush(&out);
	if (!in_place && out.error == 0 && fsync(out.fd) != 0)
		out.error = errno;
	if (close(out.fd) != 0 && out.error == 0)
		out.error = errno;
	if (!in_place && out.error == 0)
		notice_replaced();
	if (!in_place && out.error == 0 && rename(tmp, out_path) != 0)
		out.error = errno;
	if (out.error != 0) {
		report_failure("write failed", out.error);
		if (!in_place)
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
	stamp_run_start();
}
