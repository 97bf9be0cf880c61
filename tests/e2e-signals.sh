#!/bin/sh
# e2e-signals.sh -- tests/s-alarm.c: an instrumented SIGALRM handler firing
# every 100 us during a loop of 3,000,000 calls.  The loop's calls are exact;
# every run of the handler is either a call in the profile or, when it
# interrupted a hook, two hook calls passed through ("dropped"): calls of
# on_alarm + dropped / 2 = the runs the handler counted itself.
# Under both clocks: in sampling mode the hooks' common case runs without
# the guard, and a handler that interrupts it is followed as any call.
# Then s-alarm writer: the handler interrupts the runtime (the profile
# written at every allocation of leaf_alloc) and calls leaf_alloc too; the
# hooks it passes through must leave main's entry of leaf_alloc on the
# shadow stack, although the handler's exit hook of leaf_alloc finds it on top.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-alarm"
for clock in counter sample; do
	echo "APROF_CLOCK=$clock"
	APROF_CLOCK=$clock
	export APROF_CLOCK
	profile s-alarm
	fired=$(sed -n 's/^fired \([0-9][0-9]*\)$/\1/p' "$WORK/stdout")
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "flat calls leaf" "$(flat_calls leaf)" 3000000
	expect_eq "flat calls main" "$(flat_calls main)" 1
	contexts "$exe" "$WORK/amon.out"
	expect_eq "context main > leaf" "$(context_row 'main > leaf')" "3000000+0"

	amon_threads "$WORK/amon.out"
	dropped=$(thread_field s-alarm dropped)
	handled=$(flat_calls on_alarm)
	echo "handler ran $fired times: ${handled:-0} in the profile, $dropped hook calls dropped"
	# At 100 us, a run of a fraction of a second: many signals, whatever the machine.
	if [ "${fired:-0}" -ge 20 ]; then echo "ok: signals fired ($fired)"; else fail "only '$fired' signals"; fi
	expect_eq "dropped hook calls come in pairs" "$((dropped % 2))" 0
	expect_eq "handler calls + dropped / 2" "$((${handled:-0} + dropped / 2))" "$fired"
	expect_eq "unmatched" "$(thread_field s-alarm unmatched)" 0
	# The handler's calls are charged where it interrupted: under main or leaf only.
	expect_eq "handler's calls by context" \
		"$(awk '$1 ~ /^[0-9]+$/ && / on_alarm$/ { n += $2 } END { print n + 0 }' "$WORK/contexts")" \
		"${handled:-0}"
	expect_eq "contexts of on_alarm other than main > on_alarm, main > leaf > on_alarm" \
		"$(grep ' on_alarm$' "$WORK/contexts" | grep -cv '  main > on_alarm$\|  main > leaf > on_alarm$' || true)" 0

	echo "APROF_CLOCK=$clock, s-alarm writer"
	# Two writes of the profile a millisecond at least: many runs land in
	# them.  With the counter every one is passed through (the guard is
	# set); sampling's common case takes no guard, so that a run is passed
	# through only where it needs the slow path (a transition not cached,
	# the types watch after an allocation), which on a busy machine no run
	# of the handler may do: there, what must hold holds all the same.
	for run in 1 2 3; do
		profile s-alarm writer
		amon_threads "$WORK/amon.out"
		dropped=$(thread_field s-alarm dropped)
		[ "${dropped:-0}" -gt 0 ] || [ "$clock" = sample ] && break
	done
	fired=$(sed -n 's/^fired \([0-9][0-9]*\)$/\1/p' "$WORK/stdout")
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	contexts "$exe" "$WORK/amon.out"
	expect_eq "writer: context main > leaf_alloc" "$(context_row 'main > leaf_alloc')" "2000+0"
	echo "run $run: handler ran $fired times: $(flat_calls on_alarm) in the profile, $dropped hook calls dropped"
	if [ "${dropped:-0}" -gt 0 ]; then
		echo "ok: handler runs passed through"
	elif [ "$clock" = sample ]; then
		echo "ok: no handler run needed the slow path"
	elif ! sanitized "a handler's run passed through (it needs libaprof's malloc)"; then
		fail "writer: no hook dropped"
	fi
	expect_eq "writer: dropped hook calls come in pairs" "$((dropped % 2))" 0
	expect_eq "writer: unmatched" "$(thread_field s-alarm unmatched)" 0
	expect_eq "writer: resyncs" "$(thread_field s-alarm resyncs)" 0
	expect_eq "writer: calls of leaf_alloc by on_alarm, against on_alarm's" \
		"$(context_row 'main > (leaf_alloc) > on_alarm > leaf_alloc' | cut -d+ -f1)" \
		"$(context_row 'main > leaf_alloc > on_alarm' | cut -d+ -f1)"
done
unset APROF_CLOCK
finish
