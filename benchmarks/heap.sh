#!/bin/sh
# heap.sh -- what following allocations costs: benchmarks/heap-bench.c (an
# allocation-heavy program: millions of malloc, calloc, realloc and free of
# mixed sizes, three profiled calls per allocation) run
#   bare                 no instrumentation, no profiler;
#   aprof                -finstrument-functions, libaprof, allocations
#                        followed (the default);
#   aprof APROF_HEAP=0   the same program, time only: the hooks' share;
#   heaptrack            the bare program under heaptrack (Debian's package,
#                        installed here when missing and run as root),
# as paired rounds (bare, then each variant, so that load on the machine
# falls on all alike).  Prints each variant's median ratio of wall time to
# bare's in the same round, its time per allocation and its extra time per
# allocation over bare, and the median cost of following allocations alone
# (aprof minus aprof APROF_HEAP=0, per allocation).
# Run from the top of a built tree: sh benchmarks/heap.sh (make bench runs it).
# Environment: MILLIONS (allocations per run, default 4), ROUNDS (default 5), CC.
set -eu
top_builddir=${top_builddir:-$(pwd)}
top_srcdir=${top_srcdir:-$top_builddir}
MILLIONS=${MILLIONS:-4}
ROUNDS=${ROUNDS:-5}
CC=${CC:-cc}
CFLAGS="-O2 -fno-inline -g"
work=$(mktemp -d "${TMPDIR:-/tmp}/aprof-heap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
src="$top_srcdir/benchmarks/heap-bench.c"
libs="$top_builddir/runtime/.libs"

if [ ! -f "$libs/libaprof.so" ]; then
	echo "heap.sh: no $libs/libaprof.so: run make first (or set top_builddir)" >&2
	exit 1
fi
$CC $CFLAGS -o "$work/bare" "$src"
$CC $CFLAGS -finstrument-functions -o "$work/aprof" "$src" -L"$libs" -laprof -Wl,-rpath,"$libs"

if ! command -v heaptrack >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] &&
	command -v apt-get >/dev/null 2>&1; then
	echo "heap.sh: installing heaptrack (Debian package)"
	apt-get install -y heaptrack >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && apt-get install -y heaptrack >/dev/null 2>&1; } || true
fi
heaptrack=$(command -v heaptrack || true)

# seconds CMD...: wall time of one run, in seconds.
seconds() {
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{ printf "%.6f\n", $2 - $1 }'
}

allocations=$("$work/bare" "$MILLIONS" | awk '{ print $1 }')
: >"$work/times"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	b=$(seconds "$work/bare" "$MILLIONS")
	a=$(APROF_OUT="$work/amon.out" seconds "$work/aprof" "$MILLIONS")
	z=$(APROF_HEAP=0 APROF_OUT="$work/amon.out" seconds "$work/aprof" "$MILLIONS")
	h=0
	if [ -n "$heaptrack" ]; then
		h=$(seconds "$heaptrack" -o "$work/heaptrack" "$work/bare" "$MILLIONS")
		rm -f "$work"/heaptrack*
	fi
	echo "$b $a $z $h" >>"$work/times"
	r=$((r + 1))
done
[ -f "$work/amon.out" ] || { echo "heap.sh: the aprof build wrote no amon.out" >&2; exit 1; }

echo "benchmarks/heap-bench.c: $allocations allocations per run, $ROUNDS paired rounds, $CFLAGS"
awk -v n_alloc="$allocations" -v have_heaptrack="${heaptrack:+1}" '
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		n++
		for (v = 1; v <= 4; v++) {
			ratio[v, n] = $v / $1
			per[v, n] = $v / n_alloc * 1e9
			extra[v, n] = ($v - $1) / n_alloc * 1e9
		}
		tracking[n] = ($2 - $3) / n_alloc * 1e9
	}
	END {
		split("bare|aprof|aprof APROF_HEAP=0|heaptrack", name, "|")
		printf "%-20s %8s %10s %16s\n", "variant", "ratio", "ns/alloc", "extra ns/alloc"
		for (v = 1; v <= 4; v++) {
			if (v == 4 && !have_heaptrack) {
				printf "%-20s %8s\n", name[v], "(heaptrack not available)"
				continue
			}
			for (i = 1; i <= n; i++) { r[i] = ratio[v, i]; p[i] = per[v, i]; x[i] = extra[v, i] }
			printf "%-20s %7.2fx %10.1f %16.1f\n", name[v], median(r, n), median(p, n),
			       median(x, n)
		}
		printf "following allocations alone (aprof - aprof APROF_HEAP=0): %.1f ns per allocation\n",
		       median(tracking, n)
	}' "$work/times"
