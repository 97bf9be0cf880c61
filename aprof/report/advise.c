/*
** advise.c -- --advise: what the hooks cost the run, which routines' calls
** cost more than their work, and the flags that leave those uninstrumented
** (advise.h).  A routine called millions of times to do next to nothing
** (a getter, a comparison, a header's static inline helper the compiler
** kept) pays two hook calls per call: left out, its time is its caller's,
** and the run and its profile lose that much of the instrumentation.
*/
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "aprof/model/hookcosts.h"
#include "aprof/report/advise.h"
#include "aprof/report/gprof.h"
#include "aprof/util.h"

/* A routine advised out: its index in the profile, its hooks' ticks, its name as GCC matches it. */
struct advice {
	int proc;
	double own;
	const char *name;     /* as the reports show it */
	const char *gcc_name; /* NULL if GCC's list cannot name it */
};


/* By the hooks' cost, largest first, then by name: the same order every run. */
static int cmp_advice(const void *lp, const void *rp)
{
	const struct advice *l = lp, *r = rp;

	if (l->own != r->own)
		return l->own < r->own ? 1 : -1;
	return strcmp(l->name, r->name);
}


/*
** The last space of NAME's first N bytes outside <> and () (a function
** template's return type ends there), unless it follows "operator" (operator
** new, a conversion operator); NULL if none.
*/
static const char *return_type_end(const char *name, size_t n)
{
	const char *space = NULL;
	size_t i;
	int depth = 0;

	for (i = 0; i < n; i++) {
		depth += name[i] == '<' || name[i] == '(';
		depth -= name[i] == '>' || name[i] == ')';
		if (name[i] == ' ' && depth == 0 &&
		    !(i >= 8 && strncmp(name + i - 8, "operator", 8) == 0))
			space = name + i;
	}
	return space;
}


/*
** Routine K of P's name as -finstrument-functions-exclude-function-list
** matches it, malloc'd: GCC's printable name of the function, C++'s
** qualified name without its parameters nor a function template's return
** type ("int twice<int>(int)": twice<int>), the anonymous namespace as
** "{anonymous}", a C name without the suffix of a clone GCC made of it
** (".constprop.0", ".part.0"); read from its symbol's name (demangled
** unless --no-demangle) without a copy's tag (profile_base_name: every
** copy of a static routine has the one name).  NULL if the list
** cannot hold it (a comma, which separates its names), if GCC names it
** otherwise (a lambda), or if there is none (an address no symbol holds).
*/
static char *gcc_name(const struct profile *p, int k)
{
	static const char anonymous[] = "(anonymous namespace)";
	const char *name, *clone, *start;
	size_t n, i, j;
	char *g;
	int depth = 0;

	if (p->procs[k].sym == NULL)
		return NULL;
	name = profile_base_name(p, k);
	if (strchr(name, ',') != NULL || strstr(name, "{lambda") != NULL)
		return NULL;
	clone = strstr(name, " [clone ");
	n = clone != NULL ? (size_t)(clone - name) : strlen(name);
	for (i = n; i > 0 && name[i - 1] != ')'; i--)
		; /* " const", " &&": after the parameters */
	if (i > 0) {
		/* The '(' that opens the parameters: the match of the last ')'. */
		for (; i > 0; i--) {
			depth += name[i - 1] == ')';
			depth -= name[i - 1] == '(';
			if (depth == 0)
				break;
		}
		if (i > 1)
			n = i - 1;
	} else {
		const char *dot = memchr(name, '.', n);

		if (dot != NULL && dot > name)
			n = (size_t)(dot - name);
	}
	start = name;
	if (n > 0 && name[n - 1] == '>' && return_type_end(name, n) != NULL)
		start = return_type_end(name, n) + 1;
	n -= (size_t)(start - name);
	g = xmalloc(n + 1);
	for (i = j = 0; i < n; ) {
		if (strncmp(start + i, anonymous, sizeof anonymous - 1) == 0) {
			memcpy(g + j, "{anonymous}", 11);
			i += sizeof anonymous - 1;
			j += 11;
		} else {
			g[j++] = start[i++];
		}
	}
	g[j] = '\0';
	if (j == 0) {
		free(g);
		return NULL;
	}
	return g;
}


