#!/bin/sh
# e2e-fentry-exits.sh -- the programs of e2e-nonlocal.sh, e2e-threads.sh,
# e2e-process.sh and e2e-signals.sh built -pg -mfentry (x86-64; skipped
# elsewhere), with the same exact counts: routines left by longjmp (a
# return address the trampoline holds, in a frame gone), by a C++ throw
# (the unwinder must see the real return addresses), by a signal handler's
# siglongjmp; 8 threads; fork, with and without exec; the exec family;
# exit 51 activations deep; a SIGALRM handler every 100 us.  No exit step
# runs in a throw's unwind cleanups: every routine the throw leaves is
# popped when the catch clause begins (10 resyncs a throw, where
# -finstrument-functions' exit hooks in C++ cleanups pop some), or, where a
# cleanup calls a destructor, by that call.
. "$top_srcdir/tests/e2e-lib.sh"

[ -x "$top_builddir/tests/s-longjmp-fentry" ] || { echo "skip: no -pg -mfentry (x86-64 only)"; exit 77; }

exe="$top_builddir/tests/s-longjmp-fentry"
for how in longjmp siglongjmp mid; do
	case $how in
	longjmp) profile s-longjmp-fentry ;;
	siglongjmp) profile s-longjmp-fentry sig ;;
	mid) profile s-longjmp-fentry mid ;;
	esac
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	contexts "$exe" "$WORK/amon.out"
	amon_threads "$WORK/amon.out"
	graph_entry after >"$WORK/after"
	expect_eq "$how: flat calls after" "$(flat_calls after)" 1000
	expect_eq "$how: arc main -> after" "$(arc_field main in 3 <"$WORK/after")" 1000/1000
	expect_eq "$how: context main > after" "$(context_row 'main > after')" "1000+0"
	expect_eq "$how: unmatched" "$(thread_field '*' unmatched)" 0
	if [ $how = mid ]; then
		expect_eq "$how: context main > nest" "$(context_row 'main > nest')" "1000+4000"
		expect_eq "$how: contexts" "$(context_count)" 4
		expect_eq "$how: resyncs" "$(thread_field '*' resyncs)" 2000
	else
		expect_eq "$how: flat calls bail" "$(flat_calls bail)" 1000
		expect_eq "$how: context main > descend" "$(context_row 'main > descend')" "1000+19000"
		expect_eq "$how: context main > descend > bail" \
			"$(context_row 'main > descend > bail')" "1000+0"
		expect_eq "$how: contexts" "$(context_count)" 5
		expect_eq "$how: resyncs" "$(thread_field '*' resyncs)" 21000
	fi
done

# A signal handler jumps out of the runtime it interrupted, 200 times.
exe="$top_builddir/tests/s-sigjump-fentry"
for clock in counter sample; do
	APROF_CLOCK=$clock
	export APROF_CLOCK
	profile s-sigjump-fentry
	contexts "$exe" "$WORK/amon.out"
	expect_eq "sigjump ($clock): context main > after" "$(context_row 'main > after')" "10+0"
	spin=$(context_row 'main > spin')
	if [ "${spin%+0}" -le 200 ] && [ "${spin%+0}" -ge 150 ]; then
		echo "ok: sigjump ($clock): spin calls $spin"
	else
		fail "sigjump ($clock): spin calls $spin, want 150...200"
	fi
done
unset APROF_CLOCK

exe="$top_builddir/tests/s-throw-fentry"
for variant in "cxx x1 x2 x3 x4 x5 x6 x7 x8 x9 x10" "mid m1 m2 m3 c4 c5 c6 c7 m8 m9 m10" \
	"top t1 t2 t3 t4 t5 t6 t7 t8 t9 t10"; do
	set -- $variant
	v=$1
	shift
	profile s-throw-fentry $v
	expect_eq "$v: stdout" "$(cat "$WORK/stdout")" "caught 1000"
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	contexts "$exe" "$WORK/amon.out"
	caller=main
	history=main
	for f in "$@"; do
		history="$history > $f"
		graph_entry $f >"$WORK/entry"
		expect_eq "$v: arc $caller -> $f" "$(arc_field $caller in 3 <"$WORK/entry")" 1000/1000
		expect_eq "$v: context $history" "$(context_row "$history")" "1000+0"
		caller=$f
	done
	expect_eq "$v: context main > after" "$(context_row 'main > after')" "1000+0"
	expect_eq "$v: contexts" "$(context_count)" 13
	amon_threads "$WORK/amon.out"
	expect_eq "$v: resyncs" "$(thread_field '*' resyncs)" 10000
	expect_eq "$v: unmatched" "$(thread_field '*' unmatched)" 0
done

# A throw's cleanups and the end of the catch (throw_dtor): each cleanup's
# first call pops the frame below it, the catch d1's: 3 resyncs a throw.
throw_dtor s-throw-fentry 3000

