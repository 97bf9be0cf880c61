#!/bin/sh
# e2e-calls.sh -- every call count in the flat profile and the call graph is
# the exact number of calls tests/s-calls.c makes.
. "$top_srcdir/tests/e2e-lib.sh"

profile s-calls
"$APROF" -b "$top_builddir/tests/s-calls" "$WORK/amon.out" >"$WORK/report"

expect_eq "flat calls main" "$(flat_calls main)" 1
expect_eq "flat calls alpha" "$(flat_calls alpha)" 3
expect_eq "flat calls beta" "$(flat_calls beta)" 7
expect_eq "flat calls leaf" "$(flat_calls leaf)" 41
expect_eq "flat calls fact" "$(flat_calls fact)" 1

# Call graph: arc counts as count/total, direct recursion as n+r.
graph() { grep -E "$1" "$WORK/report" | wc -l | tr -d ' '; }
expect_eq "arc alpha -> leaf" "$(graph '^ +[0-9.]+ +[0-9.]+ +6/41 +leaf \[')" 1
expect_eq "arc beta -> leaf" "$(graph '^ +[0-9.]+ +[0-9.]+ +35/41 +leaf \[')" 1
expect_eq "parent alpha of leaf" "$(graph '^ +[0-9.]+ +[0-9.]+ +6/41 +alpha \[')" 1
expect_eq "parent beta of leaf" "$(graph '^ +[0-9.]+ +[0-9.]+ +35/41 +beta \[')" 1
expect_eq "arc main -> alpha" "$(graph '^ +[0-9.]+ +[0-9.]+ +3/3 +alpha \[')" 1
expect_eq "arc main -> beta" "$(graph '^ +[0-9.]+ +[0-9.]+ +7/7 +beta \[')" 1
expect_eq "fact called 1+5" "$(graph '^\[[0-9]+\] .* 1\+5 +fact \[')" 1
expect_eq "fact self-recursion lines" "$(graph '^ +5 +fact \[')" 2
expect_eq "main spontaneous" "$(graph '^ +<spontaneous>$')" 1

# The contexts listing gives the raw counts.
"$APROF" -S "$top_builddir/tests/s-calls" "$WORK/amon.out" >"$WORK/contexts"
row() { awk -v h="$1" '{ x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x) }
	x == h { print $2 "+" $3 }' "$WORK/contexts"; }
expect_eq "context main > beta > leaf" "$(row 'main > beta > leaf')" "35+0"
expect_eq "context main > fact" "$(row 'main > fact')" "1+5"
finish
