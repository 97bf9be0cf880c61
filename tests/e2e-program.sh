#!/bin/sh
# e2e-program.sh -- finding the program: with no executable named
# (aprof amon.out, aprof alone), aprof reads the one amon.out recorded when
# its build ID is the recorded one, else ./a.out if that is the program,
# and says which in one line on stderr; a recorded executable missing or
# rebuilt since is one error line.  gprof's forms, aprof PROG [amon.out...],
# are unchanged.
. "$top_srcdir/tests/e2e-lib.sh"

# A copy of s-calls in $WORK, to move and replace; run there, it writes $WORK/amon.out.
cp "$top_builddir/tests/s-calls" "$WORK/prog"
# The path the runtime records: /proc/self/exe, symbolic links resolved.
real=$(cd "$WORK" && pwd -P)
(cd "$WORK" && ./prog >/dev/null) || fail "prog did not run"
"$APROF" -b "$WORK/prog" "$WORK/amon.out" >"$WORK/named" 2>"$WORK/named.err"
expect_eq "named: nothing on stderr" "$(cat "$WORK/named.err")" ""

# runs DIR ARGS...: aprof -b ARGS in DIR, report in $WORK/report, stderr in $WORK/err; the status.
runs() {
	dir=$1
	shift
	status=0
	(cd "$dir" && "$APROF" -b "$@" >"$WORK/report" 2>"$WORK/err") || status=$?
	echo "$status"
}

expect_eq "aprof amon.out: status" "$(runs "$WORK" amon.out)" 0
expect_eq "aprof amon.out: the named report" "$(cmp -s "$WORK/report" "$WORK/named" && echo same)" same
expect_eq "aprof amon.out: one line on stderr" "$(cat "$WORK/err")" \
	"aprof: using $real/prog, the executable recorded in amon.out (same build ID)"
expect_eq "aprof alone: status" "$(runs "$WORK")" 0
expect_eq "aprof alone: the named report" "$(cmp -s "$WORK/report" "$WORK/named" && echo same)" same
expect_eq "aprof alone: stderr" "$(wc -l <"$WORK/err")" 1
# From another directory, by the profile's path.
mkdir "$WORK/elsewhere"
expect_eq "aprof DIR/amon.out: status" "$(runs "$WORK/elsewhere" ../amon.out)" 0
expect_eq "aprof DIR/amon.out: calls" "$(flat_calls leaf)" 41
# Two profiles, no executable: their sum, of the recorded one.
expect_eq "aprof amon.out amon.out: status" "$(runs "$WORK" amon.out amon.out)" 0
expect_eq "aprof amon.out amon.out: summed calls" "$(flat_calls leaf)" 82
# gprof's forms: the executable alone (amon.out by default), and both.
expect_eq "aprof PROG: status" "$(runs "$WORK" ./prog)" 0
expect_eq "aprof PROG: calls" "$(flat_calls leaf)" 41
expect_eq "aprof PROG: nothing on stderr" "$(cat "$WORK/err")" ""
# --diff's old profile: its own recorded executable.
expect_eq "aprof --diff: status" "$(runs "$WORK" --diff=amon.out amon.out)" 0
expect_eq "aprof --diff: two notes" "$(grep -c '^aprof: using ' "$WORK/err")" 2

# The recorded executable moved away: ./a.out, gprof's default, if it is the
# program; else one error line.
mv "$WORK/prog" "$WORK/a.out"
expect_eq "moved, a.out: status" "$(runs "$WORK" amon.out)" 0
expect_eq "moved, a.out: the named report" "$(cmp -s "$WORK/report" "$WORK/named" && echo same)" same
expect_eq "moved, a.out: stderr" "$(cat "$WORK/err")" \
	"aprof: using a.out, the executable that wrote amon.out (same build ID)"
mv "$WORK/a.out" "$WORK/moved"
expect_eq "moved: status" "$(runs "$WORK" amon.out)" 1
expect_eq "moved: one error line" "$(cat "$WORK/err")" \
	"aprof: amon.out: the executable that wrote it, $real/prog, is missing; name it: aprof PROG amon.out"
expect_eq "moved: no report" "$(wc -c <"$WORK/report")" 0
expect_eq "moved, named: status" "$(runs "$WORK" ./moved amon.out)" 0
expect_eq "moved, named: calls" "$(flat_calls leaf)" 41

# Another program where the recorded one was (a rebuild): one error line.
cp "$top_builddir/tests/s-work" "$WORK/prog"
expect_eq "rebuilt: status" "$(runs "$WORK" amon.out)" 1
expect_eq "rebuilt: one error line" "$(cat "$WORK/err")" \
	"aprof: amon.out: $real/prog is not the executable that wrote it (another build ID: rebuilt since?); name that one: aprof PROG amon.out"
# Not an object file at all.
echo text >"$WORK/prog"
expect_eq "not an object: status" "$(runs "$WORK")" 1
expect_eq "not an object: one error line" "$(wc -l <"$WORK/err")" 1
expect_eq "not an object: says so" "$(grep -c 'is not an object file; name it' "$WORK/err")" 1
finish
