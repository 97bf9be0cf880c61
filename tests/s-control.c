/*
** s-control.c -- the program's control of its profile (<aprof.h>).  The
** argument picks what it does between before() (5 blocks of 100 bytes,
** kept) and after() (7 blocks of 10 bytes, kept):
**
**   dump      before; aprof_dump(), and copies the file it wrote to
**             snapshot.out at once; after; exits (amon.out written again)
**   stop      before; aprof_stop(); after; exits (nothing written at exit)
**   restart   before; aprof_restart("other.out"); frees one of before's
**             blocks (allocated before the restart: not charged); after
**   autosave  aprof_set_autosave(100); many() makes 150 allocations of
**             8 bytes and checks with stat() that the profile does not
**             exist after the 99th and does after the 100th, and copies
**             it then to autosave.out
**   plain     before; after (for APROF_HEAP=0)
**
** Exits 3 if a check of its own fails.  tests/e2e-control.sh reads the files.
*/
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aprof.h"

static void *kept[150]; /* the blocks made, so none is lost to the compiler */

void before(void);
void after(void);
void many(const char *out);


void before(void)
{
	int i;

	for (i = 0; i < 5; i++)
		kept[i] = malloc(100);
}


void after(void)
{
	int i;

	for (i = 0; i < 7; i++)
		kept[10 + i] = malloc(10);
}


/* Copies FROM to TO with system calls only (no allocation to count). */
static void copy(const char *from, const char *to)
{
	char buf[4096];
	ssize_t n;
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0666);

	if (in < 0 || out < 0)
		exit(3);
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			exit(3);
	if (n < 0 || close(in) != 0 || close(out) != 0)
		exit(3);
}


void many(const char *out)
{
	struct stat st;
	int i;

	for (i = 0; i < 150; i++) {
		kept[i] = malloc(8);
		if (i == 98 && stat(out, &st) == 0)
			exit(3); /* written too early */
		if (i == 99) {
			if (stat(out, &st) != 0)
				exit(3); /* not written after the 100th */
			copy(out, "autosave.out");
		}
	}
}


int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	const char *out = getenv("APROF_OUT") ? getenv("APROF_OUT") : "amon.out";

	if (strcmp(mode, "autosave") == 0) {
		aprof_set_autosave(100);
		many(out);
		return 0;
	}
	before();
	if (strcmp(mode, "dump") == 0) {
		if (aprof_dump() != 0)
			return 3;
		copy(out, "snapshot.out");
	} else if (strcmp(mode, "stop") == 0) {
		if (aprof_stop() != 0)
			return 3;
	} else if (strcmp(mode, "restart") == 0) {
		aprof_restart("other.out");
		free(kept[0]);
	}
	after();
	return 0;
}
