#!/bin/sh
# scale.sh -- aprof at scale: a generated program with 100,000
# distinct functions, a run of 10^9 calls, and a 1,000,000-deep recursion
# (the last is also in make check).  Prints what each cost: run time, the
# runtime's memory (Table I), amon.out's size (bytes per context), the CPU
# time the runtime takes to write it (aprof_dump, timed in the program) and
# aprof's analysis time, and checks the call counts.  Run from the top of a built tree:
#     sh benchmarks/scale.sh            (FUNCTIONS=100000 CALLS_MILLIONS=1000)
set -eu
top_builddir=${top_builddir:-$(pwd)}
top_srcdir=${top_srcdir:-$top_builddir}
FUNCTIONS=${FUNCTIONS:-100000}
CALLS_MILLIONS=${CALLS_MILLIONS:-1000}
work=$(mktemp -d "${TMPDIR:-/tmp}/aprof-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
libs="$top_builddir/runtime/.libs"
aprof="$top_builddir/aprof/aprof"

# elapsed CMD...: wall seconds of CMD (its output to $work/out).
elapsed() {
	s=$(date +%s.%N)
	"$@" >"$work/out"
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.2f", $2 - $1 }'
}

echo "== $FUNCTIONS distinct functions"
# The generated program (many-functions.awk); main calls every group, then
# writes the profile once more, timed in the process CPU time (on a busy
# machine wall time is mostly waiting): what writing it costs.
groups=$((FUNCTIONS / 100))
awk -v n="$FUNCTIONS" -v dir="$work" -f "$top_srcdir/benchmarks/many-functions.awk"
{
	printf '#include <stdio.h>\n#include <time.h>\n#include <aprof.h>\n'
	printf 'int main(void) {\n struct timespec a, b;\n'
	g=0
	while [ "$g" -lt "$groups" ]; do echo " g$g();"; g=$((g + 1)); done
	echo ' clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);'
	echo ' aprof_dump();'
	echo ' clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);'
	printf '%s\n' ' printf("%.1f\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);'
	echo ' return 0; }'
} >>"$work/main.c"
start=$(date +%s.%N)
for f in "$work"/part*.c "$work"/main.c; do
	cc -O1 -g0 -finstrument-functions -I"$top_srcdir/runtime" -c "$f" -o "${f%.c}.o" &
done
wait
cc -o "$work/many" "$work"/*.o -L"$libs" -laprof -Wl,-rpath,"$libs"
echo "built in $(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }') s"
run=$(cd "$work" && elapsed ./many)
write=$(cat "$work/out")
analysis=$(elapsed "$aprof" -b "$work/many" "$work/amon.out")
"$aprof" --stats "$work/many" "$work/amon.out" >"$work/stats"
leaf=$("$aprof" -b -p "$work/many" "$work/amon.out" | awk '$7 == "leaf" { print $4 }')
echo "run $run s; aprof -b $analysis s; leaf called $leaf times (want $FUNCTIONS)"
# amon.out's size per context, and the time aprof_dump took to write it
awk -v ms="$write" '$1 == "contexts" { n = $2 } $1 == "amon-bytes" { b = $2 }
	END { printf "amon.out: %.1f bytes per context; written in %.1f ms of CPU, %.1f ms per 100,000 contexts\n",
		b / n, ms, ms * 1e5 / n }' "$work/stats"
sed 's/^/  /' "$work/stats"
[ "$leaf" = "$FUNCTIONS" ] || { echo "FAIL: leaf calls" >&2; exit 1; }

echo "== $CALLS_MILLIONS million calls (benchmarks/bench.c)"
cc -O2 -fno-inline -g -finstrument-functions -o "$work/bench" "$top_srcdir/benchmarks/bench.c" \
	-L"$libs" -laprof -Wl,-rpath,"$libs"
run=$(cd "$work" && elapsed ./bench "$CALLS_MILLIONS")
"$aprof" --stats "$work/bench" "$work/amon.out" >"$work/stats"
calls=$(awk '$1 == "calls" { print $2 }' "$work/stats")
echo "run $run s; calls $calls (want $(cat "$work/out") + main's 1)"
sed 's/^/  /' "$work/stats"
[ "$calls" = "$(($(cat "$work/out") + 1))" ] || { echo "FAIL: call count" >&2; exit 1; }
