/*
** pprof.c -- --format=pprof: the Profile message of pprof's profile.proto
** (aprof/export/profile.proto; its structs and packer are protoc-c's), gzipped with
** zlib as it is packed.  A context is a sample whose stack is its history, so
** pprof's flat values are aprof's self values and its cumulative ones the
** time while active, counted once however deep the recursion.
*/
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aprof/export/pprof.h"
#include "aprof/export/profile.pb-c.h"
#include "aprof/model/traversals.h"
#include "aprof/report/alloctypes.h"
#include "aprof/util.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Label pb_label;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

/* The string table (index 0 is "") with a hash of it: open addressing, kept half empty. */
struct strings {
	char **s;
	size_t n, cap;
	size_t *slot;              /* index + 1; 0 is empty */
	size_t mask;
};

/* The functions, one per distinct (name, system name, file, line), hashed as the strings. */
struct functions {
	pb_function *f;
	size_t n, cap;
	size_t *slot;
	size_t mask;
};

/* Everything the Profile message points into, freed after packing. */
struct tables {
	struct strings str;
	struct functions fn;
	pb_mapping *map;
	size_t nmap;
	pb_location *loc;          /* every part's locations */
	pb_line *line;             /* one per location */
	size_t nloc;
};

/* A ProtobufCBuffer that deflates what protobuf-c packs into a gzip stream on OUT. */
struct gz_sink {
	ProtobufCBuffer base;
	z_stream z;
	FILE *out;
	unsigned char chunk[1 << 16];
};

/* The sample types, in the order of each sample's values. */
enum { V_CALLS, V_TIME, V_OBJECTS, V_SPACE, V_INUSE, V_KEPT, V_N };


/* FNV-1a of the N bytes at P, from H. */
static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;

	while (n-- > 0)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}


/* A table of MASK + 1 empty slots. */
static size_t *slots_new(size_t mask)
{
	return xcalloc(mask + 1, sizeof(size_t));
}


static uint64_t string_hash(const char *s)
{
	return hash_bytes(s, strlen(s), 0xcbf29ce484222325ull);
}


/* The index of S in T, added if new; 0 ("") for NULL. */
static int64_t string_id(struct strings *t, const char *s)
{
	size_t i, k;

	if (s == NULL)
		return 0;
	if (2 * (t->n + 1) > t->mask + 1) {
		free(t->slot);
		t->mask = 2 * t->mask + 1;
		t->slot = slots_new(t->mask);
		for (k = 0; k < t->n; k++) {
			for (i = string_hash(t->s[k]) & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask)
				continue;
			t->slot[i] = k + 1;
		}
	}
	for (i = string_hash(s) & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask)
		if (strcmp(t->s[t->slot[i] - 1], s) == 0)
			return (int64_t)(t->slot[i] - 1);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->s = xrealloc(t->s, t->cap * sizeof t->s[0]);
	}
	t->s[t->n++] = xstrdup(s);
	t->slot[i] = t->n;
	return (int64_t)(t->n - 1);
}


static uint64_t function_hash(const pb_function *f)
{
	int64_t key[4] = { f->name, f->system_name, f->filename, f->start_line };

	return hash_bytes(key, sizeof key, 0xcbf29ce484222325ull);
}


static int function_eq(const pb_function *a, const pb_function *b)
{
	return a->name == b->name && a->system_name == b->system_name &&
	       a->filename == b->filename && a->start_line == b->start_line;
}


/* The id of function X (its id field ignored) in T, added if new. */
static uint64_t function_id(struct functions *t, const pb_function *x)
{
	size_t i, k;

	if (2 * (t->n + 1) > t->mask + 1) {
		free(t->slot);
		t->mask = 2 * t->mask + 1;
		t->slot = slots_new(t->mask);
		for (k = 0; k < t->n; k++) {
			for (i = function_hash(&t->f[k]) & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask)
				continue;
			t->slot[i] = k + 1;
		}
	}
	for (i = function_hash(x) & t->mask; t->slot[i] != 0; i = (i + 1) & t->mask)
		if (function_eq(&t->f[t->slot[i] - 1], x))
			return t->slot[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->f = xrealloc(t->f, t->cap * sizeof t->f[0]);
	}
	t->f[t->n] = *x;
	t->f[t->n].id = t->n + 1;
	t->slot[i] = ++t->n;
	return t->n;
}


