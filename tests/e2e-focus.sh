#!/bin/sh
# e2e-focus.sh -- the selection stage (-F, -E, --elide) and the printing
# filters (-f, -e, --threshold) on tests/s-focus.c, whose routines allocate
# known bytes: calls and bytes exact, times to the precision printed, with
# the contexts (-S, six decimals) as the reference.  Also the symspec
# errors: an unknown routine, and a focus that keeps nothing.
. "$top_srcdir/tests/e2e-lib.sh"

# With the cycle counter: the program's own clock, which x's share is held
# to, is wall-clock time too.
APROF_CLOCK=counter
export APROF_CLOCK

exe="$top_builddir/tests/s-focus"
profile s-focus
contexts "$exe" "$WORK/amon.out"

# seconds PATTERN: the sum of -S's seconds over contexts whose history
# matches the awk regex PATTERN, and how many there were ("sum n").
seconds() {
	awk -v p="$1" '$1 ~ /^[0-9]+$/ && NF >= 5 {
		x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
		if (x != "<no routine active>" && x ~ p) { s += $4; n++ } }
		END { printf "%.6f %d\n", s, n }' "$WORK/contexts"
}

# share_line: the focus line's two figures, "part total".
share_line() {
	sed -n '1s/^.*: \([0-9.]*\) [a-z]* of \([0-9.]*\) [a-z]*, .*/\1 \2/p' "$WORK/report"
}

# close NAME GOT WANT N: |GOT - WANT| within N rounding steps of six decimals.
close() {
	within "$1" "$2" "$3" "$(awk -v w="$3" -v n="$4" 'BEGIN { print (n * 0.5e-6 + 1e-7) / w }')"
}

# flat_self NAME: the self column of NAME's flat-profile row.
flat_self() {
	awk -v n="$1" '/^Flat profile/ { f = 1 } /^$/ && g { f = 0 } f && $NF == n && $1 ~ /\./ { print $3; g = 1 }' \
		"$WORK/report"
}

# ---- -F a: the contexts in which a is active --------------------------------
"$APROF" -b -F a "$exe" "$WORK/amon.out" >"$WORK/report"
set -- $(share_line)
part=$1 total=$2
set -- $(seconds '(^| )\(?a\)?( |$)')
close "-F a: the focused total is the sum of the contexts with a in their history" "$part" "$1" "$(($2 + 1))"
set -- $(seconds '.')
close "-F a: the run's total is the sum of every context" "$total" "$1" "$(($2 + 1))"
expect_eq "-F a: x called 10 times under a" "$(flat_calls x)" 10
expect_eq "-F a: a called 5 times" "$(flat_calls a)" 5
expect_eq "-F a: b not in the profile" "$(flat_calls b)" ""
expect_eq "-F a: c, a's caller, stays a parent of a" \
	"$(graph_entry a | arc_field c in 3)" 2/5
# gprof's -F rescales by call counts: x's share under a would be 10/210.
# aprof's share (x's self time under -F a over all of it, at the printed
# precision) must be the program's own (within 10%), which on any machine
# but one too busy for the program itself to see it is far from 10/210.
# The program's clock runs a little longer than aprof's, around the hooks,
# where a wait for the CPU on a busy machine moves the program's figure
# alone: up to five runs, and one whose share agrees is enough (the checks
# after this one read the last run's profile).
run=1
while :; do
	x_a=$(flat_self x)
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	x_all=$(flat_self x)
	share=$(awk -v a="$x_a" -v t="$x_all" 'BEGIN { printf "%.4f", (t > 0 ? a / t : 0) }')
	truth=$(sed -n 's/^measured x under a \([0-9.]*\), under b \([0-9.]*\)$/\1 \2/p' "$WORK/stdout" |
		awk '{ printf "%.4f", $1 / ($1 + $2) }')
	echo "note: run $run: x's share under a: gprof's rescaling by call counts 0.0476 (10/210)," \
		"aprof $share, the program's own clock $truth"
	if [ $run -ge 5 ] || awk -v s="$share" -v t="$truth" \
		'BEGIN { d = s - t; if (d < 0) d = -d; exit !(d <= 0.10 * t) }'; then
		break
	fi
	run=$((run + 1))
	profile s-focus
	contexts "$exe" "$WORK/amon.out"
	"$APROF" -b -F a "$exe" "$WORK/amon.out" >"$WORK/report"
done
within "x's share under a, against the program's own clock" "$share" "$truth" 0.10
if awk -v t="$truth" 'BEGIN { exit !(t > 2 * 10 / 210) }'; then
	if awk -v s="$share" 'BEGIN { exit !(s > 2 * 10 / 210) }'; then
		echo "ok: aprof's share is more than twice the rescaled one"
	else
		fail "aprof's share $share is close to the rescaled 10/210"
	fi
else
	echo "note: the machine was busy: the program itself measured a share of $truth"
fi

# ---- -E a: the complement -----------------------------------------------------
"$APROF" -b -E a "$exe" "$WORK/amon.out" >"$WORK/report"
set -- $(share_line)
set -- "$1" $(seconds '.') $(seconds '(^| )\(?a\)?( |$)')
close "-E a: the complement of -F a" "$1" "$(awk -v t="$2" -v a="$4" 'BEGIN { printf "%.6f", t - a }')" \
	"$(($3 + 1))"
expect_eq "-E a: x called 200 times, all under b" "$(flat_calls x)" 200
expect_eq "-E a: a not in the profile" "$(flat_calls a)" ""
expect_eq "-E a: b called 4 times" "$(flat_calls b)" 4

# ---- -f a: a's entry and its descendants', with the whole run's values ---------
"$APROF" -b -f a "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "-f a: the note says what is printed" "$(sed -n 1p "$WORK/report")" \
	"-f: only the entries of a and of the routines they call, at any depth"
