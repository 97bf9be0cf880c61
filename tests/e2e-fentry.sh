#!/bin/sh
# e2e-fentry.sh -- GCC's -pg -mfentry front-end (x86-64; skipped
# elsewhere).  Every call count and every arc of tests/s-calls.c (no
# inlining, no tail calls) and tests/s-fentry.c (-O2: tail calls, every
# return register, backtrace)
# equals gprof's on the same objects linked with -pg (where gprof is
# installed; main aside, whose call gprof does not see from glibc), under
# both clocks; the program computes what it does on glibc's own
# __fentry__; the same objects linked with neither -pg nor libaprof write
# the same profile under LD_PRELOAD=libaprof.so.0; clang's -pg -mfentry
# too; a unit built with -finstrument-functions and one built -pg -mfentry
# in one program have exact counts; a program linked with -pg is refused
# in one line.
. "$top_srcdir/tests/e2e-lib.sh"

[ -x "$top_builddir/tests/s-calls-fentry" ] || { echo "skip: no -pg -mfentry (x86-64 only)"; exit 77; }
libdir="$top_builddir/runtime/.libs"
have_gprof=0
command -v gprof >/dev/null 2>&1 && have_gprof=1

# objects NAME: the objects make built for tests/NAME.
objects() { ls "$top_builddir"/tests/$(echo "$1" | tr - _)-*.o; }

# calls_of REPORT: "name calls" of every routine with calls in REPORT's flat
# profile, main aside, sorted.
calls_of() {
	awk '/^Flat profile/ { f = 1 } /Call graph/ { f = 0 }
		f && NF == 7 && $4 ~ /^[0-9]+$/ && $7 != "main" { print $7, $4 }' "$1" | sort
}
# arcs_of REPORT: "caller callee count" of every arc in REPORT's call graph
# (its parent lines: gprof has no entry of main, whose call it does not
# see), sorted.
arcs_of() {
	awk '/^index/ { g = 1; n = 0; next } /^Index by/ { g = 0 } !g { next }
		/^-+$/ { n = 0; after = 0; next }
		/^\[[0-9]+\]/ { for (i = 1; i <= n; i++) print parent[i], $(NF - 1), count[i]
			after = 1; next }
		!after && $NF ~ /^\[[0-9]+\]$/ { n++; parent[n] = $(NF - 1); count[n] = $(NF - 2) }' "$1" |
		sort
}

# against_gprof NAME ARGS: tests/NAME's profile (in $WORK/amon.out) against
# gprof's on its objects linked with -pg.
against_gprof() {
	prog=$1
	shift
	"$APROF" -b "$top_builddir/tests/$prog" "$WORK/amon.out" >"$WORK/report"
	if [ $have_gprof = 0 ]; then
		echo "skip: $prog against gprof: no gprof"
		return
	fi
	# shellcheck disable=SC2046
	"$CC" -pg -pthread -o "$WORK/$prog-pg" $(objects "$prog") || fail "cannot link $prog with -pg"
	(cd "$WORK" && rm -f gmon.out && "./$prog-pg" "$@" >/dev/null)
	gprof -b "$WORK/$prog-pg" "$WORK/gmon.out" >"$WORK/gprof"
	expect_eq "$prog ($clock): calls as gprof's" "$(calls_of "$WORK/report")" "$(calls_of "$WORK/gprof")"
	expect_eq "$prog ($clock): arcs as gprof's" "$(arcs_of "$WORK/report")" "$(arcs_of "$WORK/gprof")"
	[ -n "$(calls_of "$WORK/gprof")" ] || fail "$prog: gprof saw no calls"
}

