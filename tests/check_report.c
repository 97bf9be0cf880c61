/*
** check_report.c -- the gprof-format reports (report/gprof.c, flat.c,
** callgraph.c) on a profile built by hand: main (spontaneous) calls fib
** (self-recursive), even (which with odd forms cycle 1), a and b, which
** both call shared; everything calls the leaf work.  Ticks at 100 per
** second, so one tick prints as 0.01 s.
*/
#include <config.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/model/hookcosts.h"
#include "aprof/report/advise.h"
#include "aprof/report/blurbs.h"
#include "aprof/report/gprof.h"
#include "tests/check_aprof.h"

enum { MAIN, WORK, FIB, EVEN, ODD, SHARED, A, B, UNUSED, NPROCS };

/* name, addr, calls, rec, self, child, cycle: ticks (total 96) */
static const struct prof_proc proc_init[NPROCS] = {
	[MAIN] = { "main", 0x1000, 1, 0, 1, 95, 0, NULL, NULL },
	[WORK] = { "work", 0x1100, 9091, 0, 85, 0, 0, NULL, NULL },
	[FIB] = { "fib", 0x1200, 1, 8360, 4, 70, 0, NULL, NULL },
	[EVEN] = { "even", 0x1300, 320, 0, 2, 7, 1, NULL, NULL },
	[ODD] = { "odd", 0x1400, 300, 0, 1, 4, 1, NULL, NULL },
	[SHARED] = { "shared", 0x1500, 110, 0, 2, 9, 0, NULL, NULL },
	[A] = { "a", 0x1600, 1, 0, 1, 9, 0, NULL, NULL },
	[B] = { "b", 0x1700, 1, 0, 0, 2, 0, NULL, NULL },
	[UNUSED] = { "unused", 0x1800, 0, 0, 0, 0, 0, NULL, NULL },
};


/* from, to, count, self1, child1, self2, child2 */
static const struct prof_arc arc_init[] = {
	{ PROF_SPONTANEOUS, MAIN, 1, 1, 95, 1, 95, NULL, NULL },
	{ MAIN, FIB, 1, 4, 70, 4, 70, NULL, NULL },
	{ MAIN, EVEN, 20, 2, 7, 1, 2, NULL, NULL },
	{ MAIN, A, 1, 1, 9, 1, 9, NULL, NULL },
	{ MAIN, B, 1, 0, 2, 0, 2, NULL, NULL },
	{ FIB, WORK, 8361, 70, 0, 70, 0, NULL, NULL },
	{ EVEN, WORK, 320, 4, 0, 4, 0, NULL, NULL },
	{ ODD, WORK, 300, 2, 0, 2, 0, NULL, NULL },
	{ EVEN, ODD, 300, 1, 4, 1, 4, NULL, NULL },
	{ ODD, EVEN, 300, 1, 3, 1, 5, NULL, NULL },
	{ A, SHARED, 100, 2, 7, 2, 7, NULL, NULL },
	{ B, SHARED, 10, 0, 2, 0, 2, NULL, NULL },
	{ SHARED, WORK, 110, 9, 0, 9, 0, NULL, NULL },
};


#define NARCS ((int)(sizeof(arc_init) / sizeof(arc_init[0])))

static struct prof_proc procs[NPROCS];
static struct prof_arc arcs[NARCS];
static int cycle1_members[] = { EVEN, ODD };
static struct prof_cycle cycles[1];
static struct profile prof;


/* Builds PROF afresh, linking every arc at the head of its two lists. */
static void setup(void)
{
	struct prof_cycle c1 = { 1, cycle1_members, 2, 3, 6, 20, 600 };
	int i;

	memcpy(procs, proc_init, sizeof(procs));
	memcpy(arcs, arc_init, sizeof(arcs));
	for (i = 0; i < NARCS; i++) {
		struct prof_arc *a = &arcs[i];

		a->next_in = procs[a->to].in;
		procs[a->to].in = a;
		if (a->from != PROF_SPONTANEOUS) {
			a->next_out = procs[a->from].out;
			procs[a->from].out = a;
		}
	}
	cycles[0] = c1;
	prof.procs = procs;
	prof.nprocs = NPROCS;
	prof.cycles = cycles;
	prof.ncycles = 1;
	prof.metric = PROF_TIME;
	prof.scale = 100.0;
	prof.clock = AMON_CLOCK_SAMPLE;
	prof.unit = "seconds";
	prof.total = 96;
	prof.root = 0;
}


/* The default options with -b and --decimals=2 (gprof's layout): flat profile and call graph. */
static struct report_options brief_options(void)
{
	struct report_options o;

	memset(&o, 0, sizeof(o));
	o.flat = 1;
	o.graph = 1;
	o.brief = 1;
	o.decimals = 2;
	return o;
}


/* A symspec list of the N plain NAMES (-p, -P, -q, -Q), for symspec_free. */
static struct symspec spec_of(const char *const *names, int n)
{
	struct symspec s = { NULL, 0 };
	int i;

	for (i = 0; i < n; i++)
		symspec_add(&s, names[i]);
	return s;
}