expect_eq "-f a: x's calls, all of them" "$(flat_calls x)" 210
expect_eq "-f a: a's callers, whose entries are not printed, in parentheses" \
	"$(graph_entry a | grep -c -E '^ .* [0-9]+/5 +(c|main) \([0-9]+\)$')" 2
expect_eq "-f a: b, a caller of x, in parentheses" \
	"$(graph_entry x | grep -c -E ' 200/210 +b \([0-9]+\)$')" 1
expect_eq "-f a: no entry of b" "$(graph_entry b)" ""

# ---- --elide=x: x's self time goes to its callers -------------------------------
"$APROF" -S --elide=x "$exe" "$WORK/amon.out" >"$WORK/elided"
for h in "main > a" "main > b" "main > c > a"; do
	got=$(awk -v h="$h" '$1 ~ /^[0-9]+$/ { x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
		if (x == h) print $4 }' "$WORK/elided")
	set -- $(seconds "^$h( > x)?\$")
	close "--elide=x: $h takes x's self time" "$got" "$1" 2
done
expect_eq "--elide=x: no context has x" "$(grep -c ' x$' "$WORK/elided")" 0
"$APROF" -b --elide=x "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "--elide=x: a still called 5 times" "$(flat_calls a)" 5
expect_eq "--elide=x: x not in the profile" "$(flat_calls x)" ""

# ---- bytes: every filter with --metric=bytes and --heap, exact --------------------
if ! sanitized "the bytes (ASan's malloc comes before libaprof's)"; then
	heap_totals "$exe" "$WORK/amon.out"
	all=$(heap_total bytes)
	# bytes_line OPTIONS: the focus line's "part total" in bytes.
	bytes_line() {
		"$APROF" -b --metric=bytes "$@" "$exe" "$WORK/amon.out" >"$WORK/report"
		share_line
	}
	expect_eq "-F a --metric=bytes" "$(bytes_line -F a)" "570 $all"
	expect_eq "-E a --metric=bytes" "$(bytes_line -E a)" "$((all - 570)) $all"
	expect_eq "-F a -E x --metric=bytes" "$(bytes_line -F a -E x)" "500 $all"
	expect_eq "-F 's-focus.c:[ab]' --metric=bytes" "$(bytes_line -F 's-focus.c:[ab]')" \
		"$((570 + 1440)) $all"
	"$APROF" -b --metric=bytes --elide=x "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "--elide=x --metric=bytes: a's self bytes" "$(flat_self a)" 570.00
	expect_eq "--elide=x --metric=bytes: b's self bytes" "$(flat_self b)" 1440.00
	"$APROF" -b --metric=bytes -f a "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "-f a: rows a and x only" "$(awk '$1 ~ /\./ && NF == 7 { print $7 }' "$WORK/report" | sort | tr '\n' ' ')" "a x "
	expect_eq "-f a: x's self bytes, all of them" "$(flat_self x)" 1470.00
	"$APROF" -b --metric=bytes -e b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "-e b: no row of b; x stays (a calls it)" \
		"$(awk '$1 ~ /\./ && NF == 7 { print $7 }' "$WORK/report" | sort | tr '\n' ' ')" "a c main x "
	"$APROF" -b --metric=bytes --threshold=10 "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "--threshold=10: rows of 10% of the bytes or more" \
		"$(awk '/^Flat/ { f = 1 } /Call graph/ { f = 0 } f && $1 ~ /\./ && NF == 7 { print $7 }' "$WORK/report" | sort | tr '\n' ' ')" \
		"a main x "
	# direct_total OPTIONS: --heap's direct-allocation <TOTAL> bytes, and the rows "name=bytes".
	direct() {
		"$APROF" --heap "$@" "$exe" "$WORK/amon.out" |
			awk '/Direct Allocation/ { f = 1 } /Allocation Call Graph/ { f = 0 }
				f && $NF == "<TOTAL>" { printf "%s", $2 }
				f && $1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9]+$/ { printf " %s=%s", $NF, $2 }'
	}
	expect_eq "--heap -F a" "$(direct -F a)" "570 a=500 x=70"
	expect_eq "--heap -E a" "$(direct -E a)" "$((all - 570)) x=1400 main=1000 b=40 c=6"
	expect_eq "--heap --elide=x" "$(direct --elide=x)" "$all b=1440 main=1000 a=570 c=6"
fi

# ---- bad symspecs ----------------------------------------------------------------
if "$APROF" -F foo "$exe" "$WORK/amon.out" >"$WORK/out" 2>"$WORK/err"; then
	fail "-F foo: exit status 0"
else
	expect_eq "-F foo: exit status" "$?" 1
fi
expect_eq "-F foo: one line on stderr" "$(cat "$WORK/err")" "aprof: no routine matches 'foo'"
expect_eq "-F foo: nothing on stdout" "$(wc -c <"$WORK/out")" 0
expect_eq "--elide='nosuch*' fails alike" \
	"$("$APROF" --elide='nosuch*' "$exe" "$WORK/amon.out" 2>&1 >/dev/null)" \
	"aprof: no routine matches 'nosuch*'"
expect_eq "-F other.c:a: a is not in other.c" \
	"$("$APROF" -F other.c:a "$exe" "$WORK/amon.out" 2>&1 >/dev/null)" \
	"aprof: no routine matches 'other.c:a'"
"$APROF" -F unused "$exe" "$WORK/amon.out" >"$WORK/out" 2>"$WORK/err"
expect_eq "-F unused: exit status" "$?" 0
expect_eq "-F unused: says it kept nothing" "$(cat "$WORK/out")" \
	"focus on unused: no context kept (no routine was active in one)"
finish
