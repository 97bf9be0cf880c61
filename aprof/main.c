/*
** main.c -- aprof: read amon.out and print gprof-format reports whose times
** are exact per context (J. M. Spivey, "Fast, accurate call graph
** profiling").  The pipeline, a stage per folder, as gprof's main:
**
**   options_parse                       the command line (options.c)
**   read/   amon_read, hookcosts_apply      each amon.out, less the hooks' cost
**           (several: sum_profiles)     in model/, added context by context
**           symbols_load                the executable's routines (libbfd)
**   model/  select_contexts             -F, -E, --elide
**           profile_build               charged to routines and arcs
**   report/ or export/                  the reports --format=gprof prints,
**                                       or another tool's format
**
** Every stage after the selection reads its filtered contexts.
*/
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aprof/read/amon_read.h"
#include "aprof/read/program.h"
#include "aprof/read/symbols.h"
#include "aprof/read/typeinfo.h"
#include "aprof/model/hookcosts.h"
#include "aprof/model/profile.h"
#include "aprof/model/select.h"
#include "aprof/model/sum.h"
#include "aprof/model/traversals.h"
#include "aprof/report/advise.h"
#include "aprof/report/alloctypes.h"
#include "aprof/report/contexts.h"
#include "aprof/report/diff.h"
#include "aprof/report/gprof.h"
#include "aprof/report/mprof.h"
#include "aprof/report/perthread.h"
#include "aprof/report/stats.h"
#include "aprof/export/amon_write.h"
#include "aprof/export/callgrind.h"
#include "aprof/export/dot.h"
#include "aprof/export/folded.h"
#include "aprof/export/html.h"
#include "aprof/export/json.h"
#include "aprof/export/pprof.h"
#include "aprof/options.h"
#include "aprof/util.h"

/* Starts a section on a new page ("\f") unless it is the first printed. */
static void new_page(FILE *out, const struct options *o)
{
	static int printed;

	if (printed++ > 0 || o->report.flat || o->report.graph)
		fputs("\f\n", out);
}



/* The reader, then the hooks' cost model: the ticks every later stage charges. */
static struct amon_data *read_profile(const char *path)
{
	struct amon_data *d = amon_read(path);

	hookcosts_apply(d);
	return d;
}


/* The profile of the N files PATHS: the one read, or their sum. */
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
	struct alloctypes_table *t = NULL;

	if (d->heap.flags & AMON_HEAP_ON) {
		ti = typeinfo_load(d, o->exe);
		t = alloctypes_build(d, syms, ti, -1);
	}
	if (o->format == FORMAT_HTML)
		html_write(out, o->exe, d, p, t, profile_decimals(p, o->report.decimals), old_d, old_p);
	else
		json_write(out, o->exe, d, p, t);
	alloctypes_free(t);
	typeinfo_free(ti);
}


/*
** A part of the pprof export: D's contexts, P their profile in --metric, TI
** their types.  *TIME is the profile in time built for it when P is in
** another metric (the caller frees it), else NULL.
*/
static struct pprof_part pprof_part(const struct amon_data *d, const struct profile *p,
				    const struct typeinfo *ti, int base, struct profile **time)
{
	struct pprof_part x = { d, p, p, ti, base };

	*time = p->metric != PROF_TIME ? profile_build(d, p->syms, PROF_TIME) : NULL;
	if (*time != NULL)
		x.time = *time;
	return x;
}


/*
** --format=pprof: D's profile P and, with --diff, OLD_D's OLD_P as the
** base, OLD_EXE its executable.  Without --diff, several amon.out files are read again one by one
** through the same selection, a part each with its own process id, which
** pprof adds up as aprof sums them.  The run started when the first
** amon.out was written less its duration (amon.out records no start).
*/
static void write_pprof(FILE *out, const struct options *o, const struct amon_data *d,
			const struct profile *p, const struct amon_data *old_d,
			const struct profile *old_p, const char *old_exe)
{
	int n = old_d != NULL ? 2 : o->namon, k;
	struct pprof_part *parts = xmalloc((size_t)n * sizeof parts[0]);
	/* What is built here for each part, freed after the write (NULL: none). */
	struct amon_data **runs = xcalloc((size_t)n, sizeof runs[0]);
	struct amon_data **sels = xcalloc((size_t)n, sizeof sels[0]);
	struct symbols **syms = xcalloc((size_t)n, sizeof syms[0]);
	struct profile **profs = xcalloc((size_t)n, sizeof profs[0]);
	struct profile **times = xcalloc((size_t)n, sizeof times[0]);
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
			old_ti = typeinfo_load(old_d, old_exe);
		parts[0] = pprof_part(d, p, ti, 0, &times[0]);
		parts[1] = pprof_part(old_d, old_p, old_ti, 1, &times[1]);
	} else if (n == 1) {
		parts[0] = pprof_part(d, p, ti, 0, &times[0]);
	} else {
		for (k = 0; k < n; k++) {
			runs[k] = read_profile(o->amon[k]);
			syms[k] = symbols_load(runs[k], o->exe, o->demangle);
			sels[k] = select_contexts(runs[k], syms[k], &o->select);
			profs[k] = profile_build(sels[k], syms[k], o->metric);
			parts[k] = pprof_part(sels[k], profs[k], ti, 0, &times[k]);
		}
	}
	pprof_write(out, parts, n, &po);
	for (k = 0; k < n; k++) {
		profile_free(times[k]);
		profile_free(profs[k]);
		if (runs[k] != NULL) {
			select_free(sels[k], runs[k]);
			symbols_free(syms[k]);
			amon_free(runs[k]);
		}
	}
	free(times);
	free(profs);
	free(syms);
	free(sels);
	free(runs);
	free(parts);
	typeinfo_free(old_ti);
	typeinfo_free(ti);
}