/* The reports O selects for PROF, as one malloc'ed string. */
static char *render(const struct report_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	report_gprof(f, &prof, o);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}


/* Checks that GOT is WANT's lines, each followed by '\n', naming the first difference. */
static void check_lines(const char *got, const char *const *want)
{
	const char *p = got;
	int i;

	for (i = 0; want[i] != NULL; i++) {
		const char *nl = strchr(p, '\n');
		size_t n = strlen(want[i]);

		ck_assert_msg(nl != NULL, "line %d: output ends, want \"%s\"", i + 1, want[i]);
		ck_assert_msg((size_t)(nl - p) == n && memcmp(p, want[i], n) == 0,
			      "line %d: got \"%.*s\", want \"%s\"", i + 1, (int)(nl - p), p,
			      want[i]);
		p = nl + 1;
	}
	ck_assert_msg(*p == '\0', "line %d: unexpected \"%s\"", i + 1, p);
}


/*
** What gprof -b would print for PROF (aprof's numbers, gprof's layout) but
** for the clock's line, the granularity line and the per-call unit: us,
** in which the least per-call time (odd's self, 33.33 us) is 1 or more,
** its columns one wider for fib's 740000.00.
*/
static const char *const brief_text[] = {
	"Flat profile:",
	"",
	"Each sample counts as 10 ms of the thread's CPU time (sampling at 100 Hz).",
	"  %   cumulative   self               self      total           ",
	" time   seconds   seconds    calls   us/call   us/call  name    ",
	" 88.54      0.85     0.85     9091     93.50     93.50  work",
	"  4.17      0.89     0.04        1  40000.00 740000.00  fib",
	"  2.08      0.91     0.02      320     62.50    281.25  even",
	"  2.08      0.93     0.02      110    181.82   1000.00  shared",
	"  1.04      0.94     0.01      300     33.33    166.67  odd",
	"  1.04      0.95     0.01        1  10000.00 100000.00  a",
	"  1.04      0.96     0.01        1  10000.00 960000.00  main",
	"  0.00      0.96     0.00        1      0.00  20000.00  b",
	"\f",
	"\t\t\tCall graph",
	"",
	"",
	"granularity: each sample, 10 ms, is 1.04% of 0.96 seconds",
	"",
	"index % time    self  children    called     name",
	"                                                 <spontaneous>",
	"[1]    100.0    0.01    0.95       1         main [1]",
	"                0.04    0.70       1/1           fib [3]",
	"                0.01    0.09       1/1           a [5]",
	"                0.02    0.07      20/20          even <cycle 1> [7]",
	"                0.00    0.02       1/1           b [9]",
	"-----------------------------------------------",
	"                0.02    0.00     300/9091        odd <cycle 1> [8]",
	"                0.04    0.00     320/9091        even <cycle 1> [7]",
	"                0.09    0.00     110/9091        shared [4]",
	"                0.70    0.00    8361/9091        fib [3]",
	"[2]     88.5    0.85    0.00    9091         work [2]",
	"-----------------------------------------------",
	"                                8360             fib [3]",
	"                0.04    0.70       1/1           main [1]",
	"[3]     77.1    0.04    0.70       1+8360    fib [3]",
	"                0.70    0.00    8361/9091        work [2]",
	"                                8360             fib [3]",
	"-----------------------------------------------",
	"                0.00    0.02      10/110         b [9]",
	"                0.02    0.07     100/110         a [5]",
	"[4]     11.5    0.02    0.09     110         shared [4]",
	"                0.09    0.00     110/9091        work [2]",
	"-----------------------------------------------",
	"                0.01    0.09       1/1           main [1]",
	"[5]     10.4    0.01    0.09       1         a [5]",
	"                0.02    0.07     100/110         shared [4]",
	"-----------------------------------------------",
	"[6]      9.4    0.03    0.06      20+600     <cycle 1 as a whole> [6]",
	"                0.02    0.07     320             even <cycle 1> [7]",
	"                0.01    0.04     300             odd <cycle 1> [8]",
	"-----------------------------------------------",
	"                0.01    0.05     300             odd <cycle 1> [8]",
	"                0.01    0.02      20/20          main [1]",
	"[7]      9.4    0.02    0.07     320         even <cycle 1> [7]",
	"                0.04    0.00     320/9091        work [2]",
	"                0.01    0.04     300             odd <cycle 1> [8]",
	"-----------------------------------------------",
	"                0.01    0.04     300             even <cycle 1> [7]",
	"[8]      5.2    0.01    0.04     300         odd <cycle 1> [8]",
	"                0.02    0.00     300/9091        work [2]",
	"                0.01    0.03     300             even <cycle 1> [7]",
	"-----------------------------------------------",
	"                0.00    0.02       1/1           main [1]",
	"[9]      2.1    0.00    0.02       1         b [9]",
	"                0.00    0.02      10/110         shared [4]",
	"-----------------------------------------------",
	"\f",
	"Index by function name",
	"",
	"   [5] a                       [3] fib                     [4] shared",
	"   [9] b                       [1] main                    [2] work",
	"   [7] even                    [8] odd                     [6] <cycle 1>",
	NULL
};