/* The function ids of routines of P, one per routine. */
static uint64_t *routine_functions(struct tables *t, const struct profile *p)
{
	uint64_t *ids = xmalloc(((size_t)p->nprocs + 1) * sizeof ids[0]);
	int r;

	for (r = 0; r < p->nprocs; r++) {
		const struct prof_proc *f = &p->procs[r];
		pb_function x = PERFTOOLS__PROFILES__FUNCTION__INIT;

		x.name = string_id(&t->str, f->name);
		x.system_name = string_id(&t->str, f->sym != NULL ? f->sym->mangled : f->name);
		x.filename = string_id(&t->str, profile_file(p, r));
		if (f->sym != NULL && p->syms != NULL)
			x.start_line = symbols_line(p->syms, f->sym);
		ids[r] = function_id(&t->fn, &x);
	}
	return ids;
}


/*
** The mapping of module M, added if no mapping has its file and build ID
** (--diff's old run may have loaded the same module elsewhere).
*/
static pb_mapping *mapping_of(struct tables *t, const struct amon_module_info *m)
{
	char *hex = xmalloc(2 * (size_t)m->build_id_length + 1);
	int64_t file = string_id(&t->str, m->path), build;
	pb_mapping *x;
	uint32_t k;
	size_t i;

	for (k = 0; k < m->build_id_length; k++)
		sprintf(hex + 2 * k, "%02x", m->build_id[k]);
	hex[2 * k] = '\0';
	build = string_id(&t->str, hex);
	free(hex);
	for (i = 0; i < t->nmap; i++)
		if (t->map[i].filename == file && t->map[i].build_id == build)
			return &t->map[i];
	t->map = xrealloc(t->map, (t->nmap + 1) * sizeof t->map[0]);
	x = &t->map[t->nmap];
	perftools__profiles__mapping__init(x);
	x->id = ++t->nmap;
	x->memory_start = m->start;
	x->memory_limit = m->end;
	/* The mapping's start as linked: its file offset for the usual ELF layout. */
	x->file_offset = m->start - m->load_bias;
	x->filename = file;
	x->build_id = build;
	x->has_functions = x->has_filenames = x->has_line_numbers = 1;
	return x;
}


/*
** The locations of part X, one per history address of its profile (P->map),
** added to T; returns the id of the first (the others follow in address
** order).  A location's address is the routine's entry (amon.out records no
** call sites), moved into its module's mapping, and its line the routine's
** first.
*/
static uint64_t part_locations(struct tables *t, const struct pprof_part *x)
{
	const struct profile *p = x->p;
	uint64_t *fids = routine_functions(t, p), first = t->nloc + 1;
	/* Each module's mapping (index + 1), found on first use: 0 not yet. */
	size_t *maps = xcalloc((size_t)x->d->nmodules + 1, sizeof maps[0]);
	size_t i;

	t->loc = xrealloc(t->loc, (t->nloc + p->map.n + 1) * sizeof t->loc[0]);
	t->line = xrealloc(t->line, (t->nloc + p->map.n + 1) * sizeof t->line[0]);
	for (i = 0; i < p->map.n; i++) {
		pb_location *l = &t->loc[t->nloc];
		pb_line *ln = &t->line[t->nloc];
		uint64_t a = p->map.addr[i];
		int m = symbols_module(x->d, a);
		const pb_function *f = &t->fn.f[fids[p->map.proc[i]] - 1];

		perftools__profiles__location__init(l);
		perftools__profiles__line__init(ln);
		l->id = ++t->nloc;
		l->address = a;
		if (m >= 0) {
			const pb_mapping *mp;

			if (maps[m] == 0)
				maps[m] = mapping_of(t, &x->d->modules[m])->id;
			mp = &t->map[maps[m] - 1];
			l->mapping_id = mp->id;
			l->address = a - x->d->modules[m].start + mp->memory_start;
		}
		ln->function_id = f->id;
		ln->line = f->start_line;
		l->n_line = 1;
	}
	free(maps);
	free(fids);
	return first;
}


/* The location id of history entry E of part P, whose locations start at FIRST. */
static uint64_t location_of(const struct profile *p, uint64_t first, uint64_t e)
{
	size_t lo = 0, hi = p->map.n;

	e = AMON_ADDR(e);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->map.addr[mid] < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return first + lo;
}


/* Appends to S's labels KEY = STR (a string id) or, STR 0, KEY = NUM. */
static void add_label(pb_sample *s, int64_t key, int64_t str, int64_t num)
{
	pb_label *l = xmalloc(sizeof *l);

	perftools__profiles__label__init(l);
	l->key = key;
	l->str = str;
	l->num = num;
	s->label = xrealloc(s->label, (s->n_label + 1) * sizeof s->label[0]);
	s->label[s->n_label++] = l;
}


