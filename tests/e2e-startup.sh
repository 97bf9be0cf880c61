#!/bin/sh
# e2e-startup.sh -- the runtime's start-up and the signals it watches
# (tests/s-signal.c): APROF_DUMP_SIGNAL takes every name kill -l prints,
# with or without SIG, and numbers; a malformed APROF_* value gets one line
# on stderr; SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGALRM at their default disposition write
# the profile, then end the process as they would have (a program's own
# handler left alone); a second writer of one amon.out says it replaced a
# profile written during its run.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-signal"

# run OUT ERR [VAR=VALUE...] -- ARGS: s-signal ARGS with the variables, in $WORK.
run() {
	out=$1 err=$2
	shift 2
	rm -f "$WORK/amon.out"
	(cd "$WORK" && env --default-signal=HUP,INT,TERM,PIPE,ALRM APROF_OUT="$WORK/amon.out" "$@" \
		>"$out" 2>"$err")
}

# The number of signal NAME: dash's kill -l knows no names, bash's does.
signum() {
	bash -c "kill -l $1"
}

# Every signal name bash's kill -l prints (dash's has no real-time ones);
# sampling, which neither calibrates nor waits to measure the clock, is quick.
names=$(bash -c 'kill -l' 2>/dev/null | tr ' \t' '\n\n' | sed -n 's/^SIG//p')
[ -n "$names" ] || names=$(kill -l)
for name in $names; do
	sig=$(signum "SIG$name")
	case $name in
	KILL | STOP) want=1 ;; # cannot be caught: said
	SEGV | BUS | FPE | ILL | ABRT | TRAP) want=1 ;; # a fault's: said
	*) want=0 ;;
	esac
	for v in "$name" "SIG$name" "$sig"; do
		run "$WORK/stdout" "$WORK/err" APROF_CLOCK=sample APROF_DUMP_SIGNAL="$v" "$exe"
		n=$(grep -c 'APROF_DUMP_SIGNAL' "$WORK/err" || true)
		[ "$n" = "$want" ] || fail "APROF_DUMP_SIGNAL=$v: $n lines on stderr, want $want"
	done
done
echo "ok: APROF_DUMP_SIGNAL: every name of kill -l ($(echo $names | wc -w)), with SIG, and its number"

# A dump signal is a snapshot: the program runs on, even on a signal that
# would end it; the snapshot has the 5 calls before it, the profile at exit
# all 12.  The dump signal is caught before SIGTERM's default is.
for v in TERM sigint RTMIN+2 SIGRTMAX-1 USR1; do
	sig=$(signum "$(echo "$v" | tr a-z A-Z)")
	mkdir -p "$WORK/snap"
	run "$WORK/stdout" "$WORK/err" APROF_DUMP_SIGNAL="$v" APROF_OUT="$WORK/snap/amon.out" \
		"$exe" "$sig" || fail "APROF_DUMP_SIGNAL=$v: exited $?"
	expect_eq "APROF_DUMP_SIGNAL=$v: runs on" "$(cat "$WORK/stdout")" after
	"$APROF" -b "$exe" "$WORK/snap/amon.out" >"$WORK/report"
	expect_eq "APROF_DUMP_SIGNAL=$v: flat calls work" "$(flat_calls work)" 12
done

# A fault's signal is refused as a dump signal, in one line; a real fault
# then ends the process once, as a crash (128 + SIGSEGV), with the profile
# of the 5 calls before it, instead of returning to the fault forever.
for v in SEGV BUS FPE ILL ABRT TRAP; do
	run "$WORK/stdout" "$WORK/err" APROF_DUMP_SIGNAL="$v" "$exe" 0 || true
	expect_eq "APROF_DUMP_SIGNAL=$v: refused in one line" \
		"$(grep -c "^aprof: APROF_DUMP_SIGNAL=$v: .*a fault's signal" "$WORK/err")/$(wc -l <"$WORK/err")" 1/1
done
status=0
run "$WORK/stdout" "$WORK/err" APROF_DUMP_SIGNAL=SEGV ASAN_OPTIONS=handle_segv=0 timeout 60 "$exe" 0 fault ||
	status=$?
