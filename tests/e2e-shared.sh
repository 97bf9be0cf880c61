#!/bin/sh
# e2e-shared.sh -- tests/s-shared.c: big and small each call shared 20 times,
# asking for 9:1 work.  gprof would split shared's time 1:1 by call counts;
# aprof's arc times must be within 10% of 9:1.
. "$top_srcdir/tests/e2e-lib.sh"

profile s-shared
"$APROF" -b "$top_builddir/tests/s-shared" "$WORK/amon.out" >"$WORK/report"

graph_entry shared >"$WORK/shared"
graph_entry main >"$WORK/main"
expect_eq "calls big -> shared" "$(arc_field big in 3 <"$WORK/shared")" 20/40
expect_eq "calls small -> shared" "$(arc_field small in 3 <"$WORK/shared")" 20/40
big=$(arc_field big in 1 <"$WORK/shared")
small=$(arc_field small in 1 <"$WORK/shared")
within "incoming self time big:small" "$(awk -v b="$big" -v s="$small" 'BEGIN { print b / s }')" 9 0.10
big=$(arc_field big out 2 <"$WORK/main")
small=$(arc_field small out 2 <"$WORK/main")
within "outgoing child time main->big : main->small" \
	"$(awk -v b="$big" -v s="$small" 'BEGIN { print b / s }')" 9 0.10
finish
