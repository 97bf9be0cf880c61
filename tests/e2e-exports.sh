#!/bin/sh
# e2e-exports.sh -- the exports read by their real readers:
# callgrind_annotate (valgrind) reads --format=callgrind with no
# complaint, with aprof's totals, and annotates the source (--auto=yes)
# with each routine's cost on its first line; folded stacks add up to the
# metric's total with one line per context path and the 9:1 case exact;
# dot -Tsvg (graphviz) renders the graph of every test program, and
# --threshold leaves no box without an edge; python3's json loads
# --format=json, whose contexts, arcs and totals match -S and the call graph.
. "$top_srcdir/tests/e2e-lib.sh"

# Sampled 20,000 times a second: s-jobs runs for some 10 ms, and at the
# default rate a sample or two in fact or keep would lift them over dot's
# 5% threshold.
APROF_HZ=20000
export APROF_HZ

J="$top_builddir/tests/s-jobs"
profile s-jobs abc
"$APROF" -b "$J" "$WORK/amon.out" >"$WORK/report"
contexts "$J" "$WORK/amon.out"
heap_totals "$J" "$WORK/amon.out"

# flat_total NAME: NAME's total (self + children) in ns from the flat
# profile: its "total X/call" times its calls.
flat_total() {
	awk -v n="$1" -v u="$(flat_unit)" '/^Flat profile/ { f = 1 } /^\f/ { f = 0 }
		f && NF >= 7 && $4 ~ /^[0-9]+$/ && $7 == n { printf "%.0f\n", $6 * $4 * u }' "$WORK/report"
}

# ---- 1. callgrind: callgrind_annotate's totals are aprof's ----
"$APROF" --format=callgrind -o "$WORK/cg.out" "$J" "$WORK/amon.out"
# cga [OPTIONS]: callgrind_annotate's function lines as "NAME NS BYTES"
# (percentages and commas gone; the program's line named PROGRAM).
cga() {
	callgrind_annotate --auto=no --threshold=100 "$@" "$WORK/cg.out" 2>"$WORK/cga.err" |
		awk '/^ *[0-9,]+ / { gsub(/\([^)]*\)/, ""); gsub(/,/, ""); name = $5
			sub(/^[^:]*:/, "", name); print name, $1, $2 }'
}

cga >"$WORK/cga"
expect_eq "callgrind_annotate complaints" "$(cat "$WORK/cga.err")" ""
program_ns=$(awk '$1 == "PROGRAM" { print $2 }' "$WORK/cga")
unit=$(flat_unit)
# The flat profile rounds per-call values to 0.01 of its unit.
near "callgrind program total (ns)" "$program_ns" "$(flat_total main)" "$((unit / 200 + 1))"
expect_eq "callgrind program bytes" "$(awk '$1 == "PROGRAM" { print $3 }' "$WORK/cga")" \
	"$(heap_total bytes)"
# --auto=yes: the source annotated, each routine's cost on its first line
# (share's "{", after "void share(int n)"), without a warning.
callgrind_annotate --auto=yes --inclusive=yes "$WORK/cg.out" >"$WORK/cga-auto" 2>"$WORK/cga.err"
expect_eq "callgrind_annotate --auto=yes complaints" "$(cat "$WORK/cga.err")" ""
expect_eq "callgrind_annotate --auto=yes: no unidentified line" \
	"$(grep -c 'unidentified lines' "$WORK/cga-auto")" 0
expect_eq "callgrind_annotate --auto=yes: share's bytes on its first line" \
	"$(grep -A1 'void share(int n)$' "$WORK/cga-auto" | sed -n 2p | grep -c ' 10,000 (.* {$')" 1
expect_eq "callgrind_annotate --auto=yes: big's call of share on big's first line" \
	"$(grep -A2 'void big(void)$' "$WORK/cga-auto" | sed -n 3p |
		grep -c ' 9,000 (.*=> .*s-jobs.c:share (10x)$')" 1