START_TEST(test_brief)
{
	struct report_options o = brief_options();
	char *out = render(&o);

	check_lines(out, brief_text);
	free(out);
}
END_TEST


/* True if S starts with PREFIX. */
static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}


/* The number of times C occurs in S. */
static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += *s == c;
	return n;
}


/* Without -b: each report is followed by its blurb, pages split by "\f". */
START_TEST(test_blurbs)
{
	static const char last_row[] = "  0.00      0.96     0.00        1      0.00  20000.00  b\n";
	struct report_options o = brief_options();
	char *out, *flat, *cg, *idx;

	o.brief = 0;
	out = render(&o);
	ck_assert(starts_with(blurb_flat, "\n %         the percentage of the total running time"));
	ck_assert_ptr_nonnull(strstr(blurb_flat, "\f\nCopyright (C) 2012-2023 Free Software "
					"Foundation, Inc.\n\nCopying and distribution"));
	ck_assert_ptr_nonnull(strstr(blurb_callgraph, "\n This table describes the call tree"));
	ck_assert_ptr_nonnull(strstr(blurb_callgraph, "\f\nCopyright (C) 2012-2023"));

	flat = strstr(out, blurb_flat);
	ck_assert_ptr_nonnull(flat);
	ck_assert(starts_with(flat - strlen(last_row), last_row));
	cg = flat + strlen(blurb_flat);
	ck_assert(starts_with(cg, "\f\n\t\t     Call graph (explanation follows)\n\n\n"
			      "granularity: each sample, 10 ms, is 1.04% of 0.96 seconds\n\nindex % time    self  children    called     name\n"));
	idx = strstr(cg, blurb_callgraph);
	ck_assert_ptr_nonnull(idx);
	ck_assert(starts_with(idx - 48, "-----------------------------------------------\n"));
	idx += strlen(blurb_callgraph);
	ck_assert(starts_with(idx, "\f\nIndex by function name\n\n   [5] a "));
	ck_assert_int_eq(count_char(out, '\f'), 4);
	free(out);
}
END_TEST


/* -p alone: no "\f" at all; -pNAME keeps only NAME; -PNAME leaves it out. */
START_TEST(test_flat_filters)
{
	static const char *const only_names[] = { "shared", "fib" };
	static const char *const only_text[] = {
		"Flat profile:",
		"",
		"Each sample counts as 10 ms of the thread's CPU time (sampling at 100 Hz).",
		"  %   cumulative   self               self      total           ",
		" time   seconds   seconds    calls   us/call   us/call  name    ",
		"  4.17      0.04     0.04        1  40000.00 740000.00  fib",
		"  2.08      0.06     0.02      110    181.82   1000.00  shared",
		NULL
	};
	static const char *const excl_names[] = { "work" };
	struct report_options o = brief_options();
	char *out;

	o.graph = 0;
	o.flat_only = spec_of(only_names, 2);
	o.flat_exclude = spec_of(excl_names, 1); /* ignored when there is a -p list */
	out = render(&o);
	check_lines(out, only_text);
	free(out);

	symspec_free(&o.flat_only);
	out = render(&o);
	ck_assert_ptr_null(strchr(out, '\f'));
	ck_assert_ptr_null(strstr(out, "work"));
	ck_assert_ptr_nonnull(strstr(out, "\n  4.17      0.04     0.04        1  40000.00 740000.00"
				     "  fib\n"));
	free(out);
	symspec_free(&o.flat_exclude);
}
END_TEST


/* -Q shared: its entry goes, references to it show (4); -q a: a and below only. */
START_TEST(test_graph_filters)
{
	static const char *const excl_names[] = { "shared" };
	static const char *const only_names[] = { "a" };
	struct report_options o = brief_options();
	char *out;

	o.flat = 0;
	o.graph_exclude = spec_of(excl_names, 1);
	out = render(&o);
	ck_assert(starts_with(out, "\t\t\tCall graph\n\n\ngranularity:"));
	ck_assert_ptr_null(strstr(out, "[4]     11.5"));
	ck_assert_ptr_nonnull(strstr(out, "\n                0.02    0.07     100/110         "
				     "shared (4)\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n                0.09    0.00     110/9091        "
				     "shared (4)\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n   [7] even                    [8] odd            "
				     "         [6] <cycle 1>\n"));
	ck_assert_ptr_nonnull(strstr(out, " (4) shared\n"));
	ck_assert_int_eq(count_char(out, '\f'), 1);
	free(out);

	symspec_free(&o.graph_exclude);
	o.graph_only = spec_of(only_names, 1);
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\n                0.01    0.09       1/1           "
				     "main (1)\n[5]     10.4"));
	ck_assert_ptr_nonnull(strstr(out, "\n[4]     11.5"));
	ck_assert_ptr_nonnull(strstr(out, "\n[2]     88.5"));
	ck_assert_ptr_null(strstr(out, "\n[1]"));
	ck_assert_ptr_null(strstr(out, "\n[3]"));
	ck_assert_ptr_null(strstr(out, "\n[6]"));
	ck_assert_ptr_nonnull(strstr(out, "\n   (7) even                    (8) odd            "
				     "         (6) <cycle 1>\n"));
	free(out);
	symspec_free(&o.graph_only);
}
END_TEST


