#!/bin/sh
# e2e-static.sh -- libaprof linked into the program (libaprof.a) rather than
# loaded with it: exact call counts (tests/s-calls.c), exact bytes on arcs
# with malloc interposed from the executable (tests/s-work.c), and threads
# (tests/s-threads.c), and an instrumented library the program dlopens
# (tests/s-plugin.c), which finds the hooks in the executable: as with the
# shared library.
. "$top_srcdir/tests/e2e-lib.sh"

for p in s-calls-static s-work-static s-threads-static; do
	expect_eq "$p: no libaprof.so needed" \
		"$(readelf -d "$top_builddir/tests/$p" | grep -c 'NEEDED.*libaprof')" 0
done

profile s-calls-static
"$APROF" -b "$top_builddir/tests/s-calls-static" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls alpha" "$(flat_calls alpha)" 3
expect_eq "flat calls beta" "$(flat_calls beta)" 7
expect_eq "flat calls leaf" "$(flat_calls leaf)" 41
graph_entry leaf >"$WORK/leaf"
expect_eq "arc alpha -> leaf" "$(arc_field alpha in 3 <"$WORK/leaf")" 6/41
expect_eq "arc beta -> leaf" "$(arc_field beta in 3 <"$WORK/leaf")" 35/41
expect_eq "fact called 1+5" "$(grep -cE '^\[[0-9]+\] .* 1\+5 +fact \[' "$WORK/report")" 1

profile s-work-static
"$APROF" -b -q --metric=bytes "$top_builddir/tests/s-work-static" "$WORK/amon.out" >"$WORK/report"
graph_entry work >"$WORK/work"
expect_eq "bytes a -> work" "$(arc_field a in 1 <"$WORK/work")" 10000.00
expect_eq "bytes b -> work" "$(arc_field b in 1 <"$WORK/work")" 100.00
"$APROF" --stats "$top_builddir/tests/s-work-static" "$WORK/amon.out" >"$WORK/stats"
expect_eq "heap-tracking calls" "$(awk '$1 == "heap-events" { print $2 }' "$WORK/stats")" 40

profile s-threads-static
"$APROF" -b "$top_builddir/tests/s-threads-static" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls worker (4 threads)" "$(flat_calls worker)" 4
expect_eq "flat calls leaf (4 threads and main)" "$(flat_calls leaf)" 4010
# Linked by hand, as a user would: the archive and zlib.
"$CC" -O0 -g -finstrument-functions -o "$WORK/s-dlopen-static" "$top_srcdir/tests/s-dlopen.c" \
	"$top_builddir/runtime/.libs/libaprof.a" -lz -ldl -pthread
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$WORK/s-dlopen-static" \
	"$top_builddir/tests/.libs/s-plugin.so" >"$WORK/stdout")
"$APROF" -b "$WORK/s-dlopen-static" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls plugin_leaf (dlopened)" "$(flat_calls plugin_leaf)" 21

# Linked -static whole: no ld.so, so no next definition for what libaprof
# interposes; the exit (_exit's system call) and longjmp (libc.a's own) work.
expect_eq "s-calls-allstatic: no interpreter" \
	"$(readelf -l "$top_builddir/tests/s-calls-allstatic" | grep -c 'Requesting program interpreter')" 0
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$top_builddir/tests/s-calls-allstatic" >"$WORK/stdout" 2>"$WORK/err") ||
	fail "s-calls-allstatic: exited $?"
expect_eq "s-calls-allstatic: lines on stderr" "$(wc -l <"$WORK/err")" 0
"$APROF" -b "$top_builddir/tests/s-calls-allstatic" "$WORK/amon.out" >"$WORK/report"
expect_eq "s-calls-allstatic: flat calls leaf" "$(flat_calls leaf)" 41
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$top_builddir/tests/s-longjmp-allstatic" >"$WORK/stdout" 2>"$WORK/err") ||
	fail "s-longjmp-allstatic: exited $?"
contexts "$top_builddir/tests/s-longjmp-allstatic" "$WORK/amon.out"
expect_eq "s-longjmp-allstatic: context main > after" "$(context_row 'main > after')" "1000+0"
finish
