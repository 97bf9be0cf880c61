#!/bin/sh
# benchmarks/lua.sh -- profile a real program, the Lua 5.4 interpreter, with
# aprof and with gprof, and check that they agree on every call count.
#
# Why: the tests (make check) use small programs written for aprof; this
# checks aprof on some 600 functions of real C code (a bytecode interpreter,
# its garbage collector, parser and libraries) against the reference, gprof,
# and measures what the instrumentation costs.
#
# What it does, all under $APROF_BENCH_DIR (default benchmarks/work/):
#  1. fetches Lua 5.4's source from Debian (bookworm) with apt-get source,
#     through a private sources list, apt state and cache, leaving the
#     system's apt configuration alone (benchmarks/debian-source.sh);
#     skipped when the source is there;
#  2. compiles the lua program (Lua's own src/*.c but luac.c, not Debian's
#     build system) three times at -O1 -fno-inline -g: bare, for aprof
#     (-finstrument-functions, linked with libaprof) and for gprof (-pg);
#  3. runs benchmarks/lua/calls.lua (perf.sh's Lua workloads at smaller sizes, in turn) with
#     each build, writing amon.out and gmon.out;
#  4. prints the head of aprof's report, then compares the call graphs:
#     every arc (caller -> callee) that gprof -b -q reports must have the
#     same count in aprof -b -q, and so must every routine's calls, but for
#     those gprof cannot count (benchmarks/callgraph-compare.py);
#  5. prints the figures: run times as ratios to the bare build, arcs
#     compared, contexts, profile sizes.
#
# Usage (from the top of a built tree; not part of make check, as it needs
# the network and takes a minute or two):
#     sh benchmarks/lua.sh
# Environment: top_builddir (default: the current directory), APROF_BENCH_DIR,
# APROF_BENCH_RUNS (timed runs of each build, best taken; default 3),
# LUA_ARGS (arguments for calls.lua: "unwind" adds errors and coroutines),
# LUA_FRONT (fentry: GCC's -pg -mfentry front-end instead, x86-64 only:
# every build at -O2 -g, inlining as it comes, the aprof and gprof builds
# compiled -pg -mfentry alike, the aprof one linked with libaprof without
# -pg, the gprof one with -pg, so that both see the same calls, tail calls
# included, and are timed against a bare -O2 build).
# Needs gcc, gprof, python3, apt-get and dpkg-source (Debian's dpkg-dev,
# installed here when missing and run as root).
#
# Both profilers see the same calls: with -fno-inline every call in the C
# source is a real call, gprof counts it in mcount (-pg) and aprof in
# __cyg_profile_func_enter (-finstrument-functions).  But two runs of Lua
# only make the same calls if nothing depends on time or addresses, so every
# build is compiled with (DETERMINISTIC below)
#   -Dluai_makeseed(L)=...  a constant string hash seed, instead of one mixed
#       from the time and addresses, which decides how often the table code
#       meets collisions (getfreepos, mainpositionfromnode, ...);
#   -DSTRCACHE_N=1  one line in the API's string cache, which is indexed by
#       the address of the C string (so by the build's code layout) and
#       decides how often luaS_new calls luaS_newlstr.
# Lua errors and coroutines are left out of calls.lua (see there).
set -eu

