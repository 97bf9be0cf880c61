#!/bin/sh
# e2e-shared.sh -- tests/s-shared.c: big and small each call shared 200 times,
# asking for 9:1 work.  gprof would split shared's time 1:1 by call counts;
# aprof's arc times must be within 10% of 9:1.  Time is wall-clock time and
# make check runs tests side by side on a small machine, so the program
# times its calls itself too: aprof's ratio (read to the microsecond from the
# contexts that make up the two arcs, -S) must be within 10% of the one the
# program measured, and that one within 10% of 9 unless the machine was so
# busy that even the program's own clock saw otherwise.  The call graph's
# arcs are read from the default report at the precision it prints (at
# least four significant digits of the run), so they too are held to 10%
# of the program's own clock, however short the run.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-shared"
profile s-shared
measured=$(awk '{ print $3 }' "$WORK/stdout")
"$APROF" "$exe" "$WORK/amon.out" >"$WORK/report"
contexts "$exe" "$WORK/amon.out"
ratio=$(awk '{ x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x) }
	x == "main > big > shared" { b = $4 } x == "main > small > shared" { s = $4 }
	END { print b / s }' "$WORK/contexts")
within "arcs big -> shared : small -> shared, against the program's own clock" \
	"$ratio" "$measured" 0.10
if awk -v m="$measured" 'BEGIN { exit !(m >= 8.1 && m <= 9.9) }'; then
	within "arcs big -> shared : small -> shared" "$ratio" 9 0.10
else
	echo "note: the machine was busy: the program itself measured $measured, not 9"
fi

# The call graph shows the same split on both sides of each arc.
graph_entry shared >"$WORK/shared"
graph_entry main >"$WORK/main"
expect_eq "calls big -> shared" "$(arc_field big in 3 <"$WORK/shared")" 200/400
expect_eq "calls small -> shared" "$(arc_field small in 3 <"$WORK/shared")" 200/400
big=$(arc_field big in 1 <"$WORK/shared")
small=$(arc_field small in 1 <"$WORK/shared")
within "call graph: incoming self time big:small, against the program's own clock" \
	"$(awk -v b="$big" -v s="$small" 'BEGIN { print b / s }')" "$measured" 0.10
big=$(arc_field big out 2 <"$WORK/main")
small=$(arc_field small out 2 <"$WORK/main")
within "call graph: outgoing child time main->big : main->small, against the program's own clock" \
	"$(awk -v b="$big" -v s="$small" 'BEGIN { print b / s }')" "$measured" 0.10
finish
