#!/bin/sh
# e2e-pie.sh -- tests/s-calls.c built position-independent (tests/s-pie) and
# not (tests/s-nopie): the runtime records the load bias (0 without PIE),
# and aprof resolves every name with the same exact counts either way.
. "$top_srcdir/tests/e2e-lib.sh"

for build in s-pie s-nopie; do
	exe="$top_builddir/tests/$build"
	type=$(LC_ALL=C readelf -h "$exe" | sed -n 's/^ *Type: *\([A-Z]*\).*/\1/p')
	if [ $build = s-pie ]; then want=DYN; else want=EXEC; fi
	expect_eq "$build: ELF type" "$type" $want
	profile $build
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "$build: flat calls main" "$(flat_calls main)" 1
	expect_eq "$build: flat calls alpha" "$(flat_calls alpha)" 3
	expect_eq "$build: flat calls beta" "$(flat_calls beta)" 7
	expect_eq "$build: flat calls leaf" "$(flat_calls leaf)" 41
	expect_eq "$build: flat calls fact" "$(flat_calls fact)" 1
	expect_eq "$build: unnamed routines" "$(grep -c '0x[0-9a-f]' "$WORK/report" || true)" 0
	graph_entry leaf >"$WORK/leaf"
	expect_eq "$build: arc alpha -> leaf" "$(arc_field alpha in 3 <"$WORK/leaf")" 6/41
	expect_eq "$build: arc beta -> leaf" "$(arc_field beta in 3 <"$WORK/leaf")" 35/41
	contexts "$exe" "$WORK/amon.out"
	expect_eq "$build: context main > fact" "$(context_row 'main > fact')" "1+5"
	expect_eq "$build: contexts" "$(context_count)" 7
	# The whole listing, times aside, is the same for both builds.
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 { $4 = ""; print }' "$WORK/contexts" >"$WORK/$build.rows"
done
expect_eq "same contexts, same counts" \
	"$(cmp -s "$WORK/s-pie.rows" "$WORK/s-nopie.rows" && echo same || echo different)" same
finish
