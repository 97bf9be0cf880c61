#!/bin/sh
# benchmarks/perf.sh -- what profiling with aprof costs, on real programs,
# against the other ways of profiling them.
#
# Two programs, from Debian's source packages (fetched by
# benchmarks/debian-source.sh through a private apt state):
#   Lua 5.4     the interpreter (lua5.4) running four scripts under
#               benchmarks/lua/: fib.lua (recursive calls), binary-trees.lua
#               (allocation and garbage collection), strings.lua (the string
#               library and tables) and parser.lua (a recursive-descent
#               parser);
#   SQLite 3    the amalgamation (sqlite3.c, generated from Debian's tree with
#               tclsh) and SQLite's own test/speedtest1.c, on an in-memory
#               database (--memdb);
#   JsonCpp     a C++ library built on the standard library's strings, maps,
#               vectors and streams (Debian's libjsoncpp), driven by its own
#               test runner (src/jsontestrunner/main.cpp), which parses a JSON
#               document, prints its value tree, writes it back with
#               StyledWriter and parses that again: the benchmark "jsoncpp",
#               on a document of JSON_N generated records.  Every inline
#               routine of the C++ headers calls the hooks too, so it is also
#               built with -finstrument-functions-exclude-file-list=/usr/include
#               (variants marked "headers excluded"): the flags a user builds a
#               C++ program with decide its overhead (README).
# Each is built four times at the same flags (CFLAGS, default -O2 -g):
#   bare         no instrumentation;
#   empty        -finstrument-functions with benchmarks/empty-hooks.c: what
#                calling the hooks costs, the floor under any such profiler;
#   emptyso      the same hooks in a shared library, called as an
#                instrumented library calls libaprof.so's own (-fno-plt:
#                through the GOT);
#   aprof        -finstrument-functions -fno-plt (pkg-config's instrument
#                variable), linked with -laprof as installed: the hooks'
#                common case in the program (libaprof_hooks.a, called as
#                the empty hooks are, its thread-local block at an offset
#                the linker wrote), the rest of the runtime in libaprof.so;
#   static       the same, with all of libaprof linked in (libaprof.a);
#   gprof        -pg;
#   emptyx, emptyxso, aprofx, staticx   (jsoncpp only) empty, emptyso, aprof
#                and static with
#                the routines of system headers (/usr/include: libstdc++'s
#                templates) not instrumented.
# and run as these variants:
#   bare, empty hooks, empty hooks .so, gprof     the builds;
#   aprof                        the aprof build, cycle counter (the default);
#   aprof sample                 the aprof build, APROF_CLOCK=sample;
#   aprof static, aprof sample static   the static build, both clocks;
#   aprof no heap                the aprof build, APROF_HEAP=0 (allocations
#                                not followed: the hooks' share);
#   aprof sample no heap         the aprof build, APROF_CLOCK=sample and
#                                APROF_HEAP=0: what following the heap costs
#                                in sampling mode (target: at most 1.15x);
#   empty hooks, aprof, aprof sample, aprof sample static, headers excluded
#                                (jsoncpp only) the same on the x builds;
#   uftrace                      uftrace record on the -pg build;
#   callgrind                    valgrind --tool=callgrind on the bare build;
# the last two on a smaller input (they are 10-60 times slower), against the
# bare build on that same input.
#
# Every benchmark runs as paired rounds: in each round the bare build and
# each variant in turn (the order rotated from round to round), so that the
# load on the machine falls on all alike;
# a variant's time is the CPU time (user + system) of the processes it ran,
# which waiting for a core on a busy machine does not inflate, and its ratio
# is the median over the rounds of its time divided by the bare time of its
# round.  Its cost per call is (variant - bare) / calls,
# the calls counted exactly (aprof --stats; the runs are deterministic, so
# every build makes the same calls).  The cycle counter's read cost is
# measured in the same run (benchmarks/clock-cost.c), and aprof's cost
# besides its two reads per call is its cost per call less two reads.
#
# Prints the tables in Markdown and writes them, with the machine, the date
# and the exact commands, to benchmarks/RESULTS.md (in the source tree;
# BENCH_RESULTS overrides).  Progress goes to stderr.
#
# Usage, from the top of a built tree (make bench runs it):
#     sh benchmarks/perf.sh
# Environment:
#   top_builddir, top_srcdir   (defaults: ., and this script's parent)
#   APROF_BENCH_DIR    work directory (default $top_builddir/benchmarks/work);
#                      everything goes under its perf/ (and src/, apt/)
#   BENCH_ROUNDS       paired rounds on the full inputs (default 5)
#   BENCH_SMALL_ROUNDS paired rounds on the small inputs (default 3)
#   BENCH_ONLY         benchmarks to run (default: all, "fib binary-trees
#                      strings parser speedtest1 jsoncpp")
#   BENCH_HEAP_LIVE    0: leave out benchmarks/heap-live.sh (default: run it)
#   CFLAGS             build flags of every variant (default -O2 -g)
#   FIB_N, TREES_N, STRINGS_N, PARSER_N, SQLITE_SIZE, JSON_N  the full inputs,
#   and FIB_SMALL, TREES_SMALL, STRINGS_SMALL, PARSER_SMALL, SQLITE_SMALL,
#   JSON_SMALL
# Needs gcc, g++, make, tclsh (Debian's tcl), valgrind, uftrace, apt-get and
# dpkg-source; tcl, valgrind and uftrace are installed when missing and run
# as root (uftrace and callgrind are left out when they cannot be had).
set -eu