/* The cycle label of traversal Y: its members in call order, "p -> q -> p". */
static char *cycle_name(const struct traversal *y, const struct profile *p)
{
	size_t len = 1;
	uint32_t k;
	char *s;

	for (k = 0; k <= y->n; k++)
		len += strlen(p->procs[profile_routine(p, y->members[k % y->n])].name) + 4;
	s = xmalloc(len);
	s[0] = '\0';
	for (k = 0; k <= y->n; k++) {
		if (k > 0)
			strcat(s, " -> ");
		strcat(s, p->procs[profile_routine(p, y->members[k % y->n])].name);
	}
	return s;
}


/* Labels sample S of context C of part X (--cycles) with the cycles traversed active in it. */
static void cycle_labels(pb_sample *s, struct tables *t, const struct pprof_part *x,
			 const struct amon_context_info *c)
{
	int n, k;
	struct traversal *y = traversals_context(x->d, x->p->syms, c, &n);

	for (k = 0; k < n; k++) {
		char *name = cycle_name(&y[k], x->p);

		add_label(s, string_id(&t->str, "cycle"), string_id(&t->str, name), 0);
		free(name);
	}
	traversals_free(y, n);
}


/* True if context C of part X is written: a routine active, its running one not under --threshold. */
static int written(const struct pprof_part *x, const struct amon_context_info *c,
		   const struct pprof_options *o)
{
	const struct prof_proc *f;

	if (c->depth == 0)
		return 0;
	f = &x->p->procs[profile_routine(x->p, c->history[c->depth - 1])];
	return !profile_below(x->p, f->self + f->child, o->threshold);
}


/* What a part's samples share: their labels' keys and values, their sign and values' number. */
struct sampling {
	struct tables *t;
	const struct pprof_part *x;
	const struct pprof_options *o;
	uint64_t first;            /* the part's first location id */
	size_t nv;
	int64_t sign;
	int64_t thread_key, pid_key, base_key, base_true, type_key;
	int64_t thread_name;       /* the current thread's label */
	size_t cap;                /* room in the profile's sample array */
};


/*
** Adds to PB a sample of context C with values V (V_N of them, sign not yet
** applied), labelled with the type TYPE (NULL: none) besides the part's.
*/
static void add_sample(pb_profile *pb, struct sampling *g, const struct amon_context_info *c,
		       const int64_t *v, const char *type)
{
	pb_sample *s = xmalloc(sizeof *s);
	uint32_t k;
	size_t i;

	if (pb->n_sample == g->cap) {
		g->cap = 2 * g->cap + 64;
		pb->sample = xrealloc(pb->sample, g->cap * sizeof pb->sample[0]);
	}
	perftools__profiles__sample__init(s);
	s->n_location_id = c->depth;
	s->location_id = xmalloc(c->depth * sizeof s->location_id[0]);
	for (k = 0; k < c->depth; k++)
		s->location_id[k] = location_of(g->x->p, g->first, c->history[c->depth - 1 - k]);
	s->n_value = g->nv;
	s->value = xmalloc(V_N * sizeof s->value[0]);
	for (i = 0; i < V_N; i++)
		s->value[i] = g->sign * v[i];
	add_label(s, g->thread_key, g->thread_name, 0);
	if (g->x->d->header.pid != 0)
		add_label(s, g->pid_key, 0, (int64_t)g->x->d->header.pid);
	if (g->x->base)
		add_label(s, g->base_key, g->base_true, 0);
	if (type != NULL)
		add_label(s, g->type_key, string_id(&g->t->str, type), 0);
	if (g->o->cycles && g->x->p->syms != NULL)
		cycle_labels(s, g->t, g->x, c);
	pb->sample[pb->n_sample++] = s;
}


/*
** Adds context C's samples: one, or with heap data and allocations of
** known types (--types' rules), one per type, each with that type's
** allocations and bytes (the last what the others leave, so the context's
** totals stay exact) and the first with C's calls and time too.
*/
static void context_samples(pb_profile *pb, struct sampling *g,
			    const struct amon_context_info *c, int64_t ns)
{
	int64_t v[V_N] = { (int64_t)c->calls, ns, (int64_t)c->allocs, (int64_t)c->alloc_bytes,
			   (int64_t)c->peak_bytes, (int64_t)(c->alloc_bytes - c->free_bytes) };
	struct alloctypes_table *tt;
	size_t i;

	if (g->nv == V_OBJECTS || c->allocs == 0 || g->x->p->syms == NULL) {
		add_sample(pb, g, c, v, NULL);
		return;
	}
	tt = alloctypes_context(g->x->d, g->x->p->syms, g->x->ti, c);
	if (tt->n == 0 || (tt->n == 1 && tt->rows[0].name == NULL)) {
		add_sample(pb, g, c, v, NULL);
		alloctypes_free(tt);
		return;
	}
	for (i = 0; i < tt->n; i++) {
		const struct types_row *r = &tt->rows[i];
		int64_t w[V_N] = { 0, 0, (int64_t)r->allocs, (int64_t)r->bytes, (int64_t)r->peak,
				   (int64_t)r->kept };
		int j;

		if (i == 0) {
			w[V_CALLS] = v[V_CALLS];
			w[V_TIME] = v[V_TIME];
		}
		if (i + 1 == tt->n)
			for (j = V_OBJECTS; j < V_N; j++)
				w[j] = v[j];
		for (j = V_OBJECTS; j < V_N; j++)
			v[j] -= w[j];
		add_sample(pb, g, c, w, r->name);
	}
	alloctypes_free(tt);
}


