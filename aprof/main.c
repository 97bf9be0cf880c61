/*
** main.c -- aprof: read amon.out and print gprof-format reports whose times
** are exact per context (J. M. Spivey, "Fast, accurate call graph
** profiling").  The pipeline, one stage per module, as gprof's main:
** options -> amon_read -> symbols_load -> select_contexts -> profile_build
** -> reports.  Every stage after the selection reads its filtered contexts.
*/
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/amon_read.h"
#include "aprof/contexts.h"
#include "aprof/mprof.h"
#include "aprof/profile.h"
#include "aprof/report.h"
#include "aprof/select.h"
#include "aprof/stats.h"
#include "aprof/symbols.h"
#include "aprof/threads.h"
#include "aprof/util.h"

/* Everything the command line says. */
struct options {
	struct report_options report;
	struct selection select;  /* -F, -E, --elide */
	int contexts;            /* -S: list the contexts */
	int threads;             /* --threads: per-thread breakdown */
	int stats;               /* --stats: Table I of the paper */
	enum prof_metric metric; /* --metric */
	int heap;                /* --heap: mprof's tables */
	struct mprof_options mprof; /* --heap-verbosity, --no-leaks */
	int demangle;            /* --[no-]demangle */
	const char *exe;         /* default a.out, as gprof */
	const char *amon;        /* default amon.out */
};

enum {
	OPT_DEMANGLE = 256, OPT_NO_DEMANGLE, OPT_HELP, OPT_METRIC, OPT_HEAP, OPT_HEAP_VERBOSITY,
	OPT_NO_LEAKS, OPT_THREADS, OPT_STATS, OPT_ELIDE,
	OPT_DECIMALS,
};

/* --metric names, in enum prof_metric order. */
static const char *const metric_names[] = { "time", "bytes", "allocs", "kept", "peak" };

/* --heap-verbosity names, in enum mprof_verbosity order. */
static const char *const verbosity_names[] = { "normal", "verbose", "terse" };

static const struct option long_options[] = {
	/* output styles (gprof(1)) */
	{ "flat-profile", optional_argument, NULL, 'p' },
	{ "no-flat-profile", optional_argument, NULL, 'P' },
	{ "graph", optional_argument, NULL, 'q' },
	{ "no-graph", optional_argument, NULL, 'Q' },
	{ "contexts", no_argument, NULL, 'S' },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "heap", no_argument, NULL, OPT_HEAP },
	/* which contexts (the selection stage) */
	{ "focus", required_argument, NULL, 'F' },
	{ "exclude", required_argument, NULL, 'E' },
	{ "elide", required_argument, NULL, OPT_ELIDE },
	/* how to print */
	{ "brief", no_argument, NULL, 'b' },
	{ "display-unused-functions", no_argument, NULL, 'z' },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "decimals", required_argument, NULL, OPT_DECIMALS },
	{ "heap-verbosity", required_argument, NULL, OPT_HEAP_VERBOSITY },
	{ "no-leaks", no_argument, NULL, OPT_NO_LEAKS },
	/* miscellaneous */
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};


static void usage(FILE *out, int status) __attribute__((noreturn));

