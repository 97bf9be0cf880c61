/*
** units.c -- compilation units and lines with libdw.  A unit is found by
** its address ranges (DW_AT_low_pc/high_pc or DW_AT_ranges: dwarf_ranges),
** collected once into a sorted table: dwarf_addrdie would need
** .debug_aranges, which clang does not write.  Lines come from the unit's
** line table (dwarf_getsrc_die), which names a header's lines by the
** header (libbfd 2.40's bfd_find_nearest_line names the unit's file for
** them under DWARF 5).
*/
#include <config.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aprof/read/units.h"
#include "aprof/util.h"

/* An address range of one unit: [lo, hi). */
struct range {
	Dwarf_Addr lo, hi;
	Dwarf_Die unit;
};

struct units {
	int fd;
	Dwarf *dwarf;
	struct range *ranges;      /* sorted by lo */
	size_t n;
};


static int range_cmp(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}


/* Collects the ranges of every compilation unit of U (type units have no code). */
static void collect_ranges(struct units *u)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die die;
	uint8_t type;
	size_t cap = 0;

	while (dwarf_get_units(u->dwarf, cu, &cu, NULL, &type, &die, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;

		if (type != DW_UT_compile && type != DW_UT_partial)
			continue;
		while ((off = dwarf_ranges(&die, off, &base, &lo, &hi)) > 0) {
			if (lo >= hi)
				continue;
			if (u->n == cap) {
				cap = cap ? 2 * cap : 64;
				u->ranges = xrealloc(u->ranges, cap * sizeof u->ranges[0]);
			}
			u->ranges[u->n].lo = lo;
			u->ranges[u->n].hi = hi;
			u->ranges[u->n++].unit = die;
		}
	}
	if (u->n > 0)
		qsort(u->ranges, u->n, sizeof u->ranges[0], range_cmp);
}


struct units *units_open(const char *path)
{
	struct units *u;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dwarf;

	if (fd < 0)
		return NULL;
	if ((dwarf = dwarf_begin(fd, DWARF_C_READ)) == NULL) {
		close(fd);
		return NULL;
	}
	u = xcalloc(1, sizeof *u);
	u->fd = fd;
	u->dwarf = dwarf;
	collect_ranges(u);
	return u;
}


void units_close(struct units *u)
{
	if (u == NULL)
		return;
	dwarf_end(u->dwarf);
	close(u->fd);
	free(u->ranges);
	free(u);
}


/* The unit whose code holds ADDR, or NULL. */
static Dwarf_Die *unit_of(struct units *u, Dwarf_Addr addr)
{
	size_t lo = 0, hi = u->n;

	while (lo < hi) { /* the first range starting above ADDR */
		size_t mid = lo + (hi - lo) / 2;

		if (u->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < u->ranges[lo - 1].hi ? &u->ranges[lo - 1].unit : NULL;
}


const char *units_name(struct units *u, uint64_t addr)
{
	Dwarf_Die *unit = unit_of(u, addr);

	return unit != NULL ? dwarf_diename(unit) : NULL;
}


char *units_line(struct units *u, uint64_t addr, unsigned int *line)
{
	Dwarf_Die *unit = unit_of(u, addr);
	Dwarf_Attribute a;
	Dwarf_Line *l;
	const char *file, *dir;
	char *path;
	int n;

	*line = 0;
	if (unit == NULL || (l = dwarf_getsrc_die(unit, addr)) == NULL ||
	    (file = dwarf_linesrc(l, NULL, NULL)) == NULL || dwarf_lineno(l, &n) != 0)
		return NULL;
	*line = n > 0 ? (unsigned int)n : 0;
	dir = dwarf_formstring(dwarf_attr(unit, DW_AT_comp_dir, &a));
	if (file[0] == '/' || dir == NULL)
		return xstrdup(file);
	path = xmalloc(strlen(dir) + strlen(file) + 2);
	return strcat(strcat(strcpy(path, dir), "/"), file);
}
