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
# Run where amon.out is missing too: the missing file named is the one given.
mkdir -p "$WORK/empty"
cd "$WORK/empty"
rejects "missing executable, no amon.out" "nosuch-exe: No such file" "$WORK/nosuch-exe"
cd "$OLDPWD"
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
# Checked before read: nothing is taken for a file before its header, end
# record and seal say it is a profile.  Under a 200 MB address-space limit,
# a sparse file of 256 MB, zero bytes (bad magic), or with a good header
# and end record but holes between (checksum), and /dev/zero, which never
# ends, are refused by what is wrong with them, not "out of memory".
if ! sanitized "the memory limit (ASan reserves more address space than it allows)"; then
	truncate -s 256M "$WORK/sparse-zero.out"
	head -c 48 "$good" >"$WORK/sparse-sealed.out"
	truncate -s 256M "$WORK/sparse-sealed.out"
	tail -c 20 "$good" | dd of="$WORK/sparse-sealed.out" bs=1 seek=$((256 * 1024 * 1024 - 20)) \
		conv=notrunc 2>/dev/null
	limited() {
		(ulimit -v 200000 && exec timeout 60 "$APROF_REAL" "$@")
	}
	APROF_REAL=$APROF
	APROF=limited
	rejects "sparse file of zeros, memory limited" "sparse-zero.out: not an amon.out file (bad magic)" \
		"$exe" "$WORK/sparse-zero.out"
	rejects "sparse file, sealed, memory limited" "sparse-sealed.out: checksum mismatch" \
		"$exe" "$WORK/sparse-sealed.out"
	rejects "/dev/zero, memory limited" "/dev/zero: not a regular file or a pipe" "$exe" /dev/zero
	APROF=$APROF_REAL
	rm -f "$WORK"/sparse-*.out
fi
# A profile through a pipe and a FIFO is read as it comes.
status=0
"$APROF" -b "$exe" /dev/stdin <"$good" >"$WORK/report" || status=$?
expect_eq "profile on a redirected stdin: flat calls leaf" "$(flat_calls leaf)" 41
cat "$good" | "$APROF" -b "$exe" /dev/stdin >"$WORK/report" || status=$?
expect_eq "profile through a pipe: flat calls leaf" "$(flat_calls leaf)" 41
mkfifo "$WORK/fifo"
cat "$good" >"$WORK/fifo" &
"$APROF" -b "$exe" "$WORK/fifo" >"$WORK/report" || status=$?
wait
expect_eq "profile through a FIFO: flat calls leaf" "$(flat_calls leaf)" 41
expect_eq "profile through a pipe or a FIFO: exit status" "$status" 0
printf 'not a profile at all' | "$APROF" -b "$exe" /dev/stdin >"$WORK/out" 2>"$WORK/err" || status=$?
expect_eq "garbage through a pipe: one line" \
	"$(grep -c 'stdin: not an amon.out file (bad magic)' "$WORK/err")/$(wc -l <"$WORK/err")" 1/1
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
