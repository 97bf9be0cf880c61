#!/bin/sh
# e2e-valgrind.sh -- aprof's heap totals against valgrind memcheck's: for
# each program, the bytes aprof says were never freed (the sum over every
# context of alloc_bytes - free_bytes) equal the bytes memcheck reports "in
# use at exit" for the same source built without libaprof; for C programs
# the allocations, frees and bytes allocated equal memcheck's "total heap
# usage" as well, and for C++ programs too: libaprof starts when it is loaded,
# before libstdc++'s constructor allocates.  The programs: mprof's widgets (examples/widgets.c), the
# exact-bytes programs of tests/e2e-heap.sh (s-work, s-heaprec), the leak
# pattern through the whole malloc family (s-leaks), four threads freeing
# each other's blocks (s-heap-threads) and C++'s every operator new
# (s-cxx).  Then memcheck runs the profiled C programs themselves, libaprof's
# wrappers in the path: no error, and aprof's numbers unchanged.  Last, it
# runs the analyser on every report and export: no error, no leak.
#
# Apples to apples:
#  - --run-libc-freeres=no.  Under valgrind glibc frees its own buffers at
#    exit (__libc_freeres: stdio's buffers...), which it never does in a
#    real run; libaprof writes amon.out at exit before any of that, and a
#    buffer stdout allocated is live then.  Without it both count it.
#  - --run-cxx-freeres=no, for the same reason: libstdc++ allocates its
#    emergency exception pool in its own constructor and never frees it in
#    a real run; libaprof, whose constructor runs first (-z initfirst),
#    charges it to <no routine active>, and memcheck counts it in use.
#  - the bare program runs with a shared object holding one thread-local
#    variable preloaded, standing in for libaprof's own, and has one of its
#    own, standing in for the thread-local block of the program's copy of
#    the hooks (runtime/hooks.c): glibc gives each new thread a vector of
#    the modules with TLS (its DTV), malloc'ed, 16 bytes per module, and
#    never frees it while the thread's stack is cached; with a module less,
#    every thread's would be 16 bytes shorter.
#  - stdout goes to a regular file in both runs, so stdio's buffer has the
#    same size.
. "$top_srcdir/tests/e2e-lib.sh"

if ! command -v valgrind >/dev/null 2>&1; then
	echo "skip: no valgrind"
	exit 77
fi

printf '__thread int aprof_tls_stand_in;\n' >"$WORK/tls.c"
${CC:-cc} -shared -fPIC -o "$WORK/libtls.so" "$WORK/tls.c" || fail "cannot build the TLS stand-in"
printf '__thread int aprof_tls_program_stand_in;\n' >"$WORK/tls-program.c"
${CC:-cc} -c -o "$WORK/tls-program.o" "$WORK/tls-program.c" || fail "cannot build the TLS stand-in"

# memcheck_usage FILE ITEM: from memcheck's log FILE, "inuse" (bytes in use
# at exit), "allocs", "frees" or "bytes" (total heap usage), commas dropped.
memcheck_usage() {
	sed -n "s/.*in use at exit: \([0-9,]*\) bytes.*/inuse \1/p
		s/.*total heap usage: \([0-9,]*\) allocs, \([0-9,]*\) frees, \([0-9,]*\) bytes.*/allocs \1\nfrees \2\nbytes \3/p" \
		"$1" | tr -d , | awk -v k="$2" '$1 == k { print $2 }'
}

