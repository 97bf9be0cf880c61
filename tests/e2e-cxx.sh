#!/bin/sh
# e2e-cxx.sh -- C++ allocation (tests/s-cxx.cc): every form of operator new
# is charged to the routine that called it, with the bytes libstdc++ asks
# of the malloc family, and every form of operator delete (sized, aligned,
# sized aligned, nothrow, array) is seen: each routine that deletes what it
# allocated keeps exactly 0 bytes.  Growth of std::vector and std::string
# is charged below the routine that grows them, in libstdc++'s templates,
# and equals what the program counts from capacity().
. "$top_srcdir/tests/e2e-lib.sh"

profile s-cxx
heap_totals "$top_builddir/tests/s-cxx" "$WORK/amon.out"

# name bytes allocations: kept must be 0 for all of these.
while read -r name bytes allocs; do
	expect_eq "$name: bytes" "$(heap_proc "$name" bytes)" "$bytes"
	expect_eq "$name: allocations" "$(heap_proc "$name" allocs)" "$allocs"
	expect_eq "$name: kept (every delete seen)" "$(heap_proc "$name" kept)" 0
done <<'EOF'
scalar_new() 400 10
array_new() 1208 2
explicit_sized() 200 2
aligned_new() 1152 4
nothrow_new() 660 4
EOF
expect_eq "leak_some(): bytes" "$(heap_proc "leak_some()" bytes)" 170
expect_eq "leak_some(): kept" "$(heap_proc "leak_some()" kept)" 170
expect_eq "Widget::Widget(): calls" "$(heap_proc "Widget::Widget()" calls)" 19

# The program's own counts of its containers' allocations.
set -- $(awk '$1 == "vector" { print $2, $3 }' "$WORK/stdout")
expect_eq "vector growth: a known policy (doubling from 1)" "$1 $2" "16376 11"
vector=grow_vector\(unsigned\ long\*,\ unsigned\ long\*\)
expect_eq "grow_vector: bytes while active" "$(heap_proc "$vector" bytes+)" "$1"
expect_eq "grow_vector: allocations while active" "$(heap_proc "$vector" allocs+)" "$2"
expect_eq "grow_vector: kept while active" "$(heap_proc "$vector" kept+)" 0
set -- $(awk '$1 == "string" { print $2, $3 }' "$WORK/stdout")
string=grow_string\(unsigned\ long\*,\ unsigned\ long\*\)
expect_eq "grow_string: bytes while active" "$(heap_proc "$string" bytes+)" "$1"
expect_eq "grow_string: allocations while active" "$(heap_proc "$string" allocs+)" "$2"
expect_eq "grow_string: kept while active" "$(heap_proc "$string" kept+)" 0

# All that main kept besides leak_some's is stdout's buffer, allocated by
# printf in main itself; no free went unseen.  Before main, with no routine
# active, libstdc++'s constructor allocated its emergency exception pool:
# one block, never freed (libaprof's constructor runs first: -z initfirst).
set -- $(awk '$1 == "root" { print $2, $3, $4 }' "$WORK/heap")
expect_eq "no routine active: libstdc++'s pool, one block kept" "$2 $3" "1 $1"
expect_eq "main: kept while active, and the pool" "$(($(heap_proc main kept+) + $3))" \
	"$(heap_total kept)"
expect_eq "main: kept by routines below it" \
	"$(($(heap_proc main kept+) - $(heap_proc main kept)))" 170
expect_eq "frees of blocks never seen allocated" "$(heap_total untracked)" 0

# At -O2 std::string's members, instantiated in libstdc++ (extern template)
# and inlined in the program, pass libstdc++'s addresses to the hooks: its
# dynamic symbols name every one, so its missing symbol table (Debian strips
# it) is not worth a warning.
libs="$top_builddir/runtime/.libs"
${CXX:-c++} -O2 -g -finstrument-functions -std=c++17 -fsized-deallocation \
	-o "$WORK/s-cxx-O2" "$top_srcdir/tests/s-cxx.cc" -L"$libs" -laprof -Wl,-rpath,"$libs" ||
	fail "cannot build s-cxx at -O2"
(cd "$WORK" && APROF_OUT="$WORK/amon.out" "$WORK/s-cxx-O2" >/dev/null)
amon_threads "$WORK/amon.out"
expect_eq "-O2: libstdc++ holds routines of the profile" \
	"$(grep -c '^module .*/libstdc++' "$WORK/threads")" 1
"$APROF" -b "$WORK/s-cxx-O2" "$WORK/amon.out" >"$WORK/report" 2>"$WORK/err"
expect_eq "-O2: no warning" "$(cat "$WORK/err")" ""
expect_eq "-O2: no routine left unnamed" "$(grep -c '0x[0-9a-f]* in ' "$WORK/report" || true)" 0
finish