/*
** A routine also entered with no caller gets <spontaneous> above its callers;
** a cycle entered only so still gets its entry (gprof would hide it).
*/
START_TEST(test_spontaneous)
{
	static struct prof_arc extra = { PROF_SPONTANEOUS, SHARED, 0, 0, 0, 0, 1, NULL, NULL };
	struct report_options o = brief_options();
	struct prof_arc **link;
	char *out;

	extra.next_in = procs[SHARED].in;
	procs[SHARED].in = &extra;
	for (link = &procs[MAIN].out; (*link)->to != EVEN; link = &(*link)->next_out)
		;
	(*link)->from = PROF_SPONTANEOUS;
	*link = (*link)->next_out;
	o.flat = 0;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\n-----------------------------------------------\n"
				     "                                                 "
				     "<spontaneous>\n"
				     "                0.00    0.02      10/110         b [9]\n"
				     "                0.02    0.07     100/110         a [5]\n"
				     "[4]     11.5"));
	ck_assert_ptr_nonnull(strstr(out, "\n[6]      9.4    0.03    0.06      20+600     "
				     "<cycle 1 as a whole> [6]\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n-----------------------------------------------\n"
				     "                                                 "
				     "<spontaneous>\n"
				     "                0.01    0.05     300             "
				     "odd <cycle 1> [8]\n"
				     "[7]      9.4"));
	ck_assert_ptr_nonnull(strstr(out, " [6] <cycle 1>\n"));
	free(out);
}
END_TEST


/* -z: the routine never called nor charged gets a row, an entry and an index slot. */
START_TEST(test_index_zero)
{
	static const char *const index_text[] = {
		"\f",
		"Index by function name",
		"",
		"   [5] a                       [1] main                    [2] work",
		"   [9] b                       [8] odd                     [6] <cycle 1>",
		"   [7] even                    [4] shared",
		"   [3] fib                    [10] unused",
		NULL
	};
	struct report_options o = brief_options();
	char *out, *idx;

	o.zero = 1;
	out = render(&o);
	/* no calls: three blank columns */
	ck_assert_ptr_nonnull(strstr(out, "\n  0.00      0.96     0.00"
				     "                               unused\n\f\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n-----------------------------------------------\n"
				     "                                                 "
				     "<spontaneous>\n"
				     "[10]     0.0    0.00    0.00                 unused [10]\n"
				     "-----------------------------------------------\n\f\n"));
	idx = strstr(out, "\f\nIndex by function name\n");
	ck_assert_ptr_nonnull(idx);
	check_lines(idx, index_text);
	free(out);
}
END_TEST


/* No time at all: gprof's "no time accumulated" / "no time propagated"; s/call. */
START_TEST(test_no_time)
{
	struct report_options o = brief_options();
	char *out;
	int i;

	for (i = 0; i < NPROCS; i++)
		procs[i].self = procs[i].child = 0;
	prof.total = 0;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\nEach sample counts as 10 ms of the thread's CPU time (sampling at 100 Hz).\n"
				     " no time accumulated\n\n  %   cumulative"));
	ck_assert_ptr_nonnull(strstr(out, "calls   s/call   s/call  name    \n"));
	ck_assert_ptr_nonnull(strstr(out, "\ngranularity: each sample, 10 ms, no time propagated\n\n"
				     "index"));
	ck_assert_ptr_nonnull(strstr(out, "\n[2]      0.0    0.00    0.00    9091         work"));
	free(out);
}
END_TEST


/* PROF's numbers as heap bytes (--metric=bytes), shown in plain bytes. */
static void use_bytes(void)
{
	prof.metric = PROF_BYTES;
	prof.scale = 1.0;
	prof.unit = "bytes";
}


/*
** --metric=bytes: the same layout, "seconds" become the unit, the per-call
** columns bytes per call, "% time" a bare "%" in the call graph; the blurbs
** start with a note on reading them.
*/
START_TEST(test_bytes)
{
	static const char *const flat_text[] = {
		"Flat profile:",
		"",
		"Each sample counts as 1 byte.",
		"  %   cumulative   self              self     total           ",
		" bytes    bytes     bytes    calls   B/call   B/call  name    ",
		" 88.54     85.00    85.00     9091     0.01     0.01  work",
		"  4.17     89.00     4.00        1     4.00    74.00  fib",
		NULL
	};
	static const char *const only_names[] = { "work", "fib" };
	struct report_options o = brief_options();
	char *out;

	use_bytes();
	o.graph = 0;
	o.flat_only = spec_of(only_names, 2);
	out = render(&o);
	check_lines(out, flat_text);
	free(out);
	symspec_free(&o.flat_only);

	o = brief_options();
	o.flat = 0;
	out = render(&o);
	ck_assert(starts_with(out, "\t\t\tCall graph\n\n\ngranularity: each sample hit covers "
			      "1 byte(s) for 1.04% of 96.00 bytes\n\n"
			      "index      %    self  children    called     name\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n               70.00    0.00    8361/9091        "
				     "fib [3]\n[2]     88.5   85.00    0.00    9091         "
				     "work [2]\n"));
	free(out);

	o.brief = 0;
	o.flat = 1;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "  b\n\n aprof: this profile charges heap bytes "
				     "allocated, not time.  In the\n explanation below read "
				     "\"time\" as that, \"seconds\" as bytes, and\n"));
	ck_assert_int_eq(count_char(out, '\f'), 4);
	free(out);

	prof.total = 0;
	o.brief = 1;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\nEach sample counts as 1 byte.\n"
				     " no bytes accumulated\n"));
	ck_assert_ptr_nonnull(strstr(out, "covers 1 byte(s) no bytes propagated\n"));
	free(out);
}
END_TEST


