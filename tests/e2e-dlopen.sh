#!/bin/sh
# e2e-dlopen.sh -- tests/s-dlopen.c opens an instrumented library
# (tests/s-plugin.c, a libtool module), calls into it a known number of
# times, dlcloses it (it is unmapped) and exits.  amon.out still records the
# library, and aprof names its routines (not 0x...), with exact counts.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-dlopen"
plugin="$top_builddir/tests/.libs/s-plugin.so"
profile s-dlopen "$plugin"
expect_eq "library unloaded by dlclose" "$(cat "$WORK/stdout")" "unloaded yes"
amon_threads "$WORK/amon.out"
expect_eq "modules recorded" "$(sed -n 's/^modules //p' "$WORK/threads")" 2
expect_eq "the library's record" "$(grep -c "^module .*/s-plugin\.so\$" "$WORK/threads")" 1

"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
expect_eq "flat calls call_plugin" "$(flat_calls call_plugin)" 3
expect_eq "flat calls plugin_run" "$(flat_calls plugin_run)" 3
expect_eq "flat calls plugin_leaf" "$(flat_calls plugin_leaf)" 21
expect_eq "flat calls after_close" "$(flat_calls after_close)" 2
expect_eq "unnamed routines" "$(grep -c '0x[0-9a-f]' "$WORK/report" || true)" 0
graph_entry plugin_run >"$WORK/run"
expect_eq "arc call_plugin -> plugin_run" "$(arc_field call_plugin in 3 <"$WORK/run")" 3/3
expect_eq "arc plugin_run -> plugin_leaf" "$(arc_field plugin_leaf out 3 <"$WORK/run")" 21/21
contexts "$exe" "$WORK/amon.out"
expect_eq "context main > call_plugin > plugin_run > plugin_leaf" \
	"$(context_row 'main > call_plugin > plugin_run > plugin_leaf')" "21+0"
expect_eq "context main > after_close" "$(context_row 'main > after_close')" "2+0"
finish
