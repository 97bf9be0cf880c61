#!/bin/sh
# e2e-cycles.sh -- --cycles lists the cycles of recursion that happened:
# on the paper's Main -> (P -> Q -> R)^n -> P -> S (tests/s-pqrs.c) one
# cycle, P -> Q -> R -> P, traversed n times; on tests/s-cycles.c's two
# separate cycles both, and nothing else; eliding Q and R makes the paper's
# cycle P's direct recursion; on tests/s-entries.c the entries into a
# cycle (calls that start it, not calls into a member while it is under
# way), sorted by count.  Counts are exact.
. "$top_srcdir/tests/e2e-lib.sh"


# cycles: "members traversals" for every cycle listed in $WORK/report.
cycles() {
	awk '/ -> / { m = $0 } /^    traversed/ { print m, $2 }' "$WORK/report"
}

for n in 1 5 40; do
	profile s-pqrs "$n"
	"$APROF" --cycles "$top_builddir/tests/s-pqrs" "$WORK/amon.out" >"$WORK/report"
	expect_eq "paper, n = $n: one cycle, traversed n times" "$(cycles)" "P -> Q -> R -> P $n"
	expect_eq "paper, n = $n: entered once, from main" \
		"$(grep -c '^    entered from main: 1 time$' "$WORK/report")" 1
done

# --elide of Q and R leaves P calling itself: the cycle becomes direct recursion.
profile s-pqrs 5
"$APROF" -S --elide=Q --elide=R "$top_builddir/tests/s-pqrs" "$WORK/amon.out" >"$WORK/contexts"
expect_eq "--elide=Q --elide=R: main > P called once, 5 direct recursive calls" \
	"$(context_row 'main > P')" 1+5
"$APROF" --cycles --elide=Q --elide=R "$top_builddir/tests/s-pqrs" "$WORK/amon.out" >"$WORK/report"
expect_eq "--elide=Q --elide=R: no cycle left" "$(cycles)" ""

profile s-cycles
"$APROF" --cycles "$top_builddir/tests/s-cycles" "$WORK/amon.out" >"$WORK/report"
expect_eq "two cycles, and nothing else" "$(cycles | sort | tr '\n' ';')" \
	"A -> B -> A 12;C -> D -> E -> C 5;"
expect_eq "s-cycles: A -> B -> A entered from main 3 times" \
	"$(grep -A2 '^A -> B -> A$' "$WORK/report" | sed -n 3p)" "    entered from main: 3 times"

# Entered 3 times from main, 5 from c (at b), once from d; y's calls into b
# while a is active are no entries.  Traversed 12 + 5 + 1 times.
profile s-entries
"$APROF" --cycles "$top_builddir/tests/s-entries" "$WORK/amon.out" >"$WORK/report"
expect_eq "s-entries: one cycle, traversed 18 times" "$(cycles)" "a -> b -> a 18"
expect_eq "s-entries: entries by count, no call from y" \
	"$(sed -n 's/^    entered from //p' "$WORK/report" | tr '\n' ';')" \
	"c: 5 times;main: 3 times;d: 1 time;"
finish
