#!/bin/sh
# targets.sh -- aprof's overhead targets, each settled by many paired
# differences and a confidence interval, on the builds benchmarks/perf.sh
# made (run it first: it fetches and builds the programs).
#
# perf.sh gives each variant's median over a few rounds; on a busy or
# virtual machine the rounds differ by more than the ns per call a target
# is about (a 2-CPU KVM guest: the same bare build 0.68-1.23 s from round
# to round), so its medians can neither meet nor miss such a target.  Here
# a benchmark's variants run back to back in each of many short rounds (in
# an order rotated from round to round), and each comparison of two of them
# takes from every round the difference (B - A) / calls in ns, or the ratio
# B / A, so that what disturbs a round falls on both alike; what is
# reported is the median over the rounds with a distribution-free 95%
# confidence interval for it (the order statistics of the sign test: no
# assumption on how the noise is distributed, only that the rounds are
# independent).  A target is
#   met         when the interval's upper end is within it,
#   not met     when its lower end is beyond it,
#   unresolved  when the interval straddles it: more rounds, or a quieter
#               machine, are needed to say.
# The comparisons:
#   T1  sampling's own work at most 2.5 ns per call beyond the empty hooks,
#       called alike: aprof sample (linked with -laprof: the hooks' common
#       case in the program, libaprof_hooks.a) and aprof sample static
#       (libaprof.a) against empty hooks; and the same objects linked with
#       libaprof.so.0 alone (its own hooks, as an instrumented library not
#       linked with -laprof calls them) against empty hooks .so;
#   T2  JsonCpp, system headers excluded: sampling (static) at most 1.25
#       times gprof's time;
#   T3  binary-trees: following the heap at most 1.15 times the same
#       sampling run without (APROF_HEAP=0);
#   Keep  the cycle counter's cost per call at most two counter reads plus
#       3 ns beyond the empty hooks (-laprof against empty hooks; the
#       read's cost measured in the same run, benchmarks/clock-cost.c);
#   Floor what the least exact hooks cost beyond the empty hooks, static and
#       .so: benchmarks/stack-hooks.c (a thread's shadow stack pushed and
#       popped, nothing else) linked with the empty hooks' objects in place
#       of theirs; and sampling's own work beyond that floor.
# Calls are counted exactly by aprof --stats on a run of each input.
#
# Usage, from the top of a built tree, after perf.sh:
#     sh benchmarks/targets.sh
# Environment:
#   APROF_BENCH_DIR  perf.sh's work directory (default benchmarks/work)
#   TARGETS_ROUNDS   rounds (default 31; 6 or more for an interval)
#   TARGETS_ONLY     benchmarks (default "binary-trees speedtest1 jsoncpp
#                    jsoncpp-x"; also fib, strings, parser)
#   TREES_N (14), FIB_N (32), STRINGS_N (4), PARSER_N (4000), SQLITE_SIZE
#   (40), and perf.sh's JsonCpp documents (small.json with every routine
#   instrumented, full.json with headers excluded, as target 2 was set):
#   perf.sh's full inputs but for fib, strings and JsonCpp's slowest
#   builds, so that the costs a run pays once (its contexts made, amon.out
#   written) weigh per call as there; a round of the default comparisons
#   takes about a minute on the machine above
# Writes the table to stdout and to benchmarks/TARGETS.md (TARGETS_RESULTS
# overrides); progress to stderr.
set -eu

