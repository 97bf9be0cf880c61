#!/bin/sh
# e2e-ownalloc.sh -- a program with its own malloc, calloc, realloc and
# free over dlsym(RTLD_NEXT) (tests/s-ownmalloc.c), each noting its calls on
# file descriptor 3: under libaprof it makes exactly the calls it makes
# without (built bare here), start-up and exit included, and aprof counts
# exactly those.  The runtime never calls the program's allocator for
# itself (its exit calibration sorted with qsort, which calls free) nor
# leaves state behind that makes the program's own calls do more (a
# failed dlsym's message, freed by the program's next dlsym).
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-ownmalloc"
${CC:-cc} -O0 -g -o "$WORK/bare" "$top_srcdir/tests/s-ownmalloc.c" -ldl
"$WORK/bare" >"$WORK/bare.out" 3>"$WORK/bare.calls"
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$exe" >"$WORK/stdout" 3>"$WORK/calls")
expect_eq "output" "$(cat "$WORK/stdout")" "$(cat "$WORK/bare.out")"
count() {
	tr -cd "$1" <"$2" | wc -c | tr -d ' '
}
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
for f in m:malloc c:calloc r:realloc f:free; do
	letter=${f%%:*} name=${f#*:}
	bare=$(count "$letter" "$WORK/bare.calls")
	expect_eq "$name: calls made, as without libaprof" "$(count "$letter" "$WORK/calls")" "$bare"
	calls=$(flat_calls "$name")
	expect_eq "$name: calls aprof counts" "${calls:-0}" "$bare"
done
expect_eq "free: at least the program's 3" "$(test "$(count f "$WORK/bare.calls")" -ge 3 && echo yes)" yes
finish
