/*
** check_export.c -- each export on a hand-built profile: the contexts of
** Spivey's Main -> P -> Q -> R -> P -> S, ticks in powers of two at 1000 a
** second (one tick is 1 ms), and 128 ticks in the root (charged to no
** routine).  Exact where the format is: folded stacks, callgrind and pprof
** in ns, JSON's values in ticks, dot's shares and arc labels.
*/
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aprof/read/amon_read.h"
#include "aprof/model/profile.h"
#include "aprof/export/callgrind.h"
#include "aprof/export/dot.h"
#include "aprof/export/folded.h"
#include "aprof/export/json.h"
#include "aprof/export/pprof.h"
#include "aprof/export/profile.pb-c.h"
#include "tests/check_aprof.h"

#include "tests/check_spivey.h"
/* The root, then one context per history above. */
static struct amon_context_info cs[] = {
	{ .depth = 0, .ticks = 128, .history = NULL },
	{ .depth = 1, .calls = 1, .ticks = 1, .history = h0 },
	{ .depth = 2, .calls = 1, .ticks = 2, .history = h1 },
	{ .depth = 3, .calls = 1, .ticks = 4, .history = h2 },
	{ .depth = 4, .calls = 1, .ticks = 8, .history = h3 },
	{ .depth = 5, .calls = 1, .ticks = 16, .history = h4 },
	{ .depth = 6, .calls = 1, .ticks = 32, .history = h5 },
};
static struct symbol syms[] = {
	{ .addr = MAIN, .name = (char *)"Main" }, { .addr = P, .name = (char *)"P" },
	{ .addr = Q, .name = (char *)"Q" }, { .addr = R, .name = (char *)"R" },
	{ .addr = S, .name = (char *)"S" },
};
static struct symbols symbols = { syms, 5, NULL, NULL };
static struct amon_module_info module = { 0, 0x1000, 0x6000, NULL, 0, (char *)"x", 1 };
static struct amon_thread_info thread;
static struct amon_data data;
static struct profile *prof;
static char *text;
static size_t size;
static FILE *out;

static void setup(void)
{
	thread.ncontexts = sizeof cs / sizeof cs[0];
	thread.contexts = cs;
	data.path = "amon.out";
	data.header.ticks_per_second = 1000;
	data.modules = &module;
	data.nmodules = 1;
	data.threads = &thread;
	data.nthreads = 1;
	prof = profile_build(&data, &symbols, PROF_TIME);
	text = NULL;
	out = open_memstream(&text, &size);
}

static void teardown(void)
{
	profile_free(prof);
	free(text);
}

/* The lines of TEXT that contain WHAT. */
static int lines_with(const char *what)
{
	const char *s;
	int n = 0;

	for (s = text; (s = strstr(s, what)) != NULL; s += strlen(what))
		n++;
	return n;
}


/* One line per context path, self time in ns, the root left out: 63 ms in all. */
START_TEST(test_folded)
{
	folded_write(out, &data, prof);
	fclose(out);
	ck_assert_str_eq(text, "Main 1000000\n"
			       "Main;P 2000000\n"
			       "Main;P;Q 4000000\n"
			       "Main;P;Q;R 8000000\n"
			       "Main;P;Q;R;P 16000000\n"
			       "Main;P;Q;R;P;S 32000000\n");
}
END_TEST


/*
** One fn= block per routine with its self cost, and per outgoing arc the
** calls and the inclusive cost self1 + child1; the self costs add up to the
** summary and the totals.
*/
START_TEST(test_callgrind)
{
	callgrind_write(out, "x", &data, &prof, 1);
	fclose(out);
	ck_assert_str_eq(text, "# callgrind format\n"
			       "version: 1\n"
			       "creator: aprof " PACKAGE_VERSION "\n"
			       "cmd: x\n"
			       "positions: line\n"
			       "event: ns : Time (ns)\n"
			       "events: ns\n"
			       "summary: 63000000\n"
			       "\n"
			       "ob=(1) x\nfl=(1) ???\nfn=(1) Main\n0 1000000\n"
			       "cfn=(2) P\ncalls=1 0\n0 62000000\n"
			       "\n"
			       "ob=(1)\nfl=(1)\nfn=(2)\n0 18000000\n"
			       "cfn=(3) S\ncalls=1 0\n0 32000000\n"
			       "cfn=(4) Q\ncalls=1 0\n0 12000000\n"
			       "\n"
			       "ob=(1)\nfl=(1)\nfn=(4)\n0 4000000\n"
			       "cfn=(5) R\ncalls=1 0\n0 56000000\n"
			       "\n"
			       "ob=(1)\nfl=(1)\nfn=(5)\n0 8000000\n"
			       "cfn=(2)\ncalls=1 0\n0 48000000\n"
			       "\n"
			       "ob=(1)\nfl=(1)\nfn=(3)\n0 32000000\n"
			       "\n"
			       "totals: 63000000\n");
}
END_TEST