for clock in sample counter; do
	APROF_CLOCK=$clock
	export APROF_CLOCK
	profile s-calls-fentry
	"$APROF" -b "$top_builddir/tests/s-calls-fentry" "$WORK/amon.out" >"$WORK/report"
	expect_eq "s-calls ($clock): flat calls main" "$(flat_calls main)" 1
	expect_eq "s-calls ($clock): flat calls alpha" "$(flat_calls alpha)" 3
	expect_eq "s-calls ($clock): flat calls beta" "$(flat_calls beta)" 7
	expect_eq "s-calls ($clock): flat calls leaf" "$(flat_calls leaf)" 41
	expect_eq "s-calls ($clock): flat calls fact" "$(flat_calls fact)" 1
	contexts "$top_builddir/tests/s-calls-fentry" "$WORK/amon.out"
	expect_eq "s-calls ($clock): context main > beta > leaf" "$(context_row 'main > beta > leaf')" "35+0"
	expect_eq "s-calls ($clock): context main > fact" "$(context_row 'main > fact')" "1+5"
	against_gprof s-calls-fentry

	profile s-fentry
	cp "$WORK/stdout" "$WORK/stdout-aprof"
	contexts "$top_builddir/tests/s-fentry" "$WORK/amon.out"
	# A tail call is a return and a call from the caller, as gprof sees it.
	expect_eq "s-fentry ($clock): context main > leaf" "$(context_row 'main > leaf')" "10+0"
	expect_eq "s-fentry ($clock): context main > mid" "$(context_row 'main > mid')" "5+0"
	expect_eq "s-fentry ($clock): context main > even" "$(context_row 'main > even')" "50001+0"
	expect_eq "s-fentry ($clock): context main > odd" "$(context_row 'main > odd')" "50000+0"
	expect_eq "s-fentry ($clock): context main > trace1 > trace2 > trace3" \
		"$(context_row 'main > trace1 > trace2 > trace3')" "1+0"
	amon_threads "$WORK/amon.out"
	expect_eq "s-fentry ($clock): resyncs, unmatched" \
		"$(thread_field s-fentry resyncs) $(thread_field s-fentry unmatched)" "0 0"
	against_gprof s-fentry
done
unset APROF_CLOCK

# The same objects on glibc's own __fentry__, a call that returns at once:
# what the program computes, backtrace's depth included, is the same.
# shellcheck disable=SC2046
"$CC" -pthread -o "$WORK/s-fentry-bare" $(objects s-fentry) || fail "cannot link s-fentry bare"
"$WORK/s-fentry-bare" >"$WORK/stdout-bare"
expect_eq "s-fentry: stdout as on glibc's __fentry__" "$(cat "$WORK/stdout-aprof")" "$(cat "$WORK/stdout-bare")"

# Linked with neither -pg nor libaprof: profiled under LD_PRELOAD, by the
# name make install gives the library itself (libaprof.so is a linker
# script there), in a program that makes threads too.
# shellcheck disable=SC2046
"$CC" -pthread -o "$WORK/s-calls-bare" $(objects s-calls-fentry) || fail "cannot link s-calls bare"
rm -f "$WORK/amon.out"
(cd "$WORK" && ./s-calls-bare >/dev/null) && [ ! -e "$WORK/amon.out" ] ||
	fail "s-calls bare: failed, or wrote a profile without libaprof"
(cd "$WORK" && LD_PRELOAD="$libdir/libaprof.so.0" APROF_OUT="$WORK/amon.out" ./s-calls-bare >/dev/null) ||
	fail "s-calls bare under LD_PRELOAD: failed"
"$APROF" -b "$WORK/s-calls-bare" "$WORK/amon.out" >"$WORK/report"
expect_eq "LD_PRELOAD: flat calls leaf" "$(flat_calls leaf)" 41
expect_eq "LD_PRELOAD: flat calls beta" "$(flat_calls beta)" 7
contexts "$WORK/s-calls-bare" "$WORK/amon.out"
expect_eq "LD_PRELOAD: context main > alpha > leaf" "$(context_row 'main > alpha > leaf')" "6+0"
expect_eq "LD_PRELOAD: context main > fact" "$(context_row 'main > fact')" "1+5"
# shellcheck disable=SC2046
"$CC" -pthread -o "$WORK/s-workers-bare" $(objects s-workers-fentry) || fail "cannot link s-workers bare"
(cd "$WORK" && LD_PRELOAD="$libdir/libaprof.so.0" APROF_OUT="$WORK/amon.out" ./s-workers-bare >/dev/null) ||
	fail "s-workers bare under LD_PRELOAD: failed"
contexts "$WORK/s-workers-bare" "$WORK/amon.out"
expect_eq "LD_PRELOAD: context worker > leaf" "$(context_row 'worker > leaf')" "36000+0"
expect_eq "LD_PRELOAD: context worker > step > leaf" "$(context_row 'worker > step > leaf')" "36+0"