/* Adds part X's samples to PB (NV values each; locations from FIRST), whose array has room for CAP. */
static size_t part_samples(pb_profile *pb, struct tables *t, const struct pprof_part *x,
			   uint64_t first, size_t nv, const struct pprof_options *o, size_t cap)
{
	struct amon_each e = AMON_EACH(x->d);
	const struct amon_context_info *c;
	const struct amon_thread_info *th = NULL;
	uint64_t running = 0;
	struct sampling g = { t, x, o, first, nv, x->base ? -1 : 1,
			      string_id(&t->str, "thread"), string_id(&t->str, "pid"),
			      string_id(&t->str, "pprof::base"), string_id(&t->str, "true"),
			      string_id(&t->str, "type"), 0, cap };

	while ((c = amon_each_next(&e)) != NULL) {
		/* Time rounded on the running sum of every context, written or not. */
		int64_t ns = (int64_t)profile_export(x->time, c->ticks, &running);

		if (e.thread != th) {
			char buf[64];

			th = e.thread;
			if (th->name[0] != '\0')
				snprintf(buf, sizeof buf, "%" PRIu64 " %s", th->tid, th->name);
			else
				snprintf(buf, sizeof buf, "%" PRIu64, th->tid);
			g.thread_name = string_id(&t->str, buf);
		}
		if (written(x, c, o))
			context_samples(pb, &g, c, ns);
	}
	return g.cap;
}


/* Deflates what the sink holds, to OUT, with FLUSH (Z_NO_FLUSH or Z_FINISH). */
static void sink_deflate(struct gz_sink *g, int flush)
{
	int rc;

	do {
		g->z.next_out = g->chunk;
		g->z.avail_out = sizeof g->chunk;
		rc = deflate(&g->z, flush);
		if (rc == Z_STREAM_ERROR)
			util_die("zlib: deflate failed");
		fwrite(g->chunk, 1, sizeof g->chunk - g->z.avail_out, g->out);
	} while (g->z.avail_out == 0);
}


static void sink_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_sink *g = (struct gz_sink *)b;

	while (len > 0) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		g->z.next_in = (Bytef *)data;
		g->z.avail_in = n;
		sink_deflate(g, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}


/* PB packed and gzipped (RFC 1952, zlib's header: no name, no time) on OUT. */
static void write_gzipped(FILE *out, const pb_profile *pb)
{
	struct gz_sink *g = xcalloc(1, sizeof *g);

	g->base.append = sink_append;
	g->out = out;
	/* windowBits 15 + 16: the gzip wrapper. */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		util_die("zlib: cannot start deflate");
	perftools__profiles__profile__pack_to_buffer(pb, &g->base);
	sink_deflate(g, Z_FINISH);
	deflateEnd(&g->z);
	free(g);
}


/* Sets VT to TYPE/UNIT. */
static void value_type(struct tables *t, pb_value_type *vt, const char *type, const char *unit)
{
	perftools__profiles__value_type__init(vt);
	vt->type = string_id(&t->str, type);
	vt->unit = string_id(&t->str, unit);
}


static void tables_free(struct tables *t, pb_profile *pb)
{
	size_t i, k;

	for (i = 0; i < pb->n_sample; i++) {
		for (k = 0; k < pb->sample[i]->n_label; k++)
			free(pb->sample[i]->label[k]);
		free(pb->sample[i]->label);
		free(pb->sample[i]->location_id);
		free(pb->sample[i]->value);
		free(pb->sample[i]);
	}
	free(pb->sample);
	free(pb->sample_type);
	free(pb->mapping);
	free(pb->location);
	free(pb->function);
	free(pb->comment);
	for (i = 0; i < t->str.n; i++)
		free(t->str.s[i]);
	free(t->str.s);
	free(t->str.slot);
	free(t->fn.f);
	free(t->fn.slot);
	free(t->map);
	free(t->loc);
	free(t->line);
}


