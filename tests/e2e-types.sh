#!/bin/sh
# e2e-types.sh -- allocated types (aprof --types).  tests/s-types.cc
# allocates known C++ types in every form (new T, new T(f(x)), new T[n]
# with and without an array cookie, std::vector, std::map, std::string,
# make_shared, unique_ptr, make_unique) at -O0 and at -O2: each type gets
# exactly its allocations and bytes, no other type appears, and the only
# bytes of unknown type are C's malloc (the program's and stdout's buffer)
# and libstdc++'s emergency exception pool, allocated in its constructor
# with no routine active (heap-totals' root line).
# tests/s-structs.c: the bins table of --heap lists, for each size, the
# program's structs, unions and typedefs of exactly that size (DWARF).
. "$top_srcdir/tests/e2e-lib.sh"

# types_rows: "bytes allocs type" for each row of --types in $WORK/report.
types_rows() {
	awk '/^ +bytes +% +allocs/ { f = 1; next }
		f && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ && NF >= 7 {
			name = $7; for (i = 8; i <= NF; i++) name = name " " $i
			print $1, $3, name }' "$WORK/report"
}

for t in s-types s-types-o2; do
	profile "$t"
	"$top_builddir/aprof/aprof" --types -b "$top_builddir/tests/$t" "$WORK/amon.out" \
		>"$WORK/report" 2>"$WORK/stderr" || fail "$t: aprof --types failed"
	types_rows >"$WORK/rows"
	heap_totals "$top_builddir/tests/$t" "$WORK/amon.out"
	set -- $(awk '$1 == "root" { print $2, $3 }' "$WORK/heap")
	unknown="$((4224 + $1)) $((3 + $2)) <unknown>"
	stdout_buffer=$(sed -n 's/^ *4096 bytes from main$/4096/p' "$WORK/report")
	expect_eq "$t: stdout's buffer, allocated in main, of unknown type" "$stdout_buffer" 4096
	# bytes allocations type, largest first, the unknown row last.
	expect_eq "$t: the types, exactly" "$(cat "$WORK/rows")" "$(cat <<ROWS
2520 6 geo::Point
320 5 std::_Rb_tree_node<std::pair<int const, geo::Point> >
101 1 char
88 3 Owned
80 2 std::_Sp_counted_ptr_inplace<geo::Point, std::allocator<void>, (__gnu_cxx::_Lock_policy)2>
48 1 Cell
$unknown
ROWS
)"
	expect_eq "$t: malloc's bytes of unknown type" \
		"$(grep -c '^ *128 bytes from main > t_malloc()$' "$WORK/report")" 1
	expect_eq "$t: Owned's paths (new[], new, make_unique)" \
		"$(awk '/ Owned$/ { f = 1; next } f && / bytes from / { print $1 } f && !/ bytes from / { f = 0 }' "$WORK/report" | tr '\n' ' ')" \
		"56 16 16 "
done

# Sampling mode (no probe countdown, another common case of the hooks): the same types.
types_rows >"$WORK/rows.counter"
(cd "$WORK" && APROF_CLOCK=sample APROF_OUT="$WORK/sample.out" "$top_builddir/tests/s-types-o2" >/dev/null)
"$top_builddir/aprof/aprof" --types -b "$top_builddir/tests/s-types-o2" "$WORK/sample.out" \
	>"$WORK/report" 2>/dev/null || fail "aprof --types (sampling) failed"
expect_eq "APROF_CLOCK=sample: the same types" "$(types_rows)" "$(cat "$WORK/rows.counter")"

# --format=json carries the same table ("types"), the unknown row's type null.
"$top_builddir/aprof/aprof" --types -b "$top_builddir/tests/s-types-o2" "$WORK/amon.out" \
	>"$WORK/report" 2>/dev/null || fail "aprof --types failed"
"$top_builddir/aprof/aprof" --format=json "$top_builddir/tests/s-types-o2" "$WORK/amon.out" \
	>"$WORK/json" 2>/dev/null || fail "aprof --format=json failed"
