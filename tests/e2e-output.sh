#!/bin/sh
# e2e-output.sh -- where the profile goes, when APROF_OUT is not a plain
# file or someone else is in the directory: a character device (a mknod
# copy of /dev/null, as root) stays the device; a FIFO with a reader gets
# the profile in place; a FIFO without a reader, and a directory, are left
# alone with one line on stderr and the program's exit status kept; a file
# planted at the temporary name the writer used to choose (amon.out.tmp.
# PID.0) does not lose the profile; and the temporary file is synced
# before it is renamed (strace, when it can trace).
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-calls"

# run PATH: s-calls with APROF_OUT=PATH, its stderr in $WORK/err; a writer
# that waits on a FIFO is stopped after a minute.
run() {
	(cd "$WORK" && APROF_OUT="$1" timeout 60 "$exe" >/dev/null 2>"$WORK/err")
}

if [ "$(id -u)" = 0 ]; then
	mknod "$WORK/null" c 1 3
	run "$WORK/null" || fail "device: exited $?"
	expect_eq "device: still a character device" "$(test -c "$WORK/null" && echo yes)" yes
	expect_eq "device: lines on stderr" "$(wc -l <"$WORK/err")" 0
	expect_eq "device: nothing beside it" "$(ls "$WORK" | grep -c '^null')" 1
else
	echo "device: skipped (mknod needs root)"
fi

# A FIFO with a reader: the shell opens it for writing only once cat has
# opened it for reading, so the reader is there before the program runs.
mkfifo "$WORK/fifo"
cat "$WORK/fifo" >"$WORK/from-fifo" &
reader=$!
exec 4>"$WORK/fifo"
run "$WORK/fifo" || fail "FIFO: exited $?"
exec 4>&-
wait $reader
expect_eq "FIFO: still a FIFO" "$(test -p "$WORK/fifo" && echo yes)" yes
expect_eq "FIFO: lines on stderr" "$(wc -l <"$WORK/err")" 0
"$APROF" -b "$exe" "$WORK/from-fifo" >"$WORK/report" || fail "FIFO: the profile read from it"
expect_eq "FIFO: flat calls main" "$(flat_calls main)" 1

run "$WORK/fifo" || fail "FIFO without a reader: exited $?"
expect_eq "FIFO without a reader: one line" \
	"$(grep -c "fifo: .*a FIFO without a reader" "$WORK/err")/$(wc -l <"$WORK/err")" 1/1
mkdir "$WORK/dir"
run "$WORK/dir" || fail "directory: exited $?"
expect_eq "directory: one line" "$(grep -c "dir: not a regular file" "$WORK/err")/$(wc -l <"$WORK/err")" 1/1
expect_eq "directory: left empty" "$(ls -A "$WORK/dir")" ""

# The name the writer chose before, planted: the profile must not be lost.
sh -c 'echo planted >"$1/amon.out.tmp.$$.0"; exec env APROF_OUT="$1/amon.out" "$2" >/dev/null 2>"$1/err"' \
	sh "$WORK" "$exe" || fail "planted: exited $?"
expect_eq "planted temporary name: lines on stderr" "$(wc -l <"$WORK/err")" 0
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report" || fail "planted temporary name: no profile"
expect_eq "planted temporary name: flat calls main" "$(flat_calls main)" 1
expect_eq "planted temporary name: left as it was" "$(cat "$WORK"/amon.out.tmp.*.0)" planted

# fsync, then rename: a crash of the machine never leaves an empty amon.out.
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	rm -f "$WORK/amon.out"
	# LeakSanitizer cannot work under ptrace: off, in a sanitized build.
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" ASAN_OPTIONS=detect_leaks=0 strace -o "$WORK/trace" \
		-e trace=fsync,fdatasync,rename,renameat,renameat2 "$exe" >/dev/null)
	expect_eq "synced, then renamed" \
		"$(sed -n 's/^\(fsync\|fdatasync\|rename\|renameat\|renameat2\)(.*/\1/p' "$WORK/trace" | tr '\n' ' ')" \
		"fsync rename "
else
	echo "fsync: skipped (no strace, or it cannot trace here)"
fi
finish
