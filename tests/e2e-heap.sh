#!/bin/sh
# e2e-heap.sh -- --heap (mprof's tables) and --metric=bytes, exact to the byte:
# examples/widgets.c (mprof's example) must show one leak path, the red
# widgets', with the bytes the program says it never freed, and totals equal
# to the bytes it says it requested; tests/s-work.c's arcs a -> work and
# b -> work must carry 10000 and 100 bytes; in tests/s-heaprec.c's
# P -> Q -> R -> P every routine's self + children must be the bytes
# allocated while it was active.  Byte totals stay below 100000 so that
# --metric=bytes shows plain bytes: every printed value is exact.
. "$top_srcdir/tests/e2e-lib.sh"

# section TITLE: the lines of --heap's table whose title starts with TITLE, up to its "\f".
section() {
	awk -v t="$1" 'index($0, t) == 1 { f = 1; next } /^\f$/ { f = 0 } f' "$WORK/report"
}

# leak_paths: the path column of every row of the leak table.
leak_paths() {
	section "--------- Memory Leaks" |
		awk '/^kept bytes/ { i = index($0, "path") }
			i && $1 ~ /^[0-9]+$/ { print substr($0, i) }'
}

# primary NAME: "self children" of NAME's primary line in the call graph.
primary() {
	awk -v n="$1" '$1 ~ /^\[[0-9]+\]$/ && $6 == n { print $3, $4; exit }' "$WORK/report"
}

# active NAME: NAME's self + children, to the cent.
active() {
	primary "$1" | awk '{ printf "%.2f\n", $1 + $2 }'
}

# heap_checks: all of the below, with the clock APROF_CLOCK says.
heap_checks() {
	# ---- mprof's widgets: the leak table and the totals ---------------------------
	profile s-widgets
	requested=$(sed -n 's/.* \([0-9][0-9]*\) bytes requested.*/\1/p' "$WORK/stdout")
	kept=$(sed -n 's/.* \([0-9][0-9]*\) bytes never freed.*/\1/p' "$WORK/stdout")
	expect_eq "widgets made" "$(sed -n 's/^widgets: \([0-9]*\) made.*/\1/p' "$WORK/stdout")" 10000
	"$APROF" --heap --heap-verbosity=verbose "$top_builddir/tests/s-widgets" "$WORK/amon.out" \
		>"$WORK/report"
	expect_eq "leak paths" "$(leak_paths)" "main > make_red_widget > make_widget"
	expect_eq "kept bytes of the leak" "$(section "--------- Memory Leaks" |
		awk '$1 ~ /^[0-9]+$/ { print $1 }')" "$kept"
	expect_eq "total bytes not freed" \
		"$(sed -n 's/^Total bytes not freed: //p' "$WORK/report")" "$kept"
	expect_eq "bins: allocations, bytes, kept" "$(section "--------- Allocation Bins" |
		awk '$1 == "<TOTAL>" { print $2, $3, $5 }')" "10000 $requested $kept"
	expect_eq "direct allocation: bytes, kept, calls" "$(section "---------  Direct Allocation" |
		awk -F'|' '$5 ~ / <TOTAL>$/ {
			split($1, b, " "); split($5, c, " "); print b[2], $3 + 0, c[1] }')" \
		"$requested $kept 10000"
	expect_eq "direct allocation: make_widget's bytes" "$(section "---------  Direct Allocation" |
		awk '$NF == "make_widget" { print $2 }')" "$requested"
	"$APROF" --heap --no-leaks "$top_builddir/tests/s-widgets" "$WORK/amon.out" >"$WORK/report"
	expect_eq "--no-leaks: leak tables" "$(grep -c "Memory Leaks" "$WORK/report")" 0
	expect_eq "--no-leaks: tables" "$(grep -cE '^---------  ?[A-Z]' "$WORK/report")" 3

	# ---- work(n): the arcs into work carry exactly 10000 and 100 bytes -------------
	profile s-work
	"$APROF" -b -q --metric=bytes "$top_builddir/tests/s-work" "$WORK/amon.out" >"$WORK/report"
	graph_entry work >"$WORK/work"
	expect_eq "bytes a -> work" "$(arc_field a in 1 <"$WORK/work") $(arc_field a in 2 <"$WORK/work")" \
		"10000.00 0.00"
	expect_eq "bytes b -> work" "$(arc_field b in 1 <"$WORK/work") $(arc_field b in 2 <"$WORK/work")" \
		"100.00 0.00"
	expect_eq "calls a -> work" "$(arc_field a in 3 <"$WORK/work")" 10/20
	expect_eq "work: self, children" "$(primary work)" "10100.00 0.00"
	expect_eq "granularity" "$(grep -c "^granularity: .* of 10100.00 bytes$" "$WORK/report")" 1
	# Each malloc is one heap-tracking call, each free one (the block's header
	# read, its context charged): their cost is taken off the contexts' time.
	"$APROF" --stats "$top_builddir/tests/s-work" "$WORK/amon.out" >"$WORK/stats"
	expect_eq "heap-tracking calls" "$(awk '$1 == "heap-events" { print $2 }' "$WORK/stats")" 40

	# ---- P -> Q -> R -> P: self + children = bytes allocated while active ----------
	descents=20 levels=30 p_bytes=100 q_bytes=20 r_bytes=3
	per=$((levels / 3))
	all=$((descents * per * (p_bytes + q_bytes + r_bytes)))
	profile s-heaprec
	"$APROF" -b -q --metric=bytes "$top_builddir/tests/s-heaprec" "$WORK/amon.out" >"$WORK/report"
	expect_eq "p active" "$(active p)" "$all.00"
	expect_eq "q active" "$(active q)" "$((all - descents * p_bytes)).00"
	expect_eq "r active" "$(active r)" "$((all - descents * (p_bytes + q_bytes))).00"
	expect_eq "p, q, r self" "$(primary p | cut -d' ' -f1) $(primary q | cut -d' ' -f1) \
$(primary r | cut -d' ' -f1)" \
		"$((descents * per * p_bytes)).00 $((descents * per * q_bytes)).00 \
$((descents * per * r_bytes)).00"
	expect_eq "main active" "$(active main)" "$all.00"
	expect_eq "cycle as a whole" "$(awk '/<cycle 1 as a whole>/ { printf "%.2f\n", $3 + $4 }' \
		"$WORK/report")" "$all.00"
	"$APROF" --heap --heap-verbosity=verbose "$top_builddir/tests/s-heaprec" "$WORK/amon.out" \
		>"$WORK/report"
	expect_eq "leaks: kept by r's paths" "$(section "--------- Memory Leaks" |
		awk '$1 ~ /^[0-9]+$/ { k += $1 } END { print k }')" "$((descents * per * r_bytes))"
	expect_eq "leak paths not ending in r" "$(leak_paths | grep -vc ' > r$')" 0
	expect_eq "direct allocation: p q r" "$(section "---------  Direct Allocation" |
		awk '$NF ~ /^[pqr]$/ { printf "%s=%s ", $NF, $2 }')" \
		"p=$((descents * per * p_bytes)) q=$((descents * per * q_bytes)) \
