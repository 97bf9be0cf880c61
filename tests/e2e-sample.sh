#!/bin/sh
# e2e-sample.sh -- sampling mode (APROF_CLOCK=sample), tests/s-sample.c: a
# sample outside the runtime goes to the current context, exactly (100
# SIGPROFs raised in raised(), at APROF_HZ=1 so the timer adds none); calls
# are exact as with the cycle counter; samples that land in the runtime's own
# code are counted apart (--stats' runtime-samples and their share,
# runtime-samples-percent), never in a context, those in the program's own
# copy of the hooks too (a system call made beside it, in section aprof_text,
# sends 100 SIGPROFs: x86-64 only).
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-sample"
(cd "$WORK" && APROF_CLOCK=sample APROF_HZ=1 APROF_OUT="$WORK/amon.out" "$exe" raise >"$WORK/stdout")
"$APROF" -b -p "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls raised" "$(flat_calls raised)" 1
expect_eq "raised's self seconds (100 samples of 1 s)" \
	"$(awk '$NF == "raised" { print $3 }' "$WORK/report")" 100.00
"$APROF" --stats "$exe" "$WORK/amon.out" >"$WORK/stats"
# runtime_samples: the thread's samples in the runtime and their share, from $WORK/stats.
runtime_samples() {
	awk '$1 == "runtime-samples" { n = $2 } $1 == "runtime-samples-percent" { print n, $2 }' "$WORK/stats"
}
expect_eq "runtime samples" "$(runtime_samples)" "0 0.00"

(cd "$WORK" && APROF_CLOCK=sample APROF_HZ=1 APROF_OUT="$WORK/amon.out" "$exe" hooks >"$WORK/stdout")
sent=$(cat "$WORK/stdout")
"$APROF" --stats "$exe" "$WORK/amon.out" >"$WORK/stats"
expect_eq "runtime samples: the $sent in the program's copy of the hooks" \
	"$(awk '$1 == "runtime-samples" { print $2 }' "$WORK/stats")" "$sent"

# Hooks around about as much work of the program's for 0.3 s: of the run's
# samples, some land in the hooks and some in leaf.
(cd "$WORK" && APROF_CLOCK=sample APROF_OUT="$WORK/amon.out" "$exe" spin >"$WORK/stdout")
"$APROF" -b -p "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls leaf" "$(flat_calls leaf)" "$(cat "$WORK/stdout")"
"$APROF" --stats "$exe" "$WORK/amon.out" >"$WORK/stats"
expect_eq "samples in the runtime, and in the program" \
	"$(runtime_samples | awk '{ print ($1 > 0 && $2 > 0 && $2 < 100) ? "both" : $0 }')" both
finish
