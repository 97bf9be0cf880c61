#!/bin/sh
# benchmarks/fentry.sh -- GCC's -pg -mfentry front-end (x86-64) on Lua 5.4,
# SQLite and JsonCpp: its counts and cost against gprof's on the same
# objects, and the return trampoline's share of the cost, per call.
#
# For each program asked for (all three by default), under $APROF_BENCH_DIR
# (default benchmarks/work/), every build at -O2 -g, inlining as it comes,
# three ways: bare; compiled -pg -mfentry and linked with libaprof (not
# -pg); the same objects linked with -pg, gprof's:
#  lua      benchmarks/lua.sh with LUA_FRONT=fentry builds Lua and checks
#           every routine's and arc's count on calls.lua against gprof's;
#           then perf.sh's four Lua workloads at perf.sh's sizes are timed;
#           then the trampoline's cost per call: perf record (the CPU clock)
#           on the aprof build running calls.lua, the share of the samples
#           in the trampoline and its C step (aprof_fentry_return,
#           aprof_fentry_leave: where the routine's mispredicted return
#           lands, and the jump back) times the run's time, over the calls
#           aprof counted;
#  sqlite   SQLite's speedtest1 (Debian's source, perf.sh's amalgamation and
#           flags): the counts on --size SQLITE_SMALL, the time on --size
#           SQLITE_SIZE (perf.sh's sizes);
#  jsoncpp  JsonCpp (Debian's libjsoncpp: C++ on the standard library,
#           exceptions), its library's sources (src/lib_json) with two of
#           its own programs: its unit tests (src/test_lib_json: every
#           interface, and exceptions thrown through the library's frames,
#           caught, and destroyed by the C++ library) and its test runner
#           (src/jsontestrunner, perf.sh's benchmark "jsoncpp": parse a
#           document, print its values, write it back, parse that again).
#           The counts on both (the runner on JSON_SMALL records), the time
#           of the runner on JSON_N records (perf.sh's sizes and document).
# Each timed build runs APROF_BENCH_RUNS times in turn (default 3), the best
# taken: aprof's default mode (sampling) and gprof's wall time as ratios to
# the bare build's, and aprof's over gprof's.  benchmarks/callgraph-compare.py
# compares the counts, and sets aside, and says, the calls gprof cannot
# count (from the C and C++ libraries).
# Writes the figures, Markdown, to benchmarks/FENTRY.md (BENCH_FENTRY
# overrides) and stdout: a header, then one section for each program, each
# saying when it was run, at what load, with which aprof; a run of some
# programs leaves the other sections as they were.
# Usage (from the top of a built tree; needs what lua.sh needs, perf, and
# tclsh for SQLite's amalgamation):
#     sh benchmarks/fentry.sh [lua] [sqlite] [jsoncpp]
set -eu

die() { printf 'fentry.sh: %s\n' "$*" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
OUT=${BENCH_FENTRY:-$top_srcdir/benchmarks/FENTRY.md}
RUNS=${APROF_BENCH_RUNS:-3}
APROF=$top_builddir/aprof/aprof
LIBDIR=$top_builddir/runtime/.libs
PROGRAMS="lua sqlite jsoncpp"
ASKED=${*:-$PROGRAMS}
for p in $ASKED; do
	case " $PROGRAMS " in *" $p "*) ;; *) die "no program $p (lua, sqlite, jsoncpp)" ;; esac
done
[ "$(uname -m)" = x86_64 ] || die "-pg -mfentry is x86-64's alone"
for tool in gcc g++ gprof objcopy python3; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is needed"
done
WORK=${APROF_BENCH_DIR:-$top_builddir/benchmarks/work}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
. "$here/debian-source.sh"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