say() { printf '=== %s\n' "$*" >&2; }
die() { printf 'perf.sh: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
APROF=$top_builddir/aprof/aprof
LIBDIR=$top_builddir/runtime/.libs
RESULTS=${BENCH_RESULTS:-$top_srcdir/benchmarks/RESULTS.md}
ROUNDS=${BENCH_ROUNDS:-5}
SMALL_ROUNDS=${BENCH_SMALL_ROUNDS:-3}
BENCHES=${BENCH_ONLY:-fib binary-trees strings parser speedtest1 jsoncpp}
CFLAGS=${CFLAGS:--O2 -g}
FIB_N=${FIB_N:-35}
FIB_SMALL=${FIB_SMALL:-31}
TREES_N=${TREES_N:-14}
TREES_SMALL=${TREES_SMALL:-12}
STRINGS_N=${STRINGS_N:-8}
STRINGS_SMALL=${STRINGS_SMALL:-1}
PARSER_N=${PARSER_N:-4000}
PARSER_SMALL=${PARSER_SMALL:-700}
SQLITE_SIZE=${SQLITE_SIZE:-40}
SQLITE_SMALL=${SQLITE_SMALL:-8}
JSON_N=${JSON_N:-40000}
JSON_SMALL=${JSON_SMALL:-5000}

if [ ! -x "$APROF" ] || [ ! -f "$LIBDIR/libaprof.so" ] || [ ! -f "$top_builddir/runtime/libaprof_hooks.a" ]; then
	die "no aprof/aprof or runtime/.libs/libaprof.so under $top_builddir: run make first (or set top_builddir)"
fi
for tool in gcc g++ make awk; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is needed"
done
WORK=${APROF_BENCH_DIR:-$top_builddir/benchmarks/work}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
P=$WORK/perf
mkdir -p "$P/data" "$P/tools"
: >"$P/commands"
started=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# cmd TEXT: notes a command for RESULTS.md's list.
cmd() { printf '%s\n' "$*" >>"$P/commands"; }

# apt_install PACKAGE: installs a Debian package when root; fails otherwise.
apt_install() {
	[ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
	say "installing $1 (Debian package)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >"$P/apt-$1.log" 2>&1 ||
		{ DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >"$P/apt-$1.log" 2>&1; }
}
command -v tclsh >/dev/null 2>&1 || apt_install tcl || die "tclsh (Debian package tcl) is needed for SQLite's amalgamation"
HAVE_UFTRACE=1
command -v uftrace >/dev/null 2>&1 || apt_install uftrace || HAVE_UFTRACE=0
HAVE_VALGRIND=1
command -v valgrind >/dev/null 2>&1 || apt_install valgrind || HAVE_VALGRIND=0

# ---- sources ------------------------------------------------------------------
. "$here/debian-source.sh"
lua_src() { for d in "$WORK"/src/lua5.4-*/src; do [ -f "$d/lua.c" ] && { echo "$d"; return 0; }; done; return 1; }
sqlite_src() { for d in "$WORK"/src/sqlite3-3.*; do [ -f "$d/test/speedtest1.c" ] && { echo "$d"; return 0; }; done; return 1; }
json_src() { for d in "$WORK"/src/libjsoncpp-*; do [ -f "$d/src/jsontestrunner/main.cpp" ] && { echo "$d"; return 0; }; done; return 1; }
# bench_prog BENCH: the program it runs, lua, sqlite or json.
bench_prog() { case $1 in speedtest1) echo sqlite ;; jsoncpp) echo json ;; *) echo lua ;; esac; }
# uses PROGRAM: whether a benchmark to run needs it (only those are fetched and built).
uses() { for b in $BENCHES; do [ "$(bench_prog "$b")" != "$1" ] || return 0; done; return 1; }
LUASRC= SQLSRC= JSONSRC=
cmd "# sources: Debian bookworm's, through a private apt state (benchmarks/debian-source.sh)"
# source_tree FINDER PACKAGE WHAT: the tree FINDER finds in $WORK/src, fetched with
# apt-get source PACKAGE first if it is not there (WHAT: what FINDER looks for).
source_tree() {
	if ! "$1" >/dev/null; then
		say "fetching Debian's $2 into $WORK/src"
		debian_source "$2" "$WORK" >&2 || die "apt-get source $2 failed"
		"$1" >/dev/null || die "apt-get source $2 left no $3 in $WORK/src"
	fi
	"$1"
}
if uses lua; then
	LUASRC=$(source_tree lua_src lua5.4 "lua5.4-*/src/lua.c") || exit 1
	cmd "apt-get source lua5.4     # $(basename "$(dirname "$LUASRC")")"
fi
if uses sqlite; then
	SQLSRC=$(source_tree sqlite_src sqlite3 "sqlite3-3.*/test/speedtest1.c") || exit 1
	cmd "apt-get source sqlite3    # $(basename "$SQLSRC")"
fi
if uses json; then
	JSONSRC=$(source_tree json_src libjsoncpp "libjsoncpp-*/src/jsontestrunner/main.cpp") || exit 1
	cmd "apt-get source libjsoncpp # $(basename "$JSONSRC")"
fi

# ---- tools ------------------------------------------------------------------------
# aprof and libaprof as they are now, copied, and laid out as installed (the
# linker script as libaprof.so): a rebuild of the tree while the suite runs
# changes nothing in it (the aprof builds run with the copy).
rm -rf "$P/aprof"
mkdir -p "$P/aprof/lib"
cp "$APROF" "$P/aprof/aprof"
cp -P "$LIBDIR"/libaprof.so.* "$LIBDIR"/libaprof.a "$top_builddir/runtime/libaprof_hooks.a" "$P/aprof/lib/"
cp "$top_srcdir/runtime/libaprof.ld" "$P/aprof/lib/libaprof.so"
APROF=$P/aprof/aprof
LIBDIR=$P/aprof/lib
revision=$(cd "$top_srcdir" && git rev-parse --short HEAD 2>/dev/null &&
	git status --porcelain --untracked-files=no -- runtime aprof 2>/dev/null | grep -q . && echo "(runtime or analyser modified)") || true
revision=$(echo $revision)
MEASURE=$P/tools/measure
gcc -O2 -o "$MEASURE" "$here/measure.c" || die "building benchmarks/measure.c failed"
gcc -O2 -o "$P/tools/clock-cost" "$here/clock-cost.c" || die "building benchmarks/clock-cost.c failed"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

# ---- builds -------------------------------------------------------------------------
# variant_flags VARIANT: the compiler flags, then (after a |) the link flags.
# The x builds leave the routines of system headers uninstrumented (jsoncpp).
EMPTY=$P/tools/empty-hooks.o
gcc -O2 -c -o "$EMPTY" "$here/empty-hooks.c" || die "building benchmarks/empty-hooks.c failed"
gcc -O2 -shared -fPIC -o "$P/tools/libemptyhooks.so" "$here/empty-hooks.c" ||
	die "building benchmarks/empty-hooks.c as a shared library failed"