r=$((descents * per * r_bytes)) "
}

# Both clocks: in sampling mode, a thread alone logs its heap events and
# charges them in batches (runtime/heap.c), to the same exact figures.
for APROF_CLOCK in counter sample; do
	export APROF_CLOCK
	echo "== APROF_CLOCK=$APROF_CLOCK"
	heap_checks
done
unset APROF_CLOCK

# ---- no heap data: one line, exit 1 --------------------------------------------
(cd "$WORK" && APROF_HEAP=0 APROF_OUT="$WORK/amon.out" "$top_builddir/tests/s-work")
if "$APROF" --heap "$top_builddir/tests/s-work" "$WORK/amon.out" >"$WORK/report" 2>"$WORK/err"
then
	fail "--heap without heap data succeeded"
else
	expect_eq "--heap without heap data: error lines" "$(wc -l <"$WORK/err")" 1
fi
# The block header (runtime/blocks.h) in every shape of allocation: the
# memalign family aligned, malloc_usable_size's bytes all usable, realloc of
# plain and aligned blocks, and glibc's own blocks (no header) freed and
# reallocated: exact totals, and those two frees untracked.
profile s-blocks || fail "s-blocks: exited $? (a block misaligned or its contents lost)"
heap_totals "$top_builddir/tests/s-blocks" "$WORK/amon.out"
page=$(getconf PAGESIZE)
expect_eq "s-blocks: allocations" "$(heap_proc blocks allocs)" 12
expect_eq "s-blocks: bytes" "$(heap_proc blocks bytes)" $((7210 + page))
expect_eq "s-blocks: kept" "$(heap_proc blocks kept)" 0
expect_eq "s-blocks: frees" "$(heap_total frees)" "$(heap_total allocs)"
expect_eq "s-blocks: frees of glibc's own blocks" "$(heap_total untracked)" 2
finish