void pprof_write(FILE *out, const struct pprof_part *parts, int n, const struct pprof_options *o)
{
	static const char *const metric_type[] = {
		[PROF_TIME] = NULL, [PROF_BYTES] = "alloc_space", [PROF_ALLOCS] = "alloc_objects",
		[PROF_KEPT] = "kept_space", [PROF_PEAK] = "inuse_space",
	};
	const struct amon_data *d = parts[0].d;
	const char *time = d->header.clock == AMON_CLOCK_SAMPLE ? "cpu" : "wall";
	pb_profile pb = PERFTOOLS__PROFILES__PROFILE__INIT;
	pb_value_type types[V_N], period;
	pb_line **line_ptrs;
	struct tables t;
	uint64_t *first = xmalloc((size_t)n * sizeof first[0]);
	size_t nv = V_OBJECTS, cap = 0, i;
	int k;

	memset(&t, 0, sizeof t);
	t.str.mask = 255;
	t.str.slot = slots_new(t.str.mask);
	t.fn.mask = 255;
	t.fn.slot = slots_new(t.fn.mask);
	string_id(&t.str, "");
	for (k = 0; k < n; k++) {
		if (parts[k].d->heap.flags & AMON_HEAP_ON)
			nv = V_N;
		cap += amon_ncontexts(parts[k].d);
	}
	value_type(&t, &types[V_CALLS], "calls", "count");
	value_type(&t, &types[V_TIME], time, "nanoseconds");
	value_type(&t, &types[V_OBJECTS], "alloc_objects", "count");
	value_type(&t, &types[V_SPACE], "alloc_space", "bytes");
	value_type(&t, &types[V_INUSE], "inuse_space", "bytes");
	value_type(&t, &types[V_KEPT], "kept_space", "bytes");
	pb.sample_type = xmalloc(V_N * sizeof pb.sample_type[0]);
	for (i = 0; i < nv; i++)
		pb.sample_type[i] = &types[i];
	pb.n_sample_type = nv;
	pb.default_sample_type = string_id(&t.str, o->metric == PROF_TIME || nv == V_OBJECTS
						    ? time : metric_type[o->metric]);
	value_type(&t, &period, time, "nanoseconds");
	pb.period_type = &period;
	/* One tick in ns: a sampling clock's interval; 1 for the finer ones. */
	pb.period = d->header.ticks_per_second > 0 && d->header.ticks_per_second < 1e9
		    ? (int64_t)(1e9 / d->header.ticks_per_second + 0.5) : 1;
	pb.duration_nanos = d->header.ticks_per_second > 0
			    ? (int64_t)((long double)d->header.total_ticks * 1e9L /
					d->header.ticks_per_second + 0.5L) : 0;
	pb.time_nanos = o->time_nanos;
	pb.comment = xmalloc(2 * sizeof pb.comment[0]);
	pb.comment[pb.n_comment++] = string_id(&t.str, "aprof " PACKAGE_VERSION);
	if (n > 1)
		pb.comment[pb.n_comment++] = string_id(
			&t.str, "aprof --diff: the old profile's samples negated, label pprof::base");

	for (k = 0; k < n; k++)
		first[k] = part_locations(&t, &parts[k]);
	pb.sample = xmalloc(++cap * sizeof pb.sample[0]);
	for (k = 0; k < n; k++)
		cap = part_samples(&pb, &t, &parts[k], first[k], nv, o, cap);

	pb.n_mapping = t.nmap;
	pb.mapping = xmalloc((t.nmap + 1) * sizeof pb.mapping[0]);
	for (i = 0; i < t.nmap; i++)
		pb.mapping[i] = &t.map[i];
	pb.n_location = t.nloc;
	pb.location = xmalloc((t.nloc + 1) * sizeof pb.location[0]);
	line_ptrs = xmalloc((t.nloc + 1) * sizeof line_ptrs[0]);
	for (i = 0; i < t.nloc; i++) {
		line_ptrs[i] = &t.line[i];
		t.loc[i].line = &line_ptrs[i];
		pb.location[i] = &t.loc[i];
	}
	pb.n_function = t.fn.n;
	pb.function = xmalloc((t.fn.n + 1) * sizeof pb.function[0]);
	for (i = 0; i < t.fn.n; i++)
		pb.function[i] = &t.fn.f[i];
	pb.n_string_table = t.str.n;
	pb.string_table = t.str.s;

	write_gzipped(out, &pb);
	free(line_ptrs);
	free(first);
	tables_free(&t, &pb);
}