now() { date +%s%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# best DIR COMMAND...: the best wall time, in us, of RUNS runs of COMMAND in DIR.
best() {
	d=$1
	shift
	b=
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(now)
		(cd "$d" && APROF_OUT="$d/amon.out" "$@" >/dev/null)
		t1=$(now)
		t=$(((t1 - t0) / 1000))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b"
}
# row NAME BARE APROF GPROF: a table row of best times, in us.
row() {
	printf '| %s | %d.%03d s | %sx | %sx | %s |\n' "$1" $(($2 / 1000000)) $(($2 / 1000 % 1000)) \
		"$(ratio "$3" "$2")" "$(ratio "$4" "$2")" "$(ratio "$3" "$4")"
}
# the aprof measured: its commit, and whether the runtime or the analyser
# differ from it
revision=$(git -C "$top_srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)
! git -C "$top_srcdir" status --porcelain --untracked-files=no -- runtime aprof 2>/dev/null | grep -q . ||
	revision="$revision (runtime or analyser modified)"
# section_head TITLE: a section's title and when and how it was run.
section_head() {
	echo "## $1"
	echo
	echo "- run: $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg) at the start;" \
		"aprof $revision; times the best of $RUNS runs"
}
# table: a section's table header.
table() {
	echo
	echo "| workload | bare | aprof x bare | gprof x bare | aprof / gprof |"
	echo "|---|---:|---:|---:|---:|"
}
# counts WHAT COMPARE: a line of how callgraph-compare.py's COMPARE came out.
counts() {
	aside=$(sed -n 's/^calls set aside: \([0-9]*\) spontaneous, .*; \([0-9]*\) on arcs only in aprof$/\1 spontaneous, \2 on arcs only aprof has/p' "$2")
	into=$(sed -n 's/^  (arc only in aprof, into a routine gprof counts no call of: .* -> \(.*\), [0-9]*)$/\1/p' "$2" |
		sort -u | awk '{ printf "%s`%s`", (NR > 1 ? ", " : ""), $0 }')
	echo "- $1 against gprof on the same objects:" \
		"$(sed -n 's/^arcs compared: \([0-9]*\), equal: \([0-9]*\).*/\2 of \1 arcs equal/p' "$2"),"\
		"$(sed -n 's/^routines compared: \([0-9]*\), equal: \([0-9]*\).*/\2 of \1 routines/p' "$2"),"\
		"$(sed -n 's/^calls on the arcs compared: \([0-9]*\)$/\1 calls/p' "$2");" \
		"set aside: $aside${into:+ (into $into)}"
}
# compare NAME APROF_EXE AMON GPROF_EXE GMON DIR: callgraph-compare.py on
# the two runs, into DIR; its summary to stderr, its status to $status.
status=0
compare() {
	c=0
	rm -f "$6/compare"
	python3 "$here/callgraph-compare.py" --same-objects "$APROF" "$2" "$3" "$4" "$5" "$6" >/dev/null 2>&1 || c=$?
	[ -s "$6/compare" ] || die "$1: callgraph-compare.py failed"
	grep -v '^  (' "$6/compare" | sed "s|^|$1: |" >&2
	[ "$c" -eq 0 ] || { echo "$1: aprof and gprof disagree (see $6/compare)" >&2; status=1; }
}

# ---- Lua ------------------------------------------------------------------------------
run_lua() {
	top_builddir=$top_builddir LUA_FRONT=fentry sh "$here/lua.sh" >&2 || die "lua.sh failed"
	run=$WORK/run-fentry
	section_head "Lua 5.4"
	counts "calls.lua" "$run/compare"
	table
	for w in "fib.lua 35" "binary-trees.lua 14" "strings.lua 8" "parser.lua 4000"; do
		# shellcheck disable=SC2086
		b=$(best "$run/bare" ./lua $w)
		# shellcheck disable=SC2086
		a=$(best "$run/aprof" ./lua $w)
		# shellcheck disable=SC2086
		g=$(best "$run/gprof" ./lua $w)
		row "$w" "$b" "$a" "$g"
	done
	(cd "$run/aprof" && perf record -q -e cpu-clock -o perf.data ./lua calls.lua >/dev/null 2>&1)
	t=$(best "$run/aprof" ./lua calls.lua)
	share=$(perf report -i "$run/aprof/perf.data" --stdio --sort symbol 2>/dev/null |
		awk '$2 == "[.]" && ($3 == "aprof_fentry_return" || $3 == "aprof_fentry_leave") { sub(/%/, "", $1); s += $1 }
			END { print s + 0 }')
	calls=$("$top_builddir/tests/amon-threads" "$run/aprof/amon.out" | awk '$1 == "thread" { n += $7 } END { print n }')
	echo
	echo "The return trampoline, on calls.lua ($calls calls, $(ratio "$t" 1000000) s):" \
		"$share% of the samples in aprof_fentry_return and aprof_fentry_leave," \
		"$(awk -v s="$share" -v t="$t" -v n="$calls" 'BEGIN { printf "%.1f", s / 100 * t * 1000 / n }') ns a call."
}

# ---- SQLite ---------------------------------------------------------------------------
# speedtest1 (perf.sh's amalgamation and flags): bare, and its objects
# compiled -pg -mfentry once, linked with libaprof and with -pg.
run_sqlite() {
	size=${SQLITE_SIZE:-40}
	small=${SQLITE_SMALL:-8}
	src() { for d in "$WORK"/src/sqlite3-3.*; do [ -f "$d/test/speedtest1.c" ] && { echo "$d"; return 0; }; done; return 1; }
	if ! SQLSRC=$(src); then
		debian_source sqlite3 "$WORK" >&2 || die "apt-get source sqlite3 failed"
		SQLSRC=$(src) || die "apt-get source sqlite3 left no sqlite3-3.*/test/speedtest1.c"
	fi
	S=$WORK/fentry-sqlite
	AMALG=$S/amalgamation
	if [ ! -f "$AMALG/sqlite3.c" ]; then
		mkdir -p "$AMALG"
		(cd "$AMALG" && "$SQLSRC/configure" --disable-tcl >configure.log 2>&1 && make sqlite3.c >make.log 2>&1) ||
			die "making sqlite3.c failed: see $AMALG/configure.log and make.log"
	fi
	for v in bare fentry; do
		mkdir -p "$S/$v"
		flags="-O2 -g -DSQLITE_OMIT_LOAD_EXTENSION -I$AMALG"
		[ $v = bare ] || flags="$flags -pg -mfentry"
		for f in "$AMALG/sqlite3.c" "$SQLSRC/test/speedtest1.c"; do
			o=$S/$v/$(basename "$f" .c).o
			# shellcheck disable=SC2086
			[ -f "$o" ] && [ "$o" -nt "$f" ] || gcc $flags -c -o "$o" "$f" || die "compiling $f failed"
		done
	done
	gcc -o "$S/bare/speedtest1" "$S/bare/sqlite3.o" "$S/bare/speedtest1.o" -lm -lpthread
	mkdir -p "$S/aprof" "$S/gprof"
	gcc -o "$S/aprof/speedtest1" "$S/fentry/sqlite3.o" "$S/fentry/speedtest1.o" -L"$LIBDIR" \
		-laprof -Wl,-rpath,"$LIBDIR" -lm -lpthread
	gcc -pg -o "$S/gprof/speedtest1" "$S/fentry/sqlite3.o" "$S/fentry/speedtest1.o" -lm -lpthread
	(cd "$S/aprof" && rm -f amon.out && APROF_OUT="$S/aprof/amon.out" ./speedtest1 --size "$small" --memdb >/dev/null)
	(cd "$S/gprof" && rm -f gmon.out && ./speedtest1 --size "$small" --memdb >/dev/null)
	compare speedtest1 "$S/aprof/speedtest1" "$S/aprof/amon.out" "$S/gprof/speedtest1" "$S/gprof/gmon.out" "$S/graphs"
	section_head "SQLite"
	counts "speedtest1 --size $small" "$S/graphs/compare"
	table
	row "speedtest1 --size $size" "$(best "$S/bare" ./speedtest1 --size "$size" --memdb)" \
		"$(best "$S/aprof" ./speedtest1 --size "$size" --memdb)" \
		"$(best "$S/gprof" ./speedtest1 --size "$size" --memdb)"
}

# ---- JsonCpp ------------------------------------------------------------------------
# jsoncpp_objects VARIANT FLAGS OBJECTS: OBJECTS (of json_reader, json_value,
# json_writer: the library; runner: the test runner; tests, jsontest, fuzz:
# the unit tests) compiled with FLAGS in $J/VARIANT, through a generated
# Makefile, so that a second run compiles only what changed.
jsoncpp_objects() {
	mkdir -p "$J/$1"
	{
		echo "# generated by benchmarks/fentry.sh"
		echo "CXX = g++"
		echo "CXXFLAGS = -O2 -g $2 -I$JSONSRC/include -I$JSONSRC/src/lib_json"
		echo "all: $3"
		for o in json_reader:lib_json/json_reader json_value:lib_json/json_value json_writer:lib_json/json_writer \
			runner:jsontestrunner/main tests:test_lib_json/main jsontest:test_lib_json/jsontest \
			fuzz:test_lib_json/fuzz; do
			echo "${o%%:*}.o: $JSONSRC/src/${o#*:}.cpp Makefile"
			# shellcheck disable=SC2016
			printf '\t$(CXX) $(CXXFLAGS) -c -o $@ %s\n' "$JSONSRC/src/${o#*:}.cpp"
		done
	} >"$J/$1/Makefile.new"
	if cmp -s "$J/$1/Makefile.new" "$J/$1/Makefile"; then rm "$J/$1/Makefile.new"; else mv "$J/$1/Makefile.new" "$J/$1/Makefile"; fi
	make -s -C "$J/$1" -j"$jobs" all || die "compiling JsonCpp ($1) failed"
}
run_jsoncpp() {
	size=${JSON_N:-40000}
	small=${JSON_SMALL:-5000}
	src() { for d in "$WORK"/src/libjsoncpp-*; do [ -f "$d/src/jsontestrunner/main.cpp" ] && { echo "$d"; return 0; }; done; return 1; }
	if ! JSONSRC=$(src); then
		debian_source libjsoncpp "$WORK" >&2 || die "apt-get source libjsoncpp failed"
		JSONSRC=$(src) || die "apt-get source libjsoncpp left no libjsoncpp-*/src/jsontestrunner/main.cpp"
	fi
	J=$WORK/fentry-jsoncpp
	lib="json_reader.o json_value.o json_writer.o"
	jsoncpp_objects bare "" "$lib runner.o"
	jsoncpp_objects fentry "-pg -mfentry" "$lib runner.o tests.o jsontest.o fuzz.o"
	# objs VARIANT OBJECT...: the library's objects and OBJECTs, of VARIANT
	objs() {
		_v=$1
		shift
		for o in $lib "$@"; do printf '%s ' "$J/$_v/$o"; done
	}
	mkdir -p "$J/aprof" "$J/gprof"
	# shellcheck disable=SC2046
	g++ -o "$J/bare/jsontestrunner" $(objs bare runner.o) || die "linking JsonCpp's jsontestrunner failed"
	for p in "jsontestrunner runner.o" "test_lib_json tests.o jsontest.o fuzz.o"; do
		# shellcheck disable=SC2046,SC2086
		if ! g++ -o "$J/aprof/${p%% *}" $(objs fentry ${p#* }) -L"$LIBDIR" -laprof -Wl,-rpath,"$LIBDIR" ||
			! g++ -pg -o "$J/gprof/${p%% *}" $(objs fentry ${p#* }); then
			die "linking JsonCpp's ${p%% *} failed"
		fi
	done
	jsoncpp_input "$size" "$J/full.json"
	jsoncpp_input "$small" "$J/small.json"
	# the counts: each program in a directory of its own, for each build
	for p in "test_lib_json" "jsontestrunner small.json"; do
		args=${p#* }
		[ "$args" != "$p" ] || args=
		p=${p%% *}
		for v in aprof gprof; do
			d=$J/counts/$p/$v
			rm -rf "$d"
			mkdir -p "$d"
			ln -s "$J/small.json" "$d/small.json"
			# shellcheck disable=SC2086
			(cd "$d" && APROF_OUT="$d/amon.out" "$J/$v/$p" $args >out 2>&1) || die "$v's $p failed (see $d/out)"
		done
		cmp -s "$J/counts/$p/aprof/out" "$J/counts/$p/gprof/out" || die "$p: the aprof and gprof builds printed other things"
		compare "$p" "$J/aprof/$p" "$J/counts/$p/aprof/amon.out" "$J/gprof/$p" "$J/counts/$p/gprof/gmon.out" \
			"$J/counts/$p/graphs"
	done
	section_head "JsonCpp"
	counts "test_lib_json (its unit tests)" "$J/counts/test_lib_json/graphs/compare"
	counts "jsontestrunner on $small records" "$J/counts/jsontestrunner/graphs/compare"
	table
	for v in bare aprof gprof; do
		mkdir -p "$J/time/$v"
		ln -sf "$J/full.json" "$J/time/$v/full.json"
		ln -sf "$J/$v/jsontestrunner" "$J/time/$v/jsontestrunner"
	done
	row "jsontestrunner, $size records" "$(best "$J/time/bare" ./jsontestrunner full.json)" \
		"$(best "$J/time/aprof" ./jsontestrunner full.json)" "$(best "$J/time/gprof" ./jsontestrunner full.json)"
}

# ---- the page -----------------------------------------------------------------------
# title PROGRAM: its section's title.  Each section is this run's, or the
# page's as it was.
title() { case $1 in lua) echo "Lua 5.4" ;; sqlite) echo "SQLite" ;; jsoncpp) echo "JsonCpp" ;; esac; }
for p in $ASKED; do
	"run_$p" >"$WORK/fentry-$p.md"
done
{
	echo "# The -pg -mfentry front-end: results"
	echo
	echo "Generated by \`benchmarks/fentry.sh\`; do not edit: rerun it (\`sh benchmarks/fentry.sh [lua] [sqlite] [jsoncpp]\`:"
	echo "a run of some programs leaves the others' sections as they were)."
	echo
	echo "- machine: $(getconf _NPROCESSORS_ONLN) CPUs; $(uname -sr)"
	echo "- compiler: $(gcc --version | head -n 1); every build \`-O2 -g\`, aprof's and gprof's the same objects compiled \`-pg -mfentry\`, linked with libaprof and with \`-pg\`"
	echo "- wall time: the best of a section's runs (APROF_BENCH_RUNS), each build in turn; aprof in its default mode (sampling)"
	echo "- counts: every arc and every routine's calls in gprof's call graph against aprof's"
	echo "  (\`benchmarks/callgraph-compare.py\`), but for the calls gprof cannot count, set aside and said:"
	echo "  those from the C and C++ libraries (gprof's mcount drops a call whose return address lies outside"
	echo "  the executable), spontaneous ones in aprof (main, static constructors and destructors) or on arcs"
	echo "  gprof lacks into routines of which it counts no call (an exception's destructor, which"
	echo "  \`__cxa_end_catch\` calls as a catch clause ends)"
	for p in $PROGRAMS; do
		echo
		if [ -f "$WORK/fentry-$p.md" ] && case " $ASKED " in *" $p "*) true ;; *) false ;; esac then
			cat "$WORK/fentry-$p.md"
		elif [ -f "$OUT" ] && grep -q "^## $(title "$p")\$" "$OUT"; then
			awk -v t="## $(title "$p")" '$0 == t { on = 1 } on && /^## / && $0 != t { exit } on' "$OUT" |
				sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
		else
			echo "## $(title "$p")"
			echo
			echo "Not run yet: \`sh benchmarks/fentry.sh $p\`."
		fi
	done
} >"$OUT.new"
mv "$OUT.new" "$OUT"
cat "$OUT"
[ "$status" -eq 0 ] || die "aprof and gprof disagree (above)"
