#!/bin/sh
# e2e-prologue.sh -- sampled time charged to the routine whose code ran
# (x86-64): tests/s-prologue.c's leaf does its work in its prologue and
# epilogue, outside its hooks, while its caller loop's context is current.
# A sample there is leaf's (runtime/sample.c, sampled_context): leaf's self
# time must be at least twice loop's (perf on the uninstrumented build gives
# leaf 99% of the run; charged to the context current, leaf read 9%).
. "$top_srcdir/tests/e2e-lib.sh"

if [ "$(uname -m)" != x86_64 ]; then
	echo "skip: x86-64 only (the return address on the stack)"
	exit 77
fi
exe="$top_builddir/tests/s-prologue"
(cd "$WORK" && APROF_HZ=10000 APROF_OUT="$WORK/amon.out" "$exe" 30000000 >"$WORK/stdout" 2>"$WORK/stderr")
expect_eq "stdout" "$(cat "$WORK/stdout")" "prologue 30000000"
"$APROF" -b -p "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls leaf" "$(flat_calls leaf)" 30000000
leaf=$(awk '$NF == "leaf" { print $3 }' "$WORK/report")
loop=$(awk '$NF == "loop" { print $3 }' "$WORK/report")
if awk -v a="$leaf" -v b="$loop" 'BEGIN { exit !(a > 0 && a >= 2 * b) }'; then
	echo "ok: leaf's self time $leaf s, at least twice loop's $loop s"
else
	fail "leaf's self time $leaf s, loop's $loop s: leaf's prologue and epilogue charged to loop"
fi
finish