/*
** Prints the routines of P that listed name A[I].gcc_name would leave out
** besides A[I]'s own (GCC matches substrings), unless LISTED (one flag per
** routine) names them too: at most three, and how many more.  NAMES holds
** every routine's gcc_name.
*/
static void print_also(FILE *out, const struct profile *p, char *const *names,
		       const char *listed, const struct advice *a, int i)
{
	int k, said = 0;

	for (k = 0; k < p->nprocs; k++) {
		if (listed[k] || names[k] == NULL || p->procs[k].calls + p->procs[k].rec == 0 ||
		    strstr(names[k], a[i].gcc_name) == NULL || strcmp(names[k], a[i].gcc_name) == 0)
			continue;
		if (said == 0)
			fprintf(out, "  note: '%s' also leaves out", a[i].gcc_name);
		if (said < 3)
			fprintf(out, "%s %s", said > 0 ? "," : "", p->procs[k].name);
		said++;
	}
	if (said > 3)
		fprintf(out, " and %d more", said - 3);
	if (said > 0)
		fputs(" (GCC matches any name that holds it)\n", out);
}


/*
** GCC's exclusion list of the N routines of A, each name once, after its
** heading; the notes on what its names would leave out too (NAMES, LISTED:
** print_also); the routines it cannot name.
*/
static void print_gcc(FILE *out, const struct profile *p, char *const *names, const char *listed,
		      const struct advice *a, int n)
{
	int i, j, named = 0;

	fputs("GCC, added to -finstrument-functions:\n", out);
	for (i = 0; i < n; i++) {
		if (a[i].gcc_name == NULL)
			continue;
		for (j = 0; j < i && (a[j].gcc_name == NULL || strcmp(a[j].gcc_name, a[i].gcc_name) != 0); j++)
			;
		if (j < i)
			continue; /* a static routine of several files, or an overload: named once */
		fprintf(out, "%s%s", named++ == 0 ? "  -finstrument-functions-exclude-function-list=" : ",",
			a[i].gcc_name);
	}
	if (named > 0)
		fputc('\n', out);
	for (i = 0; i < n; i++)
		if (a[i].gcc_name != NULL)
			print_also(out, p, names, listed, a, i);
	if (named < n) {
		fputs("  not in the list, which cannot name them:", out);
		for (i = 0; i < n; i++)
			if (a[i].gcc_name == NULL)
				fprintf(out, " %s;", a[i].name);
		fputs(" mark them __attribute__((no_instrument_function))\n", out);
	}
}


/*
** The table of the N routines of A advised out, by their hooks' cost, the
** share they account for, and the flags that leave them out, with what
** that saves; T is the run's hooks, HZ its ticks a second.
*/
static void print_advice(FILE *out, const struct profile *p, char *const *names, const char *listed,
			 struct advice *a, int n, const struct hookcosts_total *t, double hz,
			 double min_percent, int decimals)
{
	double saved = 0.0;
	int i;

	qsort(a, (size_t)n, sizeof a[0], cmp_advice);
	fprintf(out, "Routines whose calls cost the hooks more than their own work (calls x the\n"
		"hooks' cost against self time), each %g%% of the run or more:\n\n"
		"%10s %*s %*s %10s %8s  %s\n", min_percent, "calls", 8 + decimals, "hooks s",
		8 + decimals, "self s", "hooks/self", "% run", "name");
	for (i = 0; i < n; i++) {
		const struct prof_proc *r = &p->procs[a[i].proc];

		saved += a[i].own;
		fprintf(out, "%10" PRIu64 " %*.*f %*.*f ", r->calls + r->rec, 8 + decimals, decimals,
			a[i].own / hz, 8 + decimals, decimals, (double)r->self / p->scale);
		if (r->self > 0)
			fprintf(out, "%10.1f", a[i].own / (double)r->self);
		else
			fprintf(out, "%10s", "-");
		fprintf(out, " %8.2f  %s\n", 100.0 * a[i].own / t->all, a[i].name);
	}
	fprintf(out, "\nTogether: %.*f seconds of hooks, %.1f%% of the run.  Left uninstrumented,\n"
		"their time is their callers', and the run saves about that much.\n\n",
		decimals, saved / hz, 100.0 * saved / t->all);
	print_gcc(out, p, names, listed, a, n);
	fprintf(out, "clang, which has no such list: __attribute__((no_instrument_function)) on\n"
		"  each, or -finstrument-functions-after-inlining in place of\n"
		"  -finstrument-functions (only the routines left after inlining call the\n"
		"  hooks): up to %.*f seconds saved.\n"
		"GCC on x86-64: -pg -mfentry in place of -finstrument-functions (link without\n"
		"  -pg) also instruments after inlining, gprof's calls: up to %.*f seconds\n"
		"  saved.\n",
		decimals, saved / hz, decimals, saved / hz);
}


