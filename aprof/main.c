/*
** main.c -- aprof: read amon.out and print gprof-format reports whose times
** are exact per context (J. M. Spivey, "Fast, accurate call graph
** profiling").  The pipeline, one stage per module, as gprof's main:
** options -> amon_read (several files: sum_profiles) -> symbols_load ->
** select_contexts -> profile_build -> reports or an export.  Every stage
** after the selection reads its filtered contexts.
*/
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aprof/amon_read.h"
#include "aprof/amon_write.h"
#include "aprof/callgrind.h"
#include "aprof/contexts.h"
#include "aprof/costs.h"
#include "aprof/diff.h"
#include "aprof/dot.h"
#include "aprof/folded.h"
#include "aprof/html.h"
#include "aprof/json.h"
#include "aprof/mprof.h"
#include "aprof/pprof.h"
#include "aprof/profile.h"
#include "aprof/report.h"
#include "aprof/select.h"
#include "aprof/stats.h"
#include "aprof/sum.h"
#include "aprof/symbols.h"
#include "aprof/threads.h"
#include "aprof/traversals.h"
#include "aprof/typeinfo.h"
#include "aprof/types.h"
#include "aprof/util.h"

/* What is written (--format): gprof's reports or an export. */
enum format { FORMAT_GPROF, FORMAT_CALLGRIND, FORMAT_FOLDED, FORMAT_DOT, FORMAT_JSON, FORMAT_PPROF,
	      FORMAT_HTML };

/* Everything the command line says. */
struct options {
	struct report_options report;
	struct selection select;  /* -F, -E, --elide */
	int contexts;            /* -S: list the contexts */
	int threads;             /* --threads: per-thread breakdown */
	int stats;               /* --stats: Table I of the paper */
	int cycles;              /* --cycles: the cycles of recursion that were traversed */
	enum prof_metric metric; /* --metric */
	int heap;                /* --heap: mprof's tables */
	int types;               /* --types: allocated types */
	struct mprof_options mprof; /* --heap-verbosity, --no-leaks */
	int demangle;            /* --[no-]demangle */
	enum format format;      /* --format */
	const char *output;      /* -o: the output file (NULL: standard output; -s: amon.sum;
				    pprof: aprof.pb.gz) */
	int sum;                 /* -s: write the profiles' sum */
	const char *diff;        /* --diff=OLD: the old profile */
	const char *diff_exe;    /* --diff-executable: OLD's program (default: exe) */
	const char *exe;         /* default a.out, as gprof; NULL for -s without one */
	const char **amon;       /* the profiles, summed; default amon.out */
	int namon;
};

enum {
	OPT_DEMANGLE = 256, OPT_NO_DEMANGLE, OPT_HELP, OPT_METRIC, OPT_HEAP, OPT_HEAP_VERBOSITY,
	OPT_NO_LEAKS, OPT_THREADS, OPT_STATS, OPT_ELIDE,
	OPT_DECIMALS, OPT_FORMAT, OPT_DIFF, OPT_DIFF_EXE, OPT_THRESHOLD, OPT_CYCLES,
	OPT_TYPES,
};

/* The number of names in the table T. */
#define NAMES(t) (sizeof (t) / sizeof (t)[0])

/* --metric names, in enum prof_metric order. */
static const char *const metric_names[] = { "time", "bytes", "allocs", "kept", "peak" };

/* --format names, in enum format order. */
static const char *const format_names[] = { "gprof", "callgrind", "folded", "dot", "json", "pprof",
					    "html" };

/* --heap-verbosity names, in enum mprof_verbosity order. */
static const char *const verbosity_names[] = { "normal", "verbose", "terse" };

