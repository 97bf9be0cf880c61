#!/bin/sh
# benchmarks/accuracy.sh -- how far each profiler's self shares are from the
# reference: `perf record` on the bare build, which does not change the
# program it measures.  For four Lua 5.4 workloads (lua.sh's builds, -O1
# -fno-inline -g: fib, parser, binary-trees, strings) and examples/demo.c,
# at perf.sh's sizes, each run RUNS times with:
#   perf            perf record -e cpu-clock --call-graph dwarf on the bare
#                   build, each sample charged to the innermost routine of
#                   the program on its stack, as aprof charges a routine's
#                   calls into libc (shares.awk); the reference is the sum
#                   of its RUNS runs, and each run against the others' sum
#                   is perf's own spread;
#   aprof           the aprof build, the default clock (sampled CPU time, at
#                   APROF_HZ's default; the demo at 10,000, as make demo
#                   runs it, for its half a second);
#   aprof counter   the aprof build, APROF_CLOCK=counter;
#   gprof           the -pg build, gprof -b -p.
# and, on x86-64, the four Lua workloads again as a program is usually built,
# -O2 -g with inlining (lua.sh's LUA_FRONT=fentry builds), against perf on
# that bare -O2 build:
#   aprof -pg -mfentry  compiled -pg -mfentry, linked with libaprof, the
#                   default clock: GCC's front-end after inlining;
#   gprof           compiled and linked -pg -mfentry.
# Prints, per workload and profiler, the total variation distance from the
# reference (half the sum of the differences of the shares, in percentage
# points: 0 when they agree, 100 when disjoint) as the median and range of
# its runs; the routines with at least 0.5% of the reference's time that a
# profiler read as 0 in any run; and, for the demo, the share of the cycle
# expr / term / factor and of the arcs into draw by each profiler, the
# README's showcase.
#
# Usage, from the top of a built tree (not part of make check; about five
# minutes a mode on a 2-CPU machine):
#     sh benchmarks/accuracy.sh [quiet|busy]
# busy keeps both CPUs busy with two spinning shells for the whole run.
# Writes the tables to stdout and as the section "Accuracy, MODE machine"
# of benchmarks/RESULTS.md (BENCH_RESULTS overrides), which perf.sh keeps.
# Environment: top_builddir (default: the current directory), APROF_BENCH_DIR
# (lua.sh's, default benchmarks/work), ACCURACY_RUNS (default 5).  Runs
# lua.sh first if its builds are missing.  Needs perf (linux-perf), gprof,
# gcc.
set -eu

say() { printf '\n=== %s\n' "$*" >&2; }
die() { printf 'accuracy.sh: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
APROF=$top_builddir/aprof/aprof
LIBDIR=$top_builddir/runtime/.libs
RUNS=${ACCURACY_RUNS:-5}
RESULTS=${BENCH_RESULTS:-$here/RESULTS.md}
MODE=${1:-quiet}
case $MODE in quiet | busy) ;; *) die "usage: sh benchmarks/accuracy.sh [quiet|busy]" ;; esac
for tool in perf gprof gcc; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is needed"
done
WORK=${APROF_BENCH_DIR:-$top_builddir/benchmarks/work}
if [ ! -x "$WORK/build/bare/lua" ] || [ ! -x "$WORK/build/aprof/lua" ] || [ ! -x "$WORK/build/gprof/lua" ]; then
	say "building Lua with benchmarks/lua.sh"
	top_builddir=$top_builddir sh "$here/lua.sh" >&2
fi
FENTRY=0
if [ "$(uname -m)" = x86_64 ]; then
	FENTRY=1
	if [ ! -x "$WORK/build-fentry/bare/lua" ] || [ ! -x "$WORK/build-fentry/aprof/lua" ] ||
		[ ! -x "$WORK/build-fentry/gprof/lua" ]; then
		say "building Lua -O2 -pg -mfentry with benchmarks/lua.sh"
		LUA_FRONT=fentry top_builddir=$top_builddir sh "$here/lua.sh" >&2
	fi
fi
WORK=$(cd "$WORK" && pwd)
D=$WORK/accuracy-$MODE
rm -rf "$D"
mkdir -p "$D"

# The demo, built as lua.sh builds Lua: bare, for aprof, for gprof.
DEMO=$top_builddir/examples/demo.c
[ -f "$DEMO" ] || DEMO=$here/../examples/demo.c
BASE="-O1 -fno-inline -g"
# shellcheck disable=SC2086
{
	gcc $BASE -o "$D/demo-bare" "$DEMO"
	gcc $BASE -finstrument-functions -o "$D/demo-aprof" "$DEMO" -L"$LIBDIR" -laprof -Wl,-rpath,"$LIBDIR"
	gcc $BASE -pg -o "$D/demo-gprof" "$DEMO"
}

if [ "$MODE" = busy ]; then
	spin() { while :; do :; done; }
	spin &
	spin1=$!
	spin &
	spin2=$!
	trap 'kill $spin1 $spin2 2>/dev/null' EXIT
fi

