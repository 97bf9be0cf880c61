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

# sanitized WHY: true, saying that what follows is skipped and WHY, in a
# build configured --enable-sanitizers (make check-asan), where ASan's
# malloc comes before libaprof's and the sanitized libaprof needs ASan's
# runtime loaded first.
sanitized() {
	[ "${APROF_SANITIZED:-}" = 1 ] || return 1
	echo "skipped under the sanitizers: $*"
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

# near WHAT GOT WANT SLACK: |GOT - WANT| <= SLACK.
near() {
	if awk -v g="$2" -v w="$3" -v s="$4" 'BEGIN { d = g - w; exit !(d <= s && -d <= s) }'
	then echo "ok: $1 = $2 (want $3 within $4)"; else fail "$1: got '$2', want $3 within $4"; fi
}

# flat_unit: ns per unit of the flat profile's per-call columns (us/call: 1000).
flat_unit() {
	awk '/^Flat profile/ { f = 1 } f && $1 == "time" && $2 == "seconds" { u = $6
		sub(/\/call$/, "", u); print u == "s" ? 1000000000 : u == "ms" ? 1000000 : u == "us" ? 1000 : 1
		exit }' \
		"$WORK/report"
}

# ---- exact heap numbers (tests/heap-totals), whatever the reports' units ----

# heap_totals EXE AMON: the exact heap numbers of AMON into $WORK/heap.
heap_totals() {
	"$top_builddir/tests/heap-totals" "$1" "$2" >"$WORK/heap"
}

# heap_total ITEM: a total from $WORK/heap: allocs, bytes, frees, freed,
# kept, peak, untracked (summed over every context of every thread), heap.
heap_total() {
	awk -v k="$1" '$1 == k { print $2 }' "$WORK/heap"
}

# heap_proc NAME COLUMN: routine NAME's value in $WORK/heap; COLUMN is calls,
# bytes, allocs, kept, peak (self: charged while NAME ran) or bytes+,
# allocs+, kept+ (self + child: while NAME was active).  Nothing if NAME is
# not in the profile.
heap_proc() {
	awk -v n="$1" -v col="$2" '$1 == "proc" {
		name = $10; for (i = 11; i <= NF; i++) name = name " " $i
		if (name != n) next
		# %.0f: exact to 2^53, where print and %d in mawk are not
		if (col == "calls") v = $2; else if (col == "bytes") v = $3
		else if (col == "bytes+") v = $3 + $4; else if (col == "allocs") v = $5
		else if (col == "allocs+") v = $5 + $6; else if (col == "kept") v = $7
		else if (col == "kept+") v = $7 + $8; else if (col == "peak") v = $9
		printf "%.0f\n", v
	}' "$WORK/heap"
}

# ---- contexts and per-thread records, exact ----

# contexts EXE AMON: aprof -S's listing of AMON into $WORK/contexts.
contexts() {
	"$APROF" -S "$1" "$2" >"$WORK/contexts"
}

# context_row HISTORY: "calls+recursive" of the context whose history is
# HISTORY, as aprof -S prints it ('main > a > (b) > c'), in $WORK/contexts;
# nothing if there is no such context.
context_row() {
	awk -v h="$1" '$1 ~ /^[0-9]+$/ && NF >= 5 {
		x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
		if (x == h) print $2 "+" $3 }' "$WORK/contexts"
}

# amon_threads AMON: AMON's header pid, modules and per-thread records
# (tests/amon-threads) into $WORK/threads.
amon_threads() {
	"$top_builddir/tests/amon-threads" "$1" >"$WORK/threads"
}

# thread_field NAME FIELD: FIELD (tid, resyncs, dropped, unmatched, contexts,
# entries: calls + recursive calls, memory: bytes the runtime took,
# history-entries: its histories' entries spelled out) of each thread named
# NAME in $WORK/threads, one line per such thread; NAME "*" is every thread.
thread_field() {
	awk -v n="$1" -v f="$2" '$1 == "thread" {
		name = $10; for (i = 11; i <= NF; i++) name = name " " $i
		if (n != "*" && name != n) next
		k = f == "tid" ? 2 : f == "resyncs" ? 3 : f == "dropped" ? 4 : \
		    f == "unmatched" ? 5 : f == "contexts" ? 6 : f == "entries" ? 7 : \
		    f == "memory" ? 8 : f == "history-entries" ? 9 : 0
		if (k) print $k }' "$WORK/threads"
}

# context_count: the number of contexts aprof -S listed in $WORK/contexts.
context_count() {
	sed -n 's/^\([0-9][0-9]*\) contexts\.  .*/\1/p' "$WORK/contexts"
}

# throw_dtor PROG RESYNCS: tests/s-throw.cc's "dtor" case, built as PROG
# (either front-end): a throw's cleanups and the end of the catch call
# destructors, each Guard's its own frame's callee, the thrown Oops's main's
# (the C++ library calls it when main's catch clause ends); RESYNCS shadow
# stack entries popped in all.
throw_dtor() {
	exe="$top_builddir/tests/$1"
	profile "$1" dtor
	expect_eq "dtor: stdout" "$(cat "$WORK/stdout")" "caught 1000"
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	contexts "$exe" "$WORK/amon.out"
	expect_eq "dtor: flat calls Guard::~Guard()" "$(flat_calls 'Guard::~Guard()')" 3000
	graph_entry 'Guard::~Guard()' >"$WORK/entry"
	history=main
	for f in d1 d2 d3; do
		history="$history > $f"
		expect_eq "dtor: arc $f -> Guard::~Guard()" "$(arc_field $f in 3 <"$WORK/entry")" 1000/3000
		expect_eq "dtor: context $history" "$(context_row "$history")" "1000+0"
		expect_eq "dtor: context $history > Guard::~Guard()" \
			"$(context_row "$history > Guard::~Guard()")" "1000+0"
	done
	expect_eq "dtor: context main > Oops::~Oops()" "$(context_row 'main > Oops::~Oops()')" "1000+0"
	expect_eq "dtor: context main > after" "$(context_row 'main > after')" "1000+0"
	# root, main, d1 .. d3, three Guard::Guard, three ~Guard, Oops::Oops, ~Oops, after
	expect_eq "dtor: contexts" "$(context_count)" 14
	amon_threads "$WORK/amon.out"
	expect_eq "dtor: resyncs" "$(thread_field '*' resyncs)" "$2"
	expect_eq "dtor: unmatched" "$(thread_field '*' unmatched)" 0
}