/*
** gprof2dot's GprofParser regexes (gprof2dot.py), as POSIX EREs: Python's
** \d, \s and \S spelled as classes, the named groups as plain ones.  POSIX
** matching is leftmost-longest, so "name" may swallow a cycle tag; whether
** the line matches is the same.
*/
#define D "[0-9]"
#define S "[[:space:]]"
#define NS "[^[:space:]]"
static const char re_primary[] =
	"^\\[(" D "+)\\]?" S "+(" D "+\\." D "+)" S "+(" D "+\\." D "+)" S "+(" D "+\\." D "+)"
	S "+((" D "+)(\\+(" D "+))?)?" S "+(" NS ".*)(" S "+<cycle" S "(" D "+)>)?"
	S "\\[(" D "+)\\]$";
static const char re_arc[] =
	"^" S "+(" D "+\\." D "+)?" S "+(" D "+\\." D "+)?" S "+(" D "+)(/(" D "+))?"
	S "+(" NS ".*)(" S "+<cycle" S "(" D "+)>)?" S "\\[(" D "+)\\]$";
static const char re_cycle_header[] =
	"^\\[(" D "+)\\]?" S "+(" D "+\\." D "+)" S "+(" D "+\\." D "+)" S "+(" D "+\\." D "+)"
	S "+((" D "+)(\\+(" D "+))?)?" S "+<cycle" S "(" D "+)" S "as" S "a" S "whole>"
	S "\\[(" D "+)\\]$";
static const char re_cycle_member[] =
	"^" S "+(" D "+\\." D "+)?" S "+(" D "+\\." D "+)?" S "+(" D "+)(\\+(" D "+))?"
	S "+(" NS ".*)(" S "+<cycle" S "(" D "+)>)?" S "\\[(" D "+)\\]$";
static const char re_header[] =
	"^index" S "+%" S "+(time" S "+)?self" S "+children" S "+called" S "+name" S "*$";
static const char re_spontaneous[] = "^" S "+<spontaneous>" S "*$";
static const char re_sep[] = "^--+$";
#undef D
#undef S
#undef NS


/* True if LINE matches the extended regular expression RE. */
static int matches(const char *re, const char *line)
{
	regex_t r;
	int rc;

	ck_assert_int_eq(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	rc = regexec(&r, line, 0, NULL, 0);
	regfree(&r);
	return rc == 0;
}


/*
** Every call-graph line has a shape gprof2dot's parser accepts: the header,
** then entries ending in dashes, a cycle entry starting with its header line
** followed by member lines, a routine entry with at least one line before a
** primary line, and the graph ended by a line that is exactly "\f".  Run
** for time and (_i = 1) for bytes.
*/
/*
** Decimals as the run needs: the 0.96 s fixture gets four significant
** digits (four decimals), every value column two characters wider, the
** headers' words moved with their columns; --decimals=3 forces three.
*/
START_TEST(test_decimals)
{
	struct report_options o = brief_options();
	char *out;

	o.decimals = 0;
	o.graph = 0;
	out = render(&o);
	ck_assert(starts_with(out, "Flat profile:\n\nEach sample counts as 10 ms of the thread's CPU time (sampling at 100 Hz).\n"
			      "  %     cumulative     self               self      total           \n"
			      " time     seconds     seconds    calls   us/call   us/call  name    \n"
			      " 88.54      0.8500     0.8500     9091     93.50     93.50  work\n"));
	free(out);

	o.graph = 1;
	o.flat = 0;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\ngranularity: each sample, 10 ms, is 1.04% of 0.9600 "
				     "seconds\n\n"
				     "index % time      self    children    called     name\n"
				     "                                                     <spontaneous>\n"
				     "[1]    100.0    0.0100    0.9500       1         main [1]\n"
				     "                0.0400    0.7000       1/1           fib [3]\n"));
	ck_assert_ptr_nonnull(strstr(out, "\n                                    8360             "
				     "fib [3]\n"));
	free(out);

	o.decimals = 3;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\n[1]    100.0    0.010    0.950       1         main [1]\n"));
	free(out);
}
END_TEST