say() { printf '=== %s\n' "$*" >&2; }
die() { printf 'targets.sh: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
WORK=${APROF_BENCH_DIR:-$top_builddir/benchmarks/work}
P=$WORK/perf
RESULTS=${TARGETS_RESULTS:-$here/TARGETS.md}
ROUNDS=${TARGETS_ROUNDS:-31}
BENCHES=${TARGETS_ONLY:-binary-trees speedtest1 jsoncpp jsoncpp-x}
TREES_N=${TREES_N:-14}
FIB_N=${FIB_N:-32}
STRINGS_N=${STRINGS_N:-4}
PARSER_N=${PARSER_N:-4000}
SQLITE_SIZE=${SQLITE_SIZE:-40}
MEASURE=$P/tools/measure
APROF=$P/aprof/aprof
if [ ! -x "$MEASURE" ] || [ ! -x "$APROF" ]; then
	die "no builds under $P: run benchmarks/perf.sh first (with APROF_BENCH_DIR=$WORK)"
fi
[ "$ROUNDS" -ge 1 ] 2>/dev/null || die "TARGETS_ROUNDS=$ROUNDS: a number of rounds, 1 or more"

# bench_of NAME: its program (perf.sh's build folder), build suffix ("x":
# system headers excluded; "-": none), executable, arguments (commas for
# spaces), and the Lua script to copy beside it ("-": none).
bench_of() {
	case $1 in
	fib) echo "lua - lua fib.lua,$FIB_N lua/fib.lua" ;;
	binary-trees) echo "lua - lua binary-trees.lua,$TREES_N lua/binary-trees.lua" ;;
	strings) echo "lua - lua strings.lua,$STRINGS_N lua/strings.lua" ;;
	parser) echo "lua - lua parser.lua,$PARSER_N lua/parser.lua" ;;
	speedtest1) echo "sqlite - speedtest1 --size,$SQLITE_SIZE,--memdb -" ;;
	jsoncpp) echo "json - jsontestrunner small.json -" ;;
	jsoncpp-x) echo "json x jsontestrunner full.json -" ;;
	*) die "no benchmark $1 (fib binary-trees strings parser speedtest1 jsoncpp jsoncpp-x)" ;;
	esac
}

# The comparisons of a benchmark, one a line:
#   target label A B kind limit
# label: underscores for spaces; A, B: variants (build_of); kind: ns (B - A
# per call, ns), ratio (B / A), reads (B - A per call less two counter
# reads, ns); limit: the target's, or - for none.
comparisons() {
	echo "T1 sample_-_empty_hooks empty sample ns 2.5"
	echo "T1 sample_static_-_empty_hooks empty ssample ns 2.5"
	echo "T1 sample,_.so's_hooks_-_empty_hooks_.so emptyso sampleso ns 2.5"
	echo "- sample_-_sample,_.so's_hooks sampleso sample ns -"
	echo "- sample_-_sample_static ssample sample ns -"
	echo "Floor stack_hooks_-_empty_hooks empty stack ns -"
	echo "Floor stack_hooks_.so_-_empty_hooks_.so emptyso stackso ns -"
	echo "Floor sample_-_stack_hooks stack sample ns -"
	echo "Floor sample_static_-_stack_hooks stack ssample ns -"
	echo "Floor sample,_.so's_hooks_-_stack_hooks_.so stackso sampleso ns -"
	case $1 in
	binary-trees)
		echo "T3 sample_/_sample,_heap_not_followed snoheap sample ratio 1.15"
		echo "Keep counter_-_empty_hooks_-_2_reads empty aprof reads 3"
		;;
	jsoncpp-x) echo "T2 sample_static_/_gprof gprof ssample ratio 1.25" ;;
	esac
}
# build_of VARIANT SUFFIX: the build a variant runs (with the benchmark's
# build suffix), its environment (commas for spaces; "-": none), and for
# the floor's variants and sampleso what its objects are linked with
# instead.
build_of() {
	x=${2#-}
	case $1 in
	empty) echo "empty$x -" ;;
	emptyso) echo "empty${x}so -" ;;
	stack) echo "empty$x - stack" ;;
	stackso) echo "empty${x}so - stackso" ;;
	sample) echo "aprof$x APROF_CLOCK=sample" ;;
	sampleso) echo "aprof$x APROF_CLOCK=sample soonly" ;;
	ssample) echo "static$x APROF_CLOCK=sample" ;;
	snoheap) echo "aprof$x APROF_CLOCK=sample,APROF_HEAP=0" ;;
	aprof) echo "aprof$x -" ;;
	gprof) echo "gprof -" ;;
	esac
}

for b in $BENCHES; do bench_of "$b" >/dev/null; done

say "measuring the cycle counter's read (benchmarks/clock-cost.c, median of 3)"
read_ns=$({ "$P/tools/clock-cost" && "$P/tools/clock-cost" && "$P/tools/clock-cost"; } | awk '$1 == "counter" { print $2 }' | sort -n | sed -n 2p)
data=$P/targets
rm -rf "$data"
mkdir -p "$data/hooks"
if ! gcc -O2 -c -o "$data/hooks/stack-hooks.o" "$here/stack-hooks.c" ||
	! gcc -O2 -shared -fPIC -o "$data/hooks/libstackhooks.so" "$here/stack-hooks.c"; then
	die "building benchmarks/stack-hooks.c failed"