/* In --help's groups, which are gprof's manual's: output, analysis, miscellaneous. */
static const struct option long_options[] = {
	/* output options: what is printed, and how */
	{ "flat-profile", optional_argument, NULL, 'p' },
	{ "no-flat-profile", optional_argument, NULL, 'P' },
	{ "graph", optional_argument, NULL, 'q' },
	{ "no-graph", optional_argument, NULL, 'Q' },
	{ "contexts", no_argument, NULL, 'S' },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "cycles", no_argument, NULL, OPT_CYCLES },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "heap", no_argument, NULL, OPT_HEAP },
	{ "types", no_argument, NULL, OPT_TYPES },
	{ "brief", no_argument, NULL, 'b' },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "decimals", required_argument, NULL, OPT_DECIMALS },
	{ "heap-verbosity", required_argument, NULL, OPT_HEAP_VERBOSITY },
	{ "no-leaks", no_argument, NULL, OPT_NO_LEAKS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output", required_argument, NULL, 'o' },
	/* analysis options: which contexts (the selection stage), which entries, what is charged */
	{ "focus", required_argument, NULL, 'F' },
	{ "exclude", required_argument, NULL, 'E' },
	{ "elide", required_argument, NULL, OPT_ELIDE },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "display-unused-functions", no_argument, NULL, 'z' },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "diff", required_argument, NULL, OPT_DIFF },
	{ "diff-executable", required_argument, NULL, OPT_DIFF_EXE },
	/* miscellaneous options */
	{ "sum", no_argument, NULL, 's' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};


static void usage(FILE *out, int status) __attribute__((noreturn));

static void usage(FILE *out, int status)
{
	fprintf(out,
		"Usage: aprof [options] [executable [amon.out...]]\n"
		"       aprof -s [executable] amon.out...\n"
		"Print a call-graph profile from amon.out, written by a program built with\n"
		"gcc -finstrument-functions and linked with -laprof.  Defaults: a.out, amon.out.\n"
		"Several amon.out files (of one executable) are reported as their sum.\n"
		"\n"
		"Output options (what is printed, and how):\n"
		"  -p[NAME], --flat-profile[=NAME]     print the flat profile (of NAME only)\n"
		"  -P[NAME], --no-flat-profile[=NAME]  no flat profile (leave NAME out of it)\n"
		"  -q[NAME], --graph[=NAME]            print the call graph (NAME's entry only)\n"
		"  -Q[NAME], --no-graph[=NAME]         no call graph (leave NAME's entry out)\n"
		"  -S, --contexts                      list the contexts: histories, calls, seconds\n"
		"      --threads                       each thread: id, name, totals, flat profile\n"
		"      --cycles                        the cycles of recursion that were traversed:\n"
		"                                      members in call order, traversals, time,\n"
		"                                      bytes, the callers that entered them\n"
		"      --stats                         the profile's size: routines, calls, contexts,\n"
		"                                      transitions, history lengths, memory\n"
		"      --heap                          print mprof's four tables (bins, leaks,\n"
		"                                      direct allocation, allocation call graph);\n"
		"                                      the bins' types column from DWARF (-g)\n"
		"      --types                         allocated types (C++ from allocators and\n"
		"                                      constructors): bytes, allocations, kept,\n"
		"                                      at peak, average size, top paths\n"
		"  -b, --brief                         leave out the explanations\n"
		"      --[no-]demangle                 (do not) demangle C++ names\n"
		"      --decimals=N                    N decimals (1-9) in the value columns;\n"
		"                                      default: 4 significant digits of the\n"
		"                                      total, at least 2 (2: gprof's layout)\n"
		"      --heap-verbosity=V              --heap's bins and leaks: normal (default),\n"
		"                                      verbose or terse, as mprof's\n"
		"      --no-leaks                      --heap without the leak table\n"
		"      --format=F                      write F instead of the reports: gprof\n"
		"                                      (default), callgrind (KCachegrind,\n"
		"                                      callgrind_annotate), folded (flamegraph.pl),\n"
		"                                      dot (Graphviz), json (doc/aprof-json.md)\n"
		"                                      pprof (go tool pprof, Pyroscope, Parca;\n"
		"                                      to aprof.pb.gz unless -o FILE) or html\n"
		"                                      (one page to explore in a browser)\n"
		"  -o FILE, --output=FILE              write to FILE, not standard output\n"
		"\n"
		"Analysis options (what the reports are made of).  SYMSPEC: NAME, FILE:NAME,\n"
		"or shell patterns such as 'Parser::*' or 'src/*.c:init'; each may be repeated.\n"
		"  -F, --focus=SYMSPEC                 only contexts in which SYMSPEC is active\n"
		"  -E, --exclude=SYMSPEC               no context in which SYMSPEC is active\n"
		"      --elide=SYMSPEC                 take SYMSPEC out of every history: its\n"
		"                                      self time and bytes go to its caller\n"
		"  -f SYMSPEC                          print only SYMSPEC and its descendants\n"
		"                                      (totals unchanged)\n"
		"  -e SYMSPEC                          print neither SYMSPEC nor what only it\n"
		"                                      calls (totals unchanged)\n"
		"      --threshold=PERCENT             no entry or arc under PERCENT of the total\n"
		"  -z, --display-unused-functions      also list routines never called\n"
		"      --metric=M                      what the reports charge: time (default),\n"
		"                                      bytes, allocs, kept (bytes never freed),\n"
		"                                      peak (bytes live at the peak)\n"
		"      --diff=OLD                      what changed from profile OLD: per routine\n"
		"                                      and per arc, new minus old; with\n"
		"                                      --format=folded, flamegraph.pl's two columns;\n"
		"                                      with pprof, OLD's samples negated (pprof::base);\n"
		"                                      with html, frames coloured by the change\n"
		"      --diff-executable=EXE           OLD's program, if rebuilt since\n"
		"\n"
		"Miscellaneous options:\n"
		"  -s, --sum                           write the sum of the amon.out files to\n"
		"                                      amon.sum (or -o FILE), itself an amon.out\n"
		"      --help                          print this help and exit\n"
		"  -v, --version                       print the version and exit\n"
		"\n"
		"-p, -q, -S, --heap, --types, --threads, --cycles and --stats choose what is\n"
		"printed; without any, the flat profile and the call graph are.  NAME options\n"
		"take SYMSPECs too and may be repeated.\n"
		"See aprof(1).\n");
	exit(status);
}


