#!/bin/sh
# e2e-usage.sh -- aprof's --version in the GNU form (GNU Coding Standards:
# name and version, a copyright line, the licence, then the free-software
# and warranty lines), the same for -v.
. "$top_srcdir/tests/e2e-lib.sh"

want=$(sed -n 's/^AC_INIT(\[aprof\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
for opt in --version -v; do
	"$APROF" "$opt" >"$WORK/version" || fail "aprof $opt exits non-zero"
	expect_eq "$opt: line 1" "$(sed -n 1p "$WORK/version")" "aprof $want"
	expect_eq "$opt: line 2 is the copyright" "$(sed -n 2p "$WORK/version" | grep -c '^Copyright (C) [0-9]\{4\} ')" 1
	expect_eq "$opt: the licence" "$(sed -n '3s/^\(License [^:]*\):.*/\1/p' "$WORK/version")" "License GPLv3+"
	expect_eq "$opt: five lines" "$(wc -l <"$WORK/version")" 5
done
finish
