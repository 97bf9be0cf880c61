#!/bin/sh
# e2e-hotpath.sh -- the hooks' common case, as compiled, keeps the hot
# path's invariants (doc/HACKING.md): __cyg_profile_func_enter and
# __cyg_profile_func_exit, in libaprof.so and in the program's copy
# (libaprof_hooks.a), contain no call (every way out of the common case is
# a tail call, a jmp, to a slow path), no system call, no division and no
# locked (atomic) instruction (xchg with memory is one; xchg %ax,%ax is a
# nop).  x86-64 only: the instructions are
# objdump's names for it.
. "$top_srcdir/tests/e2e-lib.sh"

command -v objdump >/dev/null || { echo "skip: no objdump"; exit 77; }
[ "$(uname -m)" = x86_64 ] || { echo "skip: not x86-64"; exit 77; }
if sanitized "the sanitizers' checks add calls to every routine"; then exit 77; fi
# Unoptimised, the inline steps are calls: the invariants hold of what ships.
cflags=$(sed -n 's/^CFLAGS = //p' "$top_builddir/Makefile")
case " $cflags " in
*" -O0 "* | *" -O "*) echo "skip: built with CFLAGS='$cflags'"; exit 77 ;;
*" -O"[1-3sz]*" "* | *" -Ofast "*) ;;
*) echo "skip: built with CFLAGS='$cflags', without optimisation"; exit 77 ;;
esac

# hook_body FILE NAME: the instructions of routine NAME in FILE, one a line.
hook_body() {
	objdump -d --no-show-raw-insn "$1" |
		awk -v f="<$2>:" '$2 == f { p = 1; next } p && /^$/ { exit } p { $1 = ""; print }'
}

for file in "$top_builddir/runtime/.libs/libaprof.so" "$top_builddir/runtime/libaprof_hooks.a"; do
	for hook in __cyg_profile_func_enter __cyg_profile_func_exit; do
		hook_body "$file" "$hook" >"$WORK/body"
		what="${file##*/} $hook"
		[ "$(grep -c . "$WORK/body")" -ge 10 ] || fail "$what: not found"
		expect_eq "$what: calls, system calls, divisions, locked instructions" \
			"$(grep -E '^ *(call|syscall|sysenter|int|i?div[bwlq]?|lock|cmpxchg)|^ *xchg.*\(' "$WORK/body" |
			   tr -s ' ' | tr '\n' ';')" ""
	done
done
finish
