#!/bin/sh
# e2e-link.sh -- where the hooks run.  -laprof, through the linker script
# installed as libaprof.so (runtime/libaprof.ld), links the hooks' common
# case into the program (libaprof_hooks.a) and loads the rest of the
# runtime (libaprof.so.0): the program then has the hooks and the
# thread-local block, which libaprof.so uses.  Linked that way, a program
# and a library it dlopens, each with its own copy of the hooks, keep exact
# counts (the library's copy, whose block libaprof.so does not use, sends
# every call to libaprof.so's hooks); so does a program linked with
# libaprof.so.0 alone (its hooks libaprof.so's) opening the same library,
# and a program without libaprof opening it (libaprof.so then uses the
# library's block, and both stay loaded after dlclose);
# and a program whose copy is of another version than libaprof.so.0 is
# refused at start-up.
. "$top_srcdir/tests/e2e-lib.sh"
# Programs built here with the sanitized libaprof would need the sanitizers' flags too.
if sanitized "programs built here against libaprof"; then exit 77; fi

# The build's runtime, laid out as make install lays it out.
lib="$WORK/lib"
mkdir "$lib"
cp "$top_srcdir/runtime/libaprof.ld" "$lib/libaprof.so"
ln -s "$top_builddir/runtime/libaprof_hooks.a" "$lib/libaprof_hooks.a"
ln -s "$top_builddir/runtime/.libs/libaprof.so.0" "$lib/libaprof.so.0"
cflags="-O0 -g -fno-inline -finstrument-functions -fno-plt"
# shellcheck disable=SC2086
build() { "$CC" $cflags "$@" -ldl -Wl,-rpath,"$lib" || fail "cannot build: $*"; }

build -o "$WORK/prog" "$top_srcdir/tests/s-calls.c" -L"$lib" -laprof
build -o "$WORK/prog-so" "$top_srcdir/tests/s-calls.c" "$lib/libaprof.so.0"
build -o "$WORK/host" "$top_srcdir/tests/s-dlopen.c" -L"$lib" -laprof
build -o "$WORK/host-so" "$top_srcdir/tests/s-dlopen.c" "$lib/libaprof.so.0"
build -shared -fPIC -o "$WORK/plugin.so" "$top_srcdir/tests/s-plugin.c" -L"$lib" -laprof
# A host neither instrumented nor linked with libaprof: libaprof.so.0 comes
# with the library it opens, and uses that library's block.
"$CC" -O0 -g -o "$WORK/host-bare" "$top_srcdir/tests/s-dlopen.c" -ldl || fail "cannot build host-bare"

# symbol_type FILE NAME: nm's type letter for NAME in FILE ('U': undefined,
# 'T' or 't': code), and "exported" if FILE exports it.
symbol_type() {
	nm "$1" | awk -v n="$2" '$NF == n { printf "%s", (NF == 2 ? $1 : $2) }'
	nm -D --defined-only "$1" | awk -v n="$2" '$NF == n { printf " exported" }'
}
expect_eq "-laprof: the program's own hooks" "$(symbol_type "$WORK/prog" __cyg_profile_func_enter)" T
expect_eq "-laprof: the program's own thread-local block" \
	"$(nm "$WORK/prog" | awk '$NF == "aprof_tls" { print $2 }')" D
expect_eq "-laprof: libaprof.so.0 needed" "$(readelf -d "$WORK/prog" | grep -c 'NEEDED.*libaprof\.so\.0')" 1
expect_eq "libaprof.so.0 alone: its hooks" "$(symbol_type "$WORK/prog-so" __cyg_profile_func_enter)" U
expect_eq "libaprof.so.0's hooks" "$(symbol_type "$lib/libaprof.so.0" __cyg_profile_func_enter)" "T exported"
expect_eq "a library linked with -laprof: its own hooks, which its calls find" \
	"$(symbol_type "$WORK/plugin.so" __cyg_profile_func_enter)" t

for p in prog prog-so; do
	for clock in counter sample; do
		rm -f "$WORK/amon.out"
		(cd "$WORK" && APROF_CLOCK=$clock APROF_OUT="$WORK/amon.out" "$WORK/$p" >/dev/null) ||
			fail "$p did not run"
		"$APROF" -b "$WORK/$p" "$WORK/amon.out" >"$WORK/report"
		expect_eq "$p, $clock: flat calls alpha" "$(flat_calls alpha)" 3
		expect_eq "$p, $clock: flat calls beta" "$(flat_calls beta)" 7
		expect_eq "$p, $clock: flat calls leaf" "$(flat_calls leaf)" 41
		graph_entry leaf >"$WORK/leaf"
		expect_eq "$p, $clock: arc beta -> leaf" "$(arc_field beta in 3 <"$WORK/leaf")" 35/41
	done
done

for h in host host-so host-bare; do
	rm -f "$WORK/amon.out"
	(cd "$WORK" && APROF_CLOCK=sample APROF_OUT="$WORK/amon.out" "$WORK/$h" "$WORK/plugin.so" \
		>"$WORK/stdout") || fail "$h did not run"
	# libaprof.so, which stays loaded (-z nodelete), uses host-bare's
	# library's block: ld.so keeps that library loaded too.
	expect_eq "$h: library unloaded" "$(cat "$WORK/stdout")" \
		"unloaded $([ "$h" = host-bare ] && echo no || echo yes)"
	"$APROF" -b "$WORK/$h" "$WORK/amon.out" >"$WORK/report"
	expect_eq "$h: flat calls plugin_run (the library's copy)" "$(flat_calls plugin_run)" 3
	expect_eq "$h: flat calls plugin_leaf (the library's copy)" "$(flat_calls plugin_leaf)" 21
	[ "$h" = host-bare ] && continue
	expect_eq "$h: flat calls call_plugin" "$(flat_calls call_plugin)" 3
	expect_eq "$h: flat calls after_close" "$(flat_calls after_close)" 2
	graph_entry plugin_run >"$WORK/run"
	expect_eq "$h: arc call_plugin -> plugin_run" "$(arc_field call_plugin in 3 <"$WORK/run")" 3/3
done

# libaprof.so.0 of another version: the names of its entries for a
# program's copy of the hooks carry that version (runtime/internal.h), which
# this program's copy does not ask for.
mkdir "$WORK/other"
printf '%s\n' 'void other(void) __asm__("aprof_hooks_enter_0.0.0");' 'void other(void) {}' \
	>"$WORK/other.c"
"$CC" -shared -fPIC -Wl,-soname,libaprof.so.0 -o "$WORK/other/libaprof.so.0" "$WORK/other.c" ||
	fail "cannot build the other version"
# shellcheck disable=SC2086
"$CC" $cflags -o "$WORK/prog-other" "$top_srcdir/tests/s-calls.c" -L"$lib" -laprof \
	-Wl,-rpath,"$WORK/other" || fail "cannot build prog-other"
if (cd "$WORK" && APROF_OUT="$WORK/amon.out" "$WORK/prog-other" >/dev/null 2>"$WORK/stderr"); then
	fail "a program with another version's libaprof.so.0 ran"
fi
expect_eq "another version's libaprof.so.0: refused at start-up" \
	"$(grep -c 'undefined symbol: aprof_[a-z_]*_[0-9]' "$WORK/stderr")" 1
finish
