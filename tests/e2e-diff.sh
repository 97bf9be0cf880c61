#!/bin/sh
# e2e-diff.sh -- --diff=OLD: the paper's example
# Main -> (P -> Q -> R)^n -> P -> S (tests/s-pqrs.c) with n = 5, then 9:
# P's calls change by +4, Q's and R's too, main's and S's by +0, every arc's
# by what the program does, every change is new minus old as printed; the
# folded difference has both sides' values; a rebuilt program (s-calls
# built without and with PIE) matches routine for routine by name.
. "$top_srcdir/tests/e2e-lib.sh"

Q="$top_builddir/tests/s-pqrs"
profile s-pqrs 5
mv "$WORK/amon.out" "$WORK/old.out"
profile s-pqrs 9
mv "$WORK/amon.out" "$WORK/new.out"
"$APROF" --diff="$WORK/old.out" "$Q" "$WORK/new.out" >"$WORK/diff"

# row KEY: "calls-change old-calls new-calls" of the row named KEY.
row() {
	awk -v k="$1" 'NF >= 7 && $1 ~ /^[+-][0-9.]+$/ {
		x = $0; for (i = 0; i < 6; i++) sub(/^ *[^ ]+/, "", x)
		sub(/^ +/, "", x); if (x == k) print $2, $5, $6 }' "$WORK/diff"
}
expect_eq "P's calls" "$(row P)" "+4 6 10"
expect_eq "Q's calls" "$(row Q)" "+4 5 9"
expect_eq "R's calls" "$(row R)" "+4 5 9"
expect_eq "S's calls" "$(row S)" "+0 1 1"
expect_eq "main's calls" "$(row main)" "+0 1 1"
expect_eq "arc main -> P" "$(row 'main -> P')" "+0 1 1"
expect_eq "arc P -> Q" "$(row 'P -> Q')" "+4 5 9"
expect_eq "arc Q -> R" "$(row 'Q -> R')" "+4 5 9"
expect_eq "arc R -> P" "$(row 'R -> P')" "+4 5 9"
expect_eq "arc P -> S" "$(row 'P -> S')" "+0 1 1"
expect_eq "rows" "$(awk 'NF >= 7 && $1 ~ /^[+-][0-9.]+$/' "$WORK/diff" | wc -l | tr -d ' ')" 11
# Every change is new minus old (seconds printed to 1e-6), sorted by its size.
expect_eq "changes are new - old" "$(awk 'NF >= 7 && $1 ~ /^[+-][0-9.]+$/ {
	d = $1 - ($4 - $3); if (d > 0.0000015 || d < -0.0000015) print }' "$WORK/diff")" ""
expect_eq "sorted by |change|" "$(awk '/^Flat|^Call/ { last = -1 } NF >= 7 && $1 ~ /^[+-][0-9.]+$/ {
	a = $1 < 0 ? -$1 : $1; if (last >= 0 && a > last + 0.0000015) print; last = a }' "$WORK/diff")" ""

# Folded difference: "PATH OLD NEW", each side as its own folded export.
"$APROF" --diff="$WORK/old.out" --format=folded "$Q" "$WORK/new.out" >"$WORK/fdiff"
"$APROF" --format=folded "$Q" "$WORK/old.out" >"$WORK/fold-old"
"$APROF" --format=folded "$Q" "$WORK/new.out" >"$WORK/fold-new"
expect_eq "folded diff, old column" "$(awk '$2 != 0 { print $1, $2 }' "$WORK/fdiff")" \
	"$(awk '$2 != 0' "$WORK/fold-old")"
expect_eq "folded diff, new column" "$(awk '$3 != 0 { print $1, $3 }' "$WORK/fdiff")" \
	"$(awk '$2 != 0' "$WORK/fold-new")"
expect_eq "folded diff, three columns" "$(awk 'NF != 3' "$WORK/fdiff")" ""

# A rebuilt program: every address moved, every routine matched by name.
profile s-nopie
mv "$WORK/amon.out" "$WORK/nopie.out"
profile s-pie
"$APROF" --diff="$WORK/nopie.out" --diff-executable="$top_builddir/tests/s-nopie" \
	"$top_builddir/tests/s-pie" "$WORK/amon.out" >"$WORK/diff"
expect_eq "rebuilt: leaf's calls" "$(row leaf)" "+0 41 41"
expect_eq "rebuilt: arc beta -> leaf" "$(row 'beta -> leaf')" "+0 35 35"
expect_eq "rebuilt: calls unchanged" "$(awk 'NF >= 7 && $1 ~ /^[+-][0-9.]+$/ && $2 != "+0"' "$WORK/diff")" ""
status=0
"$APROF" --diff="$WORK/nopie.out" "$top_builddir/tests/s-pie" "$WORK/amon.out" \
	>/dev/null 2>"$WORK/err" || status=$?
expect_eq "OLD of another build without --diff-executable: status" "$status" 1
finish
