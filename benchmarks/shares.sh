#!/bin/sh
# shares.sh -- each routine's share of self time as aprof charges it, against
# the reference a profiling engineer would use: `perf record` on the bare
# build (the software cpu-clock event, so it works in a guest without
# hardware counters).
#     sh benchmarks/shares.sh BARE INSTRUMENTED [ARGUMENT...]
# BARE is the program built without -finstrument-functions, INSTRUMENTED the
# same sources built with it and linked with libaprof; both run with the
# ARGUMENTs in a scratch directory.  perf samples BARE's call stacks (DWARF
# unwinding; build with -g) and each sample goes to the innermost routine of
# BARE's own code on its stack, inlined ones included, since aprof charges a
# routine's calls into libc and other uninstrumented code to the routine
# itself and GCC instruments inlined routines too; only routines aprof's
# flat profile names count, so that code it did not instrument (system
# headers left out with -finstrument-functions-exclude-file-list, PLT
# stubs) goes to its caller, as aprof charges it.  Prints the ROWS routines
# with the most perf samples, perf's share and aprof's (APROF_CLOCK as set,
# the cycle counter by default), and the total variation distance between
# the two distributions over every routine (half the sum of the differences,
# in percentage points: 0 when they agree, 100 when disjoint).
# What still differs for want of a better reference: a routine that ends in a
# tail call leaves no frame in BARE, so its callee's time goes to its caller
# there (Lua's l_alloc jumping to realloc), and routines GCC inlines in one
# build but not in the other.  Needs perf (Debian's linux-perf).
# Run from the top of a built tree, not under chrt -f: perf's reader, starved
# by its real-time child, lost 15 samples in 16 so.  On a busy machine set
# RUN to what runs INSTRUMENTED unpreempted (as root, RUN="chrt -f 10"): the
# cycle counter charges time the thread was not scheduled to the routine it
# was in, while the runtime's own cost taken off per call stays: a run on
# a busy machine charged fib's luaV_execute 36% (perf 79%; 74% under chrt).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$(pwd)}
ROWS=${ROWS:-12}
FREQ=${FREQ:-4000}

if [ $# -lt 2 ]; then
	echo "usage: sh benchmarks/shares.sh BARE INSTRUMENTED [ARGUMENT...]" >&2
	exit 2
fi
bare=$(readlink -f "$1")
instr=$(readlink -f "$2")
shift 2
command -v perf >/dev/null 2>&1 || { echo "shares.sh: no perf (apt-get install linux-perf)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/aprof-shares.XXXXXX")
trap 'rm -rf "$work"' EXIT
for f in "$@"; do [ ! -f "$f" ] || cp "$f" "$work/"; done

# aprof's flat profile: "name seconds" lines.
# shellcheck disable=SC2086
(cd "$work" && APROF_OUT=amon.out ${RUN:-} "$instr" "$@" >/dev/null 2>instr.err) ||
	{ echo "shares.sh: $instr failed (see $work/instr.err)" >&2; exit 1; }
"$top_builddir/aprof/aprof" -p -b "$instr" "$work/amon.out" |
	awk -v mode=flat -f "$here/shares.awk" >"$work/aprof.shares"

# perf's samples, one routine each: "name count" lines.
(cd "$work" && perf record -q -e cpu-clock -F "$FREQ" --call-graph dwarf,8192 -o perf.data \
	"$bare" "$@" >/dev/null 2>perf.err) || { echo "shares.sh: perf record failed (see $work/perf.err)" >&2; exit 1; }
perf script -i "$work/perf.data" -F ip,sym,dso 2>/dev/null |
	awk -v exe="$bare" -v known="$work/aprof.shares" -v mode=perf -f "$here/shares.awk" >"$work/perf.shares"

awk -F '\t' -v rows="$ROWS" '
	FNR == 1 { file++ }
	file == 1 { p[$1] += $2; pt += $2; all[$1] = 1 }
	file == 2 { a[$1] += $2; at += $2; all[$1] = 1 }
	END {
		if (pt == 0 || at == 0) {
			print "shares.sh: no samples or no time charged" > "/dev/stderr"
			exit 1
		}
		printf "%-50s %8s %8s\n", "routine", "perf %", "aprof %"
		for (k = 0; k < rows; k++) {
			best = ""
			for (r in p)
				if (!(r in shown) && (best == "" || p[r] > p[best]))
					best = r
			if (best == "")
				break
			shown[best] = 1
			printf "%-50s %8.2f %8.2f\n", substr(best, 1, 50), 100 * p[best] / pt, 100 * a[best] / at
		}
		for (r in all)
			d += (p[r] / pt > a[r] / at) ? p[r] / pt - a[r] / at : a[r] / at - p[r] / pt
		printf "total variation distance: %.1f points (%d perf samples)\n", 50 * d, pt
	}' "$work/perf.shares" "$work/aprof.shares"
