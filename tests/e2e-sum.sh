#!/bin/sh
# e2e-sum.sh -- aprof -s and several profiles on one command line:
# tests/s-jobs run three times, one job each, summed, equals one run
# doing the three jobs, count for count and byte for byte; the sum written
# to amon.sum reads back as the very same profile; a forked child's
# amon.out.<pid> adds to its parent's; a profile of another executable is
# refused with one line and exit status 1.
. "$top_srcdir/tests/e2e-lib.sh"

J="$top_builddir/tests/s-jobs"
for job in a b c abc; do
	profile s-jobs "$job"
	mv "$WORK/amon.out" "$WORK/amon.$job"
done
(cd "$WORK" && "$APROF" -s "$J" amon.a amon.b amon.c) || fail "aprof -s"
expect_eq "amon.sum written" "$(test -f "$WORK/amon.sum" && echo yes)" yes

# rows FILE: -S's contexts as "history calls+recursive", main's own left out
# (entered once per run: 3 in the sum, 1 in the run of the three jobs).
rows() {
	"$APROF" -S "$J" "$1" | awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 {
		x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
		if (x != "main") print x, $2 "+" $3 }' | sort
}
expect_eq "contexts of the sum" "$(rows "$WORK/amon.sum")" "$(rows "$WORK/amon.abc")"
contexts "$J" "$WORK/amon.sum"
expect_eq "main entered once per run" "$(context_row main)" "3+0"
expect_eq "fact's recursion" "$(context_row 'main > run > fact')" "1+5"

# Heap numbers, exact: every routine but main, and the totals; peaks left
# out (the sum's is the sum of three runs' peaks, not the peak of one run).
heap() {
	heap_totals "$J" "$1"
	awk '$1 == "proc" && $NF != "main" { $9 = "-"; print } $1 != "proc" && $1 != "peak"' \
		"$WORK/heap"
}
expect_eq "heap numbers of the sum" "$(heap "$WORK/amon.sum")" "$(heap "$WORK/amon.abc")"
expect_eq "bytes of the sum" "$(heap_total bytes)" 10192

# The files named on the command line are reported as their sum.
"$APROF" -b "$J" "$WORK/amon.a" "$WORK/amon.b" "$WORK/amon.c" >"$WORK/direct"
"$APROF" -b "$J" "$WORK/amon.sum" >"$WORK/via-sum"
expect_eq "report of the files = report of amon.sum" "$(cmp "$WORK/direct" "$WORK/via-sum" &&
	echo same)" same
# Without the executable, and -o naming the sum; a sum of sums adds up.
(cd "$WORK" && "$APROF" -s -o twice.sum amon.sum amon.sum) || fail "aprof -s -o"
contexts "$J" "$WORK/twice.sum"
expect_eq "sum of sums" "$(context_row 'main > run > big > share')" "20+0"

# A forking program: the parent's amon.out and the child's amon.out.<pid>, one profile.
rm -f "$WORK"/amon.out*
profile s-fork
(cd "$WORK" && "$APROF" -s "$top_builddir/tests/s-fork" amon.out amon.out.*) || fail "aprof -s fork"
"$APROF" -b "$top_builddir/tests/s-fork" "$WORK/amon.sum" >"$WORK/report"
expect_eq "fork: main" "$(flat_calls main)" 1
expect_eq "fork: shared_before" "$(flat_calls shared_before)" 2
expect_eq "fork: parent_work" "$(flat_calls parent_work)" 3
expect_eq "fork: child_work" "$(flat_calls child_work)" 5

# Another executable's profile: one line on stderr, exit 1, no sum written.
profile s-calls
mv "$WORK/amon.out" "$WORK/amon.other"
rm -f "$WORK/amon.sum"
status=0
(cd "$WORK" && "$APROF" -s amon.a amon.other) 2>"$WORK/err" || status=$?
expect_eq "another executable's profile: status" "$status" 1
expect_eq "another executable's profile: one line" "$(wc -l <"$WORK/err" | tr -d ' ')" 1
expect_eq "another executable's profile: message" \
	"$(grep -c 'written by another executable' "$WORK/err")" 1
expect_eq "no amon.sum" "$(test -f "$WORK/amon.sum" || echo none)" none
status=0
(cd "$WORK" && "$APROF" -s "$top_builddir/tests/s-calls" amon.a amon.b) 2>"$WORK/err" || status=$?
expect_eq "profiles of another executable than named: status" "$status" 1
expect_eq "profiles of another executable than named: one line" \
	"$(grep -c 'build-id differs' "$WORK/err")" 1
finish
