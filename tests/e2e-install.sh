#!/bin/sh
# e2e-install.sh -- make install DESTDIR=... installs every file a user or a
# distribution needs; the staged aprof.pc, read as if installed where it
# says, gives flags that build a profiled program that starts with no
# LD_LIBRARY_PATH and no ldconfig (Libs' run path), and static_libs one
# with the whole runtime linked in; the README's compiler flags are
# aprof.pc's; make uninstall leaves no file behind.  The installed
# libaprof.so is a linker script, so that -laprof links the hooks' common
# case into the program (libaprof_hooks.a) and loads libaprof.so.0 for the
# rest.
. "$top_srcdir/tests/e2e-lib.sh"
# Programs built here with the sanitized libaprof would need the sanitizers' flags too.
if sanitized "programs built here against libaprof"; then exit 77; fi

stage="$WORK/stage"
# The test runs inside make check: a make of its own, without the jobserver
# of the make that runs it.
submake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@" DESTDIR="$stage" \
		>"$WORK/make.out" 2>&1 || { cat "$WORK/make.out" >&2; fail "make $*"; finish; }
}

submake install
for f in bin/aprof lib/libaprof.so lib/libaprof.so.0 lib/libaprof_hooks.a lib/libaprof.a include/aprof.h pkgconfig/aprof.pc \
	man1/aprof.1 man3/libaprof.3 man5/amon.out.5 amon-format.md; do
	expect_eq "installed */$f" "$(find "$stage" -path "*/$f" | wc -l)" 1
done

pc=$(find "$stage" -name aprof.pc)
# The staged files as if installed: every directory of aprof.pc under
# $stage (prefix, and what is made of it).  No PKG_CONFIG_SYSROOT_DIR: the
# run path must name where the library is.
prefix=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=prefix aprof)
pkgconf() {
	PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-variable=prefix="$stage$prefix" "$@" aprof
}
libdir=$(pkgconf --variable=libdir)
expect_eq "libdir under the stage" "$(test -f "$libdir/libaprof.so.0" && echo yes)" yes
expect_eq "pkg-config --modversion" "$(pkgconf --modversion)" "$(sed -n 's/^Version: //p' "$pc")"
expect_eq "pkg-config --libs: a run path to libdir" \
	"$(pkgconf --libs | tr ' ' '\n' | grep -cx -- "-Wl,-rpath,$libdir")" 1
expect_eq "pkg-config --variable=static_libs: the archive" \
	"$(pkgconf --variable=static_libs | tr ' ' '\n' | grep -cx -- "-l:libaprof.a")" 1

# The README's tutorial compiles with aprof.pc's instrument and
# exclude_headers variables, word for word.
readme_flags=$(sed -n '/^### 1\. Build with the flags/,/^###/p' "$top_srcdir/README.md" |
	sed -n 's/^gcc -O2 -g \(.*\) \\$/\1/p')
expect_eq "README's flags" "$readme_flags" "$(pkgconf --variable=instrument)"
readme_exclude=$(sed -n '/^### 1\. Build with the flags/,/^###/p' "$top_srcdir/README.md" |
	sed -n 's/^    \(-finstrument-functions-exclude-file-list=[^ ]*\) -c .*/\1/p')
expect_eq "README's exclusion" "$readme_exclude" "$(pkgconf --variable=exclude_headers)"

# s-control.c includes <aprof.h> and calls aprof_dump(): the include path and
# the library, as pkg-config gives them, and the instrumentation variables
# (exclude_headers is GCC's only: clang rejects it).
exclude=$(pkgconf --variable=exclude_headers)
echo 'int main(void) { return 0; }' >"$WORK/probe.c"
"$CC" $exclude -c -o "$WORK/probe.o" "$WORK/probe.c" 2>/dev/null || exclude=
# shellcheck disable=SC2046,SC2086
"$CC" -O0 -g -fno-inline $(pkgconf --variable=instrument) $exclude \
	$(pkgconf --cflags) -o "$WORK/prog" "$top_srcdir/tests/s-control.c" $(pkgconf --libs)
# shellcheck disable=SC2046
"$CC" -O0 -g -fno-inline $(pkgconf --variable=instrument) \
	$(pkgconf --cflags) -o "$WORK/prog-static" "$top_srcdir/tests/s-control.c" \
	$(pkgconf --variable=static_libs)
expect_eq "libaprof.so: a linker script" "$(sed -n 's/^GROUP ( \(.*\) )$/\1/p' "$libdir/libaprof.so")" \
	"libaprof_hooks.a libaprof.so.0"
expect_eq "-laprof: the program's own hooks" \
	"$(nm "$WORK/prog" | awk '$NF == "__cyg_profile_func_enter" { print $2 }')" T
expect_eq "-laprof: libaprof.so.0 needed" "$(readelf -d "$WORK/prog" | grep -c 'NEEDED.*libaprof\.so\.0')" 1
expect_eq "-laprof: run path" "$(readelf -d "$WORK/prog" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p')" "$libdir"
expect_eq "-laprof: libaprof.so.0 found in libdir" \
	"$(env -u LD_LIBRARY_PATH ldd "$WORK/prog" | awk '$1 == "libaprof.so.0" { print $3 }')" "$libdir/libaprof.so.0"
expect_eq "static: no libaprof.so needed" "$(readelf -d "$WORK/prog-static" | grep -c 'NEEDED.*libaprof')" 0
for p in prog prog-static; do
	rm -f "$WORK/amon.out"
	# No LD_LIBRARY_PATH: the run path finds libdir.
	(cd "$WORK" && env -u LD_LIBRARY_PATH APROF_OUT="$WORK/amon.out" "$WORK/$p" dump >/dev/null) ||
		fail "$p did not run"
	"$(find "$stage" -path '*/bin/aprof')" -b "$WORK/$p" "$WORK/amon.out" >"$WORK/report"
	expect_eq "$p: flat calls before" "$(flat_calls before)" 1
	expect_eq "$p: flat calls after" "$(flat_calls after)" 1
done

# The -pg -mfentry front-end (x86-64): compiled with the variable's flags,
# linked as above, without them (-pg would link gprof's gmon in).
if [ "$(uname -m)" = x86_64 ]; then
	# shellcheck disable=SC2046
	"$CC" -O0 -g -fno-inline $(pkgconf --variable=instrument_after_inlining) \
		-c -o "$WORK/calls.o" "$top_srcdir/tests/s-calls.c" &&
		"$CC" -o "$WORK/prog-fentry" "$WORK/calls.o" $(pkgconf --libs) || fail "cannot build prog-fentry"
	rm -f "$WORK/amon.out"
	(cd "$WORK" && env -u LD_LIBRARY_PATH APROF_OUT="$WORK/amon.out" ./prog-fentry >/dev/null) ||
		fail "prog-fentry did not run"
	"$(find "$stage" -path '*/bin/aprof')" -b "$WORK/prog-fentry" "$WORK/amon.out" >"$WORK/report"
	expect_eq "prog-fentry: flat calls leaf" "$(flat_calls leaf)" 41
	expect_eq "prog-fentry: flat calls beta" "$(flat_calls beta)" 7
fi

submake uninstall
expect_eq "files left after make uninstall" "$(find "$stage" ! -type d | sed "s|^$stage||")" ""
finish
