# many-functions.awk -- writes the sources of a program of N routines, for
# the benchmarks that need a large profile (scale.sh, pprof.sh): f_i calls
# leaf; group g_k calls f_100k .. f_100k+99; DIR/part0.c .. part7.c hold
# the f_i, DIR/main.c leaf and the groups, and main() is the caller's to
# append (every group called once).  Run with -v n=N -v dir=DIR.
BEGIN {
	parts = 8
	groups = int(n / 100)
	per = int((n + parts - 1) / parts)
	for (p = 0; p < parts; p++) {
		f = dir "/part" p ".c"
		print "void leaf(void);" > f
		for (i = p * per; i < (p + 1) * per && i < n; i++)
			printf "void f%d(void) { leaf(); }\n", i > f
		close(f)
	}
	f = dir "/main.c"
	print "volatile unsigned long sink;\nvoid leaf(void) { sink++; }" > f
	for (i = 0; i < n; i++)
		printf "void f%d(void);\n", i > f
	for (g = 0; g < groups; g++) {
		printf "void g%d(void) {", g > f
		for (i = g * 100; i < g * 100 + 100 && i < n; i++)
			printf " f%d();", i > f
		print " }" > f
	}
	close(f)
}
