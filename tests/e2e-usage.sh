#!/bin/sh
# e2e-usage.sh -- aprof's --version in the GNU form (GNU Coding Standards:
# name and version, a copyright line, the licence, then the free-software
# and warranty lines), the same for -v; --help's groups, gprof's manual's
# (output, analysis, miscellaneous options); every long option aprof takes
# (aprof/options.c's table) is in --help, and every one --help names is
# explained in aprof(1).
. "$top_srcdir/tests/e2e-lib.sh"

want=$(sed -n 's/^AC_INIT(\[aprof\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
for opt in --version -v; do
	"$APROF" "$opt" >"$WORK/version" || fail "aprof $opt exits non-zero"
	expect_eq "$opt: line 1" "$(sed -n 1p "$WORK/version")" "aprof $want"
	expect_eq "$opt: line 2 is the copyright" "$(sed -n 2p "$WORK/version" | grep -c '^Copyright (C) [0-9]\{4\} ')" 1
	expect_eq "$opt: the licence" "$(sed -n '3s/^\(License [^:]*\):.*/\1/p' "$WORK/version")" "License GPLv3+"
	expect_eq "$opt: five lines" "$(wc -l <"$WORK/version")" 5
done
"$APROF" --help >"$WORK/help" || fail "aprof --help exits non-zero"
expect_eq "--help: the groups, in gprof's order" \
	"$(sed -n 's/^\(Output\|Analysis\|Miscellaneous\) options.*/\1/p' "$WORK/help" | tr '\n' ' ')" \
	"Output Analysis Miscellaneous "
options=$(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", [a-z_]*_argument,.*/\1/p' "$top_srcdir/aprof/options.c")
[ "$(echo "$options" | grep -c .)" -ge 20 ] || fail "only $(echo "$options" | grep -c .) long options found in options.c"
for o in $options; do
	grep -q -- "--$o\b\|--\[no-\]${o#no-}\b" "$WORK/help" || fail "--$o is not in --help"
	grep -qF -- "$(printf '%s' "--$o" | sed 's/-/\\-/g')" "$top_srcdir/doc/aprof.1" ||
		fail "--$o is not in aprof.1"
done
finish
