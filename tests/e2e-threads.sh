#!/bin/sh
# e2e-threads.sh -- tests/s-workers.c: 8 threads at once, named worker-0 ..
# worker-7, each doing known work.  The merged report's counts are exact;
# amon.out holds one record per thread, each with its name and its own
# exact number of entries; aprof --threads shows each thread by name with its
# own exact counts.
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

# aprof --threads: the table gives each thread's name and calls (entries),
# and each thread's own flat profile follows under "Thread TID (NAME)".
"$APROF" --threads "$exe" "$WORK/amon.out" >"$WORK/report"
# thread_row NAME COLUMN: COLUMN (as the table's heading names it) of NAME's row.
thread_row() {
	awk -v n="$1" -v c="$2" '/^Threads:/ { t = 1; next }
		t && $1 == "tid" { for (i = 1; i <= NF; i++) col[$i] = i; next }
		t && /^$/ && length(col) { t = 0 }
		t && (c in col) && $col["name"] == n { print $col[c] }' "$WORK/report"
}
# thread_calls NAME ROUTINE: ROUTINE's calls in NAME's own flat profile.
thread_calls() {
	awk -v n="$1" -v r="$2" '/^Thread [0-9]+ \(/ { s = ($0 ~ ("\\(" n "\\)$")) }
		s && NF >= 7 && $4 ~ /^[0-9]+$/ && $5 ~ /\./ && $7 == r { print $4 }' "$WORK/report"
}
expect_eq "aprof --threads: main thread's calls" "$(thread_row s-workers calls)" 6
expect_eq "aprof --threads: main thread's leaf" "$(thread_calls s-workers leaf)" 5
i=0
while [ $i -lt 8 ]; do
	expect_eq "aprof --threads: worker-$i's calls" "$(thread_row "worker-$i" calls)" \
		$((1 + 1000 * (i + 1) + 2 * (i + 1)))
	expect_eq "aprof --threads: worker-$i's leaf" "$(thread_calls "worker-$i" leaf)" \
		$((1001 * (i + 1)))
	expect_eq "aprof --threads: worker-$i's step" "$(thread_calls "worker-$i" step)" $((i + 1))
	i=$((i + 1))
done
expect_eq "aprof --threads: threads" "$(grep -c '^Thread [0-9][0-9]* (' "$WORK/report")" 9
finish