say() { printf '\n=== %s\n' "$*"; }
die() { printf 'lua.sh: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
APROF=$top_builddir/aprof/aprof
LIBDIR=$top_builddir/runtime/.libs
SCRIPT=$here/lua/calls.lua
RUNS=${APROF_BENCH_RUNS:-3}
LUA_ARGS=${LUA_ARGS:-}
if [ ! -x "$APROF" ] || [ ! -f "$LIBDIR/libaprof.so" ]; then
	die "no aprof/aprof or runtime/.libs/libaprof.so under $top_builddir: run make first (or set top_builddir)"
fi
[ -f "$SCRIPT" ] || die "$SCRIPT is missing"
for tool in gcc gprof python3; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is needed"
done
WORK=${APROF_BENCH_DIR:-$top_builddir/benchmarks/work}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
# The builds and runs of each front-end apart, so that neither rebuilds the other's.
BUILD=$WORK/build${LUA_FRONT:+-$LUA_FRONT}

# ---- 1. the source -----------------------------------------------------------
src_dir() { for d in "$WORK"/src/lua5.4-*/src; do [ -f "$d/lua.c" ] && { echo "$d"; return 0; }; done; return 1; }

. "$here/debian-source.sh"
if LUASRC=$(src_dir); then
	say "Lua source already in $LUASRC"
else
	say "fetching Lua 5.4's source from Debian into $WORK/src"
	debian_source lua5.4 "$WORK" || die "apt-get source lua5.4 failed"
	LUASRC=$(src_dir) || die "apt-get source lua5.4 left no lua5.4-*/src/lua.c in $WORK/src"
fi

# ---- 2. three builds ------------------------------------------------------------
# Lua's Makefile (target linux-noreadline): gcc -std=gnu99 -DLUA_COMPAT_5_3
# -DLUA_USE_LINUX, linked with -Wl,-E -lm -ldl.  Debian's luaconf.h patch
# includes lua5.4-deb-multiarch.h, which its build system would generate.
say "building lua three times in $BUILD"
lua_multiarch_header "$WORK/build/include"
sources=
for f in "$LUASRC"/*.c; do
	f=${f##*/}
	[ "$f" = luac.c ] || sources="$sources $f"
done
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

# build NAME "CFLAGS" "LDFLAGS": $WORK/build/NAME/lua, through a generated
# Makefile, so a second run only relinks what changed (nothing, usually).
build() {
	dir=$BUILD/$1
	mkdir -p "$dir"
	{
		echo "# generated by benchmarks/lua.sh"
		echo "VPATH = $LUASRC"
		echo "CC = gcc -std=gnu99"
		echo "CFLAGS = $2 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX \$(DETERMINISTIC) -I$WORK/build/include"
		echo "DETERMINISTIC = -D'luai_makeseed(L)=0x2545f491u' -DSTRCACHE_N=1 -DSTRCACHE_M=2"
		echo "LDFLAGS = $3"
		echo "INSTR = ${4:-}"
		echo "LIBS = -Wl,-E -lm -ldl"
		echo "OBJS = $(echo "$sources" | sed 's/\.c/.o/g')"
		echo "lua: \$(OBJS)"
		# shellcheck disable=SC2016
		printf '\t$(CC) $(CFLAGS) -o $@ $(OBJS) $(LDFLAGS) $(LIBS)\n'
		echo "%.o: %.c Makefile"
		# shellcheck disable=SC2016
		printf '\t$(CC) $(CFLAGS) $(INSTR) -c -o $@ $<\n'
	} >"$dir/Makefile.new"
	if cmp -s "$dir/Makefile.new" "$dir/Makefile"; then rm "$dir/Makefile.new"; else mv "$dir/Makefile.new" "$dir/Makefile"; fi
	printf '%-6s %s\n' "$1:" "$2 ${4:+${4} }$3"
	make -s -C "$dir" -j"$jobs" lua || die "building the $1 lua failed"
}
# build NAME "CFLAGS" "LDFLAGS" ["INSTR"]: INSTR, the compiler's alone.
if [ "${LUA_FRONT:-}" = fentry ]; then
	BASE="-O2 -g"
	build bare "$BASE" ""
	build aprof "$BASE" "-L$LIBDIR -laprof -Wl,-rpath,$LIBDIR" "-pg -mfentry"
	build gprof "$BASE" "-pg" "-pg -mfentry"
else
	BASE="-O1 -fno-inline -g"
	build bare "$BASE" ""
	build aprof "$BASE -finstrument-functions" "-L$LIBDIR -laprof -Wl,-rpath,$LIBDIR"
	build gprof "$BASE -pg" ""
fi

