/*
** s-plugin.c -- an instrumented shared library for s-dlopen.c, built as a
** libtool module (tests/.libs/s-plugin.so) and opened with dlopen.
** plugin_run(n) calls plugin_leaf n times.
*/
static volatile int sink;

void plugin_leaf(int i);
int plugin_run(int n);


void plugin_leaf(int i)
{
	sink += i;
}


int plugin_run(int n)
{
	int i;

	for (i = 0; i < n; i++)
		plugin_leaf(i);
	return sink;
}
