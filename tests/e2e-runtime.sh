#!/bin/sh
# e2e-runtime.sh -- properties of libaprof itself: only the hooks (and what
# a program's own copy of them reaches: its entries and the thread-local
# block, APROF_ENTRY in runtime/internal.h), the malloc family, the exits it
# watches (exec family, _exit, daemon, longjmp family, __cxa_begin_catch) and
# <aprof.h> are exported, the runtime never calls its own hooks (even built
# with -finstrument-functions), amon.out lands where APROF_OUT says (nothing
# left behind), threads are merged exactly, and hooks before the runtime
# starts or after it has written are safe.
. "$top_srcdir/tests/e2e-lib.sh"

lib="$top_builddir/runtime/.libs/libaprof.so"
v=$(sed -n 's/^#define APROF_VERSION_SYMBOL "\(.*\)"$/\1/p' "$top_builddir/config.h")
# The -pg -mfentry front-end's (x86-64 alone): __fentry__, and what puts
# the real return addresses back for the unwinder and backtrace, and notes
# where a throw's unwinding lands.
fentry_symbols=
[ "$(uname -m)" != x86_64 ] ||
	fentry_symbols="__fentry__ _Unwind_RaiseException _Unwind_Resume _Unwind_Resume_or_Rethrow backtrace pthread_exit"
expect_eq "exported symbols" \
	"$(nm -D --defined-only "$lib" | awk '{ print $3 }' | LC_ALL=C sort | tr '\n' ' ')" \
	"$(for s in _Exit __cxa_begin_catch __cyg_profile_func_enter __cyg_profile_func_exit \
		__longjmp_chk __monstartup _exit _longjmp aligned_alloc aprof_dump aprof_enter_slow_$v \
		aprof_enter_uncached_counted_$v aprof_enter_uncached_sampled_$v \
		aprof_enter_watched_counted_$v aprof_enter_watched_sampled_$v aprof_hooks_enter_$v \
		aprof_hooks_exit_$v aprof_hooks_text_$v aprof_leave_slow_$v aprof_leave_watched_counted_$v \
		aprof_leave_watched_sampled_$v aprof_restart aprof_set_autosave aprof_stop aprof_tls \
		calloc daemon execl execle execlp execv execve execvp execvpe fexecve free longjmp malloc \
		malloc_usable_size memalign posix_memalign pvalloc realloc reallocarray siglongjmp valloc \
		$fentry_symbols; do echo "$s"; done | LC_ALL=C sort | tr '\n' ' ')"
# The runtime calls its hooks only to time them, from calibration_routine
# and calibration_routine_probed (runtime/cost.c), as GCC's code would;
# also when built with -finstrument-functions (tests/libaprof-instrumented).
# hook_callers LIB: the routines of LIB that call or jump to a hook.
hook_callers() {
	objdump -d "$1" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2 }
		fn !~ /@plt>:$/ && /(call|jmp) +[0-9a-f]+ <__cyg_profile_func_(enter|exit)(@plt)?>$/ {
			sub(/\.constprop\.[0-9]+/, "", fn); print fn }' | sort -u | tr -d '\n'
}
expect_eq "routines of the runtime that call the hooks" "$(hook_callers "$lib")" \
	"<calibration_routine>:<calibration_routine_probed>:"
expect_eq "routines of the runtime built with -finstrument-functions that call the hooks" \
	"$(hook_callers "$top_builddir/tests/.libs/libaprof-instrumented.so")" \
	"<calibration_routine>:<calibration_routine_probed>:"

# __fentry__ (x86-64) saves the vector registers only for the slow step:
# its common case, aprof_fentry_enter and the counter's, which it reaches
# by a jump, must use none, nor call anything.
if [ "$(uname -m)" = x86_64 ]; then
	for f in aprof_fentry_enter fentry_enter_counted; do
		objdump -d --no-show-raw-insn "$lib" |
			awk -v n="<$f>:" '/^[0-9a-f]+ <.*>:$/ { f = ($2 == n) } f' >"$WORK/fentry-enter"
		expect_eq "$f disassembled" "$([ -s "$WORK/fentry-enter" ] && echo yes)" yes
		expect_eq "vector registers or calls in $f" \
			"$(grep -cE '%[xyz]mm|call' "$WORK/fentry-enter" || true)" 0
		rm "$WORK/fentry-enter"
	done
fi

profile s-threads
expect_eq "files written" "$(ls "$WORK" | tr '\n' ' ')" "amon.out stdout "
"$APROF" -b "$top_builddir/tests/s-threads" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls worker (4 threads)" "$(flat_calls worker)" 4
expect_eq "flat calls leaf (4 threads and main)" "$(flat_calls leaf)" 4010
graph_entry leaf >"$WORK/leaf"
expect_eq "arc worker -> leaf" "$(arc_field worker in 3 <"$WORK/leaf")" 4000/4010
expect_eq "arc main -> leaf" "$(arc_field main in 3 <"$WORK/leaf")" 10/4010

# Hooks in a constructor (before the runtime starts) and a destructor
# (after amon.out is written) are safe; the constructor's calls count.
profile s-ctor
"$APROF" -b "$top_builddir/tests/s-ctor" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls early (constructor)" "$(flat_calls early)" 3
expect_eq "flat calls work" "$(flat_calls work)" 1

# Without APROF_OUT the profile goes to amon.out in the starting directory.
mkdir "$WORK/cwd"
(cd "$WORK/cwd" && "$top_builddir/tests/s-calls" >/dev/null)
expect_eq "default output" "$(ls "$WORK/cwd")" amon.out
finish
