/*
** s-dlopen.c -- "s-dlopen PLUGIN": dlopens the instrumented library PLUGIN
** (tests/s-plugin.c), calls plugin_run(7) 3 times through call_plugin (so
** plugin_run 3 calls, plugin_leaf 21), dlcloses it and checks that it is
** gone (RTLD_NOLOAD), then calls after_close twice and exits.  The profile
** must still name the library's routines, with their exact counts.
*/
#include <dlfcn.h>
#include <stdio.h>

typedef int (*run_fn)(int);

static volatile int sink;

void call_plugin(run_fn run);
void after_close(void);


void call_plugin(run_fn run)
{
	sink += run(7);
}


void after_close(void)
{
	sink++;
}


int main(int argc, char **argv)
{
	void *h;
	run_fn run;
	int i;

	if (argc != 2 || (h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) == NULL)
		return 1;
	if ((run = (run_fn)dlsym(h, "plugin_run")) == NULL)
		return 1;
	for (i = 0; i < 3; i++)
		call_plugin(run);
	if (dlclose(h) != 0)
		return 1;
	h = dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD);
	printf("unloaded %s\n", h == NULL ? "yes" : "no");
	for (i = 0; i < 2; i++)
		after_close();
	return 0;
}