void advise_print(FILE *out, const struct amon_data *d, const struct profile *p,
		  double min_percent, int decimals)
{
	struct hookcosts_total t;
	double *own = xmalloc(((size_t)p->nprocs + 1) * sizeof own[0]);
	struct advice *a = xcalloc((size_t)p->nprocs + 1, sizeof a[0]);
	char **names = xcalloc((size_t)p->nprocs + 1, sizeof names[0]); /* each one's gcc_name */
	char *listed = xcalloc((size_t)p->nprocs + 1, 1);                 /* advised out */
	double hz = d->header.ticks_per_second, run = (double)d->header.total_ticks / hz;
	char per_call[32];
	int n = 0, k;

	hookcosts_total(d, &t);
	hookcosts_by_routine(d, p, own);
	gprof_duration(per_call, sizeof per_call, t.calls > 0 ? t.own / (double)t.calls / hz : 0.0);
	fprintf(out, "Instrumentation advice:\n\n"
		"  calls through the hooks  %" PRIu64 " (an entry and an exit hook each)\n"
		"  per second of the run    %.0f (of %.*f seconds)\n"
		"  the hooks' cost a call   %s (%s)\n"
		"  the hooks' cost in all   %.*f seconds, %.1f%% of the %.*f seconds measured\n\n",
		t.calls, run > 0 ? (double)t.calls / run : 0.0, decimals, run, per_call,
		d->header.clock == AMON_CLOCK_SAMPLE
			? "twice the runtime's samples over the calls"
			: "the cost model's, taken off every routine's time",
		decimals, t.own / hz, t.all > 0 ? 100.0 * t.own / t.all : 0.0, decimals, t.all / hz);
	for (k = 0; k < p->nprocs; k++) {
		names[k] = gcc_name(p, k);
		if (own[k] > (double)p->procs[k].self && t.all > 0 &&
		    100.0 * own[k] / t.all >= min_percent) {
			listed[k] = 1;
			a[n].proc = k;
			a[n].own = own[k];
			a[n].name = p->procs[k].name;
			a[n].gcc_name = names[k];
			n++;
		}
	}
	if (n > 0)
		print_advice(out, p, names, listed, a, n, &t, hz, min_percent, decimals);
	else
		fprintf(out, "No routine's calls cost the hooks more than its own work and %g%% of the\n"
			"run or more: nothing to leave uninstrumented.\n", min_percent);
	for (k = 0; k < p->nprocs; k++)
		free(names[k]);
	free(listed);
	free(names);
	free(a);
	free(own);
}


int advise_note(FILE *out, const struct amon_data *d)
{
	struct hookcosts_total t;
	char per_call[32];

	hookcosts_total(d, &t);
	if (t.all <= 0 || t.own < ADVISE_NOTE_SHARE * t.all)
		return 0;
	gprof_duration(per_call, sizeof per_call, t.own / (double)t.calls / d->header.ticks_per_second);
	fprintf(out, "aprof: the hooks took %.0f%% of the run (%" PRIu64 " calls, %s each): aprof --advise "
		"says which routines to leave uninstrumented\n", 100.0 * t.own / t.all, t.calls,
		per_call);
	return 1;
}
