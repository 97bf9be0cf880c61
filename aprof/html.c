/*
** html.c -- --format=html: the page of aprof/html/page.html with the
** profile inside.  The data is --format=json's document, so the page reads
** the same contexts, routines and split arcs as scripts do; what it shows
** (flame graph, sandwich, flat table, search, focus) it computes from them.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "aprof/html.h"
#include "aprof/json.h"
#include "aprof/util.h"

/*
** Copies JSON text S of length N, every '<' written "\u003c": '<' occurs
** only inside JSON strings, where the escape means the same, and so no name
** can close the <script> element that holds the data.
*/
static void put_escaped(FILE *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '<')
			fputs("\\u003c", out);
		else
			fputc(s[i], out);
}


void html_write(FILE *out, const char *exe, const struct amon_data *d, const struct profile *p,
		const struct types_table *types, int decimals)
{
	char *json = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&json, &n);
	int r;

	if (mem == NULL)
		util_die("out of memory");
	json_write(mem, exe, d, p, types);
	if (fclose(mem) != 0)
		util_die("out of memory");
	fputs(html_page_head, out);
	fputs("{\"profile\":", out);
	put_escaped(out, json, n);
	fprintf(out, ",\n\"view\":{\"decimals\":%d,\"unit\":\"%s\",\"scale\":%.17g,\"lines\":[",
		decimals, p->unit, p->scale);
	for (r = 0; r < p->nprocs; r++)
		fprintf(out, "%s%u", r > 0 ? "," : "",
			p->syms != NULL && p->procs[r].sym != NULL
				? symbols_line(p->syms, p->procs[r].sym) : 0u);
	fputs("]}}\n", out);
	fputs(html_page_tail, out);
	free(json);
}