exe="$top_builddir/tests/s-workers-fentry"
profile s-workers-fentry
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "threads: flat calls worker" "$(flat_calls worker)" 8
expect_eq "threads: flat calls step" "$(flat_calls step)" 36
expect_eq "threads: flat calls leaf" "$(flat_calls leaf)" 36041
contexts "$exe" "$WORK/amon.out"
expect_eq "threads: context worker > leaf" "$(context_row 'worker > leaf')" "36000+0"
expect_eq "threads: context worker > step > leaf" "$(context_row 'worker > step > leaf')" "36+0"
expect_eq "threads: context main > leaf" "$(context_row 'main > leaf')" "5+0"
amon_threads "$WORK/amon.out"
expect_eq "threads: records" "$(thread_field '*' tid | wc -l | tr -d ' ')" 9
i=0
while [ $i -lt 8 ]; do
	expect_eq "threads: worker-$i's entries" "$(thread_field "worker-$i" entries)" \
		$((1 + 1000 * (i + 1) + 2 * (i + 1)))
	i=$((i + 1))
done
expect_eq "threads: resyncs, dropped, unmatched" \
	"$(awk '$1 == "thread" { r += $3; d += $4; u += $5 } END { print r, d, u }' "$WORK/threads")" "0 0 0"

exe="$top_builddir/tests/s-fork-fentry"
for how in exit exec; do
	rm -f "$WORK"/amon.out*
	if [ $how = exit ]; then profile s-fork-fentry; else profile s-fork-fentry exec; fi
	pid=$(sed -n 's/^child \([0-9][0-9]*\)$/\1/p' "$WORK/stdout")
	expect_eq "fork/$how: files" "$(cd "$WORK" && ls amon.out* | tr '\n' ' ')" "amon.out amon.out.$pid "
	[ -f "$WORK/amon.out" ] && [ -f "$WORK/amon.out.$pid" ] || { finish; exit 1; }
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "fork/$how: parent: flat calls shared_before" "$(flat_calls shared_before)" 2
	expect_eq "fork/$how: parent: flat calls parent_work" "$(flat_calls parent_work)" 3
	expect_eq "fork/$how: parent: flat calls child_work" "$(flat_calls child_work)" ""
	"$APROF" -b "$exe" "$WORK/amon.out.$pid" >"$WORK/report"
	expect_eq "fork/$how: child: flat calls child_work" "$(flat_calls child_work)" 5
	expect_eq "fork/$how: child: flat calls shared_before" "$(flat_calls shared_before)" ""
	contexts "$exe" "$WORK/amon.out.$pid"
	expect_eq "fork/$how: child: context main > child_work" "$(context_row 'main > child_work')" "5+0"
done

# exec without fork, every one of the family: the image's profile written
# before it is replaced, with routines running whose return address the
# trampoline holds.
exe="$top_builddir/tests/s-exec-fentry"
for how in execv execve execl execle execlp execvp; do
	rm -f "$WORK/amon.out" "$WORK/second.out"
	profile s-exec-fentry $how "$WORK/second.out"
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report" || { fail "$how: no profile before the exec"; continue; }
	expect_eq "$how: first: flat calls stage_one" "$(flat_calls stage_one)" 4
	expect_eq "$how: first: flat calls stage_two" "$(flat_calls stage_two)" ""
	"$APROF" -b "$exe" "$WORK/second.out" >"$WORK/report" || { fail "$how: no profile of the new image"; continue; }
	expect_eq "$how: second: flat calls stage_two" "$(flat_calls stage_two)" 6
	expect_eq "$how: second: flat calls stage_one" "$(flat_calls stage_one)" ""
done

# exit, _exit and _Exit 51 activations deep, none of them returning.
exe="$top_builddir/tests/s-exit-fentry"
for how in exit _exit _Exit; do
	rm -f "$WORK/amon.out"
	profile s-exit-fentry $how
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report" || { fail "$how: no profile"; continue; }
	expect_eq "$how: flat calls warm_up" "$(flat_calls warm_up)" 3
	contexts "$exe" "$WORK/amon.out"
	expect_eq "$how: context main > down" "$(context_row 'main > down')" "1+49"
	expect_eq "$how: context main > down > leave" "$(context_row 'main > down > leave')" "1+0"
done

# A handler every 100 us: its runs are calls, or hook calls passed through
# where it interrupted the runtime (two each), under both clocks.
exe="$top_builddir/tests/s-alarm-fentry"
for clock in counter sample; do
	APROF_CLOCK=$clock
	export APROF_CLOCK
	profile s-alarm-fentry
	fired=$(sed -n 's/^fired \([0-9][0-9]*\)$/\1/p' "$WORK/stdout")
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "alarm ($clock): flat calls leaf" "$(flat_calls leaf)" 3000000
	contexts "$exe" "$WORK/amon.out"
	expect_eq "alarm ($clock): context main > leaf" "$(context_row 'main > leaf')" "3000000+0"
	amon_threads "$WORK/amon.out"
	dropped=$(thread_field '*' dropped)
	handled=$(flat_calls on_alarm)
	echo "handler ran $fired times: ${handled:-0} in the profile, $dropped hook calls dropped"
	if [ "${fired:-0}" -ge 20 ]; then echo "ok: signals fired ($fired)"; else fail "only '$fired' signals"; fi
	expect_eq "alarm ($clock): dropped hook calls come in pairs" "$((dropped % 2))" 0
	expect_eq "alarm ($clock): handler calls + dropped / 2" "$((${handled:-0} + dropped / 2))" "$fired"
	expect_eq "alarm ($clock): unmatched" "$(thread_field '*' unmatched)" 0
done
unset APROF_CLOCK
finish