# clang's -pg -mfentry calls __fentry__ alike (its call rel32): the same
# source, the same contexts, the same output.
if command -v clang >/dev/null 2>&1; then
	clang -O2 -g -pg -mfentry -Wno-unknown-attributes -c -o "$WORK/s-fentry-clang.o" \
		"$top_srcdir/tests/s-fentry.c" &&
		clang -pthread -o "$WORK/s-fentry-clang" "$WORK/s-fentry-clang.o" -L"$libdir" -laprof \
			-Wl,-rpath,"$libdir" || fail "cannot build s-fentry with clang"
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" ./s-fentry-clang >"$WORK/stdout-clang") ||
		fail "s-fentry (clang) failed"
	expect_eq "clang: stdout" "$(cat "$WORK/stdout-clang")" "$(cat "$WORK/stdout-bare")"
	contexts "$WORK/s-fentry-clang" "$WORK/amon.out"
	expect_eq "clang: context main > mid" "$(context_row 'main > mid')" "5+0"
	expect_eq "clang: context main > even" "$(context_row 'main > even')" "50001+0"
	expect_eq "clang: context main > trace1 > trace2 > trace3" \
		"$(context_row 'main > trace1 > trace2 > trace3')" "1+0"
else
	echo "skip: no clang"
fi

# Both front-ends in one program: main and leaf2 with -finstrument-functions,
# middle with -pg -mfentry, calling each other.
cat >"$WORK/hooked.c" <<'END'
void middle(int);
void leaf2(void);
volatile int sink2;
void leaf2(void) { sink2++; }
int main(void) { int i; for (i = 0; i < 4; i++) middle(i); return 0; }
END
cat >"$WORK/fentry.c" <<'END'
void middle(int);
void leaf2(void);
void middle(int n) { int i; for (i = 0; i <= n; i++) leaf2(); }
END
"$CC" -O0 -g -finstrument-functions -c -o "$WORK/hooked.o" "$WORK/hooked.c" &&
	"$CC" -O0 -g -pg -mfentry -c -o "$WORK/fentry.o" "$WORK/fentry.c" &&
	"$CC" -o "$WORK/mixed" "$WORK/hooked.o" "$WORK/fentry.o" -L"$libdir" -laprof \
		-Wl,-rpath,"$libdir" || fail "cannot build the mixed program"
(cd "$WORK" && APROF_OUT="$WORK/amon.out" ./mixed) || fail "mixed: failed"
contexts "$WORK/mixed" "$WORK/amon.out"
expect_eq "mixed: context main > middle" "$(context_row 'main > middle')" "4+0"
expect_eq "mixed: context main > middle > leaf2" "$(context_row 'main > middle > leaf2')" "10+0"

# Linked with -pg: refused in one line, before gmon or libaprof profiles.
# shellcheck disable=SC2046
"$CC" -pg -pthread -o "$WORK/s-calls-pg" $(objects s-calls-fentry) -L"$libdir" -laprof \
	-Wl,-rpath,"$libdir" || fail "cannot link s-calls with -pg and libaprof"
rm -f "$WORK/amon.out" "$WORK/gmon.out"
status=0
(cd "$WORK" && ./s-calls-pg >/dev/null 2>"$WORK/stderr") || status=$?
expect_eq "-pg: exit status" "$status" 1
expect_eq "-pg: one line" "$(wc -l <"$WORK/stderr" | tr -d ' ')" 1
expect_eq "-pg: says why" "$(grep -c 'linked with -pg' "$WORK/stderr")" 1
expect_eq "-pg: no profile" "$(ls "$WORK/amon.out" "$WORK/gmon.out" 2>/dev/null)" ""
# And linked with -pg alone, under LD_PRELOAD.
# shellcheck disable=SC2046
"$CC" -pg -pthread -o "$WORK/s-calls-gmon" $(objects s-calls-fentry) || fail "cannot link s-calls with -pg"
rm -f "$WORK/amon.out" "$WORK/gmon.out"
status=0
(cd "$WORK" && LD_PRELOAD="$libdir/libaprof.so.0" ./s-calls-gmon >/dev/null 2>"$WORK/stderr") || status=$?
expect_eq "-pg, LD_PRELOAD: exit status" "$status" 1
expect_eq "-pg, LD_PRELOAD: says why" "$(grep -c 'linked with -pg' "$WORK/stderr")" 1
expect_eq "-pg, LD_PRELOAD: no profile" "$(ls "$WORK/amon.out" "$WORK/gmon.out" 2>/dev/null)" ""
finish
