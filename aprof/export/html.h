/*
** html.h -- --format=html: one self-contained page to explore the profile
** in a browser (doc/html-report.md).
*/
#ifndef APROF_EXPORT_HTML_H
#define APROF_EXPORT_HTML_H

#include <stdio.h>

#include "aprof/model/profile.h"
#include "aprof/report/alloctypes.h"

/*
** Writes the page for P (built from D, of program EXE): the profile as
** --format=json writes it (TYPES NULL without heap data) but for its
** contexts, written compactly ("paths" and "contexts", doc/html-report.md),
** and the view's settings (DECIMALS as profile_decimals gives them, every
** routine's first line), as one JSON document inside the page, with the
** page's script and style and the libraries that draw it.  The page needs
** no network.  With --diff, OLD_D's contexts and OLD_P's routines too (the
** page colours frames by the change); otherwise both NULL.
*/
void html_write(FILE *out, const char *exe, const struct amon_data *d, const struct profile *p,
		const struct alloctypes_table *types, int decimals, const struct amon_data *old_d,
		const struct profile *old_p);

/*
** The page around the data, made from aprof/html/page.html and the files
** it includes at build time (aprof/html/mkassets.awk, html-assets.c).
*/
extern const char html_page_head[];
extern const char html_page_tail[];

#endif /* APROF_EXPORT_HTML_H */