cga --inclusive=yes >"$WORK/cga-incl"
for f in main run big small share fact keep; do
	calls=$(flat_calls "$f")
	near "callgrind inclusive $f (ns)" \
		"$(awk -v n="$f" '$1 == n { print $2 }' "$WORK/cga-incl")" "$(flat_total "$f")" \
		"$((unit * calls / 200 + 1))"
	expect_eq "callgrind inclusive $f (bytes)" \
		"$(awk -v n="$f" '$1 == n { print $3 }' "$WORK/cga-incl")" "$(heap_proc "$f" bytes+)"
done

# ---- 2. folded: one line per context path, values adding up to the total ----
"$APROF" --format=folded "$J" "$WORK/amon.out" >"$WORK/folded"
expect_eq "folded ns add up to callgrind's total" \
	"$(awk '{ s += $NF } END { printf "%.0f\n", s }' "$WORK/folded")" "$program_ns"
# The paths -S lists (marks dropped, root left out), each once.
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 { x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
	if (x == "<no routine active>") next; gsub(/[()]/, "", x); gsub(/ > /, ";", x); print x }' \
	"$WORK/contexts" | sort -u >"$WORK/paths"
expect_eq "folded paths are -S's" "$(sed 's/ [0-9]*$//' "$WORK/folded" | sort)" "$(cat "$WORK/paths")"
# Each path's time is its context's (-S, in microseconds).
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 { x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
	gsub(/ > /, ";", x); print x, $4 }' "$WORK/contexts" >"$WORK/seconds"
for path in 'main;run;big;share' 'main;run;small;share'; do
	within "folded $path (ns)" "$(awk -v p="$path" '$1 == p { print $2 }' "$WORK/folded")" \
		"$(awk -v p="$path" '$1 == p { printf "%.0f\n", $2 * 1e9 }' "$WORK/seconds")" 0.01
done
"$APROF" --format=folded --metric=bytes "$J" "$WORK/amon.out" >"$WORK/folded-bytes"
fb() { awk -v p="$1" '$1 == p { print $2 }' "$WORK/folded-bytes"; }
expect_eq "folded bytes share under big" "$(fb 'main;run;big;share')" 9000
expect_eq "folded bytes share under small" "$(fb 'main;run;small;share')" 1000
expect_eq "folded bytes keep" "$(fb 'main;run;keep')" 192
expect_eq "folded bytes add up" "$(awk '{ s += $2 } END { print s }' "$WORK/folded-bytes")" \
	"$(heap_total bytes)"

# The exports read the selected profile: -F big keeps big's paths only, exact.
"$APROF" --format=folded --metric=bytes -F big "$J" "$WORK/amon.out" >"$WORK/folded-big"
expect_eq "folded -F big" "$(cat "$WORK/folded-big")" "main;run;big 0
main;run;big;share 9000"
"$APROF" --format=folded --metric=bytes --elide=run "$J" "$WORK/amon.out" >"$WORK/folded-elided"
expect_eq "folded --elide=run: share under big" \
	"$(awk '$1 == "main;big;share" { print $2 }' "$WORK/folded-elided")" 9000
expect_eq "folded --elide=run: keep" "$(awk '$1 == "main;keep" { print $2 }' "$WORK/folded-elided")" 192

# ---- 4. json: contexts, arcs and totals against -S and the call graph ----
"$APROF" --format=json "$J" "$WORK/amon.out" >"$WORK/json"
if python3 "$top_srcdir/tests/json-check.py" "$WORK/json" "$WORK/contexts" "$WORK/report"; then
	echo "ok: json matches -S and the call graph"
else
	fail "json against -S and the call graph"
fi

