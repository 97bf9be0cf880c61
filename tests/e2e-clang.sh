#!/bin/sh
# e2e-clang.sh -- programs built with clang (Debian's clang 14) at -O2 are
# profiled exactly, with both of its instrumentation flags:
# -finstrument-functions (every routine, instrumented before inlining, as
# GCC does) and -finstrument-functions-after-inlining (only the routines
# left after inlining).  A C program (tests/s-clang.c) and a C++ one
# (tests/s-clang.cc: virtual calls, a template, exceptions, which clang
# leaves without exit hooks).  Skipped when there is no clang.
. "$top_srcdir/tests/e2e-lib.sh"
# Programs built here with the sanitized libaprof would need the sanitizers' flags too.
if sanitized "programs built here against libaprof"; then exit 77; fi

command -v clang >/dev/null && command -v clang++ >/dev/null || {
	echo "skip: no clang (Debian package clang)"
	exit 77
}
libs="-L$top_builddir/runtime/.libs -laprof -Wl,-rpath,$top_builddir/runtime/.libs"

# build COMPILER FLAG SOURCE: $WORK/prog from SOURCE, linked with libaprof.so.
build() {
	# shellcheck disable=SC2086
	"$1" -O2 -g "$2" -o "$WORK/prog" "$3" $libs
}

# run: $WORK/prog's profile in $WORK/report, its threads' records in $WORK/threads.
run() {
	rm -f "$WORK/amon.out"
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$WORK/prog" >/dev/null 2>&1) || fail "$flag: prog failed"
	"$APROF" -b "$WORK/prog" "$WORK/amon.out" >"$WORK/report"
	amon_threads "$WORK/amon.out"
}

for flag in -finstrument-functions -finstrument-functions-after-inlining; do
	build clang "$flag" "$top_srcdir/tests/s-clang.c"
	run
	expect_eq "C $flag: flat calls main" "$(flat_calls main)" 1
	expect_eq "C $flag: flat calls alpha" "$(flat_calls alpha)" 3
	expect_eq "C $flag: flat calls beta" "$(flat_calls beta)" 7
	expect_eq "C $flag: flat calls leaf" "$(flat_calls leaf)" 41
	graph_entry leaf >"$WORK/leaf"
	expect_eq "C $flag: arc alpha -> leaf" "$(arc_field alpha in 3 <"$WORK/leaf")" 6/41
	expect_eq "C $flag: arc beta -> leaf" "$(arc_field beta in 3 <"$WORK/leaf")" 35/41
	# twice is inlined into leaf: instrumented before inlining, not after.
	if [ "$flag" = -finstrument-functions ]; then want=41; want_arc=41/41; else want=; want_arc=; fi
	expect_eq "C $flag: flat calls twice" "$(flat_calls twice)" "$want"
	expect_eq "C $flag: arc leaf -> twice" "$(arc_field twice out 3 <"$WORK/leaf")" "$want_arc"

	build clang++ "$flag" "$top_srcdir/tests/s-clang.cc"
	run
	expect_eq "C++ $flag: flat calls total" "$(flat_calls 'total(std::vector<Shape*, std::allocator<Shape*> > const&)')" 4
	expect_eq "C++ $flag: flat calls Square::area" "$(flat_calls 'Square::area() const')" 12
	expect_eq "C++ $flag: flat calls Rect::area" "$(flat_calls 'Rect::area() const')" 8
	if [ "$flag" = -finstrument-functions ]; then want=20; else want=; fi
	expect_eq "C++ $flag: flat calls scaled<long>" "$(flat_calls 'long scaled<long>(long)')" "$want"
	expect_eq "C++ $flag: descend called 5+15" \
		"$(grep -cE '^\[[0-9]+\] .* 5\+15 +descend\(int\) \[' "$WORK/report")" 1
	# Each of the 5 throws leaves descend's 4 frames without exit hooks.
	expect_eq "C++ $flag: frames resynchronised" \
		"$(thread_field '*' resyncs)" 20
	graph_entry 'after_catch()' >"$WORK/after"
	expect_eq "C++ $flag: arc main -> after_catch (after the throws)" \
		"$(arc_field main in 3 <"$WORK/after")" 1/1
done
finish
