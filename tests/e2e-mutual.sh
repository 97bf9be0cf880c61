#!/bin/sh
# e2e-mutual.sh -- tests/s-mutual.c: mutual recursion p -> q -> r -> p.
# Exact call counts on every arc; each routine's self + children is at most
# the run's time (no routine charged twice, however deep the recursion), and
# the routines form one gprof cycle.
. "$top_srcdir/tests/e2e-lib.sh"

profile s-mutual
"$APROF" -b "$top_builddir/tests/s-mutual" "$WORK/amon.out" >"$WORK/report"

for f in p q r; do
	expect_eq "flat calls $f" "$(flat_calls "$f")" 10000
done
expect_eq "flat calls spin" "$(flat_calls spin)" 30000
graph_entry p >"$WORK/p"
# Into a cycle from outside, the denominator is the cycle's calls from outside (gprof).
expect_eq "arc main -> p" "$(arc_field main in 3 <"$WORK/p")" 1000/1000
expect_eq "arc r -> p" "$(arc_field r in 3 <"$WORK/p")" 9000
expect_eq "arc p -> q" "$(arc_field q out 3 <"$WORK/p")" 10000
expect_eq "cycle entry" "$(grep -c '<cycle 1 as a whole>' "$WORK/report")" 1

# The run's time is the total in the granularity line; every primary line's
# self + children must not exceed it (rounding: 0.01 s), nor % time 100.
total=$(sed -n 's/.* of \([0-9.]*\) seconds$/\1/p' "$WORK/report")
awk -v total="$total" '/^\[[0-9]+\]/ {
		if ($2 > 100.0 || $3 + $4 > total + 0.01) { print "FAIL: charged beyond the run: " $0; bad = 1 }
		n++ }
	END { if (n < 5) { print "FAIL: only " n " entries"; bad = 1 } exit bad }' "$WORK/report" ||
	fail "some routine charged more than the run"
finish