/*
** A box per routine (total share, self share, calls), an edge per arc
** between routines with its value and share, gprof's cycle 1 (P, Q, R) as
** a dashed cluster.
*/
START_TEST(test_dot)
{
	dot_write(out, prof, 0, NULL, 0);
	fclose(out);
	ck_assert_msg(strncmp(text, "digraph {\n", 10) == 0, "not a digraph:\n%s", text);
	ck_assert_int_eq(lines_with(" -> "), 5);
	ck_assert_int_eq(lines_with("label=\"Main\\n100.00%\\n(1.59%)\\n1×\""), 1);
	ck_assert_int_eq(lines_with("label=\"P\\n98.41%\\n(28.57%)\\n2×\""), 1);
	ck_assert_int_eq(lines_with("label=\"S\\n50.79%\\n(50.79%)\\n1×\""), 1);
	ck_assert_int_eq(lines_with("\tn0 -> n1 [arrowsize=\"0.99\", color=\"#fd1000\", "
				    "fontcolor=\"#fd1000\", fontsize=\"10.00\", "
				    "label=\"0.062 seconds\\n98.41%\\n1×\", labeldistance=\"3.94\", "
				    "penwidth=\"3.94\"];\n"), 1);
	ck_assert_int_eq(lines_with("\tn3 -> n1 [arrowsize=\"0.87\", color=\"#dbd105\", "
				    "fontcolor=\"#dbd105\", fontsize=\"10.00\", "
				    "label=\"0.048 seconds\\n76.19%\\n1×\", labeldistance=\"3.05\", "
				    "penwidth=\"3.05\"];\n"), 1);
	ck_assert_int_eq(lines_with("subgraph cluster_cycle1 {\n\t\tlabel=\"<cycle 1>\"; style=dashed;\n"
				    "\t\tn1;\n\t\tn2;\n\t\tn3;\n\t}\n"), 1);
	ck_assert_msg(strcmp(text + strlen(text) - 2, "}\n") == 0, "unterminated:\n%s", text);
}
END_TEST


/*
** --threshold=90 keeps the boxes of Main, P and Q (totals of 100%, 98.41%
** and 95.24%) but of the arcs only Main -> P (98.41%; P -> Q is 19.05%,
** Q -> R 88.89%): Q, cut loose, is dropped, and Main and P are left.
*/
START_TEST(test_dot_orphans)
{
	dot_write(out, prof, 90, NULL, 0);
	fclose(out);
	ck_assert_int_eq(lines_with(" -> "), 1);
	ck_assert_int_eq(lines_with("\tn0 -> n1 "), 1);
	ck_assert_int_eq(lines_with("fontcolor=\"#ffffff\""), 2); /* the boxes */
	ck_assert_msg(strstr(text, "label=\"Q") == NULL, "an orphan drawn:\n%s", text);
}
END_TEST


/* --threshold=99 leaves Main alone, without an arc: a graph of one box, not none. */
START_TEST(test_dot_one_box)
{
	dot_write(out, prof, 99, NULL, 0);
	fclose(out);
	ck_assert_int_eq(lines_with(" -> "), 0);
	ck_assert_int_eq(lines_with("label=\"Main\\n100.00%"), 1);
}
END_TEST