fi
# relink BUILD-DIR OUT HOOKS: BUILD-DIR's objects (perf.sh's Makefile there)
# linked into OUT with HOOKS.
relink() {
	mk=$1/Makefile
	# shellcheck disable=SC2046,SC2086
	(cd "$1" && $(sed -n 's/^CC = //p' "$mk") -o "$2" $(sed -n 's/^OBJS = //p' "$mk") $3 \
		$(sed -n 's/^LIBS = //p' "$mk")) || die "linking $2 from $1 failed"
}
started=$(date +%s)
revision=$(cd "$here" && git rev-parse --short HEAD 2>/dev/null || echo ?)
if (cd "$here/.." && git status --porcelain --untracked-files=no -- runtime aprof 2>/dev/null | grep -q .); then
	revision="$revision (runtime or analyser modified)"
fi
if cmp -s "$P/aprof/lib/libaprof.a" "$top_builddir/runtime/.libs/libaprof.a"; then
	revision="$revision (perf.sh's copy of libaprof, the same as the tree's)"
else
	revision="perf.sh's copy of libaprof, not the tree's at $revision"
fi
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# Each benchmark's variants, in a directory each (the same command line for
# all: Lua keeps its argv in strings, whose lengths decide when it collects
# garbage), and its calls counted on the sampling build's first run.
for b in $BENCHES; do
	# shellcheck disable=SC2046
	set -- $(bench_of "$b")
	prog=$1 sfx=$2 exe=$3 args=$(echo "$4" | tr , ' ') script=$5
	vs=$(comparisons "$b" | awk '{ print $3; print $4 }' | sort -u | tr '\n' ' ')
	echo "$vs" >"$data/$b.variants"
	for v in $vs; do
		# shellcheck disable=SC2046
		set -- $(build_of "$v" "$sfx")
		[ -x "$P/$prog/$1/$exe" ] || die "no $P/$prog/$1/$exe: perf.sh did not build it (BENCH_ONLY?)"
		d=$data/run/$b/$v
		mkdir -p "$d"
		case ${3:-} in
		stack) relink "$P/$prog/$1" "$d/$exe" "$data/hooks/stack-hooks.o" ;;
		stackso) relink "$P/$prog/$1" "$d/$exe" "-L$data/hooks -lstackhooks -Wl,-rpath,$data/hooks" ;;
		soonly) relink "$P/$prog/$1" "$d/$exe" "$P/aprof/lib/libaprof.so.0 -Wl,-rpath,$P/aprof/lib" ;;
		*) ln -s "$P/$prog/$1/$exe" "$d/$exe" ;;
		esac
		echo "$2" | tr , ' ' >"$d/env"
		[ "$script" = - ] || cp "$here/$script" "$d/"
		[ "$prog" != json ] || ln -s "$P/json/$args" "$d/"
		echo "$args" >"$d/args"
	done
	d=$data/run/$b/sample
	# shellcheck disable=SC2086
	(cd "$d" && env APROF_CLOCK=sample ./"$exe" $args >/dev/null 2>err) || die "$b: the sampling run failed (see $d/err)"
	calls=$("$APROF" --stats "$d/$exe" "$d/amon.out" | awk '$1 == "calls" { print $2 }')
	[ -n "$calls" ] || die "$b: aprof --stats gave no calls"
	echo "$calls" >"$data/$b.calls"
	say "$b: $args, $calls calls; variants $vs"
done

# rounds: every benchmark's variants back to back, rotated by the round
r=1
while [ "$r" -le "$ROUNDS" ]; do
	say "round $r of $ROUNDS"
	for b in $BENCHES; do
		exe=$(bench_of "$b" | cut -d' ' -f3)
		# shellcheck disable=SC2013
		for v in $(awk -v k="$r" '{ for (i = 1; i <= NF; i++) printf "%s ", $((i + k - 1) % NF + 1) }' "$data/$b.variants"); do
			d=$data/run/$b/$v
			rm -f "$d/times" "$d/amon.out" "$d/gmon.out"
			# shellcheck disable=SC2046
			(cd "$d" && env $(sed 's/^-$//' env) "$MEASURE" times ./"$exe" $(cat args) >/dev/null 2>err) ||
				die "$b, $v: the run failed (see $d/err)"
			echo "$r $v $(cut -d' ' -f4 "$d/times")" >>"$data/$b.times"
		done
	done
	r=$((r + 1))
