/*
** options.h -- aprof's command line (options.c): the options as gprof's
** manual groups them, parsed into one struct options that main.c's
** pipeline reads.  Errors: one line on stderr and exit status 1.
*/
#ifndef APROF_APROF_OPTIONS_H
#define APROF_APROF_OPTIONS_H

#include "aprof/model/profile.h"
#include "aprof/model/select.h"
#include "aprof/read/symbols.h"
#include "aprof/report/gprof.h"
#include "aprof/report/mprof.h"

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
	int advise;              /* --advise: what the hooks cost, what to leave uninstrumented */
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
	const char *exe;         /* the executable: NULL if none is named, until main.c
				    finds the one the profile recorded (program_find) */
	int exe_named;           /* 1 if the command line named the executable */
	const char **amon;       /* the profiles, summed; default amon.out */
	int namon;
};

/*
** Fills O from ARGV: options, then [executable] [amon.out...]: a first
** argument that is a profile (amon_is_profile) is not the executable, which
** is then NULL; no profile is amon.out.  --help and --version print and exit 0; a
** bad option or argument dies with one line (try --help).
*/
void options_parse(int argc, char **argv, struct options *o);

/* Dies with one line if a symspec of O (-p, -q, -F, -f...) names no routine of SYMS. */
void options_check_symspecs(struct options *o, const struct symbols *syms);

/* Frees what options_parse took for O's symspecs. */
void options_free(struct options *o);

#endif /* APROF_APROF_OPTIONS_H */