# program WORKLOAD BUILD: the executable; args WORKLOAD: its arguments.
program() {
	case $1 in
	demo) echo "$D/demo-$2" ;;
	O2-*) echo "$WORK/build-fentry/$2/lua" ;;
	*) echo "$WORK/build/$2/lua" ;;
	esac
}
args() {
	case $1 in
	O2-*) args "${1#O2-}" ;;
	fib) echo "$here/lua/fib.lua 35" ;;
	parser) echo "$here/lua/parser.lua 4000" ;;
	binary-trees) echo "$here/lua/binary-trees.lua 14" ;;
	strings) echo "$here/lua/strings.lua 8" ;;
	demo) echo "" ;;
	esac
}

WORKLOADS="fib parser binary-trees strings demo"
PROFILERS="aprof counter gprof"
# The -O2 builds' workloads (x86-64), with no counter run.
O2_WORKLOADS=""
[ "$FENTRY" = 0 ] || O2_WORKLOADS="O2-fib O2-parser O2-binary-trees O2-strings"
for w in $WORKLOADS $O2_WORKLOADS; do
	say "$w: $RUNS runs of each profiler ($MODE)"
	r=1
	while [ "$r" -le "$RUNS" ]; do
		run=$D/$w.$r
		mkdir -p "$run"
		# shellcheck disable=SC2046
		hz=$([ "$w" = demo ] && echo 10000 || echo "${APROF_HZ:-1000}")
		(cd "$run" && APROF_HZ=$hz APROF_OUT=sample.out "$(program $w aprof)" $(args $w) >/dev/null)
		"$APROF" -p -b "$(program $w aprof)" "$run/sample.out" | awk -v mode=flat -f "$here/shares.awk" >"$run/aprof"
		if [ "${w#O2-}" = "$w" ]; then
			# shellcheck disable=SC2046
			(cd "$run" && APROF_CLOCK=counter APROF_OUT=counter.out "$(program $w aprof)" $(args $w) >/dev/null)
			"$APROF" -p -b "$(program $w aprof)" "$run/counter.out" | awk -v mode=flat -f "$here/shares.awk" >"$run/counter"
		fi
		# shellcheck disable=SC2046
		(cd "$run" && "$(program $w gprof)" $(args $w) >/dev/null)
		gprof -b -p "$(program $w gprof)" "$run/gmon.out" 2>/dev/null | awk -v mode=flat -f "$here/shares.awk" >"$run/gprof"
		# shellcheck disable=SC2046
		(cd "$run" && perf record -q -e cpu-clock -F 4000 --call-graph dwarf,8192 -o perf.data \
			"$(program $w bare)" $(args $w) >/dev/null 2>perf.err) || die "perf record failed (see $run/perf.err)"
		perf script -i "$run/perf.data" -F ip,sym,dso 2>/dev/null |
			awk -v mode=perf -v exe="$(readlink -f "$(program $w bare)")" -v known="$run/aprof" -f "$here/shares.awk" >"$run/perf"
		rm -f "$run/perf.data"
		if [ "$w" = demo ]; then
			"$APROF" -b -q "$(program $w aprof)" "$run/sample.out" >"$run/aprof.graph"
			gprof -b -q "$(program $w gprof)" "$run/gmon.out" >"$run/gprof.graph" 2>/dev/null
		fi
		r=$((r + 1))
	done
done

# tvd A B: the total variation distance between two "name<TAB>amount" files, in points.
tvd() {
	awk -F '\t' 'FNR == 1 { f++ }
		{ v[f, $1] += $2; t[f] += $2; all[$1] = 1 }
		END {
			if (t[1] == 0 || t[2] == 0) { print 100; exit }
			for (r in all) { d = v[1, r] / t[1] - v[2, r] / t[2]; s += d < 0 ? -d : d }
			printf "%.1f\n", 50 * s
		}' "$1" "$2"
}
# summary: "median [min-max]" of the numbers on stdin.
summary() {
	sort -n | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f [%.1f-%.1f]", m, v[1], v[NR] }'
}

