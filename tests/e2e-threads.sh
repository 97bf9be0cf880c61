#!/bin/sh
# e2e-threads.sh -- tests/s-workers.c: 8 threads at once, named worker-0 ..
# worker-7, each doing known work.  The merged report's counts are exact;
# amon.out holds one record per thread, each with its name and its own
# exact number of entries.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-workers"
profile s-workers
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"

expect_eq "flat calls main" "$(flat_calls main)" 1
expect_eq "flat calls worker" "$(flat_calls worker)" 8
expect_eq "flat calls step" "$(flat_calls step)" 36
expect_eq "flat calls leaf" "$(flat_calls leaf)" 36041
graph_entry leaf >"$WORK/leaf"
expect_eq "arc worker -> leaf" "$(arc_field worker in 3 <"$WORK/leaf")" 36000/36041
expect_eq "arc step -> leaf" "$(arc_field step in 3 <"$WORK/leaf")" 36/36041
expect_eq "arc main -> leaf" "$(arc_field main in 3 <"$WORK/leaf")" 5/36041

# The contexts of all threads, merged: a thread's history starts at worker.
contexts "$exe" "$WORK/amon.out"
expect_eq "context worker" "$(context_row 'worker')" "8+0"
expect_eq "context worker > leaf" "$(context_row 'worker > leaf')" "36000+0"
expect_eq "context worker > step > leaf" "$(context_row 'worker > step > leaf')" "36+0"
expect_eq "context main > leaf" "$(context_row 'main > leaf')" "5+0"

# One record per thread: main's, named after the program, and each worker's
# under the name it gave itself, with 1 + 1000 (i + 1) + 2 (i + 1) entries.
amon_threads "$WORK/amon.out"
expect_eq "thread records" "$(thread_field '*' tid | wc -l | tr -d ' ')" 9
expect_eq "distinct thread ids" "$(thread_field '*' tid | sort -u | wc -l | tr -d ' ')" 9
expect_eq "main thread's entries" "$(thread_field s-workers entries)" 6
i=0
while [ $i -lt 8 ]; do
	expect_eq "worker-$i's entries" "$(thread_field "worker-$i" entries)" \
		$((1 + 1000 * (i + 1) + 2 * (i + 1)))
	i=$((i + 1))
done
expect_eq "resyncs, dropped, unmatched" \
	"$(awk '$1 == "thread" { r += $3; d += $4; u += $5 } END { print r, d, u }' "$WORK/threads")" "0 0 0"

# aprof --threads, if it is there: a line per thread, with its name.
if "$APROF" --threads "$exe" "$WORK/amon.out" >"$WORK/threads-report" 2>/dev/null; then
	i=0
	while [ $i -lt 8 ]; do
		expect_eq "aprof --threads names worker-$i" \
			"$(grep -c "worker-$i\$\|worker-$i[^0-9]" "$WORK/threads-report")" 1
		i=$((i + 1))
	done
fi
finish