expect_eq "json: the types of --types" \
	"$(python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["types"]:
    print(t["bytes"], t["allocs"], t["type"] or "<unknown>")' "$WORK/json")" "$(types_rows)"

# The same table per thread (one thread here) and under --threads.
"$top_builddir/aprof/aprof" --types --threads -b "$top_builddir/tests/s-types-o2" "$WORK/amon.out" \
	>"$WORK/report" 2>/dev/null || fail "aprof --types --threads failed"
expect_eq "--threads: the table again for thread 1" "$(grep -c '^ *2520 .* geo::Point$' "$WORK/report")" 2

# The filters act before --types: -F keeps t_unique's contexts only, -E drops t_vector's.
"$top_builddir/aprof/aprof" --types -b -F t_unique "$top_builddir/tests/s-types-o2" "$WORK/amon.out" \
	>"$WORK/report" 2>/dev/null || fail "aprof --types -F failed"
expect_eq "-F t_unique: Owned only" "$(types_rows | tr '\n' ';')" "32 2 Owned;"
"$top_builddir/aprof/aprof" --types -b -E t_vector "$top_builddir/tests/s-types-o2" "$WORK/amon.out" \
	>"$WORK/report" 2>/dev/null || fail "aprof --types -E failed"
expect_eq "-E t_vector: geo::Point without the vector" "$(types_rows | grep " geo::Point$")" "120 5 geo::Point"

# Two runs summed (and written as amon.sum, read back): every type twice.
cp "$WORK/amon.out" "$WORK/second.out"
"$top_builddir/aprof/aprof" -s -o "$WORK/amon.sum" "$top_builddir/tests/s-types-o2" "$WORK/amon.out" \
	"$WORK/second.out" 2>/dev/null || fail "aprof -s failed"
"$top_builddir/aprof/aprof" --types -b "$top_builddir/tests/s-types-o2" "$WORK/amon.sum" \
	>"$WORK/report" 2>/dev/null || fail "aprof --types on amon.sum failed"
expect_eq "amon.sum of two runs: geo::Point twice" "$(types_rows | grep " geo::Point$")" \
	"5040 12 geo::Point"

# mprof's types column, from DWARF.
profile s-structs
"$top_builddir/aprof/aprof" --heap --heap-verbosity=verbose "$top_builddir/tests/s-structs" \
	"$WORK/amon.out" >"$WORK/report" 2>"$WORK/stderr" || fail "aprof --heap failed"
# bin_types SIZE: the types column of SIZE's row in the bins table.
bin_types() {
	awk -v s="$1" '/^-* Allocation Bins/ { f = 1 } /^\f/ { f = 0 }
		f && $1 == s { t = ""; for (i = 7; i <= NF; i++) t = t (t == "" ? "" : " ") $i; print t }' \
		"$WORK/report" | sed 's/^(\*\*) //; s/^([0-9.]*) //'
}
expect_eq "bin 32: struct widget and its typedef" "$(bin_types 32)" "widget, widget_t"
expect_eq "bin 16: union value" "$(bin_types 16)" "value"
expect_eq "bin 40: the typedef of an unnamed struct" "$(bin_types 40)" "field"
expect_eq "bin 77: no type" "$(bin_types 77)" ""

# The same linked with libaprof.a, a block of every multiple of 8 bytes up to
# 2048: no bin names one of the runtime's records (its units are in the
# program's DWARF), only the program's own types.
profile s-structs-static sweep
"$top_builddir/aprof/aprof" --heap --heap-verbosity=verbose "$top_builddir/tests/s-structs-static" \
	"$WORK/amon.out" >"$WORK/report" 2>"$WORK/stderr" || fail "aprof --heap (static) failed"
expect_eq "static: bins of 8 to 2048 bytes name the program's types only" \
	"$(for s in $(seq 8 8 2048); do bin_types "$s"; done | tr ',' '\n' | tr -d ' ' | grep . | sort -u | tr '\n' ' ')" \
	"field value widget widget_t "
finish