# compare NAME SOURCE LANG: tests/NAME (profiled) against SOURCE built bare
# (LANG c or c++), run under memcheck.
compare() {
	name=$1 src=$2 lang=$3
	exe="$top_builddir/tests/$name"
	if [ ! -f "$src" ]; then
		echo "skip: $name ($src is not there)"
		return
	fi
	case $lang in
	c) ${CC:-cc} -O0 -g -pthread "$src" "$WORK/tls-program.o" -o "$WORK/$name-bare" ;;
	c++) ${CXX:-c++} -O0 -g -std=c++17 -fsized-deallocation "$src" "$WORK/tls-program.o" \
		-o "$WORK/$name-bare" ;;
	esac || { fail "$name: cannot build it bare"; return; }
	rm -f "$WORK/amon.out"
	profile "$name" || fail "$name: exited $?"
	heap_totals "$exe" "$WORK/amon.out"
	(cd "$WORK" && LD_PRELOAD="$WORK/libtls.so" valgrind --tool=memcheck --leak-check=no \
		--run-libc-freeres=no --run-cxx-freeres=no "./$name-bare" >"$WORK/bare-stdout" \
		2>"$WORK/memcheck") || fail "$name (bare, memcheck): exited $?"
	expect_eq "$name: output, profiled and bare" "$(cat "$WORK/stdout")" "$(cat "$WORK/bare-stdout")"
	expect_eq "$name: kept bytes = memcheck's in use at exit" "$(heap_total kept)" \
		"$(memcheck_usage "$WORK/memcheck" inuse)"
	expect_eq "$name: frees of blocks never seen allocated" "$(heap_total untracked)" 0
	for item in allocs frees bytes; do
		expect_eq "$name: $item = memcheck's total heap usage" "$(heap_total $item)" \
			"$(memcheck_usage "$WORK/memcheck" $item)"
	done
	[ "$lang" = c ] || return 0
	# The profiled program under memcheck: memcheck replaces malloc in every
	# object that defines it unless told to leave user objects alone; then
	# libaprof's wrappers run and memcheck checks their __libc_* calls.
	cp "$WORK/heap" "$WORK/heap.native"
	rm -f "$WORK/amon.out"
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" valgrind -q --error-exitcode=9 --leak-check=no \
		--soname-synonyms=somalloc=nouserintercepts "$exe" >"$WORK/stdout" 2>"$WORK/memcheck") ||
		{ cat "$WORK/memcheck" >&2; fail "$name (profiled, memcheck): exited $?"; }
	heap_totals "$exe" "$WORK/amon.out"
	# All but the peak, which depends on how the threads were scheduled.
	expect_eq "$name (profiled, memcheck): heap numbers but the peak" \
		"$(awk "$no_peak" "$WORK/heap" | cksum)" "$(awk "$no_peak" "$WORK/heap.native" | cksum)"
}
no_peak='$1 != "peak" { if ($1 == "proc") $9 = ""; print }'

compare s-widgets "$top_srcdir/examples/widgets.c" c
compare s-work "$top_srcdir/tests/s-work.c" c
compare s-heaprec "$top_srcdir/tests/s-heaprec.c" c
compare s-leaks "$top_srcdir/tests/s-leaks.c" c
compare s-heap-threads "$top_srcdir/tests/s-heap-threads.c" c
compare s-cxx "$top_srcdir/tests/s-cxx.cc" c++

# The block header under memcheck: every usable byte written, realloc and
# the memalign family's offsets, no read or write outside a block.
(cd "$WORK" && APROF_OUT="$WORK/amon.out" valgrind -q --error-exitcode=9 --leak-check=no \
	--soname-synonyms=somalloc=nouserintercepts "$top_builddir/tests/s-blocks" no-foreign \
	2>"$WORK/memcheck") || { cat "$WORK/memcheck" >&2; fail "s-blocks (profiled, memcheck): exited $?"; }
heap_totals "$top_builddir/tests/s-blocks" "$WORK/amon.out"
expect_eq "s-blocks (memcheck): allocations" "$(heap_proc blocks allocs)" 13
expect_eq "s-blocks (memcheck): bytes" "$(heap_proc blocks bytes)" $((7250 + $(getconf PAGESIZE)))
expect_eq "s-blocks (memcheck): kept" "$(heap_proc blocks kept)" 0