expect_eq "APROF_DUMP_SIGNAL=SEGV, a real fault: killed by it" "$status" $((128 + $(signum SEGV)))
if [ -f "$WORK/amon.out" ]; then
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "APROF_DUMP_SIGNAL=SEGV, a real fault: flat calls work" "$(flat_calls work)" 5
else
	fail "APROF_DUMP_SIGNAL=SEGV, a real fault: no profile"
fi

# Malformed values: one line each, naming the variable and its value.
for v in APROF_CLOCK=bogus APROF_HEAP=2 APROF_DUMP_SIGNAL=FOO APROF_DUMP_SIGNAL=RTMIN+99 \
	"APROF_CLOCK=sample APROF_HZ=fast" "APROF_CLOCK=sample APROF_HZ=0"; do
	# shellcheck disable=SC2086
	run "$WORK/stdout" "$WORK/err" $v "$exe" || fail "$v: exited $?"
	bad=${v##* }
	expect_eq "$v: lines on stderr" "$(wc -l <"$WORK/err")" 1
	expect_eq "$v: the line names it" "$(grep -c "^aprof: $bad: " "$WORK/err")" 1
	expect_eq "$v: profile written" "$(test -s "$WORK/amon.out" && echo yes)" yes
done
for v in APROF_CLOCK=counter APROF_CLOCK=monotonic APROF_HEAP=0 APROF_HEAP=1 \
	"APROF_CLOCK=sample APROF_HZ=1000"; do
	# shellcheck disable=SC2086
	run "$WORK/stdout" "$WORK/err" $v "$exe" || fail "$v: exited $?"
	expect_eq "$v: lines on stderr" "$(wc -l <"$WORK/err")" 0
done

# SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM at their default: the profile of
# the 5 calls before the signal, then the default action (the shell sees
# 128 + SIG).
for name in INT TERM HUP PIPE ALRM; do
	sig=$(signum "$name")
	status=0
	run "$WORK/stdout" "$WORK/err" "$exe" "$sig" || status=$?
	expect_eq "SIG$name: killed by it" "$status" $((128 + sig))
	expect_eq "SIG$name: nothing after it" "$(cat "$WORK/stdout")" ""
	if [ -f "$WORK/amon.out" ]; then
		"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
		expect_eq "SIG$name: flat calls work" "$(flat_calls work)" 5
	else
		fail "SIG$name: no profile"
	fi
	# The program's own handler is left alone: it runs, and the program on.
	run "$WORK/stdout" "$WORK/err" "$exe" "$sig" own || fail "SIG$name, own handler: exited $?"
	expect_eq "SIG$name: the program's handler" "$(cat "$WORK/stdout" | tr '\n' ' ')" "handled after "
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "SIG$name, own handler: flat calls work" "$(flat_calls work)" 12
done

# Two processes, one amon.out: the first waits while the second runs and
# writes; the first, writing after it, says so once.  Each only starts the
# next step when the last is done: nothing depends on timing.
rm -f "$WORK/amon.out" "$WORK/go"
mkfifo "$WORK/go"
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$exe" 0 wait <"$WORK/go" >"$WORK/first" \
	2>"$WORK/first.err") &
first=$!
exec 3>"$WORK/go"
i=0
until grep -q ready "$WORK/first" 2>/dev/null || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$exe" >/dev/null 2>"$WORK/second.err")
echo go >&3
exec 3>&-
wait $first || fail "the first writer: exited $?"
expect_eq "the second writer: lines on stderr" "$(wc -l <"$WORK/second.err")" 0
expect_eq "the first writer: lines on stderr" "$(wc -l <"$WORK/first.err")" 1
expect_eq "the first writer: says it replaced a profile, and what to do" \
	"$(grep -c "replacing the profile that process [0-9]* wrote during this run; APROF_OUT=amon.out.%p" \
		"$WORK/first.err")" 1
# One process writing its own profile again (a snapshot, then exit): nothing said.
run "$WORK/stdout" "$WORK/err" APROF_DUMP_SIGNAL=USR1 "$exe" "$(signum USR1)"
expect_eq "a snapshot then the exit: lines on stderr" "$(wc -l <"$WORK/err")" 0
finish
