#!/bin/sh
# e2e-split.sh -- sampled CPU time, the default clock, on a busy machine:
# tests/s-split.c's arc a -> work carries ten times the work of b -> work
# (10 calls against 90).  With both cores kept busy by other processes,
# each of 10 runs must read the arcs' self times within 10% of the ratio
# the program measured in its own CPU time, which is 10:1 on a quiet
# machine and moves when other processes slow the same work down at one
# moment more than at another: time the thread was not running is not
# counted, however long the scheduler kept it waiting.  Each run samples
# some 0.3 s of CPU time 10,000 times a second: b's arc holds some 250
# samples, and the period of a task clock's samples is exact, so the count
# in b's 90 intervals varies by a few samples, not by its square root.
# Where perf events are refused (perf_event_paranoid), sampling falls back
# to the kernel's tick and this test is skipped (exit 77).
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-split"
busy() { while :; do :; done; }
busy &
hog1=$!
busy &
hog2=$!
trap 'kill $hog1 $hog2 2>/dev/null; rm -rf "$WORK"' EXIT
for run in 1 2 3 4 5 6 7 8 9 10; do
	(cd "$WORK" && APROF_HZ=10000 APROF_OUT="$WORK/amon.out" "$exe" 400000 >"$WORK/stdout" 2>"$WORK/stderr")
	if grep -q "kernel's tick" "$WORK/stderr"; then
		echo "skip: $(cat "$WORK/stderr")"
		exit 77
	fi
	"$APROF" -b -q "$exe" "$WORK/amon.out" >"$WORK/report"
	graph_entry work >"$WORK/work"
	expect_eq "run $run: arc a -> work" "$(arc_field a in 3 <"$WORK/work")" 10/100
	expect_eq "run $run: arc b -> work" "$(arc_field b in 3 <"$WORK/work")" 90/100
	from_a=$(arc_field a in 1 <"$WORK/work")
	from_b=$(arc_field b in 1 <"$WORK/work")
	measured=$(sed -n 's/^measured a:b //p' "$WORK/stdout")
	within "run $run: a -> work : b -> work ($from_a s : $from_b s), measured $measured:1" \
		"$(awk -v a="$from_a" -v b="$from_b" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$measured" 0.10
done
finish