/* --types of D on OUT, of thread THREAD only (an index in D->threads) or of all if THREAD < 0. */
static void print_types(FILE *out, const struct options *o, const struct amon_data *d,
			const struct symbols *syms, const struct typeinfo *ti, int thread)
{
	struct alloctypes_table *t = alloctypes_build(d, syms, ti, thread);

	alloctypes_print(out, t, d, syms, o->report.brief);
	alloctypes_free(t);
}


/* The reports O selects, in order, each after the first on a new page, as gprof's. */
static void write_reports(FILE *out, const struct options *o, const struct amon_data *data,
			  const struct symbols *syms, const struct profile *prof)
{
	struct typeinfo *ti = NULL;
	int k;

	/*
	** The notes: over gprof's reports, the hooks' share if large (unless
	** --advise is printed); the threads'.
	*/
	if (((o->report.flat || o->report.graph) && !o->advise && advise_note(out, data) > 0) +
	    perthread_notes(out, data) > 0)
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
		perthread_print(out, data, syms, o->metric, &o->report);
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
	if (o->stats || o->advise) {
		struct profile *time = o->metric == PROF_TIME ? NULL
				       : profile_build(data, syms, PROF_TIME);
		const struct profile *t = time != NULL ? time : prof;

		if (o->stats) {
			new_page(out, o);
			stats_print(out, data, t);
		}
		if (o->advise) {
			new_page(out, o);
			advise_print(out, data, t, o->report.threshold > 0 ? o->report.threshold
					 : ADVISE_MIN_PERCENT, profile_decimals(t, o->report.decimals));
		}
		profile_free(time);
	}
	typeinfo_free(ti);
}


/*
** --diff=OLD: OLD's profile (of --diff-executable, else the executable
** named, else the one OLD recorded), through the same selection, against
** PROF.
*/
static void write_diff(FILE *out, const struct options *o, const struct profile *prof,
		       const struct amon_data *data)
{
	struct amon_data *old_run = read_profile(o->diff), *old_d;
	const char *exe = o->diff_exe != NULL ? o->diff_exe
			  : o->exe_named ? o->exe : program_find(old_run);
	struct symbols *old_s = symbols_load(old_run, exe, o->demangle);
	struct profile *old_p;

	if (o->metric != PROF_TIME && !(old_run->heap.flags & AMON_HEAP_ON))
		util_die("%s: no heap data (the program ran with APROF_HEAP=0)", o->diff);
	old_d = select_contexts(old_run, old_s, &o->select);
	old_p = profile_build(old_d, old_s, o->metric);
	if (o->format == FORMAT_PPROF)
		write_pprof(out, o, data, prof, old_d, old_p, exe);
	else if (o->format == FORMAT_HTML)
		write_json(out, o, data, prof->syms, prof, old_d, old_p);
	else if (o->format == FORMAT_FOLDED)
		folded_diff(out, old_d, old_p, data, prof);
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

	options_parse(argc, argv, &o);
	run = read_profiles(o.amon, o.namon);
	if (o.sum) {
		/* The executable, if named, must be the one that wrote the profiles. */
		if (o.exe != NULL)
			symbols_free(symbols_load(run, o.exe, o.demangle));
		amon_write(run, o.output != NULL ? o.output : "amon.sum");
		amon_free(run);
		options_free(&o);
		return 0;
	}
	if (o.exe == NULL)
		o.exe = program_find(run);
	syms = symbols_load(run, o.exe, o.demangle);
	if ((o.metric != PROF_TIME || o.heap || o.types) && !(run->heap.flags & AMON_HEAP_ON))
		util_die("%s: no heap data (the program ran with APROF_HEAP=0)", run->path);
	options_check_symspecs(&o, syms);
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
		write_pprof(out, &o, data, prof, NULL, NULL, NULL);
	else
		write_reports(out, &o, data, syms, prof);
	if (fflush(out) != 0 || ferror(out) || (out != stdout && fclose(out) != 0))
		util_die("error writing %s", o.output != NULL ? o.output : "the report");
	profile_free(prof);
	select_free(data, run);
	symbols_free(syms);
	amon_free(run);
	options_free(&o);
	return 0;
}