EMPTYSO="-L$P/tools -lemptyhooks -Wl,-rpath,$P/tools"
XFLAGS=-finstrument-functions-exclude-file-list=/usr/include
variant_flags() {
	case $1 in
	bare) echo "$CFLAGS|" ;;
	empty) echo "$CFLAGS -finstrument-functions|$EMPTY" ;;
	emptyso) echo "$CFLAGS -finstrument-functions -fno-plt|$EMPTYSO" ;;
	aprof) echo "$CFLAGS -finstrument-functions -fno-plt|-L$LIBDIR -laprof -Wl,-rpath,$LIBDIR" ;;
	static) echo "$CFLAGS -finstrument-functions|$LIBDIR/libaprof.a -lz" ;;
	gprof) echo "$CFLAGS -pg|" ;;
	emptyx) echo "$CFLAGS -finstrument-functions $XFLAGS|$EMPTY" ;;
	emptyxso) echo "$CFLAGS -finstrument-functions -fno-plt $XFLAGS|$EMPTYSO" ;;
	aprofx) echo "$CFLAGS -finstrument-functions -fno-plt $XFLAGS|-L$LIBDIR -laprof -Wl,-rpath,$LIBDIR" ;;
	staticx) echo "$CFLAGS -finstrument-functions $XFLAGS|$LIBDIR/libaprof.a -lz" ;;
	esac
}
BUILDS="bare empty emptyso aprof static gprof"
XBUILDS="$BUILDS emptyx emptyxso aprofx staticx"

# makefile DIR PROGRAM VPATH EXTRA-CFLAGS OBJS LIBS VARIANT [c++]: writes
# DIR/Makefile (only when it changes, so a second run rebuilds nothing); C, or
# C++ from .cpp files with g++.
makefile() {
	mkdir -p "$1"
	flags=$(variant_flags "$7")
	{
		echo "# generated by benchmarks/perf.sh: $2, $7"
		echo "VPATH = $3"
		if [ "${8:-c}" = c++ ]; then echo "CC = g++"; else echo "CC = gcc"; fi
		echo "CFLAGS = ${flags%%|*} $4"
		echo "LDFLAGS = ${flags#*|}"
		echo "LIBS = $6"
		echo "OBJS = $5"
		# a static build is linked again whenever libaprof.a changes, an aprof
		# build whenever the hooks' common case linked into it does
		echo "$2: \$(OBJS) $(case $7 in static | staticx) echo "$LIBDIR/libaprof.a" ;;
			aprof | aprofx) echo "$LIBDIR/libaprof_hooks.a" ;; esac)"
		# shellcheck disable=SC2016
		printf '\t$(CC) $(CFLAGS) -o $@ $(OBJS) $(LDFLAGS) $(LIBS)\n'
		if [ "${8:-c}" = c++ ]; then echo "%.o: %.cpp Makefile"; else echo "%.o: %.c Makefile"; fi
		# shellcheck disable=SC2016
		printf '\t$(CC) $(CFLAGS) -c -o $@ $<\n'
	} >"$1/Makefile.new"
	if cmp -s "$1/Makefile.new" "$1/Makefile"; then rm "$1/Makefile.new"; else mv "$1/Makefile.new" "$1/Makefile"; fi
}

# Lua, as benchmarks/lua.sh builds it (see there): Lua's own src/*.c but
# luac.c, with the flags of its Makefile's linux target and the two that make
# runs deterministic (a constant string-hash seed, one-line API string cache).
LUA_DEFS="-std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -D'luai_makeseed(L)=0x2545f491u' -DSTRCACHE_N=1 -DSTRCACHE_M=2 -I$P/lua/include"
targets=
if uses lua; then
	lua_multiarch_header "$P/lua/include"
	lua_objs=
	for f in "$LUASRC"/*.c; do
		f=${f##*/}
		[ "$f" = luac.c ] || lua_objs="$lua_objs ${f%.c}.o"
	done
	for v in $BUILDS; do
		makefile "$P/lua/$v" lua "$LUASRC" "$LUA_DEFS" "$lua_objs" "-Wl,-E -lm -ldl" "$v"
		targets="$targets lua/$v"
	done
fi

# SQLite: the amalgamation, made once by SQLite's own build (configure; make
# sqlite3.c, which runs tclsh), then sqlite3.c and speedtest1.c compiled.
AMALG=$P/sqlite/amalgamation
SQL_DEFS="-DSQLITE_OMIT_LOAD_EXTENSION -I$AMALG"
if uses sqlite; then
	if [ ! -f "$AMALG/sqlite3.c" ]; then
		say "making SQLite's amalgamation in $AMALG"
		mkdir -p "$AMALG"
		(cd "$AMALG" && "$SQLSRC/configure" --disable-tcl >configure.log 2>&1 && make sqlite3.c >make.log 2>&1) ||
			die "making sqlite3.c failed: see $AMALG/configure.log and make.log"
	fi
	for v in $BUILDS; do
		makefile "$P/sqlite/$v" speedtest1 "$AMALG:$SQLSRC/test" "$SQL_DEFS" "sqlite3.o speedtest1.o" "-lm -lpthread" "$v"
		targets="$targets sqlite/$v"
	done
fi

# JsonCpp: its library's three sources and its test runner.
JSON_DEFS="-I$JSONSRC/include -I$JSONSRC/src/lib_json"
if uses json; then
	for v in $XBUILDS; do
		makefile "$P/json/$v" jsontestrunner "$JSONSRC/src/lib_json:$JSONSRC/src/jsontestrunner" "$JSON_DEFS" \
			"json_reader.o json_value.o json_writer.o main.o" "" "$v" c++
		targets="$targets json/$v"
	done
fi
# its inputs: JSON_N and JSON_SMALL records (debian-source.sh's jsoncpp_input)
if uses json; then
	jsoncpp_input "$JSON_N" "$P/json/full.json"
	jsoncpp_input "$JSON_SMALL" "$P/json/small.json"
fi

{
	echo "# generated by benchmarks/perf.sh: every build the benchmarks need, in parallel"
	echo "all:$targets"
	for t in $targets; do
		printf '%s:\n\t+$(MAKE) -s -C %s %s\n' "$t" "$t" "$(case $t in lua/*) echo lua ;; sqlite/*) echo speedtest1 ;; json/*) echo jsontestrunner ;; esac)"
	done
	echo ".PHONY: all$targets"
} >"$P/Makefile"
say "building$targets, $CFLAGS (make -j$jobs in $P)"
make -s -C "$P" -j"$jobs" all >&2 || die "a build failed (make -C $P)"
cmd ""
cmd "# builds, through generated Makefiles (benchmarks/work/perf/{lua,sqlite}/VARIANT/Makefile);"
cmd "# each VARIANT's compiler flags | link flags:"
for v in $BUILDS; do
	flags=$(variant_flags "$v")
	cmd "#   $v: ${flags%%|*} | ${flags#*|}"