# ---- 3. runs -------------------------------------------------------------------
# Each build runs calls.lua RUNS times in turn (so all three see the same
# machine load), in its own scratch directory; the fastest run counts.  All
# run as ./lua, through a link: Lua keeps argv[0] in a string, whose length
# decides its allocations, hence when the garbage collector runs.
say "running calls.lua${LUA_ARGS:+ $LUA_ARGS} with each build ($RUNS times each)"
RUN=$WORK/run${LUA_FRONT:+-$LUA_FRONT}
for v in bare aprof gprof; do
	rm -rf "${RUN:?}/$v"
	mkdir -p "$RUN/$v"
	cp "$here"/lua/*.lua "$RUN/$v/"
	ln -s "$BUILD/$v/lua" "$RUN/$v/lua"
done
unset GMON_OUT_PREFIX || true
now() { date +%s%N; }
i=1
while [ "$i" -le "$RUNS" ]; do
	for v in bare aprof gprof; do
		t0=$(now)
		# shellcheck disable=SC2086
		(cd "$RUN/$v" && APROF_OUT="$RUN/$v/amon.out" ./lua calls.lua $LUA_ARGS >out)
		t1=$(now)
		echo $(((t1 - t0) / 1000)) >>"$RUN/$v/times"
	done
	i=$((i + 1))
done
best() { sort -n "$RUN/$1/times" | head -n 1; }
for v in bare aprof gprof; do
	printf '%-6s %s   best of %s: %s us\n' "$v:" "$(cat "$RUN/$v/out")" "$RUNS" "$(best "$v")"
done
for v in aprof gprof; do
	cmp -s "$RUN/bare/out" "$RUN/$v/out" || die "the $v build printed other output than the bare one"
done
[ -s "$RUN/aprof/amon.out" ] || die "the aprof build wrote no amon.out"
[ -s "$RUN/gprof/gmon.out" ] || die "the gprof build wrote no gmon.out"

# ---- 4. reports and the comparison ---------------------------------------------------
say "aprof -b lua amon.out (head)"
"$APROF" -b "$BUILD/aprof/lua" "$RUN/aprof/amon.out" >"$RUN/aprof/report"
head -n 30 "$RUN/aprof/report"

say "comparing call counts: gprof -b -q against aprof -b -q"
# callgraph-compare.py runs both (on copies of the builds that name GCC's
# clones and cold parts alike, for the -pg -mfentry builds of one set of
# objects), reads both call graphs (gprof's text format) into (caller,
# callee) -> count maps and routine -> calls maps, then checks every arc and
# routine gprof reports, setting aside the calls gprof cannot count (from
# the C library: main's).
status=0
same=
[ "${LUA_FRONT:-}" != fentry ] || same=--same-objects
rm -f "$RUN/graphs/compare"
# shellcheck disable=SC2086
python3 "$here/callgraph-compare.py" $same "$APROF" "$BUILD/aprof/lua" \
	"$RUN/aprof/amon.out" "$BUILD/gprof/lua" "$RUN/gprof/gmon.out" "$RUN/graphs" >/dev/null 2>&1 || status=$?
[ -s "$RUN/graphs/compare" ] || die "callgraph-compare.py failed (status $status)"
cp "$RUN/graphs/compare" "$RUN/compare"
cat "$RUN/compare"

# ---- 5. figures ------------------------------------------------------------------
say "figures"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
bare=$(best bare)
aprof=$(best aprof)
gprof=$(best gprof)
size() { wc -c <"$1" | tr -d ' '; }
"$APROF" -S "$BUILD/aprof/lua" "$RUN/aprof/amon.out" >"$RUN/aprof/contexts"
contexts=$(tail -n 3 "$RUN/aprof/contexts" | sed -n 's/^ *\([0-9][0-9]*\) contexts.*/\1/p')
printf 'run time, bare build:  %d.%03d s (best of %s)\n' $((bare / 1000000)) $((bare / 1000 % 1000)) "$RUNS"
printf 'run time, aprof build: %s x bare\n' "$(ratio "$aprof" "$bare")"
printf 'run time, gprof build: %s x bare\n' "$(ratio "$gprof" "$bare")"
printf 'arcs compared:         %s\n' "$(sed -n 's/^arcs compared: \([0-9]*\).*/\1/p' "$RUN/compare")"
printf 'contexts:              %s\n' "${contexts:-? (see $RUN/aprof/contexts)}"
printf 'amon.out:              %s bytes\n' "$(size "$RUN/aprof/amon.out")"
printf 'gmon.out:              %s bytes\n' "$(size "$RUN/gprof/gmon.out")"
if [ "$status" -ne 0 ]; then
	echo "lua.sh: aprof and gprof disagree on some call counts (listed above)" >&2
	exit 1
fi
echo "lua.sh: aprof and gprof agree on every call count"
