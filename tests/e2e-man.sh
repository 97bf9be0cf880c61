#!/bin/sh
# e2e-man.sh -- the manual pages render with groff -ww -z -man (every
# warning on, output thrown away) without a word; amon.out(5) names every
# field of runtime/amon.h's structures and the format's current version, as
# doc/amon-format.md does, so a change of the format that leaves them
# behind fails here, as do sizes of its structures that are no longer
# the compiler's.
. "$top_srcdir/tests/e2e-lib.sh"

command -v groff >/dev/null || { echo "skip: no groff (Debian package groff-base)"; exit 77; }
for page in aprof.1 libaprof.3 amon.out.5; do
	groff -ww -z -man "$top_srcdir/doc/$page" >"$WORK/groff" 2>&1 || echo "groff failed" >>"$WORK/groff"
	expect_eq "groff -ww -z -man $page says nothing" "$(cat "$WORK/groff")" ""
done

amon_h="$top_srcdir/runtime/amon.h"
# The members of amon.h's structures: "type name[, name][[n]];" lines
# between "struct amon_X {" and "};" (not the inline coders' variables).
fields=$(sed -n '/^struct amon_[a-z_]* {/,/^};/ s/^[[:space:]]*\(uint[0-9]*_t\|char\|double\)[[:space:]]\{1,\}\([a-z_0-9, ]*\).*;.*/\2/p' "$amon_h" |
	tr ',' '\n' | sed 's/\[.*//; s/[[:space:]]//g' | sort -u)
[ "$(echo "$fields" | grep -c .)" -ge 40 ] || fail "only $(echo "$fields" | grep -c .) fields found in amon.h"
for f in $fields; do
	[ "$f" = pad ] && continue
	grep -q "\\\\fB$f\\\\fR\|^\.BR* .*\\b$f\\b\|\\\\fI$f\\\\fR" "$top_srcdir/doc/amon.out.5" ||
		fail "amon.out.5 does not describe $f (runtime/amon.h)"
	grep -q "\`$f\`\|\`$f\[" "$top_srcdir/doc/amon-format.md" ||
		fail "amon-format.md does not describe $f (runtime/amon.h)"
done
# The sizes amon.out.5 gives ("struct amon_X ... N bytes") are the compiler's.
sed -n 's/.*struct \(amon_[a-z_]*\)\(\\fR\)\{0,1\}[ ,(]*\([0-9][0-9]*\) bytes.*/\1 \3/p' \
	"$top_srcdir/doc/amon.out.5" >"$WORK/sizes"
expect_eq "amon.out.5 gives the sizes of the six structures" "$(wc -l <"$WORK/sizes")" 6
{
	echo '#include <stdio.h>'
	echo '#include "amon.h"'
	echo 'int main(void) {'
	while read -r name bytes; do
		printf '\tprintf("%s %%zu\\n", sizeof(struct %s));\n' "$name" "$name"
	done <"$WORK/sizes"
	echo '	return 0; }'
} >"$WORK/sizes.c"
"$CC" -I"$top_srcdir/runtime" -o "$WORK/sizes-of" "$WORK/sizes.c" || fail "sizes.c does not build"
expect_eq "amon.out.5's sizes" "$("$WORK/sizes-of")" "$(cat "$WORK/sizes")"
version=$(sed -n 's/^#define AMON_VERSION \([0-9]*\).*/\1/p' "$amon_h")
expect_eq "amon.out.5 lists version $version" \
	"$(awk -v v="$version" '/^\.SH VERSIONS/ { s = 1 } s && prev ~ /^\.TP/ && $0 == v { print v } { prev = $0 }' \
		"$top_srcdir/doc/amon.out.5")" "$version"
expect_eq "amon-format.md is of version $version" \
	"$(sed -n '1s/.*(version \([0-9]*\)).*/\1/p' "$top_srcdir/doc/amon-format.md")" "$version"
finish
