/*
** options.c -- aprof's command line (options.h): getopt_long over one
** table, grouped as gprof's manual groups its options, --help, --version,
** and the checks that need every option seen.
*/
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aprof/options.h"
#include "aprof/read/amon_read.h"
#include "aprof/read/symspec.h"
#include "aprof/util.h"

enum {
	OPT_DEMANGLE = 256, OPT_NO_DEMANGLE, OPT_HELP, OPT_METRIC, OPT_HEAP, OPT_HEAP_VERBOSITY,
	OPT_NO_LEAKS, OPT_THREADS, OPT_STATS, OPT_ELIDE,
	OPT_DECIMALS, OPT_FORMAT, OPT_DIFF, OPT_DIFF_EXE, OPT_THRESHOLD, OPT_CYCLES,
	OPT_TYPES, OPT_ADVISE,
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
	{ "advise", no_argument, NULL, OPT_ADVISE },
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
		"Usage: aprof [options] [executable] [amon.out...]\n"
		"       aprof -s [executable] amon.out...\n"
		"Print a call-graph profile from amon.out, written by a program built with\n"
		"gcc -finstrument-functions and linked with -laprof.  Default profile: amon.out;\n"
		"default executable: the one the profile recorded, if its build ID matches.\n"
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
		"                                      transitions, history lengths, memory,\n"
		"                                      the hooks' calls and cost\n"
		"      --advise                        the hooks' calls per second and cost, the\n"
		"                                      routines whose calls cost more than their\n"
		"                                      work, and the flags that leave them out\n"
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
		"-p, -q, -S, --heap, --types, --threads, --cycles, --stats and --advise choose what is\n"
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


void options_parse(int argc, char **argv, struct options *o)
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
		case OPT_ADVISE:
			o->advise = chosen = 1;
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
	/*
	** The executable is optional: a first argument that is a profile is not
	** one, and main.c then finds the one the profile recorded.
	*/
	o->exe = optind < argc && !amon_is_profile(argv[optind]) ? argv[optind++] : NULL;
	o->exe_named = o->exe != NULL;
	/* Said first: else a missing one alone reads as a missing amon.out. */
	if (o->exe != NULL && access(o->exe, F_OK) != 0)
		util_die("%s: %s", o->exe, strerror(errno));
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
void options_check_symspecs(struct options *o, const struct symbols *syms)
{
	struct symspec *all[SYMSPECS];
	size_t i;

	symspecs_of(o, all);
	for (i = 0; i < SYMSPECS; i++)
		symspec_check(all[i], syms);
}


/* Frees what options_parse took for O's symspecs. */
void options_free(struct options *o)
{
	struct symspec *all[SYMSPECS];
	size_t i;

	symspecs_of(o, all);
	for (i = 0; i < SYMSPECS; i++)
		symspec_free(all[i]);
}
