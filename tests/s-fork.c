/*
** s-fork.c -- fork with both sides calling known functions: the parent
** calls parent_work 3 times after the fork, the child child_work 5 times;
** both called shared_before twice before the fork.  The child's profile
** (amon.out.<pid>) holds only what the child did; then the child execs
** /bin/true when given "exec", writing its profile first.
*/
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

void shared_before(void);
void parent_work(void);
void child_work(void);


void shared_before(void)
{
	sink++;
}


void parent_work(void)
{
	sink++;
}


void child_work(void)
{
	sink++;
}


int main(int argc, char **argv)
{
	pid_t pid;
	int i, status;

	for (i = 0; i < 2; i++)
		shared_before();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (i = 0; i < 5; i++)
			child_work();
		if (argc > 1 && strcmp(argv[1], "exec") == 0) {
			execl("/bin/true", "true", (char *)NULL);
			return 2;
		}
		_exit(0);
	}
	for (i = 0; i < 3; i++)
		parent_work();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 1;
	printf("child %d\n", (int)pid);
	return 0;
}