/*
** The totals (routines 63 ticks, root 128), every routine with its exact
** self, child and calls, every arc's four values, and cycle 1.
*/
START_TEST(test_json)
{
	json_write(out, "x", &data, prof, NULL);
	fclose(out);
	ck_assert_int_eq(lines_with("\"totals\":{\"value\":63,\"root\":128,\"ticks\":191,"), 1);
	ck_assert_int_eq(lines_with("{\"id\":"), 5);
	ck_assert_int_eq(lines_with("\"name\":\"P\",\"module\":\"x\",\"file\":null,\"unit\":null,"
				    "\"base_name\":\"P\",\"address\":8195,"
				    "\"self\":18,\"child\":44,\"total\":62,\"calls\":2,\"recursive\":0,"
				    "\"cycle\":1}"), 1);
	ck_assert_int_eq(lines_with("{\"caller\":"), 6);
	ck_assert_int_eq(lines_with("{\"caller\":null,\"callee\":0,\"calls\":1,\"self1\":0,\"child1\":0,"
				    "\"self2\":1,\"child2\":62}"), 1);
	ck_assert_int_eq(lines_with("{\"caller\":0,\"callee\":1,\"calls\":1,\"self1\":18,\"child1\":44,"
				    "\"self2\":2,\"child2\":12}"), 1);
	ck_assert_int_eq(lines_with("{\"thread\":0,\"history\":"), 7);
	ck_assert_int_eq(lines_with("\"cycles\":[\n {\"number\":1,\"members\":[1,2,3],\"self\":30,"
				    "\"child\":32,\"calls\":1,\"internal\":3}]\n}\n"), 1);
}
END_TEST


/* TEXT (SIZE bytes, gzip) inflated into a malloc'd buffer of *N bytes. */
static unsigned char *gunzip(const char *gz, size_t gz_size, size_t *n)
{
	size_t cap = 1 << 16;
	unsigned char *buf = malloc(cap);
	z_stream z;

	memset(&z, 0, sizeof z);
	ck_assert_int_eq(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)gz_size;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	ck_assert_int_eq(inflate(&z, Z_FINISH), Z_STREAM_END);
	*n = z.total_out;
	inflateEnd(&z);
	return buf;
}

/* The name of the routine at location ID of PB. */
static const char *location_name(const Perftools__Profiles__Profile *pb, uint64_t id)
{
	size_t i, j;

	for (i = 0; i < pb->n_location; i++) {
		if (pb->location[i]->id != id)
			continue;
		for (j = 0; j < pb->n_function; j++)
			if (pb->function[j]->id == pb->location[i]->line[0]->function_id)
				return pb->string_table[pb->function[j]->name];
	}
	return NULL;
}


/*
** A sample per context with a routine active (the root left out), its
** locations leaf first; its calls and its time in ns, which add up to the
** routines' 63 ms exactly; a function per routine.
*/
START_TEST(test_pprof)
{
	struct pprof_part part = { &data, prof, prof, NULL, 0 };
	struct pprof_options o = { PROF_TIME, 0, 0, 0 };
	Perftools__Profiles__Profile *pb;
	unsigned char *raw;
	size_t n, i;
	int64_t time = 0, calls = 0;
	int t = -1, deepest = 0;

	pprof_write(out, &part, 1, &o);
	fclose(out);
	raw = gunzip(text, size, &n);
	pb = perftools__profiles__profile__unpack(NULL, n, raw);
	ck_assert_ptr_nonnull(pb);
	for (i = 0; i < pb->n_sample_type; i++)
		if (strcmp(pb->string_table[pb->sample_type[i]->unit], "nanoseconds") == 0)
			t = (int)i;
	ck_assert_int_ge(t, 0);
	ck_assert_str_eq(pb->string_table[pb->sample_type[0]->type], "calls");
	ck_assert_uint_eq(pb->n_function, 5);
	ck_assert_uint_eq(pb->n_sample, 6);
	for (i = 0; i < pb->n_sample; i++) {
		const Perftools__Profiles__Sample *s = pb->sample[i];

		calls += s->value[0];
		time += s->value[t];
		if (s->n_location_id == 6) {
			deepest++;
			ck_assert_int_eq(s->value[t], 32000000);
			ck_assert_str_eq(location_name(pb, s->location_id[0]), "S");
			ck_assert_str_eq(location_name(pb, s->location_id[5]), "Main");
		}
	}
	ck_assert_int_eq(deepest, 1);
	ck_assert_int_eq(calls, 6);
	ck_assert_int_eq(time, 63000000);
	perftools__profiles__profile__free_unpacked(pb, NULL);
	free(raw);
}
END_TEST


Suite *suite_export(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("formats");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_folded);
	tcase_add_test(tc, test_callgrind);
	tcase_add_test(tc, test_dot_orphans);
	tcase_add_test(tc, test_dot_one_box);
	tcase_add_test(tc, test_dot);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_pprof);
	suite_add_tcase(s, tc);
	return s;
}