# ---- 3. dot: --threshold prunes the graph, --cycles draws the cycles that ran ----
# node NAME FILE: 1 if FILE's graph has a box labelled NAME.
node() { grep -c "label=\"$1\\\\n" "$2" || :; }
"$APROF" --format=dot --threshold=5 -o "$WORK/pruned.dot" "$J" "$WORK/amon.out"
expect_eq "dot --threshold=5: big kept" "$(node big "$WORK/pruned.dot")" 1
expect_eq "dot --threshold=5: keep pruned" "$(node keep "$WORK/pruned.dot")" 0
expect_eq "dot --threshold=5: fact pruned" "$(node fact "$WORK/pruned.dot")" 0
"$APROF" --format=dot "$J" "$WORK/amon.out" >"$WORK/all.dot"
expect_eq "dot: every routine" "$(node keep "$WORK/all.dot")$(node fact "$WORK/all.dot")" 11
# orphans FILE: "boxes orphans", the boxes of FILE's graph and those with no edge.
orphans() {
	awk '/^\tn[0-9]+ \[/ { box[$1] = 1 } /^\tn[0-9]+ -> n[0-9]+ / { edge[$1] = edge[$3] = 1 }
		END { for (b in box) { n++; if (!(b in edge)) o++ } printf "%d %d\n", n, o }' "$1"
}
# At 95% of the bytes share (98%) stays, but its arcs (big's 88%, small's
# 10%) do not: it is dropped, not left floating.
"$APROF" --format=dot --metric=bytes --threshold=95 "$J" "$WORK/amon.out" >"$WORK/orphan.dot"
expect_eq "dot --threshold=95: main and run, no orphan" "$(orphans "$WORK/orphan.dot")" "2 0"
expect_eq "dot --threshold=95: share dropped" "$(node share "$WORK/orphan.dot")" 0
"$APROF" --format=dot --metric=bytes --threshold=100 "$J" "$WORK/amon.out" >"$WORK/one.dot"
expect_eq "dot --threshold=100: main and run stay, joined" "$(orphans "$WORK/one.dot")" "2 0"
profile s-pqrs 5
"$APROF" --format=dot --cycles -o "$WORK/cycles.dot" "$top_builddir/tests/s-pqrs" "$WORK/amon.out"
expect_eq "dot --cycles: the cycle's three arcs, traversed n = 5 times" \
	"$(grep -c 'cycle 1: 5.*style=dashed' "$WORK/cycles.dot")" 3
dot -Tsvg "$WORK/cycles.dot" >/dev/null || fail "dot -Tsvg on --cycles"

# ---- 3. every test program's exports: dot -Tsvg renders, the others load ----
# (what each program's own test checks of its profile is not repeated here)
for prog in "$top_builddir"/tests/s-*; do
	name=${prog##*/}
	# Objects and libtool files have a dot in their name (the path may have one: aprof-0.1.0/).
	case "$name" in *.*) continue ;; esac
	[ -f "$prog" ] && [ -x "$prog" ] || continue
	rm -f "$WORK"/amon.out*
	# A program that wants arguments or input of its own may write nothing: no export then.
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" timeout 60 "$prog" >/dev/null 2>&1 </dev/null) || :
	[ -f "$WORK/amon.out" ] || { echo "note: $name wrote no amon.out"; continue; }
	"$APROF" --format=dot -o "$WORK/graph.dot" "$prog" "$WORK/amon.out" 2>/dev/null &&
		dot -Tsvg "$WORK/graph.dot" >"$WORK/graph.svg" && grep -q '<svg' "$WORK/graph.svg" ||
		fail "dot -Tsvg on $name's export"
	"$APROF" --format=json -o "$WORK/$name.json" "$prog" "$WORK/amon.out" 2>/dev/null ||
		fail "json of $name"
	"$APROF" --format=dot --threshold=1 -o "$WORK/graph.dot" "$prog" "$WORK/amon.out" \
		2>/dev/null || fail "dot --threshold=1 of $name"
	set -- $(orphans "$WORK/graph.dot")
	[ "$1" -le 1 ] || [ "$2" -eq 0 ] || fail "dot --threshold=1 of $name: $2 of $1 boxes without an edge"
	"$APROF" --format=callgrind -o "$WORK/cg.out" "$prog" "$WORK/amon.out" 2>/dev/null &&
		callgrind_annotate --auto=yes --inclusive=yes "$WORK/cg.out" >/dev/null 2>"$WORK/cga.err" &&
		[ ! -s "$WORK/cga.err" ] || fail "callgrind_annotate --auto=yes on $name's export: $(head -1 "$WORK/cga.err")"
done
# One python3 for all (it starts slowly): every document loads.
python3 -c 'import json, sys
for f in sys.argv[1:]:
    try:
        json.load(open(f))
    except ValueError as e:
        sys.exit("%s: %s" % (f, e))' "$WORK"/*.json || fail "json of the test programs"
echo "ok: exports of every test program"
finish
