/*
** program.c -- which executable wrote a profile (program.h): what a
** profile records of it (runtime/modules.c: /proc/self/exe and the GNU
** build ID) checked against the file with libbfd, so that "aprof amon.out"
** needs no executable named, and never reads another build's symbols.
*/
#include <config.h>

#include <bfd.h>
#include <string.h>

#include "aprof/read/program.h"
#include "aprof/util.h"

/* How a file stands against the executable a profile recorded. */
enum program_match {
	PROGRAM_SAME,       /* the recorded build ID */
	PROGRAM_UNCHECKED,  /* an object, but a build ID missing on one side */
	PROGRAM_OTHER,      /* an object with another build ID */
	PROGRAM_NOT_OBJECT, /* there, but not an object file */
	PROGRAM_MISSING,    /* cannot be opened */
};


/* How the file PATH stands against M, the executable a profile recorded. */
static enum program_match program_match(const char *path, const struct amon_module_info *m)
{
	bfd *abfd = bfd_openr(path, NULL);
	const struct bfd_build_id *id;
	enum program_match r;

	if (abfd == NULL)
		return PROGRAM_MISSING;
	if (!bfd_check_format(abfd, bfd_object)) {
		bfd_close(abfd);
		return PROGRAM_NOT_OBJECT;
	}
	id = abfd->build_id;
	if (id == NULL || m->build_id_length == 0)
		r = PROGRAM_UNCHECKED;
	else if (id->size == m->build_id_length &&
		 memcmp(id->data, m->build_id, id->size) == 0)
		r = PROGRAM_SAME;
	else
		r = PROGRAM_OTHER;
	bfd_close(abfd);
	return r;
}


const char *program_find(const struct amon_data *d)
{
	static const char deleted[] = " (deleted)";
	const struct amon_module_info *exe = &d->modules[0]; /* amon_read checks it is there */
	char *path = exe->path;
	size_t n = strlen(path);
	enum program_match r;

	if (bfd_init() != BFD_INIT_MAGIC)
		util_die("libbfd version mismatch");
	/* Replaced while it ran (rebuilt): the file now there may still be it. */
	if (n > sizeof deleted - 1 && strcmp(path + n - (sizeof deleted - 1), deleted) == 0)
		path[n - (sizeof deleted - 1)] = '\0';
	r = path[0] != '\0' ? program_match(path, exe) : PROGRAM_MISSING;
	if (r == PROGRAM_SAME || r == PROGRAM_UNCHECKED) {
		util_note("using %s, the executable recorded in %s (%s)", path, d->path,
			  r == PROGRAM_SAME ? "same build ID" : "no build ID to compare");
		return path;
	}
	if (strcmp(path, "a.out") != 0 && program_match("a.out", exe) == PROGRAM_SAME) {
		util_note("using a.out, the executable that wrote %s (same build ID)", d->path);
		return "a.out";
	}
	if (r == PROGRAM_OTHER)
		util_die("%s: %s is not the executable that wrote it (another build ID: "
			 "rebuilt since?); name that one: aprof PROG %s", d->path, path, d->path);
	util_die("%s: the executable that wrote it, %s, is %s; name it: aprof PROG %s", d->path,
		 path[0] != '\0' ? path : "(no path recorded)",
		 r == PROGRAM_NOT_OBJECT ? "not an object file" : "missing", d->path);
}
