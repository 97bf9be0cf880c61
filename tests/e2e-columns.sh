#!/bin/sh
# e2e-columns.sh -- the report says what it measured: on examples/demo.c, a
# run under a second, the flat profile's first line says what one sample
# was (100 us of CPU time at APROF_HZ=10000), and with APROF_CLOCK=counter
# what one tick of the counter was, not a sample; the call graph's
# granularity line alike; the per-call columns are in a unit in which
# every routine that took time shows it (expr, term and factor, called
# millions of times, take nanoseconds a call), named in their heading;
# --stats labels every number it prints.  10,000 samples a second give
# each of the three some 40 samples.
. "$top_srcdir/tests/e2e-lib.sh"

demo="$top_builddir/examples/demo"

# per_call_check: from the flat profile in $WORK/report, "ok" if every row
# with self seconds (at the precision printed) has non-zero per-call times,
# there are at least MIN such rows, and the least non-zero per-call value
# is 1 or more in the unit (or the unit is ns, the smallest); else what fails.
per_call_check() {
	awk -v unit="$(flat_unit)" -v min="$1" '/^Flat profile/ { f = 1 } /^\f/ { f = 0 }
		f && NF >= 7 && $4 ~ /^[0-9]+$/ && $5 ~ /\./ && $3 > 0 {
			if ($5 == 0 || $6 == 0) bad = bad " " $7
			if (least == "" || $5 < least) least = $5
			rows++ }
		END { if (rows < min) print "only " rows " rows with self seconds"
			else if (bad != "") print "zero per-call:" bad
			else if (least < 1 && unit != 1) print "least " least " under 1 in a unit of " unit " ns"
			else print "ok" }' "$WORK/report"
}

(cd "$WORK" && APROF_HZ=10000 APROF_OUT="$WORK/amon.out" "$demo" >"$WORK/stdout")
"$APROF" -b -p "$demo" "$WORK/amon.out" >"$WORK/report"
expect_eq "sampling: the clock's line" "$(sed -n '/^Flat profile:$/,$p' "$WORK/report" | sed -n 3p)" \
	"Each sample counts as 100 us of the thread's CPU time (sampling at 10000 Hz)."
expect_eq "sampling: per-call columns" "$(per_call_check 4)" ok
expect_eq "sampling: the unit in both headings" \
	"$(awk '$1 == "time" && $2 == "seconds" { print ($5 == $6 && $5 ~ /^(s|ms|us|ns)\/call$/) }' "$WORK/report")" 1
"$APROF" -q "$demo" "$WORK/amon.out" >"$WORK/graph"
expect_eq "sampling: granularity, a sample's share" \
	"$(grep -c '^granularity: each sample, 100 us, is [0-9.]*% of [0-9.]* seconds$' "$WORK/graph")" 1

(cd "$WORK" && APROF_CLOCK=counter APROF_OUT="$WORK/amon.out" "$demo" >"$WORK/stdout")
"$APROF" -b -p "$demo" "$WORK/amon.out" >"$WORK/report"
expect_eq "counter: the clock's line" \
	"$(sed -n '/^Flat profile:$/,$p' "$WORK/report" | sed -n 3p | grep -c '^Each tick counts as [0-9.]* ns of wall-clock time (.*read at every entry and exit; nothing sampled)\.$')" 1
expect_eq "counter: no sample counted" "$(grep -c "Each sample" "$WORK/report")" 0
expect_eq "counter: per-call columns" "$(per_call_check 1)" ok
"$APROF" -q "$demo" "$WORK/amon.out" >"$WORK/graph"
expect_eq "counter: granularity, no share" \
	"$(grep -c '^granularity: each entry and exit timed, to [0-9.]* ns, of [0-9.]* seconds$' "$WORK/graph")" 1
expect_eq "counter: no byte(s)" "$(grep -c 'byte(s)' "$WORK/graph")" 0

# --stats: "name value" lines, numbers only as values, a thread's under
# its "thread TID" line.
"$APROF" --stats "$demo" "$WORK/amon.out" >"$WORK/stats"
expect_eq "--stats: every number labelled" \
	"$(awk 'NF != 2 || $1 ~ /^[0-9.]+$/ || $2 !~ /^[0-9.]+$/ { print "unlabelled: " $0 }' "$WORK/stats")" ""
expect_eq "--stats: the thread's lines" \
	"$(awk '$1 == "thread" { t++ } /^  / { n++ } END { print t, n }' "$WORK/stats")" "1 8"
finish
