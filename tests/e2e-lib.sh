# e2e-lib.sh -- shared by the end-to-end tests: run an instrumented test
# program in a scratch directory, then aprof on what it wrote.
# Sourced by tests/e2e-*.sh; needs top_builddir (set by make check).
set -eu
: "${top_builddir:?run me through make check}"
APROF="$top_builddir/aprof/aprof"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/aprof-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failures=0

# profile PROGRAM [ARGS...]: run tests/PROGRAM, leaving $WORK/amon.out.
profile() {
	prog="$top_builddir/tests/$1"
	shift
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$prog" "$@" >"$WORK/stdout")
}

# fail MESSAGE: record a failed check and say which.
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# expect_eq WHAT GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then echo "ok: $1 = $3"; else fail "$1: got '$2', want '$3'"; fi
}

# flat_calls NAME: the calls column of NAME's row in the flat profile
# ($WORK/report); a cycle member's " <cycle N>" tag is ignored.
flat_calls() {
	awk -v n="$1" '/^Flat profile/ { f = 1 } /^\f/ { f = 0 }
		f && NF >= 7 && $4 ~ /^[0-9]+$/ && $5 ~ /\./ {
			name = $7; for (i = 8; i <= NF; i++) name = name " " $i
			sub(/ <cycle [0-9]+>$/, "", name)
			if (name == n) print $4 }' "$WORK/report"
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed" >&2
		exit 1
	fi
}

# graph_entry NAME: the call-graph entry (parents, primary line, children) of NAME.
graph_entry() {
	awk -v n="$1" '
		/^-+$/ { if (hit) { printf "%s", blk; exit } blk = ""; next }
		{ blk = blk $0 "\n" }
		$0 ~ "^\\[[0-9]+\\]" && (index($0, " " n " [") || index($0, " " n " <cycle ")) { hit = 1 }' "$WORK/report"
}

# arc_field NAME SIDE FIELD: from graph_entry's output on stdin, field FIELD
# (1 self, 2 children, 3 count) of the parent (SIDE=in) or child (SIDE=out) line of NAME.
arc_field() {
	awk -v n="$1" -v side="$2" -v f="$3" '
		/^\[/ { primary = 1; next }
		((side == "in" && !primary) || (side == "out" && primary)) && $4 == n { print $f }'
}

# within NAME GOT WANT TOLERANCE: |GOT - WANT| <= TOLERANCE * WANT.
within() {
	if awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t * w) }'
	then echo "ok: $1 = $2 (want $3 within $4)"; else fail "$1: got $2, want $3 within $4"; fi
}
