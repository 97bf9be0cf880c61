#!/bin/sh
# e2e-heap-threads.sh -- allocation profiling with four threads that free
# (and realloc) each other's blocks while they run (tests/s-heap-threads.c):
# every routine's bytes, allocations and kept bytes are exact, blocks
# allocated while the program had one thread (no heap locks) and freed by
# others included, and stay exact
#   - in sampling mode (APROF_CLOCK=sample), where main logs its heap
#     events while it is alone (runtime/heap.c);
#   - with MALLOC_CHECK_=3 and MALLOC_PERTURB_ (glibc's own checks);
#   - under valgrind memcheck with libaprof's wrappers in the path, so every
#     block libaprof hands out and takes back is checked;
#   - under ThreadSanitizer, with the whole runtime built with
#     -fsanitize=thread: no data race in the heap path (heap.c, blocks.c,
#     malloc.c), nor in the writer when main dumps while the threads run,
#     apart from the writer's reads of the hooks' own counters (below),
#     with both clocks.
# The valgrind and TSan parts are skipped, saying so, where the tool is
# missing.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-heap-threads"

# check_exact WHAT: the exact numbers of tests/s-heap-threads.c's header.
check_exact() {
	expect_eq "$1: make_block bytes" "$(heap_proc make_block bytes)" 288000
	expect_eq "$1: make_block allocations" "$(heap_proc make_block allocs)" 8000
	expect_eq "$1: make_block kept (freed by other threads)" "$(heap_proc make_block kept)" 0
	expect_eq "$1: grow_block bytes (realloc of others' blocks)" "$(heap_proc grow_block bytes)" 400000
	expect_eq "$1: grow_block allocations" "$(heap_proc grow_block allocs)" 4000
	expect_eq "$1: grow_block kept" "$(heap_proc grow_block kept)" 0
	expect_eq "$1: consume bytes (frees only)" "$(heap_proc consume bytes)" 0
	expect_eq "$1: leak_block bytes" "$(heap_proc leak_block bytes)" 100150
	expect_eq "$1: leak_block kept" "$(heap_proc leak_block kept)" 100150
	expect_eq "$1: worker bytes while active" "$(heap_proc worker bytes+)" 788150
	expect_eq "$1: worker kept while active" "$(heap_proc worker kept+)" 100150
	expect_eq "$1: make_block calls" "$(heap_proc make_block calls)" 8000
	expect_eq "$1: early_block bytes (main, one thread)" "$(heap_proc early_block bytes)" 25600
	expect_eq "$1: early_block allocations" "$(heap_proc early_block allocs)" 400
	expect_eq "$1: early_block kept (freed by the threads)" "$(heap_proc early_block kept)" 0
}

profile s-heap-threads
expect_eq "output" "$(cat "$WORK/stdout")" "blocks 8000"
heap_totals "$exe" "$WORK/amon.out"
check_exact "plain"
expect_eq "plain: threads" "$(heap_total threads)" 5

# Sampling: main, alone at first, logs its heap events and charges them in
# batches (runtime/heap.c); what is left in its log when the threads start
# is charged before anything else, and the writer charges every log first.
rm -f "$WORK/amon.out"
(cd "$WORK" && APROF_CLOCK=sample APROF_OUT="$WORK/amon.out" "$exe" >"$WORK/stdout") ||
	fail "APROF_CLOCK=sample: s-heap-threads exited $?"
expect_eq "APROF_CLOCK=sample: output" "$(cat "$WORK/stdout")" "blocks 8000"
heap_totals "$exe" "$WORK/amon.out"
check_exact "APROF_CLOCK=sample"

# glibc 2.34 and later honour MALLOC_CHECK_ only with libc_malloc_debug.so
# preloaded, whose malloc would then come before libaprof's and hide every
# allocation from it; MALLOC_CHECK_=3 is kept for older glibc, and
# MALLOC_PERTURB_ (honoured by libc.so itself) fills blocks on malloc and
# free, so a block used after its free, by the program or the runtime, shows.
# The strong check of the heap is memcheck's, below.
rm -f "$WORK/amon.out"
(cd "$WORK" && MALLOC_CHECK_=3 MALLOC_PERTURB_=165 APROF_OUT="$WORK/amon.out" "$exe" >"$WORK/stdout") ||
	fail "MALLOC_CHECK_=3: s-heap-threads exited $?"
heap_totals "$exe" "$WORK/amon.out"
check_exact "MALLOC_CHECK_=3"

