#!/bin/sh
# e2e-ways.sh -- calls counted through a context's successor ways, which
# hold the counts until a way is reused or the profile is written: with
# tests/s-ways.c, 40 routines called from one context (more than it has
# ways: by the spill it gets after a few rounds), every context's calls and
# direct recursive calls exact in a dump (20 rounds) and after a restart (10
# rounds), with both clocks.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-ways"

# want FIRST N I: "calls+recursive" of main > rounds > rI in rounds FIRST .. FIRST + N - 1.
want() {
	awk -v f="$1" -v n="$2" -v i="$3" 'BEGIN {
		for (r = f; r < f + n; r++) c += 1 + (i + r) % 5
		print c "+" c * (i % 3) }'
}

for clock in counter sample; do
	rm -f "$WORK/amon.out" "$WORK/amon2.out"
	APROF_CLOCK=$clock profile s-ways
	contexts "$exe" "$WORK/amon.out"
	for i in 0 1 2 7 16 23 38 39; do
		expect_eq "$clock: dump: main > rounds > r$i" \
			"$(context_row "main > rounds > r$i")" "$(want 0 20 $i)"
	done
	expect_eq "$clock: dump: calls of r0..r39" \
		"$(awk '$1 ~ /^[0-9]+$/ && $NF ~ /^r[0-9]+$/ { n += $2 } END { print n }' "$WORK/contexts")" \
		"$(awk 'BEGIN { for (i = 0; i < 40; i++) for (r = 0; r < 20; r++) n += 1 + (i + r) % 5; print n }')"
	contexts "$exe" "$WORK/amon2.out"
	for i in 0 1 2 7 16 23 38 39; do
		expect_eq "$clock: restart: main > rounds > r$i" \
			"$(context_row "main > rounds > r$i")" "$(want 20 10 $i)"
	done
done
finish
