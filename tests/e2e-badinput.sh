#!/bin/sh
# e2e-badinput.sh -- bad input gets exactly one line on stderr, naming the
# problem, and exit status 1: never a crash, a hang or a report.
. "$top_srcdir/tests/e2e-lib.sh"

# rejects NAME PATTERN ARGS...: aprof ARGS must fail with one stderr line matching PATTERN.
rejects() {
	name=$1 pattern=$2
	shift 2
	status=0
	"$APROF" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
	lines=$(wc -l <"$WORK/err" | tr -d ' ')
	if [ "$status" -ne 1 ]; then
		fail "$name: exit status $status, want 1"
	elif [ "$lines" -ne 1 ] || ! grep -q -- "$pattern" "$WORK/err"; then
		fail "$name: stderr is not one line matching '$pattern': $(cat "$WORK/err")"
	elif [ -s "$WORK/out" ]; then
		fail "$name: printed a report anyway"
	else
		echo "ok: $name: $(cat "$WORK/err")"
	fi
}

exe="$top_builddir/tests/s-calls"
profile s-calls
good="$WORK/amon.out"
size=$(wc -c <"$good")

rejects "missing amon.out" "nosuch.out: No such file or directory" "$exe" "$WORK/nosuch.out"
rejects "missing executable" "nosuch-exe: No such file" "$WORK/nosuch-exe" "$good"
rejects "not an amon.out" "not an amon.out file" "$exe" "$exe"
head -c $((size / 2)) "$good" >"$WORK/half.out"
rejects "truncated amon.out" "truncated file" "$exe" "$WORK/half.out"
head -c 20 "$good" >"$WORK/short.out"
rejects "truncated header" "truncated file" "$exe" "$WORK/short.out"
: >"$WORK/empty.out"
rejects "empty amon.out" "not an amon.out file" "$exe" "$WORK/empty.out"
# Flip one byte in the middle: the CRC-32 seal must catch it.
cp "$good" "$WORK/corrupt.out"
printf '\377' | dd of="$WORK/corrupt.out" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
rejects "corrupted amon.out" "checksum mismatch" "$exe" "$WORK/corrupt.out"
# Version 6, whose thread 'memory' was also the bound on the histories
# (the version is the u32 after the 8 bytes of magic): refused by name.
cp "$good" "$WORK/v6.out"
printf '\006' | dd of="$WORK/v6.out" bs=1 seek=8 conv=notrunc 2>/dev/null
rejects "amon.out of an older version" "v6.out: amon.out version 6; this aprof reads version" \
	"$exe" "$WORK/v6.out"
rejects "amon.out of another executable" "build-id differs" "$top_builddir/tests/s-shared" "$good"
# A stripped executable falls back to its dynamic symbols, says so in one
# line, and shows what no symbol names as an address in the executable.
strip -o "$WORK/stripped" "$exe"
status=0
"$APROF" -b -p "$WORK/stripped" "$good" >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "stripped: exit status" "$status" 0
expect_eq "stripped: warning" "$(cat "$WORK/err")" \
	"aprof: warning: $WORK/stripped: no symbols (stripped?): using its dynamic symbols"
leaf=$(nm "$exe" | awk '$3 == "leaf" { sub(/^0+/, "", $1); print $1 }')
cp "$WORK/out" "$WORK/report"
expect_eq "stripped: leaf by address" "$(flat_calls "0x$leaf in s-calls")" 41
rejects "unknown long option" "unknown option '--bogus'" --bogus "$exe" "$good"
rejects "unknown short option" "unknown option '-j'" -j "$exe" "$good"
rejects "a missing profile among several" "extra: No such file or directory" "$exe" "$good" extra
rejects "unknown format" "unknown format 'svg'" --format=svg "$exe" "$good"
rejects "--diff to dot" "--diff writes the gprof, the folded or the pprof format" --diff="$good" --format=dot \
	"$exe" "$good"
finish