/* Symbol specifications: NAME, FILE:NAME, patterns, C++ names with "::" and parameters. */
START_TEST(test_symspec)
{
	struct symspec s = { NULL, 0 };

	symspec_add(&s, "Parser::*");
	ck_assert_ptr_null(s.items[0].file);
	ck_assert_str_eq(s.items[0].name, "Parser::*");
	ck_assert(symspec_has(&s, "Parser::parse(int)", NULL));
	ck_assert(!symspec_has(&s, "Lexer::next()", NULL));
	symspec_add(&s, "src/*.c:init");
	ck_assert_str_eq(s.items[1].file, "src/*.c");
	ck_assert_str_eq(s.items[1].name, "init");
	ck_assert(symspec_has(&s, "init", "src/main.c"));
	ck_assert(!symspec_has(&s, "init", "lib/main.c"));
	ck_assert(!symspec_has(&s, "init", NULL));
	/* A relative FILE matches an absolute path's end, '*' within a directory there. */
	ck_assert(symspec_has(&s, "init", "/home/u/prog/src/main.c"));
	ck_assert(!symspec_has(&s, "init", "/home/u/prog/src/sub/main.c"));
	ck_assert(!symspec_has(&s, "init", "/home/u/prog/mysrc/main.c"));
	symspec_add(&s, "stack.cc:Stack::push");
	ck_assert_str_eq(s.items[2].file, "stack.cc");
	ck_assert(symspec_has(&s, "Stack::push(int)", "../src/stack.cc"));
	ck_assert(!symspec_has(&s, "Stack::pop()", "../src/stack.cc"));
	ck_assert(!symspec_has(NULL, "init", "src/main.c"));
	symspec_free(&s);
}
END_TEST


START_TEST(test_gprof2dot_shapes)
{
	struct report_options o = brief_options();
	char *out, *line, *save = NULL;
	int in_graph = 0, ended = 0, entry_lines = 0, cycle_entry = 0, primaries = 0;

	if (_i % 2 == 1)
		use_bytes();
	if (_i >= 2)
		o.decimals = 0; /* as the run needs: 4 (0.96 s) or 3 (96 bytes), columns widened */
	o.flat = 0;
	out = render(&o);
	for (line = strtok_r(out, "\n", &save); line != NULL && !ended;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!in_graph) {
			in_graph = matches(re_header, line);
			continue;
		}
		if (strcmp(line, "\f") == 0) {
			ck_assert_int_eq(entry_lines, 0);
			ended = 1;
		} else if (matches(re_sep, line)) {
			ck_assert_int_gt(entry_lines, 0);
			entry_lines = 0;
		} else if (entry_lines == 0 && line[0] == '[') {
			ck_assert_msg(matches(re_cycle_header, line), "cycle header: %s", line);
			cycle_entry = 1;
			entry_lines++;
		} else if (entry_lines == 0 || line[0] == '[') {
			cycle_entry = 0;
			if (line[0] == '[') {
				ck_assert_msg(matches(re_primary, line), "primary: %s", line);
				primaries++;
			} else {
				ck_assert_msg(matches(re_arc, line)
					      || matches(re_spontaneous, line), "parent: %s", line);
			}
			entry_lines++;
		} else if (cycle_entry) {
			ck_assert_msg(matches(re_cycle_member, line), "member: %s", line);
			entry_lines++;
		} else {
			ck_assert_msg(matches(re_arc, line), "arc: %s", line);
			entry_lines++;
		}
	}
	ck_assert(in_graph);
	ck_assert(ended);
	ck_assert_int_eq(primaries, 8);
	free(out);
}
END_TEST


