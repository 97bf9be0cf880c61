#!/bin/sh
# overhead.sh -- what the hooks cost: benchmarks/bench.c built bare, with
# empty hooks, and with libaprof (cycle counter, sampling, monotonic clock),
# run as paired rounds (bare, then each variant) so that load on the machine
# falls on all alike; prints each variant's median time ratio to bare, its
# extra ns per call, and for the cycle counter what remains once the two
# counter reads per call (measured in the same run) are taken off, and the
# time aprof charged against the bare run's.
# Run from the top of a built tree: sh benchmarks/overhead.sh
# APROF_BEFORE=DIR adds the libaprof of another built tree (say, the last
# commit's, in a git worktree) to the same paired rounds, with the cycle
# counter and with sampling: before and after.
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

cc -O2 -o "$work/clock-cost" "$src/clock-cost.c"
if [ -n "${APROF_BEFORE:-}" ]; then
	cc $CFLAGS -finstrument-functions -o "$work/before" "$src/bench.c" \
		-L"$APROF_BEFORE/runtime/.libs" -laprof -Wl,-rpath,"$APROF_BEFORE/runtime/.libs"
fi
cc $CFLAGS -o "$work/bare" "$src/bench.c"
[ -n "${APROF_BEFORE:-}" ] || cp "$work/bare" "$work/before"
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
	charged=$("$top_builddir/aprof/aprof" -p -b "$work/aprof" "$work/amon.out" |
		awk 'NR > 5 && NF >= 4 { c = $2 } END { print c }')
	s=$(cd "$work" && APROF_CLOCK=sample seconds "$work/aprof" "$MILLIONS")
	m=$(cd "$work" && APROF_CLOCK=monotonic seconds "$work/aprof" "$MILLIONS")
	p=$(cd "$work" && seconds "$work/before" "$MILLIONS")
	q=$(cd "$work" && APROF_CLOCK=sample seconds "$work/before" "$MILLIONS")
	echo "$b $e $a $s $m $charged $p $q" >>"$work/times"
	r=$((r + 1))
done
"$work/clock-cost" >"$work/clock"
read_ns=$(awk '$1 == "counter" { print $2 }' "$work/clock")
echo "benchmarks/bench.c: $calls calls per run, $ROUNDS paired rounds, $CFLAGS"
echo "one counter read: $read_ns ns; one clock_gettime: $(awk '$1 == "monotonic" { print $2 }' "$work/clock") ns"
awk -v calls="$calls" -v read_ns="$read_ns" -v before="${APROF_BEFORE:+1}" '
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ n++; bare[n] = $1; charged[n] = $6 / $1; $6 = $7; $7 = $8
	  for (v = 2; v <= 7; v++) { ratio[v, n] = $v / $1; extra[v, n] = ($v - $1) / calls * 1e9 } }
	END {
		split("bare empty-hooks aprof(counter) aprof(sample) aprof(monotonic) aprof(before) before(sample)", name, " ")
		printf "%-18s %10s %14s\n", "variant", "ratio", "extra ns/call"
		printf "%-18s %10s %14s   (median %.3f s)\n", "bare", "1.00x", "-", median(bare, n)
		for (v = 2; v <= (before ? 7 : 5); v++) {
			for (i = 1; i <= n; i++) { r[i] = ratio[v, i]; x[i] = extra[v, i] }
			printf "%-18s %9.2fx %14.2f", name[v], median(r, n), median(x, n)
			if (v == 3) { cost = median(x, n); printf "   (less 2 counter reads: %.2f ns)", cost - 2 * read_ns }
			printf "\n"
		}
		printf "aprof(counter) charged / bare time: %.3f\n", median(charged, n)
	}' "$work/times"
