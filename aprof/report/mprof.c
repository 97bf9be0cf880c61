/*
** mprof.c -- --heap: mprof's four tables (mprof(1) of 4.4BSD contrib, and
** Zorn and Hilfinger, "A Memory Allocation Profiler for C and Lisp
** Programs", USENIX 1988) in mprof's order and column layout, computed from
** the contexts of amon.out.  Where mprof records the last five callers of
** each allocation and merges recursive cycles, a context holds the whole
** history, so the leak paths are complete and the allocation call graph
** (gprof's layout, arcs split by Spivey's rules) needs no merging.
*/
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/report/callgraph.h"
#include "aprof/report/contexts.h"
#include "aprof/model/merge.h"
#include "aprof/report/mprof.h"
#include "aprof/report/gprof.h"
#include "aprof/util.h"

/* The bin of every size above 1024 bytes (amon.h AMON_BIN), shown as "> 1024". */
#define BIG_BIN (AMON_BINS - 1)

/* The end of every table but the last, as mprof prints it. */
#define TABLE_END "\n\f\n\n"

/* One leak-table row: a history, its counts summed over the threads that share it. */
struct leak {
	struct history_item key;      /* the history; first appearance, for ties */
	uint64_t allocs, bytes, frees, freed;
};

/* One direct-allocation row: what was allocated while a routine was running. */
struct direct {
	uint64_t key;                 /* the routine's entry address; unused for the root */
	int root;                     /* 1 for allocations with no routine active */
	const char *name;
	uint64_t allocs, bytes, kept;
	uint64_t class_bytes[AMON_SIZE_CLASSES], class_kept[AMON_SIZE_CLASSES];
};


/*
** Prints the line in BUF with its trailing blanks removed: mprof's formats
** pad empty percentage fields, which would leave blanks at line ends.
*/
static void put_line(FILE *out, char *buf)
{
	size_t n = strlen(buf);

	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	fputs(buf, out);
	fputc('\n', out);
}


/* put_line of a printf-formatted line. */
static void print_line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void print_line(FILE *out, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	put_line(out, buf);
}


/*
** A truncated percentage of M in N as mprof prints it (mprof.c
** percent_string; mprof(1) "FIELDS IN THE OUTPUT"): empty for 0, UNDER
** under 1%, FULL for 100%, else the percentage in FORMAT; BUF holds SIZE.
*/
static const char *mprof_percent(char *buf, size_t size, uint64_t m, uint64_t n,
				 const char *under, const char *full, const char *format)
{
	uint64_t p;

	if (m == 0 || n == 0)
		return "";
	p = 100 * m / n;
	if (p == 0)
		return under;
	if (p >= 100)
		return full;
	snprintf(buf, size, format, p);
	return buf;
}


/* The parenthesised percentage: "(.)", "(**)", "(p)".  BUF holds 8. */
static const char *paren_percent(char *buf, uint64_t m, uint64_t n)
{
	return mprof_percent(buf, 8, m, n, "(.)", "(**)", "(%" PRIu64 ")");
}


/* The two-column percentage field: ".", "**", "p".  BUF holds 4. */
static const char *two_column(char *buf, uint64_t m, uint64_t n)
{
	return mprof_percent(buf, 4, m, n, ".", "**", "%" PRIu64);
}


/* A size breakdown: the four classes of V as two-column percentages of N, " s m l x". */
static const char *breakdown(char *buf, size_t size, const uint64_t *v, uint64_t n)
{
	char p[AMON_SIZE_CLASSES][4];

	snprintf(buf, size, " %2s %2s %2s %2s", two_column(p[0], v[0], n),
		 two_column(p[1], v[1], n), two_column(p[2], v[2], n), two_column(p[3], v[3], n));
	return buf;
}


/*
** True if a row of BYTES out of TOTAL is shown at verbosity V: every row
** when verbose, 0.5% of TOTAL or more when normal, 1% or more when terse
** (mprof(1) -verbose, -normal, -terse).
*/
static int shown(enum mprof_verbosity v, uint64_t bytes, uint64_t total)
{
	switch (v) {
	case MPROF_VERBOSE:
		return 1;
	case MPROF_TERSE:
		return 100 * bytes >= total;
	default:
		return 200 * bytes >= total;
	}
}


