#!/bin/sh
# heap-live.sh -- heap tracking on a real heap:
# benchmarks/heap-live.c keeps LIVE blocks of 16-271 bytes live and replaces
# one at random REPLACEMENTS times, in a routine never instrumented, so the
# instrumented build's only extra work in the loop is following the heap.
# Run as paired rounds (in each round bare and each variant, in an order
# rotated from round to round, so that load on the machine falls on all
# alike):
#   bare                      no instrumentation, no profiler;
#   aprof sample              -finstrument-functions, libaprof,
#                             APROF_CLOCK=sample, allocations followed;
#   aprof sample APROF_HEAP=0 the same, allocations not followed.
# Prints per variant the medians of: the loop's time against bare's in the
# same round, nanoseconds per malloc/free pair beyond bare, peak RSS, and
# bytes of RSS per live block beyond bare (what following the blocks keeps);
# and checks that aprof's heap totals (tests/heap-totals, built by make
# check) are exactly what the program counted.
# Run from the top of a built tree: sh benchmarks/heap-live.sh
# Environment: LIVE (default 1000000), REPLACEMENTS (default 10000000),
# ROUNDS (default 5), CC.
set -eu
top_builddir=${top_builddir:-$(pwd)}
top_srcdir=${top_srcdir:-$top_builddir}
LIVE=${LIVE:-1000000}
REPLACEMENTS=${REPLACEMENTS:-10000000}
ROUNDS=${ROUNDS:-5}
CC=${CC:-cc}
CFLAGS="-O2 -g"
work=$(mktemp -d "${TMPDIR:-/tmp}/aprof-heap-live.XXXXXX")
trap 'rm -rf "$work"' EXIT
src="$top_srcdir/benchmarks/heap-live.c"
libs="$top_builddir/runtime/.libs"

if [ ! -f "$libs/libaprof.so" ]; then
	echo "heap-live.sh: no $libs/libaprof.so: run make first (or set top_builddir)" >&2
	exit 1
fi
$CC $CFLAGS -o "$work/bare" "$src"
$CC $CFLAGS -finstrument-functions -o "$work/aprof" "$src" -L"$libs" -laprof -Wl,-rpath,"$libs"

: >"$work/runs"
r=0
while [ "$r" -lt "$ROUNDS" ]; do
	for k in $(echo "0 1 2" | awk -v r="$r" '{ print $(r % 3 + 1), $((r + 1) % 3 + 1), $((r + 2) % 3 + 1) }'); do
		case $k in
		0) b=$("$work/bare" "$LIVE" "$REPLACEMENTS") ;;
		1) a=$(cd "$work" && APROF_CLOCK=sample ./aprof "$LIVE" "$REPLACEMENTS") ;;
		2) z=$(cd "$work" && APROF_CLOCK=sample APROF_HEAP=0 APROF_OUT=heap0.out ./aprof "$LIVE" "$REPLACEMENTS") ;;
		esac
	done
	echo "$b $a $z" >>"$work/runs"
	r=$((r + 1))
done

echo "benchmarks/heap-live.c: $LIVE live blocks, $REPLACEMENTS replacements, $ROUNDS paired rounds, $CFLAGS"
# each line: 3 runs of 7 fields: loop seconds, pairs, allocs, bytes, frees, freed, peak RSS KiB
awk -v live="$LIVE" '
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{
		n++
		for (v = 0; v < 3; v++) {
			t = $(7 * v + 1); rss = $(7 * v + 7)
			ratio[v, n] = t / $1
			extra[v, n] = (t - $1) / $2 * 1e9
			mem[v, n] = rss / 1024
			side[v, n] = (rss - $7) * 1024 / live
		}
	}
	END {
		split("bare|aprof sample|aprof sample APROF_HEAP=0", name, "|")
		printf "%-26s %8s %18s %14s %22s\n", "variant", "ratio", "ns/pair beyond bare",
		       "peak RSS MiB", "bytes/live block beyond"
		for (v = 0; v < 3; v++) {
			for (i = 1; i <= n; i++) { a[i] = ratio[v, i]; b[i] = extra[v, i]; c[i] = mem[v, i]; d[i] = side[v, i] }
			printf "%-26s %7.2fx %18.1f %14.1f %22.1f\n", name[v + 1], median(a, n),
			       median(b, n), median(c, n), median(d, n)
		}
	}' "$work/runs"

# Exact totals: the last aprof run's amon.out against what the program counted.
totals="$top_builddir/tests/heap-totals"
if [ -x "$totals" ]; then
	want=$(tail -1 "$work/runs" | awk '{ print $10, $11, $12, $13 }')
	got=$("$totals" "$work/aprof" "$work/amon.out" |
		awk '$1 == "allocs" { a = $2 } $1 == "bytes" { b = $2 } $1 == "frees" { f = $2 }
		     $1 == "freed" { g = $2 } END { print a, b, f, g }')
	if [ "$got" = "$want" ]; then
		echo "exact totals: allocs, bytes, frees, bytes freed = $got"
	else
		echo "FAIL: aprof's heap totals $got, the program counted $want" >&2
		exit 1
	fi
else
	echo "(tests/heap-totals not built: make check builds it; totals not compared)"
fi
