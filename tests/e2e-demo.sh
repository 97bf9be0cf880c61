#!/bin/sh
# e2e-demo.sh -- the README's claim, checked: on examples/demo.c, gprof
# splits draw's time between its two callers by call counts, 1:1, while
# aprof measures it, about 9:1 (paint_background asks for nine times the
# work of paint_icons).  gprof is run on the demo built with -pg where the
# compiler and gprof can.  aprof's times are wall-clock (the cycle counter,
# as make demo runs it) and a busy machine changes the split, so the demo
# times its two painters itself and prints the ratio it saw: the arcs into
# draw, read from the report make demo prints at the precision it prints
# them (four significant digits of the run), must be within 10% of it.
. "$top_srcdir/tests/e2e-lib.sh"

demo="$top_builddir/examples/demo"
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$demo" >"$WORK/stdout")
contexts "$demo" "$WORK/amon.out"
measured=$(sed -n 's/.*measured background:icons \([0-9.]*\)$/\1/p' "$WORK/stdout")
"$APROF" -b "$demo" "$WORK/amon.out" >"$WORK/report"
graph_entry draw >"$WORK/draw"
background=$(arc_field paint_background in 1 <"$WORK/draw")
icons=$(arc_field paint_icons in 1 <"$WORK/draw")
echo "draw's time from paint_background $background s, from paint_icons $icons s;" \
	"the program measured $measured:1"
within "aprof: arcs paint_background -> draw : paint_icons -> draw, against the program's own clock" \
	"$(awk -v b="$background" -v i="$icons" 'BEGIN { print (i > 0 ? b / i : 0) }')" "$measured" 0.10
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