# The leak pattern's own numbers (tests/s-leaks.c's header), exact.
profile s-leaks
heap_totals "$top_builddir/tests/s-leaks" "$WORK/amon.out"
expect_eq "s-leaks: make_node bytes" "$(heap_proc make_node bytes)" 3400
expect_eq "s-leaks: make_node allocations" "$(heap_proc make_node allocs)" 200
expect_eq "s-leaks: make_node kept (the odd names)" "$(heap_proc make_node kept)" 500
expect_eq "s-leaks: list_release bytes (frees only)" "$(heap_proc list_release bytes)" 0
expect_eq "s-leaks: grow_buffer bytes" "$(heap_proc grow_buffer bytes)" 8176
expect_eq "s-leaks: grow_buffer allocations" "$(heap_proc grow_buffer allocs)" 9
expect_eq "s-leaks: grow_buffer kept" "$(heap_proc grow_buffer kept)" 4096
expect_eq "s-leaks: aligned bytes" "$(heap_proc aligned bytes)" 414
expect_eq "s-leaks: aligned allocations" "$(heap_proc aligned allocs)" 4
expect_eq "s-leaks: aligned kept" "$(heap_proc aligned kept)" 148
expect_eq "s-leaks: zeroed bytes" "$(heap_proc zeroed bytes)" 237
expect_eq "s-leaks: zeroed allocations" "$(heap_proc zeroed allocs)" 3
expect_eq "s-leaks: zeroed kept" "$(heap_proc zeroed kept)" 120
expect_eq "s-leaks: main's own kept (stdout's buffer)" "$(heap_proc main kept)" \
	"$(($(heap_total kept) - 4864))"
expect_eq "s-leaks: output" "$(cat "$WORK/stdout")" "leaked 4864"
# The analyser under memcheck, through every stage: each report and export,
# a selection, a sum, a diff.  It frees what it allocates, so a block
# definitely lost at exit is a leak, and an error of any kind fails; a
# block libbfd itself loses is suppressed (tests/valgrind-aprof.supp).
cp "$WORK/amon.out" "$WORK/leaks.amon"
profile s-pqrs 5 && cp "$WORK/amon.out" "$WORK/pqrs5.amon"
profile s-pqrs 9 && cp "$WORK/amon.out" "$WORK/pqrs9.amon"
# aprof_memcheck WHAT ARGS...: aprof ARGS in $WORK under memcheck.
aprof_memcheck() {
	what=$1
	shift
	if (cd "$WORK" && valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=9 --suppressions="$top_srcdir/tests/valgrind-aprof.supp" \
		"$APROF" "$@" >"$WORK/aprof-out" 2>"$WORK/memcheck"); then
		echo "ok: aprof under memcheck: $what"
	else
		cat "$WORK/memcheck" >&2
		fail "aprof under memcheck: $what: exited $?"
	fi
}
leaks="$top_builddir/tests/s-leaks"
pqrs="$top_builddir/tests/s-pqrs"
aprof_memcheck "every report" --heap --types --threads --stats --cycles -S "$leaks" leaks.amon
aprof_memcheck "--format=callgrind" --format=callgrind "$leaks" leaks.amon
aprof_memcheck "--format=json" --format=json "$leaks" leaks.amon
aprof_memcheck "--format=pprof --metric=bytes" --format=pprof --metric=bytes -o leaks.pb.gz \
	"$leaks" leaks.amon
aprof_memcheck "--format=dot --cycles" --format=dot --cycles "$pqrs" pqrs5.amon
aprof_memcheck "--format=folded" --format=folded "$pqrs" pqrs5.amon
aprof_memcheck "-F Q --elide R" -F Q --elide R "$pqrs" pqrs5.amon
aprof_memcheck "-s" -s -o pqrs.sum "$pqrs" pqrs5.amon pqrs9.amon
aprof_memcheck "two profiles, --format=pprof" --format=pprof -o pqrs.pb.gz "$pqrs" pqrs5.amon \
	pqrs9.amon
aprof_memcheck "--diff" --diff=pqrs5.amon "$pqrs" pqrs9.amon
finish