/*
** --version in the GNU form (GNU Coding Standards, "--version"): name and
** version, copyright, licence.  GPLv3+ because aprof links GNU libbfd,
** which is GPLv3+.
*/
static void version(void) __attribute__((noreturn));

static void version(void)
{
	printf("%s %s\n"
	       "Copyright (C) 2026 the aprof authors.\n"
	       "License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n"
	       "This is free software: you are free to change and redistribute it.\n"
	       "There is NO WARRANTY, to the extent permitted by law.\n",
	       PACKAGE_NAME, PACKAGE_VERSION);
	exit(0);
}


/* --threshold=PERCENT: 0 to 100. */
static double parse_percent(const char *text)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || (*end != '\0' && strcmp(end, "%") != 0) || !(v >= 0.0 && v <= 100.0))
		util_die("--threshold wants a percentage from 0 to 100, not '%s'", text);
	return v;
}


/* --decimals=N: 1 to 9. */
static int parse_decimals(const char *text)
{
	char *end;
	long n = strtol(text, &end, 10);

	if (end == text || *end != '\0' || n < 1 || n > 9)
		util_die("--decimals wants a number from 1 to 9, not '%s'", text);
	return (int)n;
}


/*
** The index of NAME, an option's argument, among the N NAMES; dies with
** "unknown WHAT 'NAME' (the names)" if it is none of them.
*/
static int parse_name(const char *name, const char *const *names, size_t n, const char *what)
{
	char list[160] = "";
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(name, names[i]) == 0)
			return (int)i;
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", names[i],
			 i + 2 < n ? ", " : i + 1 < n ? " or " : "");
	}
	util_die("unknown %s '%s' (%s)", what, name, list);
}