{
echo "Self shares against perf record on the bare build ($MODE machine, $RUNS runs each," \
	"$(date -u +%Y-%m-%d), load average $(cut -d' ' -f1 /proc/loadavg) at the end):" \
	"total variation distance in points, median [range]"
echo
echo "| workload | perf vs perf | aprof (sampled CPU time) | aprof counter | gprof | aprof: routines >= 0.5% read 0 |"
echo "|---|---:|---:|---:|---:|---:|"
# row W PROFILERS...: W's table row.
row() {
	w=$1
	shift
	cat "$D/$w".*/perf >"$D/$w.reference"
	row="| $w"
	# perf's own spread: each run against the sum of the others.
	r=1
	while [ "$r" -le "$RUNS" ]; do
		for o in "$D/$w".*/perf; do [ "$o" = "$D/$w.$r/perf" ] || cat "$o"; done >"$D/$w.others"
		tvd "$D/$w.$r/perf" "$D/$w.others"
		r=$((r + 1))
	done | summary >"$D/$w.self"
	row="$row | $(cat "$D/$w.self")"
	for p in "$@"; do
		row="$row | $(for f in "$D/$w".*/"$p"; do tvd "$f" "$D/$w.reference"; done | summary)"
	done
	missed=$(for f in "$D/$w".*/aprof; do
		awk -F '\t' 'FNR == NR { v[$1] += $2; t += $2; next } { a[$1] += $2 }
			END { for (r in v) if (r != "<outside the program>" && v[r] >= 0.005 * t && !(a[r] > 0)) print r }' \
			"$D/$w.reference" "$f"
	done | sort -u | tr '\n' ' ')
	echo "$row | ${missed:-none} |"
}
for w in $WORKLOADS; do
	# shellcheck disable=SC2086
	row "$w" $PROFILERS
done
if [ -n "$O2_WORKLOADS" ]; then
	echo
	echo "The same Lua workloads built -O2 -g with inlining (lua.sh's LUA_FRONT=fentry), against"
	echo "perf on that bare build: aprof compiled -pg -mfentry and linked with libaprof (GCC's"
	echo "front-end after inlining, default clock), gprof compiled and linked -pg -mfentry."
	echo "perf's call graph cannot see a frame that a tail call replaced, so a routine that tail-calls"
	echo "libc (l_alloc's realloc) has that time charged to its caller in the reference alone."
	echo
	echo "| workload | perf vs perf | aprof -pg -mfentry | gprof | aprof: routines >= 0.5% read 0 |"
	echo "|---|---:|---:|---:|---:|"
	for w in $O2_WORKLOADS; do
		row "$w" aprof gprof
	done
fi

# The demo's showcase: the cycle's share and the arcs into draw.
cycle() { awk -F '\t' '{ t += $2 } $1 ~ /^(expr|term|factor)$/ { c += $2 } END { printf "%.1f\n", t ? 100 * c / t : 0 }' "$1"; }
# arcs GRAPH: "background:icons" self seconds of the arcs into draw.
arcs() {
	awk '/^-+$/ { if (hit) exit; b = i = 0; next }
		/^\[[0-9]+\]/ && / draw \[/ { hit = 1 }
		!hit && $NF ~ /^\[[0-9]+\]$/ && $(NF - 1) == "paint_background" { b = $1 }
		!hit && $NF ~ /^\[[0-9]+\]$/ && $(NF - 1) == "paint_icons" { i = $1 }
		END { printf "%.2f\n", (i > 0 ? b / i : 0) }' "$1"
}
echo
echo "examples/demo.c (aprof at APROF_HZ=10000, as make demo runs it), median [range] of $RUNS runs:"
echo "the cycle expr / term / factor as a share of"
echo "self time, and the arcs paint_background -> draw : paint_icons -> draw (the truth"
echo "about 9:1, as the demo measures itself; perf's flat profile has no arcs)."
echo
echo "| profiler | cycle's share % | arcs into draw |"
echo "|---|---:|---:|"
echo "| perf | $(for f in "$D"/demo.*/perf; do cycle "$f"; done | summary) | (no arcs) |"
echo "| aprof | $(for f in "$D"/demo.*/aprof; do cycle "$f"; done | summary) | $(for f in "$D"/demo.*/aprof.graph; do arcs "$f"; done | summary) |"
echo "| aprof counter | $(for f in "$D"/demo.*/counter; do cycle "$f"; done | summary) | |"
echo "| gprof | $(for f in "$D"/demo.*/gprof; do cycle "$f"; done | summary) | $(for f in "$D"/demo.*/gprof.graph; do arcs "$f"; done | summary) |"

# The runtime's start-up and exit on an empty program: CPU time against the
# bare build, 30 runs each in turn (perf stat -r), each clock; every run
# under env, as the aprof runs need it for their settings.
printf 'int main(void) { return 0; }\n' >"$D/empty.c"
gcc -O1 -o "$D/empty-bare" "$D/empty.c"
gcc -O1 -finstrument-functions -o "$D/empty-aprof" "$D/empty.c" -L"$LIBDIR" -laprof -Wl,-rpath,"$LIBDIR"
# cpu_ms CMD...: the mean task clock of 30 runs of CMD, in ms.
cpu_ms() { (cd "$D" && perf stat -r 30 -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '$3 == "task-clock" { print $1 }'); }
bare=$(cpu_ms env ./empty-bare)
sample=$(cpu_ms env APROF_OUT=/dev/null/none ./empty-aprof)
counter=$(cpu_ms env APROF_CLOCK=counter APROF_OUT=/dev/null/none ./empty-aprof)
echo
echo "An empty program's CPU time, mean of 30 runs (the profile's write refused, so that no run"
echo "waits on the disk): bare $bare ms; with libaprof, sampling $sample ms, the counter $counter ms"
echo "(its calibration)."
} >"$D/table.md"
cat "$D/table.md"

# The table, as RESULTS.md's section for this mode (replaced, or added at the end).
section="## Accuracy, $MODE machine"
{
	awk -v h="$section" '$0 == h { skip = 1; next } skip && /^## / { skip = 0 } !skip' "$RESULTS"
	printf '%s\n\n' "$section"
	cat "$D/table.md"
} >"$D/RESULTS.md"
cp "$D/RESULTS.md" "$RESULTS"
say "wrote $RESULTS's section \"$section\""