done
cmd "(lua)    gcc \$CFLAGS $LUA_DEFS -c src/*.c   # all but luac.c"
cmd "(lua)    gcc \$CFLAGS -o lua *.o \$LDFLAGS -Wl,-E -lm -ldl"
cmd "(sqlite) configure --disable-tcl && make sqlite3.c   # the amalgamation, once"
cmd "(sqlite) gcc \$CFLAGS $SQL_DEFS -c sqlite3.c test/speedtest1.c"
cmd "(sqlite) gcc \$CFLAGS -o speedtest1 sqlite3.o speedtest1.o \$LDFLAGS -lm -lpthread"
cmd "(json)   g++ \$CFLAGS $JSON_DEFS -c src/lib_json/*.cpp src/jsontestrunner/main.cpp"
cmd "(json)   g++ \$CFLAGS -o jsontestrunner *.o \$LDFLAGS   # also emptyx, aprofx, staticx: \$CFLAGS $XFLAGS"

# ---- runs -------------------------------------------------------------------------------
# bench_args BENCH full|small: its arguments.
bench_args() {
	case $1:$2 in
	fib:full) echo "fib.lua $FIB_N" ;;
	fib:small) echo "fib.lua $FIB_SMALL" ;;
	binary-trees:full) echo "binary-trees.lua $TREES_N" ;;
	binary-trees:small) echo "binary-trees.lua $TREES_SMALL" ;;
	strings:full) echo "strings.lua $STRINGS_N" ;;
	strings:small) echo "strings.lua $STRINGS_SMALL" ;;
	parser:full) echo "parser.lua $PARSER_N" ;;
	parser:small) echo "parser.lua $PARSER_SMALL" ;;
	speedtest1:full) echo "--size $SQLITE_SIZE --memdb" ;;
	speedtest1:small) echo "--size $SQLITE_SMALL --memdb" ;;
	jsoncpp:full) echo "full.json" ;;
	jsoncpp:small) echo "small.json" ;;
	*) die "no benchmark $1" ;;
	esac
}
exe_name() { case $(bench_prog "$1") in lua) echo lua ;; sqlite) echo speedtest1 ;; json) echo jsontestrunner ;; esac; }
# the build each variant runs
variant_build() {
	case $1 in
	bare | callgrind) echo bare ;;
	empty) echo empty ;;
	emptyso) echo emptyso ;;
	aprof | sample | noheap | snoheap) echo aprof ;;
	static | ssample) echo static ;;
	gprof | uftrace) echo gprof ;;
	emptyx) echo emptyx ;;
	emptyxso) echo emptyxso ;;
	aprofx | samplex) echo aprofx ;;
	ssamplex) echo staticx ;;
	esac
}
variant_label() {
	case $1 in
	bare) echo "bare" ;;
	empty) echo "empty hooks" ;;
	emptyso) echo "empty hooks .so" ;;
	aprof) echo "aprof" ;;
	sample) echo "aprof sample" ;;
	static) echo "aprof static" ;;
	ssample) echo "aprof sample static" ;;
	noheap) echo "aprof no heap" ;;
	snoheap) echo "aprof sample no heap" ;;
	gprof) echo "gprof" ;;
	uftrace) echo "uftrace" ;;
	callgrind) echo "callgrind" ;;
	emptyx) echo "empty hooks, headers excluded" ;;
	emptyxso) echo "empty hooks .so, headers excluded" ;;
	aprofx) echo "aprof, headers excluded" ;;
	samplex) echo "aprof sample, headers excluded" ;;
	ssamplex) echo "aprof sample static, headers excluded" ;;
	esac
}
FULL_VARIANTS="bare empty emptyso aprof sample noheap snoheap static ssample gprof"
X_VARIANTS="emptyx emptyxso aprofx samplex ssamplex"
# full_variants BENCH: the variants run on BENCH's full input.
full_variants() { case $1 in jsoncpp) echo "$FULL_VARIANTS $X_VARIANTS" ;; *) echo "$FULL_VARIANTS" ;; esac; }
SMALL_VARIANTS="bare aprof"
SMALL_ONLY=
[ "$HAVE_UFTRACE" -eq 0 ] || SMALL_ONLY="$SMALL_ONLY uftrace"
[ "$HAVE_VALGRIND" -eq 0 ] || SMALL_ONLY="$SMALL_ONLY callgrind"
SMALL_VARIANTS="$SMALL_VARIANTS$SMALL_ONLY"

# setup_runs BENCH SIZE: a directory per variant with ./lua or ./speedtest1
# (a link to the build) and the script: every variant runs the same command
# line (Lua keeps argv[0] and the script's name in strings, whose lengths
# decide its allocations, hence when its garbage collector runs).
setup_runs() {
	exe=$(exe_name "$1")
	prog=$(bench_prog "$1")
	for v in $(full_variants "$1") $SMALL_VARIANTS; do
		d=$P/run/$1/$2/$v
		rm -rf "$d"
		mkdir -p "$d"
		ln -s "$P/$prog/$(variant_build "$v")/$exe" "$d/$exe"
		[ "$prog" != lua ] || cp "$here/lua/$(bench_args "$1" "$2" | cut -d' ' -f1)" "$d/"
		[ "$prog" != json ] || ln -s "$P/json/$(bench_args "$1" "$2")" "$d/"
	done
}

# charged EXE AMON REPORT: the seconds aprof charged, all threads (--threads'
# table); the report, with aprof's notes on top (exits that matched no entry,
# ...), goes to REPORT.
charged() {
	"$APROF" --threads -b "$1" "$2" >"$3" 2>&1 || die "aprof --threads failed on $2 (see $3)"
	awk '/^Threads:/ { t = 1; next } t && NF == 0 && n { exit } t && $1 ~ /^[0-9]+$/ { s += $(NF - 2); n++ } END { printf "%.6f\n", s }' "$3"
}
size_of() { if [ -d "$1" ]; then du -sb "$1" | cut -f1; elif [ -f "$1" ]; then wc -c <"$1" | tr -d ' '; else echo -; fi; }