static void parse_options(int argc, char **argv, struct options *o)
{
	int c, chosen = 0, no_flat = 0, no_graph = 0;

	memset(o, 0, sizeof *o);
	o->demangle = 1;
	opterr = 0; /* our own one-line message below */
	while ((c = getopt_long(argc, argv, ":p::P::q::Q::SbzvF:E:o:sf:e:", long_options, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->report.flat = chosen = 1;
			if (optarg)
				symspec_add(&o->report.flat_only, optarg);
			break;
		case 'P':
			if (optarg)
				symspec_add(&o->report.flat_exclude, optarg);
			else
				no_flat = 1;
			break;
		case 'q':
			o->report.graph = chosen = 1;
			if (optarg)
				symspec_add(&o->report.graph_only, optarg);
			break;
		case 'Q':
			if (optarg)
				symspec_add(&o->report.graph_exclude, optarg);
			else
				no_graph = 1;
			break;
		case 'S':
			o->contexts = chosen = 1;
			break;
		case 'F':
			symspec_add(&o->select.focus, optarg);
			break;
		case 'E':
			symspec_add(&o->select.exclude, optarg);
			break;
		case OPT_ELIDE:
			symspec_add(&o->select.elide, optarg);
			break;
		case 'f':
			symspec_add(&o->report.print_only, optarg);
			break;
		case 'e':
			symspec_add(&o->report.print_exclude, optarg);
			break;
		case OPT_THRESHOLD:
			o->report.threshold = parse_percent(optarg);
			break;
		case OPT_CYCLES:
			o->cycles = chosen = 1;
			break;
		case OPT_THREADS:
			o->threads = chosen = 1;
			break;
		case OPT_STATS:
			o->stats = chosen = 1;
			break;
		case 'b':
			o->report.brief = 1;
			break;
		case 'z':
			o->report.zero = 1;
			break;
		case OPT_DEMANGLE:
			o->demangle = 1;
			break;
		case OPT_NO_DEMANGLE:
			o->demangle = 0;
			break;
		case OPT_METRIC:
			o->metric = (enum prof_metric)parse_name(optarg, metric_names,
								   NAMES(metric_names), "metric");
			break;
		case OPT_DECIMALS:
			o->report.decimals = parse_decimals(optarg);
			break;
		case OPT_HEAP:
			o->heap = chosen = 1;
			break;
		case OPT_TYPES:
			o->types = chosen = 1;
			break;
		case OPT_HEAP_VERBOSITY:
			o->mprof.verbosity = (enum mprof_verbosity)parse_name(
				optarg, verbosity_names, NAMES(verbosity_names), "heap verbosity");
			break;
		case OPT_NO_LEAKS:
			o->mprof.no_leaks = 1;
			break;
		case OPT_FORMAT:
			o->format = (enum format)parse_name(optarg, format_names, NAMES(format_names),
							    "format");
			break;
		case 'o':
			o->output = optarg;
			break;
		case 's':
			o->sum = 1;
			break;
		case OPT_DIFF:
			o->diff = optarg;
			break;
		case OPT_DIFF_EXE:
			o->diff_exe = optarg;
			break;
		case OPT_HELP:
			usage(stdout, 0);
		case 'v':
			version();
		case ':':
			util_die("option '%s' needs an argument (try --help)", argv[optind - 1]);
		default:
			if (optopt != 0 && optopt < 256)
				util_die("unknown option '-%c' (try --help)", optopt);
			util_die("unknown option '%s' (try --help)", argv[optind - 1]);
		}
	}
	if (!chosen)
		o->report.flat = o->report.graph = 1;
	if (no_flat)
		o->report.flat = 0;
	if (no_graph)
		o->report.graph = 0;
	/* -s's executable is optional: a first argument that is a profile is not one. */
	o->exe = o->sum && (optind == argc || amon_is_profile(argv[optind])) ? NULL
		 : optind < argc ? argv[optind++] : "a.out";
	o->amon = (const char **)argv + optind;
	o->namon = argc - optind;
	if (o->namon == 0) {
		static const char *default_amon[] = { "amon.out" };

		o->amon = default_amon;
		o->namon = 1;
	}
	if (o->diff != NULL && o->format != FORMAT_GPROF && o->format != FORMAT_FOLDED &&
	    o->format != FORMAT_PPROF && o->format != FORMAT_HTML)
		util_die("--diff writes the gprof, the folded or the pprof format, or the html page, not %s",
			 format_names[o->format]);
}


/* Starts a section on a new page ("\f") unless it is the first printed. */
static void new_page(FILE *out, const struct options *o)
{
	static int printed;

	if (printed++ > 0 || o->report.flat || o->report.graph)
		fputs("\f\n", out);
}


/* The symspecs of O's options, in SPECS[SYMSPECS]. */
enum { SYMSPECS = 9 };
static void symspecs_of(struct options *o, struct symspec *specs[SYMSPECS])
{
	struct symspec *all[SYMSPECS] = {
		&o->select.focus, &o->select.exclude, &o->select.elide, &o->report.flat_only,
		&o->report.flat_exclude, &o->report.graph_only, &o->report.graph_exclude,
		&o->report.print_only, &o->report.print_exclude,
	};

	memcpy(specs, all, sizeof all);
}


/* Dies with one line if a symspec of O names no routine of SYMS. */
static void check_symspecs(struct options *o, const struct symbols *syms)
{
	struct symspec *all[SYMSPECS];
	size_t i;

	symspecs_of(o, all);
	for (i = 0; i < SYMSPECS; i++)
		symspec_check(all[i], syms);
}


/* Frees what parse_options took for O's symspecs. */
static void free_symspecs(struct options *o)
{
	struct symspec *all[SYMSPECS];
	size_t i;

	symspecs_of(o, all);
	for (i = 0; i < SYMSPECS; i++)
		symspec_free(all[i]);
}


/* The profile of the N files PATHS: the one read, or their sum. */
/* The reader, then the hooks' cost model: the ticks every later stage charges. */
static struct amon_data *read_profile(const char *path)
{
	struct amon_data *d = amon_read(path);

	costs_apply(d);
	return d;
}


static struct amon_data *read_profiles(const char *const *paths, int n)
{
	struct amon_data **d = xmalloc((size_t)n * sizeof d[0]), *s;
	int k;

	for (k = 0; k < n; k++)
		d[k] = read_profile(paths[k]);
	if (n == 1) {
		s = d[0];
	} else {
		s = sum_profiles(d, n);
		for (k = 0; k < n; k++)
			amon_free(d[k]);
	}
	free(d);
	return s;
}


/*
** --format=callgrind: the --metric's profile P first, then time and, when D
** has heap data, the heap metrics (bytes, allocs, kept), each once.
*/
static void write_callgrind(FILE *out, const struct options *o, const struct amon_data *d,
			    const struct symbols *syms, struct profile *p)
{
	static const enum prof_metric events[] = { PROF_TIME, PROF_BYTES, PROF_ALLOCS, PROF_KEPT };
	struct profile *ps[1 + sizeof events / sizeof events[0]];
	size_t e, n = (d->heap.flags & AMON_HEAP_ON) ? sizeof events / sizeof events[0] : 1;
	int np = 0;

	ps[np++] = p;
	for (e = 0; e < n; e++)
		if (events[e] != p->metric)
			ps[np++] = profile_build(d, syms, events[e]);
	callgrind_write(out, o->exe, d, ps, np);
	while (np > 1)
		profile_free(ps[--np]);
}


/* --format=dot: with --cycles, the cycles traversed drawn on the graph. */
static void write_dot(FILE *out, const struct options *o, const struct amon_data *d,
		      const struct symbols *syms, const struct profile *p)
{
	int n = 0;
	struct traversal *t = o->cycles ? traversals_find(d, syms, &n) : NULL;

	dot_write(out, p, o->report.threshold, t, n);
	if (t != NULL)
		traversals_free(t, n);
}


/*
** --format=json or html, with the allocated types when D has heap data;
** html with --diff: OLD_D's profile OLD_P too (else both NULL).
*/
static void write_json(FILE *out, const struct options *o, const struct amon_data *d,
		       const struct symbols *syms, const struct profile *p,
		       const struct amon_data *old_d, const struct profile *old_p)
{
	struct typeinfo *ti = NULL;
	struct types_table *t = NULL;

	if (d->heap.flags & AMON_HEAP_ON) {
		ti = typeinfo_load(d, o->exe);
		t = types_build(d, syms, ti, -1);
	}
	if (o->format == FORMAT_HTML)
		html_write(out, o->exe, d, p, t, profile_decimals(p, o->report.decimals), old_d, old_p);
	else
		json_write(out, o->exe, d, p, t);
	types_free(t);
	typeinfo_free(ti);
}


/* A part of the pprof export: D's contexts, P their profile in --metric, TI their types. */
static struct pprof_part pprof_part(const struct amon_data *d, const struct profile *p,
				    const struct typeinfo *ti, int base)
{
	struct pprof_part x = { d, p, p, ti, base };

	if (p->metric != PROF_TIME)
		x.time = profile_build(d, p->syms, PROF_TIME);
	return x;
}


/*
** --format=pprof: D's profile P and, with --diff, OLD_D's OLD_P as the
** base.  Without --diff, several amon.out files are read again one by one
** through the same selection, a part each with its own process id, which
** pprof adds up as aprof sums them.  The run started when the first
** amon.out was written less its duration (amon.out records no start).
*/
static void write_pprof(FILE *out, const struct options *o, const struct amon_data *d,
			const struct profile *p, const struct amon_data *old_d,
			const struct profile *old_p)
{
	int n = old_d != NULL ? 2 : o->namon, k;
	struct pprof_part *parts = xmalloc((size_t)n * sizeof parts[0]);
	struct typeinfo *ti = (d->heap.flags & AMON_HEAP_ON) ? typeinfo_load(d, o->exe) : NULL;
	struct typeinfo *old_ti = NULL;
	struct pprof_options po = { o->metric, o->report.threshold, o->cycles, 0 };
	struct stat st;

	if (stat(o->amon[0], &st) == 0 && d->header.ticks_per_second > 0)
		po.time_nanos = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec -
				(int64_t)((long double)d->header.total_ticks * 1e9L /
					  d->header.ticks_per_second);
	if (old_d != NULL) {
		if (old_d->heap.flags & AMON_HEAP_ON)
			old_ti = typeinfo_load(old_d, o->diff_exe != NULL ? o->diff_exe : o->exe);
		parts[0] = pprof_part(d, p, ti, 0);
		parts[1] = pprof_part(old_d, old_p, old_ti, 1);
	} else if (n == 1) {
		parts[0] = pprof_part(d, p, ti, 0);
	} else {
		for (k = 0; k < n; k++) {
			struct amon_data *run = read_profile(o->amon[k]);
			struct symbols *s = symbols_load(run, o->exe, o->demangle);
			struct amon_data *sel = select_contexts(run, s, &o->select);

			parts[k] = pprof_part(sel, profile_build(sel, s, o->metric), ti, 0);
		}
	}
	pprof_write(out, parts, n, &po);
	free(parts);
	typeinfo_free(old_ti);
	typeinfo_free(ti);
}


/* --types of D on OUT, of thread THREAD only (an index in D->threads) or of all if THREAD < 0. */
static void print_types(FILE *out, const struct options *o, const struct amon_data *d,
			const struct symbols *syms, const struct typeinfo *ti, int thread)
{
	struct types_table *t = types_build(d, syms, ti, thread);

	types_print(out, t, d, syms, o->report.brief);
	types_free(t);
}


/* The reports O selects, in order, each after the first on a new page, as gprof's. */
static void write_reports(FILE *out, const struct options *o, const struct amon_data *data,
			  const struct symbols *syms, const struct profile *prof)
{
	struct typeinfo *ti = NULL;
	int k;

	if (threads_notes(out, data) > 0)
		fputc('\n', out);
	if (o->report.flat || o->report.graph)
		report_gprof(out, prof, &o->report);
	if (o->heap || o->types)
		ti = typeinfo_load(data, o->exe);
	if (o->heap) {
		struct profile *bytes = o->metric == PROF_BYTES ? NULL
					: profile_build(data, syms, PROF_BYTES);

		new_page(out, o);
		mprof_print(out, data, syms, bytes != NULL ? bytes : prof, ti, &o->mprof);
		profile_free(bytes);
	}
	if (o->types) {
		new_page(out, o);
		print_types(out, o, data, syms, ti, -1);
	}
	if (o->threads) {
		new_page(out, o);
		threads_print(out, data, syms, o->metric, &o->report);
		for (k = 0; o->types && k < data->nthreads; k++) {
			fprintf(out, "\nThread %d (tid %" PRIu64 "%s%s):\n", k + 1,
				data->threads[k].tid, data->threads[k].name[0] ? ", " : "",
				data->threads[k].name);
			print_types(out, o, data, syms, ti, k);
		}
	}
	if (o->contexts) {
		new_page(out, o);
		contexts_print(out, data, syms);
	}
	if (o->cycles) {
		new_page(out, o);
		traversals_print(out, data, syms);
	}
	if (o->stats) {
		struct profile *time = o->metric == PROF_TIME ? NULL
				       : profile_build(data, syms, PROF_TIME);

		new_page(out, o);
		stats_print(out, data, time != NULL ? time : prof);
		profile_free(time);
	}
	typeinfo_free(ti);
}


/*
** --diff=OLD: OLD's profile (of --diff-executable or the same program),
** through the same selection, against PROF.
*/
static void write_diff(FILE *out, const struct options *o, const struct profile *prof,
		       const struct amon_data *data)
{
	const char *exe = o->diff_exe != NULL ? o->diff_exe : o->exe;
	struct amon_data *old_run = read_profile(o->diff), *old_d;
	struct symbols *old_s = symbols_load(old_run, exe, o->demangle);
	struct profile *old_p;

	if (o->metric != PROF_TIME && !(old_run->heap.flags & AMON_HEAP_ON))
		util_die("%s: no heap data (the program ran with APROF_HEAP=0)", o->diff);
	old_d = select_contexts(old_run, old_s, &o->select);
	old_p = profile_build(old_d, old_s, o->metric);
	if (o->format == FORMAT_PPROF)
		write_pprof(out, o, data, prof, old_d, old_p);
	else if (o->format == FORMAT_FOLDED)
		folded_diff(out, old_d, old_p, data, prof);
	else if (o->format == FORMAT_HTML)
		write_json(out, o, data, prof->syms, prof, old_d, old_p);
	else
		diff_print(out, old_p, prof);
	profile_free(old_p);
	select_free(old_d, old_run);
	symbols_free(old_s);
	amon_free(old_run);
}


int main(int argc, char **argv)
{
	struct options o;
	struct amon_data *run, *data;
	struct symbols *syms;
	struct profile *prof;
	FILE *out = stdout;

	parse_options(argc, argv, &o);
	run = read_profiles(o.amon, o.namon);
	if (o.sum) {
		/* The executable, if named, must be the one that wrote the profiles. */
		if (o.exe != NULL)
			symbols_free(symbols_load(run, o.exe, o.demangle));
		amon_write(run, o.output != NULL ? o.output : "amon.sum");
		amon_free(run);
		free_symspecs(&o);
		return 0;
	}
	syms = symbols_load(run, o.exe, o.demangle);
	if ((o.metric != PROF_TIME || o.heap || o.types) && !(run->heap.flags & AMON_HEAP_ON))
		util_die("%s: no heap data (the program ran with APROF_HEAP=0)", run->path);
	check_symspecs(&o, syms);
	data = select_contexts(run, syms, &o.select);
	o.mprof.selected = data != run;
	if (o.format == FORMAT_PPROF && o.output == NULL)
		o.output = "aprof.pb.gz";
	if (o.output != NULL && (out = fopen(o.output, "w")) == NULL)
		util_die("%s: cannot write: %s", o.output, strerror(errno));
	/* The share -F or -E kept heads the text reports; an export stays in its format. */
	if (o.format == FORMAT_GPROF && select_print_share(out, run, data, &o.select, o.metric) == 0)
		prof = NULL; /* the focus kept nothing: the line says so */
	else
		prof = profile_build(data, syms, o.metric);
	if (prof == NULL) {
		/* nothing more to say */
	} else if (o.diff != NULL)
		write_diff(out, &o, prof, data);
	else if (o.format == FORMAT_CALLGRIND)
		write_callgrind(out, &o, data, syms, prof);
	else if (o.format == FORMAT_FOLDED)
		folded_write(out, data, prof);
	else if (o.format == FORMAT_DOT)
		write_dot(out, &o, data, syms, prof);
	else if (o.format == FORMAT_JSON || o.format == FORMAT_HTML)
		write_json(out, &o, data, syms, prof, NULL, NULL);
	else if (o.format == FORMAT_PPROF)
		write_pprof(out, &o, data, prof, NULL, NULL);
	else
		write_reports(out, &o, data, syms, prof);
	if (fflush(out) != 0 || ferror(out) || (out != stdout && fclose(out) != 0))
		util_die("error writing %s", o.output != NULL ? o.output : "the report");
	profile_free(prof);
	select_free(data, run);
	symbols_free(syms);
	amon_free(run);
	free_symspecs(&o);
	return 0;
}
