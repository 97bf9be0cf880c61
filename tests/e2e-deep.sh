#!/bin/sh
# e2e-deep.sh -- tests/s-deep.c: recursion 1,000,000 deep (on a thread with
# a 1 GiB stack, whatever ulimit -s says), direct (down) and mutual (ping and
# pong): no crash, every call counted; and a chain of 256 routines, whose
# histories take more whole than the runtime's memory for them: read all,
# each thread's histories' entries exact, its memory the runtime's own.
. "$top_srcdir/tests/e2e-lib.sh"

# With the cycle counter, whose in-run probes are counted below.
APROF_CLOCK=counter
export APROF_CLOCK

exe="$top_builddir/tests/s-deep"
profile s-deep
expect_eq "stdout" "$(cat "$WORK/stdout")" "sink 1999999"
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls deep" "$(flat_calls deep)" 1
expect_eq "flat calls down" "$(flat_calls down)" 1
expect_eq "flat calls ping" "$(flat_calls ping)" 500000
expect_eq "flat calls pong" "$(flat_calls pong)" 500000
expect_eq "flat calls after" "$(flat_calls after)" 1
expect_eq "flat calls link_0000" "$(flat_calls link_0000)" 1
expect_eq "flat calls link_3333" "$(flat_calls link_3333)" 1
expect_eq "down called 1+999999" \
	"$(graph_entry down | grep -cE '^\[[0-9]+\] .* 1\+999999 +down \[')" 1
graph_entry ping >"$WORK/ping"
expect_eq "arc deep -> ping" "$(arc_field deep in 3 <"$WORK/ping")" 1/1
expect_eq "arc pong -> ping" "$(arc_field pong in 3 <"$WORK/ping")" 499999
expect_eq "arc ping -> pong" "$(arc_field pong out 3 <"$WORK/ping")" 500000
expect_eq "cycle ping-pong" "$(grep -cE '1\+999999 +<cycle 1 as a whole>' "$WORK/report")" 1

contexts "$exe" "$WORK/amon.out"
expect_eq "context deep > down" "$(context_row 'deep > down')" "1+999999"
expect_eq "calls of the deep thread" \
	"$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 && / deep( |$)/ { n += $2 + $3 } END { print n }' "$WORK/contexts")" \
	2000001
# In-run probes time one hook in 512 to 1535 (runtime/thread.h): 4000002 hooks
# on the deep thread make 2604 to 7813 of them.
"$APROF" --stats "$exe" "$WORK/amon.out" >"$WORK/stats"
expect_eq "longest history: main and the chain" "$(awk '$1 == "depth-max" { print $2 }' "$WORK/stats")" 257
probes=$(awk '$1 == "thread" { t = $2 } $1 == "probed-entries" || $1 == "probed-exits" { p[t] += $2 }
	END { for (t in p) if (p[t] > n) n = p[t]; print n }' "$WORK/stats")
expect_eq "hooks timed in the run, 2604 to 7813" \
	"$(awk -v n="$probes" 'BEGIN { print (n >= 2604 && n <= 7813) ? "yes" : n }')" yes
amon_threads "$WORK/amon.out"
expect_eq "entries, both threads" "$(thread_field s-deep entries | sort -n | tr '\n' ' ')" "258 2000001 "
# Histories spelled out: main's thread main 1, after 2, the chain 2 to 257
# (33,152); the deep thread deep, down, ping and pong's 17.  The reader
# checked each thread's sum against its record.
expect_eq "history entries, both threads" \
	"$(thread_field s-deep history-entries | sort -n | tr '\n' ' ')" "17 33155 "
# memory is the runtime's own (its arena's bytes and its tables'), not the
# histories at 8 bytes each, which version 6 wrote where that was more, as
# the reader's bound (main's 33,155 entries: 265,240 bytes): main's 259
# contexts, at the size the runtime's own header gives (132,608 bytes), and
# less than 96 KiB besides: its transition table of 1024 slots (24 KiB), B2's
# index (4 KiB) and scratch (23 KiB at depth 257), the heap's bins (17 KiB).
expect_eq "memory-bytes, the threads' memory summed" \
	"$(awk '$1 == "memory-bytes" { print $2 }' "$WORK/stats")" \
	"$(thread_field s-deep memory | awk '{ n += $1 } END { print n }')"
{
	printf '%s\n' '#include <stdio.h>'
	printf '%s\n' '#include "transition.h"'
	printf '%s\n' 'int main(void)'
	printf '%s\n' '{'
	printf '%s\n' '	printf("%zu\n", 259 * sizeof(struct aprof_context));'
	printf '%s\n' '	return 0;'
	printf '%s\n' '}'
} >"$WORK/least.c"
"$CC" -I"$top_builddir" -I"$top_srcdir/runtime" -o "$WORK/least" "$WORK/least.c" ||
	fail "least.c does not build"
least=$("$WORK/least")
main_memory=$(awk '$1 == "thread" && $6 == 259 { print $8 }' "$WORK/threads")
expect_eq "main's memory, its contexts' and less than 96 KiB" \
	"$(awk -v m="$main_memory" -v l="$least" 'BEGIN { print (m >= l && m < l + 98304) ? "yes" : m }')" yes
expect_eq "resyncs, unmatched" \
	"$(awk '$1 == "thread" { r += $3; u += $5 } END { print r, u }' "$WORK/threads")" "0 0"
finish
