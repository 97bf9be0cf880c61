/*
** json.h -- --format=json: the analysed profile for scripts (schema:
** doc/aprof-json.md).
*/
#ifndef APROF_EXPORT_JSON_H
#define APROF_EXPORT_JSON_H

#include <stdio.h>

#include "aprof/model/profile.h"
#include "aprof/report/alloctypes.h"

/*
** Writes P (built from D, of program EXE) as one JSON object: metadata
** (program, build-id, clock, metric and unit, totals, threads), routines,
** arcs (incoming and outgoing values), contexts (histories with marks and
** every counter, in ticks and bytes), cycles and, unless TYPES is NULL (no
** heap data), the allocated types (--types).  Routine and arc values are
** in P's metric, whole units: ticks for time (metadata.scale per second),
** bytes or allocations.
*/
/*
** S as a JSON string: '"', '\\' and control characters escaped, and with
** IN_HTML '<' too (\u003c), so that the string cannot close the <script>
** element of a page that holds it; null if S is NULL.
*/
void json_put_string(FILE *out, const char *s, int in_html);

void json_write(FILE *out, const char *exe, const struct amon_data *d, const struct profile *p,
		const struct alloctypes_table *types);

/*
** The members of json_write's object, without its braces and with no comma
** after the last: all of them or, CONTEXTS false, all but "contexts", for a
** caller that writes the contexts its own way (in the same order: "types"
** names contexts by their index).
*/
void json_write_members(FILE *out, const char *exe, const struct amon_data *d,
			const struct profile *p, const struct alloctypes_table *types, int contexts);

#endif /* APROF_EXPORT_JSON_H */
