#!/bin/sh
# e2e-control.sh -- the program's control of its profile (<aprof.h>), with
# tests/s-control.c: before() keeps 5 x 100 bytes, after() 7 x 10.
#   aprof_dump()          a valid snapshot of what happened so far, while
#                         the program goes on: the file at exit has the rest;
#   aprof_stop()          the file holds only what happened before the stop;
#   aprof_restart(FILE)   FILE holds only what happened after, and nothing
#                         is written to the old path; a block allocated
#                         before and freed after is charged to no one;
#   aprof_set_autosave(N) the file exists after the Nth allocation and not
#                         after the one before (the program checks with
#                         stat()), holding exactly N allocations;
#   APROF_HEAP=0          the profile says heap tracking was off, and aprof
#                         refuses a heap metric with one line.
# The first four with both clocks, APROF_CLOCK=counter and sample.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-control"

# run MODE: a fresh run of s-control MODE in an empty $D/MODE, with clock $clock.
run() {
	mkdir -p "$D/$1"
	(cd "$D/$1" && APROF_CLOCK=$clock APROF_OUT="$D/$1/amon.out" "$exe" "$1" >/dev/null) ||
		fail "$clock: $1: exited $?"
}

# Both clocks: in sampling mode, a thread alone logs its heap events and
# charges them in batches (runtime/heap.c), which a dump, a stop, a restart
# and an autosave must see exactly as the counter's direct charges.
for clock in counter sample; do
	D=$WORK/clock-$clock
	run dump
	expect_eq "$clock: dump: files" "$(ls "$D/dump" | tr '\n' ' ')" "amon.out snapshot.out "
	"$APROF" -b "$exe" "$D/dump/snapshot.out" >/dev/null ||
		fail "$clock: dump: aprof cannot read the snapshot"
	heap_totals "$exe" "$D/dump/snapshot.out"
	expect_eq "$clock: dump: snapshot: before bytes" "$(heap_proc before bytes)" 500
	expect_eq "$clock: dump: snapshot: before calls" "$(heap_proc before calls)" 1
	expect_eq "$clock: dump: snapshot: after (not run yet)" "$(heap_proc after calls)" ""
	expect_eq "$clock: dump: snapshot: kept" "$(heap_total kept)" 500
	heap_totals "$exe" "$D/dump/amon.out"
	expect_eq "$clock: dump: at exit: before bytes" "$(heap_proc before bytes)" 500
	expect_eq "$clock: dump: at exit: after bytes" "$(heap_proc after bytes)" 70
	expect_eq "$clock: dump: at exit: after calls" "$(heap_proc after calls)" 1
	expect_eq "$clock: dump: at exit: kept" "$(heap_total kept)" 570

	run stop
	expect_eq "$clock: stop: files (nothing left behind)" "$(ls "$D/stop" | tr '\n' ' ')" "amon.out "
	heap_totals "$exe" "$D/stop/amon.out"
	expect_eq "$clock: stop: before bytes" "$(heap_proc before bytes)" 500
	expect_eq "$clock: stop: after (run after the stop)" "$(heap_proc after calls)" ""
	expect_eq "$clock: stop: allocations" "$(heap_total allocs)" 5

	run restart
	expect_eq "$clock: restart: files (only the new one)" "$(ls "$D/restart" | tr '\n' ' ')" "other.out "
	heap_totals "$exe" "$D/restart/other.out"
	expect_eq "$clock: restart: after bytes" "$(heap_proc after bytes)" 70
	expect_eq "$clock: restart: after calls" "$(heap_proc after calls)" 1
	expect_eq "$clock: restart: before bytes (forgotten)" "$(heap_proc before bytes)" 0
	expect_eq "$clock: restart: before calls (forgotten)" "$(heap_proc before calls)" 0
	expect_eq "$clock: restart: allocations" "$(heap_total allocs)" 7
	expect_eq "$clock: restart: frees (the free of an older block is not charged)" "$(heap_total frees)" 0
	expect_eq "$clock: restart: kept" "$(heap_total kept)" 70
	expect_eq "$clock: restart: frees of blocks never seen" "$(heap_total untracked)" 0

	run autosave
	expect_eq "$clock: autosave: files" "$(ls "$D/autosave" | tr '\n' ' ')" "amon.out autosave.out "
	heap_totals "$exe" "$D/autosave/autosave.out"
	expect_eq "$clock: autosave: after 100 allocations: many allocations" "$(heap_proc many allocs)" 100
	expect_eq "$clock: autosave: after 100 allocations: total" "$(heap_total allocs)" 100
	heap_totals "$exe" "$D/autosave/amon.out"
	expect_eq "$clock: autosave: at exit: many allocations" "$(heap_proc many allocs)" 150
done

mkdir "$WORK/off"
(cd "$WORK/off" && APROF_HEAP=0 APROF_OUT="$WORK/off/amon.out" "$exe" plain >/dev/null) ||
	fail "APROF_HEAP=0: exited $?"
heap_totals "$exe" "$WORK/off/amon.out"
expect_eq "APROF_HEAP=0: heap" "$(heap_total heap)" off
expect_eq "APROF_HEAP=0: bytes" "$(heap_total bytes)" 0
expect_eq "APROF_HEAP=0: before calls (time is still profiled)" "$(heap_proc before calls)" 1
for metric in bytes allocs kept peak; do
	status=0
	"$APROF" -b --metric=$metric "$exe" "$WORK/off/amon.out" >"$WORK/off/report" \
		2>"$WORK/off/err" || status=$?
	expect_eq "APROF_HEAP=0: --metric=$metric: exit status" "$status" 1
	expect_eq "APROF_HEAP=0: --metric=$metric: lines on stderr" "$(wc -l <"$WORK/off/err")" 1
	expect_eq "APROF_HEAP=0: --metric=$metric: nothing on stdout" "$(wc -c <"$WORK/off/report")" 0
done
"$APROF" -b "$exe" "$WORK/off/amon.out" >"$WORK/report" || fail "APROF_HEAP=0: aprof (time) failed"
expect_eq "APROF_HEAP=0: time profile: before calls" "$(flat_calls before)" 1
# Sampling: a dump or the write at exit charges the current context no clock
# time, whose units are not samples.  At APROF_HZ=1 this run, far shorter
# than a second of CPU time, takes no sample at all: every context has 0.
mkdir "$WORK/sample"
(cd "$WORK/sample" && APROF_CLOCK=sample APROF_HZ=1 APROF_OUT="$WORK/sample/amon.out" "$exe" dump \
	>/dev/null) || fail "sample: exited $?"
for f in snapshot.out amon.out; do
	contexts "$exe" "$WORK/sample/$f"
	expect_eq "sample at 1 Hz: $f: contexts with time" \
		"$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 && $4 + 0 != 0' "$WORK/contexts" | wc -l)" 0
done
finish