/*
** mprof's types column for SIZE into BUF (SIZE bytes): the program's types
** of exactly that size from TI, by name, ", ..." where they do not fit.
*/
static const char *bin_types(char *buf, size_t size, const struct typeinfo *ti, uint32_t bin)
{
	struct typeinfo_type *const *t;
	size_t n = ti != NULL ? typeinfo_of_size(ti, bin, &t) : 0, i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		size_t len = strlen(t[i]->name) + (i > 0 ? 2 : 0);

		if (used + len + 5 >= size) {
			strcpy(buf + used, ", ...");
			break;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? ", " : "",
					 t[i]->name);
	}
	return buf;
}


/*
** One row of the bin table: LABEL or SIZE, then B's counts and percentages
** of TOTAL, then TYPES (mprof's types column).
*/
static void print_bin(FILE *out, const char *label, uint32_t size, const struct amon_heap_bin *b,
		      const struct amon_heap_bin *total, const char *types)
{
	char size_buf[16], p1[8], p2[8];

	if (label == NULL) {
		snprintf(size_buf, sizeof(size_buf), "%" PRIu32, size);
		label = size_buf;
	}
	print_line(out, "%11s%10" PRIu64 "%10" PRIu64 " %-4s%10" PRIu64 "%10" PRIu64 " %-4s  %s",
		   label, b->allocs, b->alloc_bytes,
		   paren_percent(p1, b->alloc_bytes, total->alloc_bytes), b->frees,
		   b->alloc_bytes - b->free_bytes,
		   paren_percent(p2, b->alloc_bytes - b->free_bytes,
				 total->alloc_bytes - total->free_bytes), types);
}


/* Adds B's counts to *SUM. */
static void bin_add(struct amon_heap_bin *sum, const struct amon_heap_bin *b)
{
	sum->allocs += b->allocs;
	sum->alloc_bytes += b->alloc_bytes;
	sum->frees += b->frees;
	sum->free_bytes += b->free_bytes;
}


/*
** Table 1, mprof's allocation bins: one row per requested size up to 1024
** that O's verbosity shows, the row "> 1024" for all larger sizes, the hidden
** sizes summed as "other bins", then the totals.  mprof's "types" column
** lists the struct, union and class types and typedefs of the program (of
** TI, from DWARF) of exactly each size: candidates, as mprof's were.
*/
static void print_bins(FILE *out, const struct amon_data *d, const struct typeinfo *ti,
		       const struct mprof_options *o)
{
	enum mprof_verbosity v = o->verbosity;
	struct amon_heap_bin big = { 0 }, other = { 0 }, total = { 0 };
	char types[400];
	uint32_t i;

	for (i = 0; i < d->heap.nbins; i++)
		bin_add(&total, &d->bins[i]);
	fputs("--------- Allocation Bins ------------\n\n", out);
	if (o->selected)
		fputs("Of the whole run: amon.out keeps sizes per run, not per context, so -F, -E\n"
		      "and --elide do not apply to this table (they do to the others).\n\n", out);
	print_line(out, "%11s%10s%10s %-4s%10s%10s %-4s  %s", "size:", "allocs", "bytes", "(%)",
		   "frees", "kept", "(%)", "types");
	fputc('\n', out);
	for (i = 0; i < d->heap.nbins; i++) {
		const struct amon_heap_bin *b = &d->bins[i];

		if (b->bin == BIG_BIN)
			big = *b;
		else if (shown(v, b->alloc_bytes, total.alloc_bytes))
			print_bin(out, NULL, b->bin, b, &total,
				  bin_types(types, sizeof types, ti, b->bin));
		else
			bin_add(&other, b);
	}
	print_bin(out, "> 1024", 0, &big, &total, "");
	fputc('\n', out);
	if (other.allocs != 0 || other.frees != 0)
		print_bin(out, "other bins", 0, &other, &total, "");
	print_line(out, "%11s%10" PRIu64 "%10" PRIu64 " %-4s%10" PRIu64 "%10" PRIu64, "<TOTAL>",
		   total.allocs, total.alloc_bytes, "", total.frees,
		   total.alloc_bytes - total.free_bytes);
	fputs(TABLE_END, out);
}


static void leak_add(void *into, const void *from)
{
	struct leak *x = into;
	const struct leak *y = from;

	x->allocs += y->allocs;
	x->bytes += y->bytes;
	x->frees += y->frees;
	x->freed += y->freed;
}


/* Kept bytes descending, then first appearance (mprof's lte_size_compar). */
static int leak_by_kept(const void *lp, const void *rp)
{
	const struct leak *l = lp, *r = rp;
	uint64_t lk = l->bytes - l->freed, rk = r->bytes - r->freed;

	if (lk != rk)
		return lk < rk ? 1 : -1;
	return (l->key.order > r->key.order) - (l->key.order < r->key.order);
}