static void usage(FILE *out, int status)
{
	fprintf(out,
		"Usage: aprof [options] [executable [amon.out]]\n"
		"Print a call-graph profile from amon.out, written by a program built with\n"
		"gcc -finstrument-functions and linked with -laprof.  Defaults: a.out, amon.out.\n"
		"\n"
		"  -p[NAME], --flat-profile[=NAME]     print the flat profile (of NAME only)\n"
		"  -P[NAME], --no-flat-profile[=NAME]  no flat profile (leave NAME out of it)\n"
		"  -q[NAME], --graph[=NAME]            print the call graph (NAME's entry only)\n"
		"  -Q[NAME], --no-graph[=NAME]         no call graph (leave NAME's entry out)\n"
		"  -S, --contexts                      list the contexts: histories, calls, seconds\n"
		"      --threads                       each thread: id, name, totals, flat profile\n"
		"      --stats                         the profile's size: routines, calls, contexts,\n"
		"                                      transitions, history lengths, memory\n"
		"      --heap                          print mprof's four tables (bins, leaks,\n"
		"                                      direct allocation, allocation call graph)\n"
		"\n"
		"Which contexts the reports see (SYMSPEC: NAME, FILE:NAME, or shell patterns\n"
		"such as 'Parser::*' or 'src/*.c:init'; every option may be repeated):\n"
		"  -F, --focus=SYMSPEC                 only contexts in which SYMSPEC is active\n"
		"  -E, --exclude=SYMSPEC               no context in which SYMSPEC is active\n"
		"      --elide=SYMSPEC                 take SYMSPEC out of every history: its\n"
		"                                      self time and bytes go to its caller\n"
		"\n"
		"  -b, --brief                         leave out the explanations\n"
		"  -z, --display-unused-functions      also list routines never called\n"
		"      --[no-]demangle                 (do not) demangle C++ names\n"
		"      --decimals=N                    N decimals (1-9) in the value columns;\n"
		"                                      default: 4 significant digits of the\n"
		"                                      total, at least 2 (2: gprof's layout)\n"
		"      --metric=M                      what the reports charge: time (default),\n"
		"                                      bytes, allocs, kept (bytes never freed),\n"
		"                                      peak (bytes live at the peak)\n"
		"      --heap-verbosity=V              --heap's bins and leaks: normal (default),\n"
		"                                      verbose or terse, as mprof's\n"
		"      --no-leaks                      --heap without the leak table\n"
		"      --help                          print this help and exit\n"
		"  -v, --version                       print the version and exit\n"
		"\n"
		"-p, -q, -S, --heap, --threads and --stats choose what is printed; without any,\n"
		"the flat profile and the call graph are.  NAME options may be repeated.\n"
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


static enum prof_metric parse_metric(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof metric_names / sizeof metric_names[0]; i++)
		if (strcmp(name, metric_names[i]) == 0)
			return (enum prof_metric)i;
	util_die("unknown metric '%s' (time, bytes, allocs, kept or peak)", name);
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


static enum mprof_verbosity parse_verbosity(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof verbosity_names / sizeof verbosity_names[0]; i++)
		if (strcmp(name, verbosity_names[i]) == 0)
			return (enum mprof_verbosity)i;
	util_die("unknown heap verbosity '%s' (verbose, normal or terse)", name);
}


static void parse_options(int argc, char **argv, struct options *o)
{
	int c, chosen = 0, no_flat = 0, no_graph = 0;

	memset(o, 0, sizeof *o);
	o->demangle = 1;
	opterr = 0; /* our own one-line message below */
	while ((c = getopt_long(argc, argv, ":p::P::q::Q::SbzvF:E:", long_options, NULL)) != -1) {
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
			o->metric = parse_metric(optarg);
			break;
		case OPT_DECIMALS:
			o->report.decimals = parse_decimals(optarg);
			break;
		case OPT_HEAP:
			o->heap = chosen = 1;
			break;
		case OPT_HEAP_VERBOSITY:
			o->mprof.verbosity = parse_verbosity(optarg);
			break;
		case OPT_NO_LEAKS:
			o->mprof.no_leaks = 1;
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
	o->exe = optind < argc ? argv[optind++] : "a.out";
	o->amon = optind < argc ? argv[optind++] : "amon.out";
	if (optind < argc)
		util_die("too many arguments: '%s' (one executable, one amon.out; try --help)",
			 argv[optind]);
}


/* Starts a section on a new page ("\f") unless it is the first printed. */
static void new_page(const struct options *o)
{
	static int printed;

	if (printed++ > 0 || o->report.flat || o->report.graph)
		fputs("\f\n", stdout);
}


/* Dies with one line if a symspec of O names no routine of SYMS. */
static void check_symspecs(const struct options *o, const struct symbols *syms)
{
	const struct symspec *all[] = {
		&o->select.focus, &o->select.exclude, &o->select.elide, &o->report.flat_only,
		&o->report.flat_exclude, &o->report.graph_only, &o->report.graph_exclude,
	};
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		symspec_check(all[i], syms);
}


int main(int argc, char **argv)
{
	struct options o;
	struct amon_data *run, *data;
	struct symbols *syms;
	struct profile *prof;

	parse_options(argc, argv, &o);
	run = amon_read(o.amon);
	syms = symbols_load(run, o.exe, o.demangle);
	if ((o.metric != PROF_TIME || o.heap) && !(run->heap.flags & AMON_HEAP_ON))
		util_die("%s: no heap data (the program ran with APROF_HEAP=0)", o.amon);
	check_symspecs(&o, syms);
	data = select_contexts(run, syms, &o.select);
	if (select_print_share(stdout, run, data, &o.select, o.metric) == 0)
		return 0; /* the focus kept nothing: the line says so */
	prof = profile_build(data, syms, o.metric);
	/* Sections in order, each after the first on a new page, as gprof's. */
	if (threads_notes(stdout, data) > 0)
		putchar('\n');
	if (o.report.flat || o.report.graph)
		report_gprof(stdout, prof, &o.report);
	if (o.heap) {
		new_page(&o);
		mprof_print(stdout, data, syms, o.metric == PROF_BYTES ? prof
			    : profile_build(data, syms, PROF_BYTES), &o.mprof);
	}
	if (o.threads) {
		new_page(&o);
		threads_print(stdout, data, syms, o.metric, &o.report);
	}
	if (o.contexts) {
		new_page(&o);
		contexts_print(stdout, data, syms);
	}
	if (o.stats) {
		new_page(&o);
		stats_print(stdout, data, o.metric == PROF_TIME ? prof
			    : profile_build(data, syms, PROF_TIME));
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		util_die("error writing the report");
	return 0;
}
