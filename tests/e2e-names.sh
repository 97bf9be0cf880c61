#!/bin/sh
# e2e-names.sh -- copies of a routine told apart (tests/s-statics.c): twice,
# a static defined in a header, has a copy in each of the two units that
# include it, and each unit has a static init.  Every report and export
# names each copy by its unit ("twice (s-statics.c)"), a name only one
# routine has stays bare; patterns naming the bare name match every copy,
# FILE:NAME the copies of that file (of the lines: the header; or of the
# unit), a relative FILE matching the end of DWARF's absolute path; --diff
# and -s keep the copies apart.  Counts exact.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-statics"
A="twice (s-statics.c)" B="twice (s-statics-b.c)"
IA="init (s-statics.c)" IB="init (s-statics-b.c)"
profile s-statics

# ---- the reports -------------------------------------------------------------
"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat: $A's calls" "$(flat_calls "$A")" 4
expect_eq "flat: $B's calls" "$(flat_calls "$B")" 10
expect_eq "flat: $IA's calls" "$(flat_calls "$IA")" 1
expect_eq "flat: $IB's calls" "$(flat_calls "$IB")" 2
expect_eq "flat: unique names stay bare" "$(flat_calls main) $(flat_calls part_b)" "1 1"
expect_eq "flat: no bare twice" "$(flat_calls twice)" ""
expect_eq "call graph: $B's entry, called from $IB" \
	"$(graph_entry "$B" | grep -c "10/10 *$IB \[")" 1
expect_eq "call graph: $A called from main and $IA" \
	"$(graph_entry "$A" | grep -c -e "1/4 *main \[" -e "3/4 *$IA \[")" 2
"$APROF" -S "$exe" "$WORK/amon.out" >"$WORK/contexts"
expect_eq "-S: the copies' contexts" "$(context_row "main > part_b > $IB > $B")" 10+0

# ---- the exports ---------------------------------------------------------------
"$APROF" --format=folded "$exe" "$WORK/amon.out" >"$WORK/folded"
expect_eq "folded: each copy's path" \
	"$(sed 's/ [0-9]*$//' "$WORK/folded" | grep twice | sort | tr '\n' '|')" \
	"main;$IA;$A|main;part_b;$IB;$B|main;$A|"
"$APROF" --format=json -o "$WORK/json" "$exe" "$WORK/amon.out"
expect_eq "json: the routines' names and calls" "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(";".join(sorted("%s=%d" % (r["name"], r["calls"]) for r in d["routines"])))' "$WORK/json")" \
	"$IB=2;$IA=1;main=1;part_b=1;$B=10;$A=4"
expect_eq "json: a header's copy has the header's lines" "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(set(r["file"].rsplit("/", 1)[-1] for r in d["routines"] if r["name"].startswith("twice")))))' "$WORK/json")" \
	"s-statics.h"
"$APROF" --format=callgrind -o "$WORK/cg.out" "$exe" "$WORK/amon.out"
expect_eq "callgrind: a name per copy" \
	"$(sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$WORK/cg.out" | sort | tr '\n' '|')" \
	"$IB|$IA|main|part_b|$B|$A|"
"$APROF" --format=dot -o "$WORK/graph.dot" "$exe" "$WORK/amon.out"
expect_eq "dot: a box per copy" "$(grep -c 'label="twice (s-statics' "$WORK/graph.dot")" 2

# ---- patterns ------------------------------------------------------------------
# rows OPTIONS: the flat profile's names under OPTIONS, sorted, '|'-joined.
rows() {
	"$APROF" -b -p "$@" "$exe" "$WORK/amon.out" |
		awk '$1 ~ /\./ && NF >= 7 { n = $7; for (i = 8; i <= NF; i++) n = n " " $i; print n }' |
		sort | tr '\n' '|'
}
expect_eq "-f twice: every copy" "$(rows -f twice)" "$B|$A|"
expect_eq "-f '$B': that copy" "$(rows -f "$B")" "$B|"
expect_eq "-f s-statics-b.c:twice: the copy of that unit" "$(rows -f s-statics-b.c:twice)" "$B|"
expect_eq "-f s-statics.h:twice: the header's copies" "$(rows -f s-statics.h:twice)" "$B|$A|"
# The line table's paths are absolute ("/.../tests/s-statics.h"; the units'
# are as the compiler was given them, "tests/s-statics.c"): a relative
# pattern matches their end.
expect_eq "-f 'tests/*.h:twice': a relative FILE against absolute paths" \
	"$(rows -f 'tests/*.h:twice')" "$B|$A|"
expect_eq "-f 'tests/*.c:init'" "$(rows -f 'tests/*.c:init')" "$IB|$IA|$B|$A|"
expect_eq "-f 's-statics.c:init': one unit's" "$(rows -f s-statics.c:init)" "$IA|$A|"
expect_eq "-F 'other/*.c:init' matches no routine" \
	"$("$APROF" -F 'other/*.c:init' "$exe" "$WORK/amon.out" 2>&1 >/dev/null)" \
	"aprof: no routine matches 'other/*.c:init'"

# ---- --diff and -s keep the copies apart ----------------------------------------
cp "$WORK/amon.out" "$WORK/old.out"
"$APROF" --diff="$WORK/old.out" "$exe" "$WORK/amon.out" >"$WORK/diff"
expect_eq "--diff: a row per copy" \
	"$(awk '/^Flat profile difference/ { f = 1 } /^\f/ { f = 0 }
		f && $2 == "+0" { n = $7; for (i = 8; i <= NF; i++) n = n " " $i; print n "=" $6 }' \
		"$WORK/diff" | grep twice | sort | tr '\n' '|')" "$B=10|$A=4|"
"$APROF" -s -o "$WORK/amon.sum" "$exe" "$WORK/amon.out" "$WORK/old.out"
"$APROF" -b -p "$exe" "$WORK/amon.sum" >"$WORK/report"
expect_eq "-s: each copy's calls, twice" "$(flat_calls "$A") $(flat_calls "$B")" "8 20"
finish
