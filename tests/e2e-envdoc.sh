#!/bin/sh
# e2e-envdoc.sh -- the runtime's environment variables are documented
# alike in three places: every name the runtime reads (aprof_env calls in
# runtime/*.c) is listed in <aprof.h>'s Environment comment and has its own
# entry in libaprof(3)'s ENVIRONMENT section, and neither lists a name the
# runtime does not read.
. "$top_srcdir/tests/e2e-lib.sh"

# The names read: aprof_env("APROF_X") calls (diag.c's definition excluded).
read_names=$(sed -n 's/.*aprof_env("\(APROF_[A-Z_]*\)").*/\1/p' "$top_srcdir"/runtime/*.c | sort -u)
[ "$(echo "$read_names" | grep -c .)" -ge 5 ] ||
	fail "only $(echo "$read_names" | grep -c .) aprof_env calls found in runtime/*.c"
# aprof.h: the names that open a line of the comment's Environment list.
header_names=$(sed -n '/^\*\* Environment/,/^\*\//s/^\*\*   \(APROF_[A-Z_]*\).*/\1/p' \
	"$top_srcdir/runtime/aprof.h" | sort -u)
# libaprof(3): the .B heading of each entry of ENVIRONMENT.
man_names=$(awk '/^\.SH/ { s = ($2 == "ENVIRONMENT") } s && /^\.B APROF_/ { print $2 }' \
	"$top_srcdir/doc/libaprof.3" | sort -u)

expect_eq "aprof.h lists the variables the runtime reads" "$header_names" "$read_names"
expect_eq "libaprof(3) lists the variables the runtime reads" "$man_names" "$read_names"
finish
