#!/bin/sh
# e2e-advise.sh -- aprof --advise on tests/s-advise.c, sampled (10,000
# times a second of CPU time, which a busy machine does not move): tiny
# (4,000,000 calls that add one) costs the hooks more than its work and is
# the one name of GCC's exclusion list, with a note that the name also
# matches run_tiny; heavy (20 calls of a million additions) is not advised
# out; the list, pasted into GCC's command line, leaves out what it says.
# The report counts the calls exactly, says their rate and cost; the flat
# profile and call graph start with a line pointing to --advise when the
# hooks take a tenth of the run or more, and --stats gives the hooks' calls
# and share.  With the cycle counter (wall-clock time, which a busy machine
# lengthens), heavy is never advised out either.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-advise"
# field LABEL: the first word after LABEL in the summary lines of $WORK/advice.
field() { awk -v l="$1" 'index($0, "  " l " ") == 1 { s = substr($0, length(l) + 3); split(s, w, " "); print w[1]; exit }' "$WORK/advice"; }
# rows: the names of the table's rows.
rows() { awk '/^ +calls +hooks s/ { t = 1; next } t && NF == 0 { exit } t { print $NF }' "$WORK/advice"; }

# Sampled, tiny's self time and its hooks' cost are each a few hundred
# samples: up to three runs, one in which tiny alone is advised out is
# enough.
for run in 1 2 3; do
	(cd "$WORK" && APROF_HZ=10000 APROF_OUT="$WORK/amon.out" "$exe" >"$WORK/stdout")
	"$APROF" --advise "$exe" "$WORK/amon.out" >"$WORK/advice"
	cat "$WORK/advice"
	[ "$(rows | tr '\n' ' ')" = "tiny " ] && break
done
expect_eq "calls through the hooks" "$(field "calls through the hooks")" 4000022
expect_eq "calls a second, over 0" "$(awk -v n="$(field "per second of the run")" 'BEGIN { print (n > 0) }')" 1
expect_eq "the hooks' cost a call, in ns" \
	"$(sed -n 's/^  the hooks. cost a call   [0-9.]* \(ns\) (.*/\1/p' "$WORK/advice")" ns
expect_eq "advised out: tiny alone" "$(rows | tr '\n' ' ')" "tiny "
expect_eq "tiny's calls in its row" "$(awk '$NF == "tiny" && $1 ~ /^[0-9]+$/ { print $1 }' "$WORK/advice")" 4000000
expect_eq "GCC's exclusion list" "$(grep -c '^  -finstrument-functions-exclude-function-list=tiny$' "$WORK/advice")" 1
expect_eq "the substring note" \
	"$(grep -c "^  note: 'tiny' also leaves out run_tiny " "$WORK/advice")" 1
expect_eq "heavy nowhere" "$(grep -c 'heavy' "$WORK/advice")" 0
expect_eq "clang's and -pg -mfentry's alternatives" \
	"$(grep -c -e '-finstrument-functions-after-inlining' -e '-pg -mfentry in place of' "$WORK/advice")" 2
# The share the advised routines account for, and the saving: tiny's hooks,
# 8,000,000 hook calls, most of what the hooks cost.
expect_eq "the share and the saving" \
	"$(grep -c '^Together: [0-9.]* seconds of hooks, [0-9.]*% of the run\.' "$WORK/advice")" 1

# The list pasted: tiny and run_tiny lose their hooks, as the note said;
# heavy and main keep them.  GCC's flag (skipped where $CC has none, and in
# a sanitized build, whose programs built here would need its flags too).
flag=$(sed -n 's/^  \(-finstrument-functions-exclude-function-list=.*\)$/\1/p' "$WORK/advice")
if sanitized "the list pasted"; then
	:
elif ! "$CC" "$flag" -c -o "$WORK/probe.o" "$top_srcdir/tests/s-advise.c" 2>/dev/null; then
	echo "skip: the list pasted ($CC has no -finstrument-functions-exclude-function-list)"
else
	# shellcheck disable=SC2086
	"$CC" -O0 -g -fno-inline -finstrument-functions "$flag" -o "$WORK/pasted" \
		"$top_srcdir/tests/s-advise.c" -L"$top_builddir/runtime/.libs" -laprof \
		-Wl,-rpath,"$top_builddir/runtime/.libs"
	(cd "$WORK" && APROF_OUT="$WORK/pasted.out" ./pasted >/dev/null) || fail "pasted did not run"
	"$APROF" -b -p "$WORK/pasted" "$WORK/pasted.out" >"$WORK/report"
	expect_eq "pasted: tiny, run_tiny uninstrumented" "$(flat_calls tiny)$(flat_calls run_tiny)" ""
	expect_eq "pasted: heavy still" "$(flat_calls heavy)" 20
	expect_eq "pasted: main still" "$(flat_calls main)" 1
fi

# The pointer: the hooks' 8,000,044 calls around next to no work are far
# more than a tenth of the run; -b keeps it.
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "the report's first line points to --advise" \
	"$(sed -n '1s/^aprof: the hooks took [0-9]*% of the run (4000022 calls, [0-9.]* ns each): aprof --advise .*/yes/p' "$WORK/report")" yes
"$APROF" --stats "$exe" "$WORK/amon.out" >"$WORK/stats"
expect_eq "--stats: hook-calls" "$(awk '$1 == "hook-calls" { print $2 }' "$WORK/stats")" 4000022
expect_eq "--stats: hook-percent over 10" \
	"$(awk '$1 == "hook-percent" { print ($2 >= 10) }' "$WORK/stats")" 1

# With the cycle counter: the cost model's cost a call; heavy's work still
# dwarfs its calls.
(cd "$WORK" && APROF_CLOCK=counter APROF_OUT="$WORK/amon.out" "$exe" >"$WORK/stdout")
"$APROF" --advise "$exe" "$WORK/amon.out" >"$WORK/advice"
expect_eq "counter: calls through the hooks" "$(field "calls through the hooks")" 4000022
expect_eq "counter: heavy nowhere" "$(grep -c 'heavy' "$WORK/advice")" 0
expect_eq "counter: the cost's source" "$(grep -c "the cost model's, taken off" "$WORK/advice")" 1
finish