/* Durations in the largest unit that keeps them at 1 or more, three digits. */
START_TEST(test_duration)
{
	static const struct {
		double seconds;
		const char *text;
	} cases[] = {
		{ 1e-3, "1 ms" }, { 1e-4, "100 us" }, { 1.0 / 2.6e9, "0.385 ns" },
		{ 2.0, "2 s" }, { 1e-9, "1 ns" }, { 0.0123, "12.3 ms" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		gprof_duration(buf, sizeof buf, cases[i].seconds);
		ck_assert_str_eq(buf, cases[i].text);
	}
}
END_TEST


/*
** The per-call unit follows the least per-call time, odd's 1 tick in 300
** calls, whatever the ticks are worth: _i 0 to 3, ticks of 1000 s (3.33
** s/call), 1 s, 10 us and 1 ns; every routine that took time shows it but
** under 1 ns, the smallest unit.
*/
START_TEST(test_per_call_units)
{
	static const double scale[] = { 1e-3, 1.0, 1e5, 1e9 };
	static const char *const header[] = {
		" time   seconds   seconds    calls   s/call   s/call  name    ",
		" time   seconds   seconds    calls  ms/call  ms/call  name    ",
		" time   seconds   seconds    calls   ns/call   ns/call  name    ",
		" time   seconds   seconds    calls  ns/call  ns/call  name    ",
	};
	static const char *const odd[] = {
		"     3.33    16.67  odd\n", "     3.33    16.67  odd\n", "     33.33    166.67  odd\n",
		"     0.00     0.02  odd\n",
	};
	struct report_options o = brief_options();
	char *out;

	o.graph = 0;
	prof.scale = scale[_i];
	out = render(&o);
	ck_assert_msg(strstr(out, header[_i]) != NULL, "no '%s' in %s", header[_i], out);
	ck_assert_msg(strstr(out, odd[_i]) != NULL, "no '%s' in %s", odd[_i], out);
	free(out);
}
END_TEST


/* The counters' ticks, read at every entry and exit: no sample, no share. */
START_TEST(test_counter_clock)
{
	struct report_options o = brief_options();
	char *out;

	prof.clock = AMON_CLOCK_TSC;
	prof.scale = 2.6e9;
	o.decimals = 9;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\nEach tick counts as 0.385 ns of wall-clock time (the "
				     "cycle counter, TSC at 2.6 GHz, read at every entry and exit; "
				     "nothing sampled).\n"));
	ck_assert_ptr_nonnull(strstr(out, "\ngranularity: each entry and exit timed, to 0.385 ns, "
				     "of 0.000000037 seconds\n"));
	ck_assert_ptr_null(strstr(out, "Each sample"));
	free(out);

	prof.clock = AMON_CLOCK_MONOTONIC;
	prof.scale = 1e9;
	out = render(&o);
	ck_assert_ptr_nonnull(strstr(out, "\nEach tick counts as 1 ns of wall-clock time "
				     "(CLOCK_MONOTONIC, read at every entry and exit; nothing "
				     "sampled).\n"));
	free(out);
}
END_TEST


/*
** --advise on a run built by hand, a TSC at 1 GHz (a tick is 1 ns) whose
** hooks cost 20 ns a call (5.2 ms of the 16.4 measured, contexts' and
** hooks'): tiny's 100,000 calls cost them 2 ms against its 0.5 ms of work;
** the C++ getter's, the comparison's (a comma in its name, which GCC's
** list cannot hold), the GCC clone's, the function template's and the
** anonymous namespace's cost more than their work too, each named in the
** list as GCC 12 matches it, and a static routine's two copies once;
** heavy (10 calls of 1 ms), run_tiny and main do not.  Each main -> X
** but for tiny, under run_tiny.
*/
enum { A_MAIN = 0x1001, A_RUN = 0x2003, A_TINY = 0x3005, A_HEAVY = 0x4007, A_GET = 0x5009,
       A_LESS = 0x6001, A_CLONE = 0x7001, A_TWICE = 0x7101, A_HID = 0x7201, A_VALID_A = 0x7301,
       A_VALID_B = 0x7401 };
static const uint64_t a_main[] = { A_MAIN | AMON_MARK };
static const uint64_t a_run[] = { A_MAIN | AMON_MARK, A_RUN | AMON_MARK };
static const uint64_t a_tiny[] = { A_MAIN | AMON_MARK, A_RUN | AMON_MARK, A_TINY | AMON_MARK };
static const uint64_t a_heavy[] = { A_MAIN | AMON_MARK, A_HEAVY | AMON_MARK };
static const uint64_t a_get[] = { A_MAIN | AMON_MARK, A_GET | AMON_MARK };
static const uint64_t a_less[] = { A_MAIN | AMON_MARK, A_LESS | AMON_MARK };
static const uint64_t a_clone[] = { A_MAIN | AMON_MARK, A_CLONE | AMON_MARK };
static const uint64_t a_twice[] = { A_MAIN | AMON_MARK, A_TWICE | AMON_MARK };
static const uint64_t a_hid[] = { A_MAIN | AMON_MARK, A_HID | AMON_MARK };
static const uint64_t a_valid_a[] = { A_MAIN | AMON_MARK, A_VALID_A | AMON_MARK };
static const uint64_t a_valid_b[] = { A_MAIN | AMON_MARK, A_VALID_B | AMON_MARK };

