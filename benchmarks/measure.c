/*
** measure.c -- benchmarks/perf.sh's stopwatch: runs a command and appends
** one line to RESULTS: its wall time in seconds (CLOCK_MONOTONIC around
** fork and wait), the peak resident set of the largest process it ran in
** KiB (getrusage(RUSAGE_CHILDREN), so uftrace's or valgrind's own
** processes count), its exit status, and the CPU seconds (user + system)
** of every process it ran: on a busy machine the CPU time of a
** single-threaded run is what load disturbs least, since time spent waiting
** for a core is not in it.
**     measure RESULTS command [argument...]
** Lighter and finer than /usr/bin/time (10 ms): nothing but fork, exec and
** wait4 between the two clock reads.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


int main(int argc, char **argv)
{
	struct rusage ru;
	double t0, t1;
	FILE *out;
	pid_t pid;
	int status, code;

	if (argc < 3) {
		fprintf(stderr, "usage: measure RESULTS command [argument...]\n");
		return 2;
	}
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("measure: waitpid");
			return 2;
		}
	t1 = now();
	getrusage(RUSAGE_CHILDREN, &ru);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	out = fopen(argv[1], "a");
	if (out == NULL) {
		perror(argv[1]);
		return 2;
	}
	fprintf(out, "%.6f %ld %d %.6f\n", t1 - t0, ru.ru_maxrss, code,
		(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	fclose(out);
	return code;
}
