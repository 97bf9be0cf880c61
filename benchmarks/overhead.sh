#!/bin/sh
# overhead.sh -- what the hooks cost: benchmarks/bench.c built bare, with
# empty hooks, and with libaprof (cycle counter and monotonic clock), run as
# paired rounds (bare, then each variant) so that load on the machine falls
# on all alike; prints each variant's median time ratio to bare and its extra
# ns per call.  Run from the top of a built tree: sh benchmarks/overhead.sh
set -eu
top_builddir=${top_builddir:-$(pwd)}
top_srcdir=${top_srcdir:-$top_builddir}
MILLIONS=${MILLIONS:-40}
ROUNDS=${ROUNDS:-5}
CFLAGS="-O2 -fno-inline -g"
work=$(mktemp -d "${TMPDIR:-/tmp}/aprof-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
src="$top_srcdir/benchmarks"
libs="$top_builddir/runtime/.libs"

cc $CFLAGS -o "$work/bare" "$src/bench.c"
cc $CFLAGS -finstrument-functions -o "$work/empty" "$src/bench.c" "$src/empty-hooks.c"
cc $CFLAGS -finstrument-functions -o "$work/aprof" "$src/bench.c" -L"$libs" -laprof \
	-Wl,-rpath,"$libs"

# seconds CMD...: wall time of one run, in seconds.
seconds() {
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.6f\n", $2 - $1 }'
}

calls=$("$work/bare" "$MILLIONS")
: >"$work/times"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	b=$(seconds "$work/bare" "$MILLIONS")
	e=$(seconds "$work/empty" "$MILLIONS")
	a=$(cd "$work" && seconds "$work/aprof" "$MILLIONS")
	m=$(cd "$work" && APROF_CLOCK=monotonic seconds "$work/aprof" "$MILLIONS")
	echo "$b $e $a $m" >>"$work/times"
	r=$((r + 1))
done
echo "benchmarks/bench.c: $calls calls per run, $ROUNDS paired rounds, $CFLAGS"
awk -v calls="$calls" '
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ n++; bare[n] = $1; for (v = 2; v <= 4; v++) { ratio[v, n] = $v / $1; extra[v, n] = ($v - $1) / calls * 1e9 } }
	END {
		split("bare empty-hooks aprof(tsc) aprof(monotonic)", name, " ")
		printf "%-18s %10s %14s\n", "variant", "ratio", "extra ns/call"
		printf "%-18s %10s %14s   (median %.3f s)\n", "bare", "1.00x", "-", median(bare, n)
		for (v = 2; v <= 4; v++) {
			for (i = 1; i <= n; i++) { r[i] = ratio[v, i]; x[i] = extra[v, i] }
			printf "%-18s %9.2fx %14.2f\n", name[v], median(r, n), median(x, n)
		}
	}' "$work/times"