# memcheck replaces malloc wherever a program defines it, libaprof
# included, unless told to leave user objects alone (nouserintercepts):
# then libaprof's wrappers run and memcheck checks their __libc_* calls.
if command -v valgrind >/dev/null 2>&1; then
	rm -f "$WORK/amon.out"
	(cd "$WORK" && APROF_OUT="$WORK/amon.out" valgrind -q --error-exitcode=9 --leak-check=no \
		--soname-synonyms=somalloc=nouserintercepts "$exe" >"$WORK/stdout" 2>"$WORK/memcheck") ||
		{ cat "$WORK/memcheck" >&2; fail "memcheck: s-heap-threads exited $?"; }
	heap_totals "$exe" "$WORK/amon.out"
	check_exact "memcheck"
else
	echo "skip: memcheck (no valgrind)"
fi

# ThreadSanitizer.  Linking libaprof.so into a TSan program follows
# nothing: TSan's malloc comes first in the lookup, so libaprof's is never
# called (and if it were, its __libc_* calls would hand out memory TSan
# never saw allocated).  So the runtime's sources are compiled with
# -fsanitize=thread into the program itself, malloc.c with its entry points
# renamed (malloc -> aprof_t_malloc ...) and its real allocator (and
# heap.c's, which gives blocks back) renamed to
# tests/tsan-shim.c's calls of TSan's malloc; the program is compiled with
# the same renames, so its every allocation goes through libaprof's
# wrappers, table and counters, instrumented, over memory TSan knows.
tsan="$WORK/tsan"
mkdir "$tsan"
renames=
for f in malloc calloc realloc reallocarray free posix_memalign aligned_alloc memalign valloc \
	pvalloc malloc_usable_size; do
	renames="$renames -D$f=aprof_t_$f"
done
real=
for f in malloc calloc realloc free memalign valloc pvalloc; do
	real="$real -D__libc_$f=aprof_t_real_$f"
done
TSAN_FLAGS="-fsanitize=thread -O1 -g -pthread"
tsan_build() {
	echo 'int main(void) { return 0; }' >"$tsan/probe.c"
	${CC:-cc} $TSAN_FLAGS "$tsan/probe.c" -o "$tsan/probe" 2>/dev/null && "$tsan/probe" || return 77
	for src in "$top_srcdir"/runtime/*.c "$top_srcdir"/runtime/*.S; do
		o="$tsan/rt-$(basename "$src").o"
		case $src in */malloc.c) extra="$renames $real" ;; */heap.c) extra=$real ;; *) extra= ;; esac
		${CC:-cc} $TSAN_FLAGS -I"$top_builddir" -I"$top_srcdir" -I"$top_srcdir/runtime" \
			$extra -c "$src" -o "$o" || return 1
	done
	${CC:-cc} $TSAN_FLAGS -c "$top_srcdir/tests/tsan-shim.c" -o "$tsan/shim.o" &&
	${CC:-cc} $TSAN_FLAGS -fno-inline -finstrument-functions $renames \
		-c "$top_srcdir/tests/s-heap-threads.c" -o "$tsan/prog.o" &&
	${CC:-cc} $TSAN_FLAGS -o "$tsan/s-heap-threads" "$tsan/prog.o" "$tsan"/rt-*.o "$tsan/shim.o" \
		-lz -ldl
}

# tsan_races FILE: TSan's reports in FILE, one summary line each.  The
# runtime's shared counters are relaxed atomics (runtime/internal.h
# APROF_PUT/APROF_GET) and its tables are locked or published with release
# stores, so any report at all is a bug.
tsan_races() {
	grep '^SUMMARY: ThreadSanitizer' "$1" || true
}

tsan_status=0
tsan_build || tsan_status=$?
if [ "$tsan_status" -eq 77 ]; then
	echo "skip: ThreadSanitizer ($CC cannot build a -fsanitize=thread program)"
elif [ "$tsan_status" -ne 0 ]; then
	fail "ThreadSanitizer build"
else
	for run in "counter run" "counter dump" "sample run" "sample dump"; do
		clock=${run% *} mode=${run#* } f=$(echo "$run" | tr ' ' -)
		rm -f "$WORK/amon.out"
		(cd "$WORK" && APROF_CLOCK=$clock APROF_OUT="$WORK/amon.out" \
			TSAN_OPTIONS="halt_on_error=0 exitcode=0 history_size=7" \
			"$tsan/s-heap-threads" $mode >"$WORK/stdout" 2>"$WORK/tsan-$f") ||
			fail "TSan ($run): exited $?"
		tsan_races "$WORK/tsan-$f" >"$WORK/races-$f"
		if [ -s "$WORK/races-$f" ]; then
			cat "$WORK/tsan-$f" >&2
			fail "TSan ($run): data races in the runtime"
		else
			echo "ok: TSan ($run): no race"
		fi
		expect_eq "TSan ($run): output" "$(cat "$WORK/stdout")" "blocks 8000"
		heap_totals "$tsan/s-heap-threads" "$WORK/amon.out"
		check_exact "TSan ($run)"
	done
fi
finish