START_TEST(test_advise)
{
	static struct amon_context_info ctx[] = {
		{ .depth = 1, .calls = 1, .ticks = 1000, .history = a_main },
		{ .depth = 2, .calls = 1, .ticks = 200000, .history = a_run },
		{ .depth = 3, .calls = 100000, .ticks = 500000, .history = a_tiny },
		{ .depth = 2, .calls = 10, .ticks = 10000000, .history = a_heavy },
		{ .depth = 2, .calls = 50000, .ticks = 100000, .history = a_get },
		{ .depth = 2, .calls = 40000, .ticks = 100000, .history = a_less },
		{ .depth = 2, .calls = 30000, .ticks = 100000, .history = a_clone },
		{ .depth = 2, .calls = 20000, .ticks = 100000, .history = a_twice },
		{ .depth = 2, .calls = 10000, .ticks = 50000, .history = a_hid },
		{ .depth = 2, .calls = 5000, .ticks = 10000, .history = a_valid_a },
		{ .depth = 2, .calls = 5000, .ticks = 10000, .history = a_valid_b },
	};
	static struct symbol sy[] = {
		{ .addr = A_MAIN, .name = (char *)"main" },
		{ .addr = A_RUN, .name = (char *)"run_tiny" },
		{ .addr = A_TINY, .name = (char *)"tiny" },
		{ .addr = A_HEAVY, .name = (char *)"heavy" },
		{ .addr = A_GET, .name = (char *)"ns::Foo::get(int) const" },
		{ .addr = A_LESS, .name = (char *)"std::less<std::pair<int, int> >::operator()"
						  "(std::pair<int, int> const&) const" },
		{ .addr = A_CLONE, .name = (char *)"helper.constprop.0" },
		{ .addr = A_TWICE, .name = (char *)"int twice<int>(int)" },
		{ .addr = A_HID, .name = (char *)"(anonymous namespace)::hid(int)" },
		{ .addr = A_VALID_A, .name = (char *)"valid (a.c)", .bare = (char *)"valid" },
		{ .addr = A_VALID_B, .name = (char *)"valid (b.c)", .bare = (char *)"valid" },
	};
	struct amon_module_info module = { 0, 0x1000, 0x8000, NULL, 0, (char *)"x", 1 };
	struct symbols symbols = { sy, sizeof sy / sizeof sy[0], NULL, NULL };
	struct amon_thread_info thread;
	struct amon_data data;
	struct profile *p;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	memset(&thread, 0, sizeof thread);
	memset(&data, 0, sizeof data);
	thread.ncontexts = sizeof ctx / sizeof ctx[0];
	thread.contexts = ctx;
	thread.entry_cost = 15;
	thread.exit_cost = 5;
	data.header.clock = AMON_CLOCK_TSC;
	data.header.ticks_per_second = 1e9;
	data.header.total_ticks = 20000000;
	data.modules = &module;
	data.nmodules = 1;
	data.threads = &thread;
	data.nthreads = 1;
	p = profile_build(&data, &symbols, PROF_TIME);
	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	advise_print(f, &data, p, ADVISE_MIN_PERCENT, 4);
	ck_assert_int_eq(advise_note(f, &data), 1);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_msg(starts_with(out, "Instrumentation advice:\n\n"
			"  calls through the hooks  260012 (an entry and an exit hook each)\n"
			"  per second of the run    13000600 (of 0.0200 seconds)\n"
			"  the hooks' cost a call   20 ns (the cost model's, taken off every "
			"routine's time)\n"
			"  the hooks' cost in all   0.0052 seconds, 31.8% of the 0.0164 seconds "
			"measured\n\n"), "%s", out);
	ck_assert_msg(strstr(out, "\n     calls      hooks s       self s hooks/self    % run  name\n"
			"    100000       0.0020       0.0005        4.0    12.22  tiny\n"
			"     50000       0.0010       0.0001       10.0     6.11  ns::Foo::get(int) "
			"const\n"
			"     40000       0.0008       0.0001        8.0     4.89  std::less<") != NULL,
		      "%s", out);
	ck_assert_msg(strstr(out, "\n     30000       0.0006       0.0001        6.0     3.66  "
			     "helper.constprop.0\n"
			     "     20000       0.0004       0.0001        4.0     2.44  int twice<int>(int)\n"
			     "     10000       0.0002       0.0001        4.0     1.22  (anonymous "
			     "namespace)::hid(int)\n"
			     "      5000       0.0001       0.0000       10.0     0.61  valid (a.c)\n"
			     "      5000       0.0001       0.0000       10.0     0.61  valid (b.c)\n"
			     "\nTogether: 0.0052 seconds of hooks, 31.8% of the "
			     "run.") != NULL, "%s", out);
	ck_assert_msg(strstr(out, "\n  -finstrument-functions-exclude-function-list="
			     "tiny,ns::Foo::get,helper,twice<int>,{anonymous}::hid,valid\n"
			     "  note: 'tiny' also leaves out run_tiny (GCC matches any name that "
			     "holds it)\n"
			     "  not in the list, which cannot name them: std::less<") != NULL, "%s", out);
	ck_assert_ptr_null(strstr(out, "heavy"));
	ck_assert_msg(strstr(out, "\naprof: the hooks took 32% of the run (260012 calls, 20 ns "
			     "each): aprof --advise says which routines to leave uninstrumented\n")
		      != NULL, "%s", out);
	free(out);
	profile_free(p);
}
END_TEST


Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("gprof");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_brief);
	tcase_add_test(tc, test_blurbs);
	tcase_add_test(tc, test_flat_filters);
	tcase_add_test(tc, test_graph_filters);
	tcase_add_test(tc, test_spontaneous);
	tcase_add_test(tc, test_index_zero);
	tcase_add_test(tc, test_no_time);
	tcase_add_test(tc, test_bytes);
	tcase_add_loop_test(tc, test_gprof2dot_shapes, 0, 4);
	tcase_add_test(tc, test_decimals);
	tcase_add_test(tc, test_symspec);
	tcase_add_test(tc, test_duration);
	tcase_add_loop_test(tc, test_per_call_units, 0, 4);
	tcase_add_test(tc, test_counter_clock);
	tcase_add_test(tc, test_advise);
	suite_add_tcase(s, tc);
	return s;
}
