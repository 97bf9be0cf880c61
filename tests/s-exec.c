/*
** s-exec.c -- exec without fork: "s-exec FUNCTION OUT2" calls stage_one 4
** times, points APROF_OUT at OUT2 and replaces itself (FUNCTION: execv,
** execve, execl, execle, execlp or execvp) with "s-exec second", which calls
** stage_two 6 times and exits.  The first image's profile must be written
** before the exec (stage_one 4, no stage_two); the second's goes to OUT2
** (stage_two 6, no stage_one).  OUT2 "-" leaves APROF_OUT as it is, and
** "twice" makes the second image call stage_two once and exec a third,
** which calls it twice.
*/
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int sink;

void stage_one(void);
void stage_two(void);


void stage_one(void)
{
	sink++;
}


void stage_two(void)
{
	sink++;
}


int main(int argc, char **argv)
{
	static const char self[] = "/proc/self/exe";
	char *args[] = { argv[0], "second", NULL };
	const char *how;
	int i;

	if (argc >= 2 && strcmp(argv[1], "second") == 0) {
		int third = argc == 3 && strcmp(argv[2], "third") == 0;

		for (i = 0; i < (argc == 2 ? 6 : third ? 2 : 1); i++)
			stage_two();
		if (argc == 3 && !third)
			execl(self, argv[0], "second", "third", (char *)NULL);
		return 0;
	}
	if (argc != 3)
		return 2;
	for (i = 0; i < 4; i++)
		stage_one();
	if (strcmp(argv[2], "-") != 0 && strcmp(argv[2], "twice") != 0 &&
	    setenv("APROF_OUT", argv[2], 1) != 0)
		return 2;
	if (strcmp(argv[2], "twice") == 0)
		execl(self, argv[0], "second", "again", (char *)NULL);
	fflush(stdout);
	how = argv[1];
	if (strcmp(how, "execv") == 0)
		execv(self, args);
	else if (strcmp(how, "execve") == 0)
		execve(self, args, environ);
	else if (strcmp(how, "execl") == 0)
		execl(self, argv[0], "second", (char *)NULL);
	else if (strcmp(how, "execle") == 0)
		execle(self, argv[0], "second", (char *)NULL, environ);
	else if (strcmp(how, "execlp") == 0)
		execlp(self, argv[0], "second", (char *)NULL);
	else if (strcmp(how, "execvp") == 0)
		execvp(self, args);
	return 3;
}
