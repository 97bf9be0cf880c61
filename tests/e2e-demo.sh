#!/bin/sh
# e2e-demo.sh -- the README's claim, checked: on examples/demo.c, gprof
# splits draw's time between its two callers by call counts, 1:1, while
# aprof measures it, about 9:1 (paint_background asks for nine times the
# work of paint_icons).  gprof is run on the demo built with -pg where the
# compiler and gprof can.  aprof's times are sampled CPU time (the default),
# so the demo times its two painters itself in CPU time and prints the ratio
# it saw: the painters' times in the report (self + children of their
# entries, at the precision printed), sampled 10,000 times a second (some
# 500 samples in paint_icons, a standard error near 5%), must be within 10%
# of it, and the arcs into draw at least 3:1, far from gprof's 1:1.  The demo
# is run up to five times, and one run that passes both is enough.
. "$top_srcdir/tests/e2e-lib.sh"

demo="$top_builddir/examples/demo"
# total NAME: self + children of NAME's own line in the call graph ($WORK/report).
total() { graph_entry "$1" | awk '/^\[/ { print $3 + $4 }'; }
for run in 1 2 3 4 5; do
	(cd "$WORK" && APROF_HZ=10000 APROF_OUT="$WORK/amon.out" "$demo" >"$WORK/stdout")
	measured=$(sed -n 's/.*measured background:icons \([0-9.]*\)$/\1/p' "$WORK/stdout")
	"$APROF" -b "$demo" "$WORK/amon.out" >"$WORK/report"
	graph_entry draw >"$WORK/draw"
	background=$(arc_field paint_background in 1 <"$WORK/draw")
	icons=$(arc_field paint_icons in 1 <"$WORK/draw")
	totals=$(awk -v b="$(total paint_background)" -v i="$(total paint_icons)" 'BEGIN { print (i > 0 ? b / i : 0) }')
	echo "run $run: the program measured $measured:1, aprof's painters $totals:1;" \
		"draw's time from paint_background $background s, from paint_icons $icons s"
	awk -v t="$totals" -v m="$measured" -v b="$background" -v i="$icons" \
		'BEGIN { d = t - m; if (d < 0) d = -d; exit !(d <= 0.10 * m && b > 0 && b >= 3 * i) }' && break
done
within "aprof: paint_background : paint_icons, against the program's own clock" "$totals" "$measured" 0.10
if awk -v b="$background" -v i="$icons" 'BEGIN { exit !(b > 0 && b >= 3 * i) }'; then
	echo "ok: aprof: arcs paint_background -> draw : paint_icons -> draw at least 3:1"
else
	fail "aprof: arcs paint_background -> draw : paint_icons -> draw: $background : $icons, under 3:1"
fi
contexts "$demo" "$WORK/amon.out"
expect_eq "aprof: arc paint_background -> draw" "$(arc_field paint_background in 3 <"$WORK/draw")" 100/200
expect_eq "aprof: arc paint_icons -> draw" "$(arc_field paint_icons in 3 <"$WORK/draw")" 100/200
for h in 'main > expr' 'main > expr > term' 'main > expr > term > factor'; do
	[ -n "$(context_row "$h")" ] || fail "aprof: no context $h (the cycle's members apart)"
done

# gprof on the same program built with -pg.
echo 'int main(void) { return 0; }' >"$WORK/probe.c"
if ! command -v gprof >/dev/null || ! "$CC" -pg -o "$WORK/probe" "$WORK/probe.c" 2>/dev/null; then
	echo "skip: gprof's side (no gprof, or $CC cannot build with -pg)"
	finish
	exit 0
fi
"$CC" -O1 -g -fno-inline -pg -o "$WORK/demo-pg" "$top_srcdir/examples/demo.c"
(cd "$WORK" && ./demo-pg >/dev/null)
gprof -b "$WORK/demo-pg" "$WORK/gmon.out" >"$WORK/report"
graph_entry draw >"$WORK/draw"
expect_eq "gprof: arc paint_background -> draw" "$(arc_field paint_background in 3 <"$WORK/draw")" 100/200
expect_eq "gprof: arc paint_icons -> draw" "$(arc_field paint_icons in 3 <"$WORK/draw")" 100/200
expect_eq "gprof: draw's time split 1:1 (self from paint_icons = from paint_background)" \
	"$(arc_field paint_icons in 1 <"$WORK/draw")" "$(arc_field paint_background in 1 <"$WORK/draw")"
expect_eq "gprof: expr, term and factor lumped in a cycle" \
	"$(grep -c '<cycle 1 as a whole>' "$WORK/report")" 1
finish