done

# the table: per comparison the median of its rounds' statistic and the
# 95% interval [x(k), x(n+1-k)], k the largest with P(Binomial(n, 1/2) < k) <= 0.025
table() {
	for b in $BENCHES; do
		comparisons "$b" | while read -r target label a bv kind limit; do
			awk -v b="$b" -v t="$target" -v label="$label" -v a="$a" -v bv="$bv" -v kind="$kind" \
				-v limit="$limit" -v calls="$(cat "$data/$b.calls")" -v read_ns="$read_ns" '
				$2 == a { ta[$1] = $3 } $2 == bv { tb[$1] = $3 }
				END {
					n = 0
					for (r in ta) if (r in tb) {
						if (kind == "ratio") x = tb[r] / ta[r]
						else x = (tb[r] - ta[r]) / calls * 1e9 - (kind == "reads" ? 2 * read_ns : 0)
						s[++n] = x
					}
					for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { y = s[i]; s[i] = s[j]; s[j] = y }
					med = n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
					k = 0; p = 0.5 ^ n; cum = p
					for (i = 1; i <= n && cum <= 0.025; i++) { k = i; p = p * (n - i + 1) / i; cum += p }
					if (k >= 1) { lo = s[k]; hi = s[n + 1 - k] }
					verdict = limit == "-" ? "-" : k < 1 ? "unresolved (too few rounds)" : hi <= limit ? "met" : lo > limit ? "**not met**" : "unresolved"
					unit = kind == "ratio" ? "x" : " ns"
					fmt = kind == "ratio" ? "%.3f" : "%.2f"
					gsub(/_/, " ", label)
					printf "| %s | %s | %s | %s | " fmt "%s | ", b, t, label, limit == "-" ? "-" : "<= " limit unit, med, unit
					if (k >= 1) printf fmt " - " fmt "%s", lo, hi, unit; else printf "-"
					printf " | %d | %s |\n", n, verdict
				}' "$data/$b.times"
		done
	done
}

out=$data/TARGETS.md
{
	echo "# aprof: the overhead targets, paired"
	echo
	echo "Generated by \`benchmarks/targets.sh\` on \`benchmarks/perf.sh\`'s builds; do not edit: rerun it."
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); run time $(($(date +%s) - started)) s; load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
	echo "- machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); Linux $(uname -r)"
	echo "- aprof: $revision"
	echo "- one cycle-counter read (benchmarks/clock-cost.c, median of 3): $read_ns ns"
	# shellcheck disable=SC2016
	echo "- inputs: $(for b in $BENCHES; do printf '%s `%s` (%s calls); ' "$b" "$(cat "$data/run/$b/sample/args")" "$(cat "$data/$b.calls")"; done | sed 's/; $//')"
	echo
	echo "A benchmark's variants run back to back in each of $ROUNDS rounds (CPU time, user + system);"
	echo "each row takes two of them, A and B, from every round: the median over the rounds of B - A"
	echo "per call (ns) or of B / A, and a distribution-free 95% confidence interval for that median"
	echo "(sign test).  *met*: the interval is within the target; *not met*: it is wholly beyond;"
	echo "*unresolved*: it straddles the target.  The interval covers what differs from round to round"
	echo "within this run, not what differs between runs an hour apart (a machine's state changes too)."
	echo "*sample*: the build linked with -laprof, the hooks' common case in the program"
	echo "(libaprof_hooks.a), the rest of the runtime in libaprof.so; *sample static*: libaprof.a linked"
	echo "in; *sample, .so's hooks*: *sample*'s objects linked with libaprof.so.0 alone, whose own hooks"
	echo "they call through the GOT, as an instrumented library not linked with -laprof does; *stack"
	echo "hooks*: benchmarks/stack-hooks.c, a bare shadow stack, in place of the empty hooks."
	echo "*sample - sample static* is what -laprof's position-independent code costs against libaprof.a:"
	echo "the copy of the hooks (libaprof_hooks.a, which libraries link too) reaches its thread-local"
	echo "block by an offset in a register, and heap tracking runs in libaprof.so."
	echo
	echo "| benchmark | target | B against A | limit | median | 95% interval | rounds | verdict |"
	echo "|---|---|---|---:|---:|---:|---:|---|"
	table
} >"$out"
cat "$out"
cp "$out" "$RESULTS"