/*
** Table 2, mprof's memory leaks: one row per history that kept bytes
** (contexts of all threads with the same history merged), by kept bytes,
** those verbosity V shows.  The percentages are of all bytes kept, all
** allocated and all freed; the frees columns are left out when nothing was
** freed, as mprof does.  The path is the whole history, not mprof's last
** five callers, so it never starts with mprof's "...".
*/
static void print_leaks(FILE *out, const struct amon_data *d, const struct symbols *syms,
			enum mprof_verbosity v)
{
	struct leak *e = xmalloc((amon_ncontexts(d) + 1) * sizeof(e[0]));
	struct leak total = { { NULL, 0 }, 0, 0, 0, 0 };
	struct amon_each each = AMON_EACH(d);
	const struct amon_context_info *c;
	size_t n = 0, i, k;
	uint64_t kept;

	while ((c = amon_each_next(&each)) != NULL) {
		struct leak l = { { c, n }, c->allocs, c->alloc_bytes, c->frees, c->free_bytes };

		total.allocs += c->allocs;
		total.bytes += c->alloc_bytes;
		total.frees += c->frees;
		total.freed += c->free_bytes;
		e[n++] = l;
	}
	k = histories_merge(e, n, sizeof(e[0]), leak_add);
	qsort(e, k, sizeof(e[0]), leak_by_kept);
	kept = total.bytes - total.freed;

	fputs("--------- Memory Leaks: Dynamic Call Paths ------------\n\n", out);
	fprintf(out, "Total bytes not freed: %" PRIu64 "\n\n", kept);
	if (total.frees > 0)
		fprintf(out, "%10s %-4s%10s%10s %-4s%10s%10s %-4s    %s\n\n", "kept bytes", "(%)",
			"allocs", "bytes", "(%)", "frees", "bytes", "(%)", "path");
	else
		fprintf(out, "%10s %-4s%10s%10s %-4s    %s\n\n", "kept bytes", "(%)", "allocs",
			"bytes", "(%)", "path");
	for (i = 0; i < k; i++) {
		uint64_t row_kept = e[i].bytes - e[i].freed;
		char p1[8], p2[8], p3[8];

		if (row_kept == 0 || !shown(v, row_kept, kept))
			continue;
		fprintf(out, "%10" PRIu64 " %-4s%10" PRIu64 "%10" PRIu64 " %-4s", row_kept,
			paren_percent(p1, row_kept, kept), e[i].allocs, e[i].bytes,
			paren_percent(p2, e[i].bytes, total.bytes));
		if (total.frees > 0)
			fprintf(out, "%10" PRIu64 "%10" PRIu64 " %-4s", e[i].frees, e[i].freed,
				paren_percent(p3, e[i].freed, total.freed));
		fputs("    ", out);
		contexts_print_history(out, e[i].key.c, d, syms);
		fputc('\n', out);
	}
	fputs(TABLE_END, out);
	free(e);
}


/* Root row last, the others by routine address (for merging). */
static int direct_by_key(const void *lp, const void *rp)
{
	const struct direct *l = lp, *r = rp;

	if (l->root != r->root)
		return l->root - r->root;
	return (l->key > r->key) - (l->key < r->key);
}


/* Bytes descending, then name (mprof's vdata_compar, with a tie-break). */
static int direct_by_bytes(const void *lp, const void *rp)
{
	const struct direct *l = lp, *r = rp;

	if (l->bytes != r->bytes)
		return l->bytes < r->bytes ? 1 : -1;
	return strcmp(l->name, r->name);
}


/* Adds S's counts to *SUM. */
static void direct_add(struct direct *sum, const struct direct *s)
{
	int k;

	sum->allocs += s->allocs;
	sum->bytes += s->bytes;
	sum->kept += s->kept;
	for (k = 0; k < AMON_SIZE_CLASSES; k++) {
		sum->class_bytes[k] += s->class_bytes[k];
		sum->class_kept[k] += s->class_kept[k];
	}
}