# run BENCH SIZE VARIANT ROUND: one timed run, its line in the data file:
#   round variant seconds peak-rss-KiB profile-bytes charged-s analysis-s
run() {
	bench=$1 size=$2 v=$3 round=$4
	d=$P/run/$bench/$size/$v
	exe=./$(exe_name "$bench")
	args=$(bench_args "$bench" "$size")
	rm -rf "$d/amon.out" "$d/gmon.out" "$d/uftrace.data" "$d/callgrind.out" "$d/times"
	# shellcheck disable=SC2086
	case $v in
	sample | ssample | samplex | ssamplex) (cd "$d" && APROF_CLOCK=sample "$MEASURE" times $exe $args >out 2>err) ;;
	noheap) (cd "$d" && APROF_HEAP=0 "$MEASURE" times $exe $args >out 2>err) ;;
	snoheap) (cd "$d" && APROF_CLOCK=sample APROF_HEAP=0 "$MEASURE" times $exe $args >out 2>err) ;;
	uftrace) (cd "$d" && "$MEASURE" times uftrace record -d uftrace.data $exe $args >out 2>err) ;;
	callgrind) (cd "$d" && "$MEASURE" times valgrind --tool=callgrind --callgrind-out-file=callgrind.out \
		$exe $args >out 2>err) ;;
	*) (cd "$d" && "$MEASURE" times $exe $args >out 2>err) ;;
	esac || die "$bench ($size input), $v: the run failed (exit $(cut -d' ' -f3 "$d/times" 2>/dev/null)); see $d/err"
	read -r _ rss _ secs <"$d/times"
	prof=- chg=- ana=-
	case $v in
	aprof | sample | noheap | snoheap | static | ssample | aprofx | samplex | ssamplex)
		prof=$(size_of "$d/amon.out")
		chg=$(charged "$d/$exe" "$d/amon.out" "$d/threads")
		# the calls of the x builds, fewer: their ns/call divide by these
		if [ "$v" = aprofx ] && [ ! -s "$P/data/$bench.$size.statsx" ]; then
			"$APROF" --stats "$d/$exe" "$d/amon.out" >"$P/data/$bench.$size.statsx" 2>/dev/null
		fi
		if [ "$v" = aprof ]; then
			rm -f "$d/times"
			"$MEASURE" "$d/times" "$APROF" -b "$d/$exe" "$d/amon.out" >/dev/null ||
				die "aprof -b failed on $d/amon.out"
			read -r _ _ _ ana <"$d/times"
			if [ ! -s "$P/data/$bench.$size.stats" ]; then
				"$APROF" --stats "$d/$exe" "$d/amon.out" >"$P/data/$bench.$size.stats" 2>/dev/null
				cp "$d/threads" "$P/data/$bench.$size.threads"
			fi
		fi
		;;
	gprof)
		prof=$(size_of "$d/gmon.out")
		# the calls gprof counted (mcount: no inlined routine), once
		if [ ! -s "$P/data/$bench.$size.gcalls" ] && command -v gprof >/dev/null 2>&1; then
			gprof -b -p "$d/$exe" "$d/gmon.out" 2>/dev/null |
				awk 'NF >= 7 && $4 ~ /^[0-9]+$/ { s += $4 } END { print s + 0 }' >"$P/data/$bench.$size.gcalls"
		fi
		;;
	uftrace) prof=$(size_of "$d/uftrace.data") && rm -rf "$d/uftrace.data" ;; # hundreds of MB
	callgrind) prof=$(size_of "$d/callgrind.out") ;;
	esac
	echo "$round $v $secs $rss $prof $chg $ana" >>"$P/data/$bench.$size"
	# the same output as the bare build's (speedtest1 prints its times, padded to their width)
	if [ "$v" != bare ] && [ "$round" -eq 1 ]; then
		sed 's/ *[0-9][0-9]*\.[0-9]*s$//' "$d/out" >"$d/out.cmp"
		sed 's/ *[0-9][0-9]*\.[0-9]*s$//' "$P/run/$bench/$size/bare/out" >"$d/out.bare"
		cmp -s "$d/out.cmp" "$d/out.bare" || die "$bench ($size input), $v: other output than the bare build's (see $d/out)"
	fi
}

