#!/bin/sh
# e2e-nonlocal.sh -- non-local exits leave routines without their exit
# hooks; the runtime must pop them (resyncs) so that what follows is charged
# to the right caller.  tests/s-longjmp.c: longjmp (and siglongjmp) out of a
# 20-deep recursion, 1000 times.  tests/s-throw.cc: a C++ exception through
# 10 frames, 1000 times: all C++ (exit hooks run in unwind cleanups), C
# frames in the middle and C frames just under the catch (no cleanups); and
# through 3 frames whose cleanups call a destructor, the exception's own
# called by the C++ library when the catch clause ends.
# tests/s-bigframe.c and tests/s-sigjump.c: the hard cases of landing.
. "$top_srcdir/tests/e2e-lib.sh"

# Sampling (the default) 10,000 times a second: main's 50 ms of spinning
# after the jumps against bail's few microseconds.
APROF_HZ=10000
export APROF_HZ

exe="$top_builddir/tests/s-longjmp"
for how in longjmp siglongjmp; do
	if [ $how = longjmp ]; then profile s-longjmp; else profile s-longjmp sig; fi
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "$how: flat calls descend" "$(flat_calls descend)" 1000
	expect_eq "$how: flat calls bail" "$(flat_calls bail)" 1000
	expect_eq "$how: flat calls after" "$(flat_calls after)" 1000
	graph_entry descend >"$WORK/descend"
	expect_eq "$how: descend called" \
		"$(grep -cE '^\[[0-9]+\] .* 1000\+19000 +descend \[' "$WORK/descend")" 1
	graph_entry after >"$WORK/after"
	expect_eq "$how: arc main -> after" "$(arc_field main in 3 <"$WORK/after")" 1000/1000
	expect_eq "$how: arc descend -> after" "$(arc_field descend in 3 <"$WORK/after")" ""
	contexts "$exe" "$WORK/amon.out"
	expect_eq "$how: context main > descend" "$(context_row 'main > descend')" "1000+19000"
	expect_eq "$how: context main > descend > bail" "$(context_row 'main > descend > bail')" "1000+0"
	expect_eq "$how: context main > after" "$(context_row 'main > after')" "1000+0"
	expect_eq "$how: contexts" "$(context_count)" 5
	# main's spin after each jump is main's time, not the abandoned context's.
	seconds() { awk -v h="$1" '{ x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x) }
		x == h { print $4 }' "$WORK/contexts"; }
	if awk -v m="$(seconds main)" -v b="$(seconds 'main > descend > bail')" \
		'BEGIN { exit !(m > 10 * b) }'; then
		echo "ok: $how: the time after the jump is main's"
	else
		fail "$how: main $(seconds main) s, main > descend > bail $(seconds 'main > descend > bail') s"
	fi
	# Each jump abandons 20 descend activations and bail's: 21 pops.
	amon_threads "$WORK/amon.out"
	expect_eq "$how: resyncs" "$(thread_field s-longjmp resyncs)" 21000
	expect_eq "$how: unmatched" "$(thread_field s-longjmp unmatched)" 0
done

# A jump into the middle of a recursion whose activations share one call
# site, and an exit the next hook: nest(2)'s exit pops nest(1)'s and
# nest(0)'s entries, found by where nest(2)'s activation lies on the stack.
profile s-longjmp mid
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "midjump: flat calls nest" "$(flat_calls nest)" 1000
graph_entry nest >"$WORK/nest"
expect_eq "midjump: nest called" "$(grep -cE '^\[[0-9]+\] .* 1000\+4000 +nest \[' "$WORK/nest")" 1
graph_entry after >"$WORK/after"
expect_eq "midjump: arc main -> after" "$(arc_field main in 3 <"$WORK/after")" 1000/1000
expect_eq "midjump: arc nest -> after" "$(arc_field nest in 3 <"$WORK/after")" ""
contexts "$exe" "$WORK/amon.out"
expect_eq "midjump: context main > nest" "$(context_row 'main > nest')" "1000+4000"
expect_eq "midjump: context main > after" "$(context_row 'main > after')" "1000+0"
expect_eq "midjump: contexts" "$(context_count)" 4
amon_threads "$WORK/amon.out"
expect_eq "midjump: resyncs" "$(thread_field s-longjmp resyncs)" 2000
expect_eq "midjump: unmatched" "$(thread_field s-longjmp unmatched)" 0

# tests/s-bigframe.c: the first routine after each jump has a 100000-byte
# frame full of stale return addresses; its caller must still be main.
exe="$top_builddir/tests/s-bigframe"
profile s-bigframe
contexts "$exe" "$WORK/amon.out"
expect_eq "bigframe: context main > after_big" "$(context_row 'main > after_big')" "10+0"
expect_eq "bigframe: context main > later" "$(context_row 'main > later')" "10+0"
expect_eq "bigframe: context main > descend" "$(context_row 'main > descend')" "10+30"
expect_eq "bigframe: contexts" "$(context_count)" 6

# tests/s-sigjump.c: a signal handler jumps out of a hook it interrupted,
# 200 times; profiling must go on (after: 10 calls from main).  Under both
# clocks: sampling's common case pushes without the guard.
exe="$top_builddir/tests/s-sigjump"
for clock in counter sample; do
	APROF_CLOCK=$clock
	export APROF_CLOCK
	profile s-sigjump
	contexts "$exe" "$WORK/amon.out"
	expect_eq "sigjump ($clock): context main > after" "$(context_row 'main > after')" "10+0"
	# A signal may abandon spin's own enter hook before it counts the call.
	spin=$(context_row 'main > spin')
	if [ "${spin%+0}" -le 200 ] && [ "${spin%+0}" -ge 150 ]; then
		echo "ok: sigjump ($clock): spin calls $spin (200 less enter hooks abandoned)"
	else
		fail "sigjump ($clock): spin calls $spin, want 150...200"
	fi
done
unset APROF_CLOCK

exe="$top_builddir/tests/s-throw"
# variant, resyncs per throw, the 10 frames from first to last.
for variant in "cxx 0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10" \
	"mid 4 m1 m2 m3 c4 c5 c6 c7 m8 m9 m10" \
	"top 4 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10"; do
	set -- $variant
	v=$1 resyncs=$(($2 * 1000))
	shift 2
	profile s-throw $v
	expect_eq "$v: stdout" "$(cat "$WORK/stdout")" "caught 1000"
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	contexts "$exe" "$WORK/amon.out"
	caller=main
	history=main
	for f in "$@"; do
		history="$history > $f"
		expect_eq "$v: flat calls $f" "$(flat_calls $f)" 1000
		graph_entry $f >"$WORK/entry"
		expect_eq "$v: arc $caller -> $f" "$(arc_field $caller in 3 <"$WORK/entry")" 1000/1000
		expect_eq "$v: context $history" "$(context_row "$history")" "1000+0"
		caller=$f
	done
	expect_eq "$v: flat calls after" "$(flat_calls after)" 1000
	graph_entry after >"$WORK/after"
	expect_eq "$v: arc main -> after" "$(arc_field main in 3 <"$WORK/after")" 1000/1000
	expect_eq "$v: context main > after" "$(context_row 'main > after')" "1000+0"
	# root, main, the 10 frames' and after: nothing else (no after under a dead frame).
	expect_eq "$v: contexts" "$(context_count)" 13
	amon_threads "$WORK/amon.out"
	expect_eq "$v: resyncs" "$(thread_field s-throw resyncs)" $resyncs
	expect_eq "$v: unmatched" "$(thread_field s-throw unmatched)" 0
done

# A throw's cleanups and the end of the catch (throw_dtor): no resync,
# each frame's exit hook runs in its cleanup.
throw_dtor s-throw 0
finish