/*
** The direct-allocation row of context C: its counts, charged to the routine
** running in it (the last history entry), named through SYMS.
*/
static void direct_of(struct direct *r, const struct amon_context_info *c,
		      const struct amon_data *d, const struct symbols *syms)
{
	int k;

	memset(r, 0, sizeof(*r));
	if (c->depth == 0) {
		r->root = 1;
		r->name = "<no routine active>";
	} else {
		uint64_t a = AMON_ADDR(c->history[c->depth - 1]);
		const struct symbol *s = symbols_find(syms, d, a);

		r->key = s != NULL ? s->addr : a;
		r->name = s != NULL ? s->name : symbols_name(syms, d, a); /* "0xOFF in MODULE" */
	}
	r->allocs = c->allocs;
	r->bytes = c->alloc_bytes;
	r->kept = c->alloc_bytes - c->free_bytes;
	for (k = 0; k < AMON_SIZE_CLASSES; k++) {
		r->class_bytes[k] = c->class_alloc[k];
		r->class_kept[k] = c->class_alloc[k] - c->class_free[k];
	}
}


/*
** Table 3, mprof's direct allocation: the <TOTAL> row, whose breakdowns are
** of the totals themselves, then one row per routine that allocated bytes
** while it was running, by bytes: % of all bytes, bytes, their size classes
** as % of all bytes, bytes kept, their classes as % of all kept, and the
** allocation count (mprof's "calls").  Allocations made while no routine was
** active get a row "<no routine active>", so that the rows add up to the
** totals of table 1.
*/
static void print_direct(FILE *out, const struct amon_data *d, const struct symbols *syms)
{
	struct direct *r = xmalloc((amon_ncontexts(d) + 1) * sizeof(r[0])), total;
	struct amon_each each = AMON_EACH(d);
	const struct amon_context_info *c;
	size_t n = 0, i, k;
	char b1[24], b2[24];

	while ((c = amon_each_next(&each)) != NULL)
		direct_of(&r[n++], c, d, syms);
	qsort(r, n, sizeof(r[0]), direct_by_key);
	memset(&total, 0, sizeof(total));
	for (i = k = 0; i < n; i++) {
		direct_add(&total, &r[i]);
		if (k > 0 && r[k - 1].root == r[i].root && r[k - 1].key == r[i].key)
			direct_add(&r[k - 1], &r[i]);
		else
			r[k++] = r[i];
	}
	qsort(r, k, sizeof(r[0]), direct_by_bytes);

	fputs("---------  Direct Allocation Table ------------\n\n", out);
	fprintf(out, "  %8s %12s |%-12s | %12s |%-12s | %12s   %s\n", " % mem", "bytes",
		" % mem(size)", "bytes kept", "  % all kept", "calls", "name");
	fputs("\n---------------------------s--m--l--x-------------------s--m--l--x"
	      "---------------\n\n", out);
	fprintf(out, "  %8s %12" PRIu64 " |%-12s | %12" PRIu64 " |%-12s | %12" PRIu64 "   %s\n\n",
		"-----", total.bytes,
		breakdown(b1, sizeof(b1), total.class_bytes, total.bytes), total.kept,
		breakdown(b2, sizeof(b2), total.class_kept, total.kept), total.allocs, "<TOTAL>");
	for (i = 0; i < k && r[i].bytes != 0; i++)
		fprintf(out, "  %8.1f %12" PRIu64 " |%-12s | %12" PRIu64 " |%-12s | %12" PRIu64
			"   %s\n", 100.0 * (double)r[i].bytes / (double)total.bytes, r[i].bytes,
			breakdown(b1, sizeof(b1), r[i].class_bytes, total.bytes), r[i].kept,
			breakdown(b2, sizeof(b2), r[i].class_kept, total.kept), r[i].allocs,
			r[i].name);
	fputs(TABLE_END, out);
	free(r);
}


/*
** Table 4, mprof's allocation call graph: BYTES in gprof's call-graph
** layout (callgraph.c), only the routines, cycles and arcs that allocated.
*/
static void print_graph(FILE *out, const struct profile *bytes)
{
	struct report_options o;
	struct order *ord;

	memset(&o, 0, sizeof(o));
	o.graph = 1;
	o.brief = 1;
	o.charged_only = 1;
	ord = order_make(bytes, &o);
	fputs("--------- Allocation Call Graph ------------\n\n"
	      "Bytes allocated, in gprof's layout: self while the routine ran, children\n"
	      "while it was active; the arcs split them exactly (no merging of cycles).\n\n",
	      out);
	callgraph_print(out, bytes, &o, ord);
	order_free(ord);
}


void mprof_print(FILE *out, const struct amon_data *d, const struct symbols *syms,
		 const struct profile *bytes, const struct typeinfo *ti,
		 const struct mprof_options *o)
{
	print_bins(out, d, ti, o);
	if (!o->no_leaks)
		print_leaks(out, d, syms, o->verbosity);
	print_direct(out, d, syms);
	print_graph(out, bytes);
}