# rotate K WORD...: the words from the (K mod their number)-th on, then the
# first ones.  Round R runs the variants rotated by R - 1: on a loaded
# machine the later runs of a round were 2-3% slower, which fell on the
# same variants every round.  Round 1 runs bare first, whose output the
# others' are compared with.
rotate() {
	k=$(($1 % ($# - 1))) && shift
	echo "$@" | awk -v k="$k" '{ for (i = 1; i <= NF; i++) printf "%s%s", $((i + k - 1) % NF + 1), i < NF ? " " : "\n" }'
}

"$P/tools/clock-cost" >"$P/data/clock.1"
for bench in $BENCHES; do
	for size in full small; do
		setup_runs "$bench" "$size"
		rm -f "$P/data/$bench.$size" "$P/data/$bench.$size".*
		if [ "$size" = full ]; then vs=$(full_variants "$bench") n=$ROUNDS; else vs=$SMALL_VARIANTS n=$SMALL_ROUNDS; fi
		say "$bench, $size input ($(bench_args "$bench" "$size")): $n rounds of $vs"
		r=1
		while [ "$r" -le "$n" ]; do
			for v in $(rotate $((r - 1)) $vs); do run "$bench" "$size" "$v" "$r"; done
			r=$((r + 1))
		done
	done
done
# heap tracking on a large live set (benchmarks/heap-live.sh), unless BENCH_HEAP_LIVE=0
rm -f "$P/data/heap-live.txt"
if [ "${BENCH_HEAP_LIVE:-1}" != 0 ]; then
	say "heap-live: $ROUNDS rounds"
	cmd "ROUNDS=$ROUNDS sh benchmarks/heap-live.sh"
	top_builddir=$top_builddir top_srcdir=$top_srcdir ROUNDS=$ROUNDS sh "$here/heap-live.sh" >"$P/data/heap-live.txt" ||
		die "benchmarks/heap-live.sh failed"
fi
"$P/tools/clock-cost" >"$P/data/clock.2"
"$P/tools/clock-cost" >"$P/data/clock.3"
read_ns=$(cat "$P/data/clock."[123] | awk '$1 == "counter" { print $2 }' | sort -n | sed -n 2p)
gettime_ns=$(cat "$P/data/clock."[123] | awk '$1 == "monotonic" { print $2 }' | sort -n | sed -n 2p)

# ---- tables ---------------------------------------------------------------------------------
# summarise BENCH SIZE CALLS [CALLSX]: one line per variant of the data file
# (the x variants' ns/call divide by CALLSX, their own calls):
#   variant median-s ratio ns/call beyond-reads rss-KiB profile-bytes charged/bare analysis-s charged/empty
#   beyond-empty
# (beyond-empty: an aprof variant's ns/call less the empty hooks' in the same
# round, called alike, directly (the x variants' less the x build's): the
# runtime's own work.)
summarise() {
	awk -v calls="$3" -v callsx="${4:-$3}" -v read_ns="$read_ns" '
		function median(a, n,   i, j, t) {
			if (n == 0) return "-"
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		$2 == "bare" { bare[$1] = $3 }
		$2 == "empty" { empty[$1] = $3 }
		$2 == "emptyx" { emptyx[$1] = $3 }
		{ line[++nl] = $0; if (!($2 in seen)) { seen[$2] = 1; order[++nv] = $2 } }
		END {
			for (k = 1; k <= nl; k++) {
				split(line[k], f, " ")
				v = f[2]; i = ++cnt[v]; b = bare[f[1]]
				secs[v, i] = f[3]; ratio[v, i] = f[3] / b
				extra[v, i] = (f[3] - b) / (v ~ /x(so)?$/ ? callsx : calls) * 1e9
				rss[v, i] = f[4]; prof[v, i] = f[5]
				if (f[6] != "-") chg[v, i] = f[6] / b
				if (f[6] != "-" && (f[1] in empty)) chge[v, i] = f[6] / empty[f[1]]
				if (f[7] != "-") ana[v, i] = f[7]
				e = v ~ /x$/ ? emptyx[f[1]] : empty[f[1]]
				if (v ~ /^(aprof|sample|noheap|snoheap|static|ssample)x?$/ && e != "")
					be[v, i] = (f[3] - e) / (v ~ /x$/ ? callsx : calls) * 1e9
			}
			for (o = 1; o <= nv; o++) {
				v = order[o]; n = cnt[v]
				delete a; for (i = 1; i <= n; i++) a[i] = secs[v, i]; s = median(a, n)
				delete a; for (i = 1; i <= n; i++) a[i] = ratio[v, i]; r = median(a, n)
				delete a; for (i = 1; i <= n; i++) a[i] = extra[v, i]; x = median(a, n)
				delete a; for (i = 1; i <= n; i++) a[i] = rss[v, i]; m = median(a, n)
				delete a; for (i = 1; i <= n; i++) a[i] = prof[v, i]; p = prof[v, n]
				delete a; c = 0; for (i = 1; i <= n; i++) if ((v, i) in chg) a[++c] = chg[v, i]; ch = median(a, c)
				delete a; c = 0; for (i = 1; i <= n; i++) if ((v, i) in chge) a[++c] = chge[v, i]; che = median(a, c)
				delete a; c = 0; for (i = 1; i <= n; i++) if ((v, i) in ana) a[++c] = ana[v, i]; an = median(a, c)
				delete a; c = 0; for (i = 1; i <= n; i++) if ((v, i) in be) a[++c] = be[v, i]; bem = median(a, c)
				printf "%s %.4f %.4f %.3f %s %d %s %s %s %s %s\n", v, s, r, x,
					v == "aprof" || v == "static" ? sprintf("%.3f", x - 2 * read_ns) : "-", m, p,
					ch == "-" ? "-" : sprintf("%.4f", ch), an == "-" ? "-" : sprintf("%.3f", an),
					che == "-" ? "-" : sprintf("%.4f", che), bem == "-" ? "-" : sprintf("%.3f", bem)
			}
		}' "$P/data/$1.$2"
}
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$P/data/$1.stats"; }
statx_of() { awk -v k="$2" '$1 == k { print $2 }' "$P/data/$1.statsx" 2>/dev/null; }
human() { # bytes -> KiB/MiB
	awk -v b="$1" 'BEGIN { if (b == "-") print "-"; else if (b < 10240) printf "%d B\n", b;
		else if (b < 10485760) printf "%.1f KiB\n", b / 1024; else printf "%.1f MiB\n", b / 1048576 }'
}
kib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB\n", k / 1024 }'; }

for bench in $BENCHES; do
	for size in full small; do
		calls=$(stat_of "$bench.$size" calls)
		summarise "$bench" "$size" "$calls" "$(statx_of "$bench.$size" calls)" >"$P/data/$bench.$size.summary"
	done
done

# the report, Markdown, to $P/RESULTS.md, then to stdout and $RESULTS
out=$P/RESULTS.md
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
hyper=$(lscpu 2>/dev/null | sed -n 's/^Hypervisor vendor:[[:space:]]*//p' | head -n 1)
clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo ?)
lua_version=$(if [ -n "$LUASRC" ]; then basename "$(dirname "$LUASRC")"; else echo "(not run) Lua"; fi)
sqlite_version=$(if [ -n "$SQLSRC" ]; then basename "$SQLSRC"; else echo "(not run) SQLite"; fi)
elapsed=$(($(date +%s) - started))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
{
	echo "# aprof benchmarks: results"
	echo
	echo "Generated by \`benchmarks/perf.sh\` (\`make bench\`); do not edit: rerun it."
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); suite run time ${elapsed} s; load average $load_start at the start, $load_end at the end"
	echo "- machine: $(nproc) CPUs, $cpu${hyper:+ (virtual machine, $hyper)}; Linux $(uname -r); clock source $clocksource"
	echo "- compiler: $(gcc --version | head -n 1); every build \`$CFLAGS\`"
	echo "- aprof: ${revision:-?} (aprof/aprof and runtime/.libs/libaprof.so, copied at the start)"
	echo "- programs: Debian's $lua_version (the lua interpreter), $sqlite_version (amalgamation + test/speedtest1.c) and $(if [ -n "$JSONSRC" ]; then basename "$JSONSRC"; else echo "(not run) JsonCpp"; fi) (src/lib_json + src/jsontestrunner, C++)"
	echo "- one cycle-counter read (benchmarks/clock-cost.c, median of 3 in this run): $read_ns ns; one clock_gettime(CLOCK_MONOTONIC): $gettime_ns ns"
	echo "- paired rounds: $ROUNDS on the full inputs, $SMALL_ROUNDS on the small ones (uftrace, callgrind)"
	echo
	echo "## Main table"
	echo
	echo "Each variant's time is the CPU time (user + system) of the processes it ran; *x bare* is"
	echo "its ratio to the bare build's (median over the paired rounds of variant / bare in the same"
	echo "round); ns/call = (variant - bare) / calls, calls counted exactly by aprof --stats;"
	echo "*beyond reads* = aprof's ns/call less two counter reads (one per hook); *beyond empty* ="
	echo "an aprof variant's ns/call less *empty hooks*' in the same round, both called directly (-laprof"
	echo "links the hooks' common case into the program; headers excluded: less the empty hooks' built"
	echo "so): the runtime's own work; peak RSS of the largest process;"
	echo "profile = amon.out, gmon.out, uftrace.data or callgrind.out; *charged/bare* = the seconds"
	echo "aprof charged (all threads) over the bare run's time.  uftrace and callgrind run on the"
	echo "small input, against bare on that input."
	echo
	echo "| benchmark | input | variant | time | x bare | ns/call | beyond reads | beyond empty | peak RSS | profile | charged/bare |"
	echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for bench in $BENCHES; do
		for size in full small; do
			calls=$(stat_of "$bench.$size" calls)
			while read -r v s r x beyond rss prof chg _ _ bempty; do
				case $v in bare) rr="1.00" x=- ;; *) rr=$(printf '%.2f' "$r") ;; esac
				printf '| %s | %s | %s | %.3f s | %s | %s | %s | %s | %s | %s | %s |\n' "$bench" \
					"$(bench_args "$bench" "$size" | sed 's/\.lua//; s/ --memdb//; s/--size /size /')" \
					"$(variant_label "$v")" "$s" "${rr}x" "$x" "$beyond" "$bempty" "$(kib "$rss")" "$(human "$prof")" \
					"$(printf '%s' "$chg" | awk '{ if ($1 == "-") print "-"; else printf "%.3f\n", $1 }')"
			done <"$P/data/$bench.$size.summary"
		done
	done
	echo
	echo "## Spivey's Table I, and aprof's analysis time"
	echo
	echo "From \`aprof --stats\` on the aprof run (full input): functions called, calls, contexts"
	echo "(Spivey's states), transitions, history length (average, maximum), profiling memory,"
	echo "amon.out's size; gmon.out's size; the time \`aprof -b exe amon.out > /dev/null\` takes"
	echo "(median over the rounds); *unmatched* = exits that matched no entry on aprof's shadow stack"
	echo "(aprof's warning; each one scans the whole stack and leaves the entry it missed on it);"
	echo "*gprof calls* = the calls in gprof's flat profile, for comparison: mcount is called by"
	echo "routines compiled as such only, the hooks of -finstrument-functions by inlined ones too."
	echo
	echo "| benchmark | functions | calls | contexts | transitions | depth avg | depth max | memory | amon.out | gmon.out | analysis | unmatched | gprof calls |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for bench in $BENCHES; do
		f=$bench.full
		gm=$(awk '$1 == "gprof" { print $7 }' "$P/data/$f.summary")
		an=$(awk '$1 == "aprof" { print $9 }' "$P/data/$f.summary")
		um=$(sed -n 's/^aprof: \([0-9]*\) exits matched no entry.*/\1/p' "$P/data/$f.threads" | head -n 1)
		gc=$(cat "$P/data/$f.gcalls" 2>/dev/null || echo -)
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s s | %s | %s |\n' "$bench" \
			"$(stat_of "$f" functions)" "$(stat_of "$f" calls)" "$(stat_of "$f" contexts)" \
			"$(stat_of "$f" transitions)" "$(stat_of "$f" depth-average)" "$(stat_of "$f" depth-max)" \
			"$(human "$(stat_of "$f" memory-bytes)")" "$(human "$(stat_of "$f" amon-bytes)")" \
			"$(human "$gm")" "$an" "${um:-0}" "$gc"
	done
	echo
	echo "## Time ratios to bare, side by side"
	echo
	printf '| variant |'
	for bench in $BENCHES; do printf ' %s |' "$bench"; done
	printf '\n|---|'
	for bench in $BENCHES; do printf -- '---:|'; done
	echo
	for v in $FULL_VARIANTS $X_VARIANTS $SMALL_ONLY; do
		[ "$v" != bare ] || continue
		case " $FULL_VARIANTS $X_VARIANTS " in *" $v "*) size=full ;; *) size=small ;; esac
		printf '| %s%s |' "$(variant_label "$v")" "$([ "$size" = small ] && echo ' (small input)')"
		for bench in $BENCHES; do
			printf ' %s |' "$(awk -v v="$v" '$1 == v { r = sprintf("%.2fx", $3) } END { print r == "" ? "-" : r }' "$P/data/$bench.$size.summary")"
		done
		echo
	done
	echo
	echo "Reference figures (Zen 4 VM, Lua 5.4 -O2; fib / binary-trees / string-table /"
	echo "recursive-descent): empty hooks 1.21x / 1.55x / 2.00x / 1.21x, gprof 1.25x / 1.83x / 2.55x /"
	echo "1.40x, uftrace 7.5x-34x, callgrind 42x-64x."
	echo
	echo "## Targets"
	echo
	echo "aprof's cost per call less two counter reads at most 3 ns; the time aprof charged within 5%"
	echo "of the bare run's; aprof's sampling mode no slower than gprof; profiling memory (Table I's,"
	echo "contexts and transitions) a few MB, taken as at most 16 MiB (and the peak RSS over bare's)."
	echo "The time charged is also given against the empty-hooks build's run time, in the same round:"
	echo "-finstrument-functions itself makes the program's own code slower (the calls, the registers"
	echo "kept across them), which taking the hooks' own cost off cannot give back."
	echo "Sampling mode's: its own work (*beyond empty*) at most 2.5 ns per call, shared and static;"
	echo "following the heap in sampling mode at most 1.15 times the same run without (APROF_HEAP=0)."
	echo
	echo "| benchmark | beyond reads <= 3 ns | charged within 5% of bare | sample <= gprof | memory a few MB | sample beyond empty <= 2.5 ns | sample / sample no heap <= 1.15x |"
	echo "|---|---|---|---|---|---|---|"
	for bench in $BENCHES; do
		f=$P/data/$bench.full.summary
		beyond=$(awk '$1 == "aprof" { print $5 }' "$f")
		chg=$(awk '$1 == "aprof" { print $8 }' "$f")
		chge=$(awk '$1 == "aprof" { print $10 }' "$f")
		sr=$(awk '$1 == "sample" { print $3 }' "$f")
		ssr=$(awk '$1 == "ssample" { print $3 }' "$f")
		sbeyond=$(awk '$1 == "static" { print $5 }' "$f")
		gr=$(awk '$1 == "gprof" { print $3 }' "$f")
		mem=$(stat_of "$bench.full" memory-bytes)
		rss=$(awk '$1 == "bare" { b = $6 } $1 == "aprof" { a = $6 } $1 == "noheap" { n = $6 }
			END { printf "RSS +%.1f MiB, +%.1f MiB without heap", (a - b) / 1024, (n - b) / 1024 }' "$f")
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$bench" \
			"$(awk -v b="$beyond" -v t="$sbeyond" 'BEGIN { printf "%s %.2f ns (static %.2f ns)", (b <= 3 || t <= 3) ? "yes," : "**no**,", b, t }')" \
			"$(awk -v c="$chg" -v e="$chge" 'BEGIN { d = (c - 1) * 100; printf "%s %+.1f%% (%+.1f%% against empty hooks)", (d <= 5 && d >= -5) ? "yes," : "**no**,", d, (e - 1) * 100 }')" \
			"$(awk -v s="$sr" -v t="$ssr" -v g="$gr" 'BEGIN { printf "%s %.2fx (static %.2fx) vs %.2fx", (s <= g || t <= g) ? "yes," : "**no**,", s, t, g }')" \
			"$(awk -v m="$mem" -v r="$rss" 'BEGIN { printf "%s %.1f MiB (%s)", m <= 16 * 1048576 ? "yes," : "**no**,", m / 1048576, r }')" \
			"$(awk '$1 == "sample" { s = $11 } $1 == "ssample" { t = $11 } $1 == "samplex" { x = $11 } $1 == "ssamplex" { y = $11 }
				END { printf "%s %.2f ns (static %.2f ns)", (s <= 2.5 && t <= 2.5) ? "yes," : "**no**,", s, t
				      if (x != "") printf "; headers excluded %.2f ns (static %.2f ns)", x, y }' "$f")" \
			"$(awk '$1 == "sample" { s = $3 } $1 == "snoheap" { z = $3 }
				END { printf "%s %.2fx", s / z <= 1.15 ? "yes," : "**no**,", s / z }' "$f")"
	done
	echo
	if case " $BENCHES " in *" jsoncpp "*) true ;; *) false ;; esac then
		f=$P/data/jsoncpp.full.summary
		echo "C++ and system headers (jsoncpp): $(stat_of jsoncpp.full calls) calls with every routine"
		echo "instrumented, $(statx_of jsoncpp.full calls) with \`$XFLAGS\`; gprof's mcount counted"
		echo "$(cat "$P/data/jsoncpp.full.gcalls" 2>/dev/null || echo ?).  Sampling against gprof, headers excluded (target: at most 1.25 times gprof's):"
		awk '$1 == "gprof" { g = $3 } $1 == "samplex" { s = $3 } $1 == "ssamplex" { t = $3 }
			END { printf "sample %.2fx, sample static %.2fx, gprof %.2fx: %.2f and %.2f times gprof'"'"'s.\n", s, t, g, s / g, t / g }' "$f"
		echo
	fi
	if [ -s "$P/data/heap-live.txt" ]; then
		echo "## Heap tracking on a real heap"
		echo
		echo "\`benchmarks/heap-live.sh\` ($ROUNDS paired rounds, CPU time of the replacement loop; the"
		echo "targets: at most 25 ns per malloc/free pair beyond bare, at most 16 bytes per live block):"
		echo
		echo '```'
		cat "$P/data/heap-live.txt"
		echo '```'
		echo
	fi
	echo "## Notes"
	echo
	echo "- *aprof* and *aprof sample* follow allocations (the default); *aprof no heap* is the same"
	echo "  build with APROF_HEAP=0; they are linked with -laprof, which puts the hooks' common case in"
	echo "  the program (libaprof_hooks.a) and loads libaprof.so for the rest.  *aprof static* and"
	echo "  *aprof sample static* link all of libaprof.a into the program instead.  *aprof sample*'s"
	echo "  charged time is the CPU time it sampled, the hooks' included: it is not meant to match"
	echo "  bare's."
	echo "- uftrace records the -pg build (through its mcount), callgrind runs the bare build; both on"
	echo "  the small input, against bare on that input, their start-up included (valgrind's alone is"
	echo "  about 0.25 s)."
	echo "- ns/call divides every variant's extra time by aprof's call count: -finstrument-functions"
	echo "  calls the hooks in inlined routines too, so gprof's mcount runs fewer times (Table I's last"
	echo "  column)."
	echo "- The time column is each variant's median time; x bare is the median of the per-round"
	echo "  ratios, which is what load on a shared machine disturbs least."
	echo
	echo "## Commands"
	echo
	echo "Run: \`make bench\`, or from the top of a built tree \`sh benchmarks/perf.sh\` (settings:"
	echo "BENCH_ROUNDS=$ROUNDS BENCH_SMALL_ROUNDS=$SMALL_ROUNDS CFLAGS='$CFLAGS'; see the script's header)."
	echo
	echo '```'
	sed "s|$P/|benchmarks/work/perf/|g; s|$here/|benchmarks/|g; s|$top_builddir/||g; s|$WORK/|benchmarks/work/|g" "$P/commands"
	echo
	echo "# runs, each timed by benchmarks/measure.c (fork, exec, wait4) in its own directory"
	echo "# jsoncpp's inputs: benchmarks/work/perf/json/{full,small}.json, JSON_N=$JSON_N and JSON_SMALL=$JSON_SMALL generated records"
	for bench in $BENCHES; do
		exe=./$(exe_name "$bench")
		echo "# $bench: bare, empty hooks, aprof, gprof: $exe $(bench_args "$bench" full)   (each its build)"
		echo "APROF_CLOCK=sample $exe $(bench_args "$bench" full)    # aprof sample"
		echo "APROF_HEAP=0 $exe $(bench_args "$bench" full)          # aprof no heap"
		[ "$HAVE_UFTRACE" -eq 0 ] || echo "uftrace record -d uftrace.data $exe $(bench_args "$bench" small)   # the -pg build"
		[ "$HAVE_VALGRIND" -eq 0 ] || echo "valgrind --tool=callgrind --callgrind-out-file=callgrind.out $exe $(bench_args "$bench" small)   # the bare build"
	done
	echo "# after each aprof run (EXE: ./lua or ./speedtest1)"
	echo "aprof --threads -b EXE amon.out    # charged: the threads' seconds, summed"
	echo "aprof --stats EXE amon.out         # Table I (first round)"
	echo "aprof -b EXE amon.out > /dev/null  # analysis time"
	echo "gprof -b -p EXE gmon.out           # gprof's calls (first round)"
	echo '```'
	[ "$HAVE_UFTRACE" -eq 1 ] || echo "uftrace could not be had (not installed, not root): left out."
	[ "$HAVE_VALGRIND" -eq 1 ] || echo "valgrind could not be had (not installed, not root): callgrind left out."
} >"$out"
# accuracy.sh's sections, kept as they are.
[ ! -f "$RESULTS" ] || awk '/^## Accuracy/ { keep = 1; print ""; print; next }
	keep && /^## / { keep = 0 } keep' "$RESULTS" >>"$out"
cp "$out" "$RESULTS"
cat "$out"
say "wrote $RESULTS (raw data in $P/data)"
