#!/bin/sh
# e2e-html.sh -- aprof --format=html in a real browser: Debian's chromium,
# headless, loads the page of s-jobs through the DevTools protocol
# (tests/html-check.py) and the page's self-test clicks, searches and
# switches as a user would.  Checked: the page is one file that loads
# nothing; no console error; the root and a leaf frame show their exact
# calls; clicking a frame zooms it to the full width and Escape zooms back;
# the sandwich of share lists its exact callers; '/' focuses the search,
# which finds share and sums its share; focus and exclude keep the calls
# -F and -E keep; the flat table has the text report's numbers; the metric
# switch makes widths the allocated bytes; with --diff, frames carry the
# exact change and red, white or blue; on s-pqrs, recursion merged keeps
# each routine once per path with the flat profile's calls.
# Skipped (77) only when chromium is not installed.
. "$top_srcdir/tests/e2e-lib.sh"

CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null 2>&1 || { echo "SKIP: no chromium (Debian package chromium)"; exit 77; }

J="$top_builddir/tests/s-jobs"
profile s-jobs abc
"$APROF" --format=html -o "$WORK/report.html" "$J" "$WORK/amon.out"
"$APROF" --format=json -o "$WORK/report.json" "$J" "$WORK/amon.out"
"$APROF" -b "$J" "$WORK/amon.out" >"$WORK/report"

# ---- self-contained: nothing fetched, every script inline ----
expect_eq "external scripts, styles or images" \
	"$(grep -Eci '<(script|img|link|iframe)[^>]*(src|href)=' "$WORK/report.html" || true)" 0
expect_eq "data blocks" "$(grep -c '<script type="application/json" id="aprof-data">' "$WORK/report.html")" 1

# ---- the browser ----
python3 "$top_srcdir/tests/html-check.py" "$CHROMIUM" "$WORK/report.html" \
	'?leaf=main;run;big;share&zoom=main;run;small&widths=main;run;keep,main;run;big' >"$WORK/seen.json"

# seen KEY...: the values the page's self-test saw, one line "KEY VALUE" each
# (see selftest in aprof/export/html/report.js); shares rounded to 4 decimals.
python3 - "$WORK/seen.json" "$WORK/report.json" >"$WORK/seen" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
j = json.load(open(sys.argv[2]))
s = o['selftest'] or {}
out = {
    'console_errors': len(o['console_errors']) + len(s.get('errors', ['no self-test'])),
    'main_calls': s['main']['calls'], 'main_title_calls': s['main']['title'].split('\n')[1],
    'leaf_calls': s['leaf']['calls'], 'leaf_title_calls': s['leaf']['title'].split('\n')[1],
    'leaf_label': s['leaf']['label'],
    'zoom_before': round(s['beforeZoom']['share'], 4), 'zoom_after': round(s['afterZoom']['share'], 4),
    'zoom_escape': round(s['afterEscape']['share'], 4),
    'sandwich': ' '.join('%s:%d' % (n, c) for n, c in sorted(s['sandwich']['callers'])),
    'sandwich_graph': ' '.join('%s:%d' % (p, c) for p, c, t in sorted(s['sandwich']['callerFrames'])
                               if p.count(';') == 0 and p != ''),
    'sandwich_graph_root': s['sandwich']['callerFrames'][0][1],
    'sandwich_callee_root': s['sandwich']['calleeRoot'],
    'sandwich_closed': s['sandwichClosed'], 'slash_focus': s['slashFocus'],
    'search_frames': s['search']['frames'], 'search_hits': s['search']['hits'],
    'search_share': round(s['search']['share'], 4),
    'flat_by_calls': s['flatByCalls'],
    'focus_root': s['focus']['root'], 'focus_big': s['focus']['big'] is not None,
    'exclude_root': s['exclude']['root'], 'exclude_small': s['exclude']['small'] is not None,
    'reset_root': s['reset'],
    'metrics': ','.join(s['metrics']),
}
for r in s['flat']:
    out['flat_self_' + r['name']] = r['self']
    out['flat_calls_' + r['name']] = r['calls']
# Widths: the frame's share of the root frame against the exact share of the
# contexts' bytes, off by how many pixels of the drawn width.
total = j['metadata']['totals']['bytes']
for path, bytes_ in (('main;run;keep', 192), ('main;run;big', 9000)):
    for metric in ('calls', 'bytes'):
        w = s[metric][path]
        out['px_off_%s_%s' % (metric, path)] = round(abs(w['share'] - bytes_ / total) * s['chartWidth'])
# --types' rows as "TYPE bytes allocs avg kept peak" and "bytes from HISTORY".
types = []
for row in s['types']:
    cells = [c.replace(',', '') for c in row.split(' | ')]
    types.append(' '.join(cells[6:] + cells[0:1] + cells[2:6]) if len(cells) == 7 else ' '.join(cells))
out['types'] = '; '.join(types)
for k, v in out.items():
    print(k, v)
PY
seen() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$WORK/seen"; }

expect_eq "console errors" "$(seen console_errors)" 0
# Known counts (tests/s-jobs.c): main once, share 10 times from big, 10 from small.
expect_eq "main frame calls" "$(seen main_calls)" 1
expect_eq "main frame tooltip" "$(seen main_title_calls)" "calls 1"
expect_eq "leaf main;run;big;share calls" "$(seen leaf_calls)" 10
expect_eq "leaf tooltip" "$(seen leaf_title_calls)" "calls 10"
expect_eq "leaf label (text, not pixels)" "$(seen leaf_label)" share
# Under the calls metric small's frame is 11 of the 30 calls; clicked, all.
expect_eq "small before zoom" "$(seen zoom_before)" 0.3667
expect_eq "small zoomed" "$(seen zoom_after)" 1
expect_eq "small after Escape" "$(seen zoom_escape)" 0.3667
expect_eq "sandwich of share: callers" "$(seen sandwich)" "big:10 small:10"
expect_eq "sandwich: arc counts as the call graph's" \
	"$(graph_entry share | arc_field big in 3) $(graph_entry share | arc_field small in 3)" "10/20 10/20"
# Its graphs, under the calls metric: every context of share merged (20
# calls), callers above: big and small, 10 each.
expect_eq "sandwich graph: callers of share" "$(seen sandwich_graph)" "big:10 small:10"
expect_eq "sandwich graph: share's calls" "$(seen sandwich_graph_root)" 20
expect_eq "sandwich graph: share's callees' total" "$(seen sandwich_callee_root)" 20
expect_eq "Escape closes the sandwich" "$(seen sandwich_closed)" True
expect_eq "'/' focuses the search" "$(seen slash_focus)" True
expect_eq "search sha*: frames" "$(seen search_frames)" 2
expect_eq "search sha*: highlighted" "$(seen search_hits)" 2
expect_eq "search sha*: share of calls" "$(seen search_share)" 0.6667
expect_eq "flat table sorted by calls" "$(seen flat_by_calls)" share
# focus and exclude on the search small keep the calls -F small and -E small keep.
selected_calls() {
	"$APROF" "$@" --format=json "$J" "$WORK/amon.out" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["metadata"]["totals"]["calls"])'
}
expect_eq "focus small: calls" "$(seen focus_root)" "$(selected_calls -F small)"
expect_eq "focus small: big's frame gone" "$(seen focus_big)" False
expect_eq "exclude small: calls" "$(seen exclude_root)" "$(selected_calls -E small)"
expect_eq "exclude small: small's frame gone" "$(seen exclude_small)" False
expect_eq "reset: all calls" "$(seen reset_root)" "$(selected_calls)"
for f in share big small run keep fact main; do
	expect_eq "flat self of $f" "$(seen "flat_self_$f")" \
		"$(awk -v n="$f" '/^Flat profile/ { f = 1 } /^\f/ { f = 0 }
			f && NF >= 7 && $4 ~ /^[0-9]+$/ && $7 == n { print $3 }' "$WORK/report")"
	expect_eq "flat calls of $f" "$(seen "flat_calls_$f")" "$(flat_calls "$f")"
done
expect_eq "allocated types as --types prints them" "$(seen types)" \
	"$("$APROF" --types -b "$J" "$WORK/amon.out" | awk '
		NF >= 7 && $1 ~ /^[0-9]+$/ && $2 ~ /\./ { r = r s $7 " " $1 " " $3 " " $4 " " $5 " " $6; s = "; " }
		NF >= 4 && $2 == "bytes" && $3 == "from" { x = $0; sub(/^ *[0-9]+ bytes /, "", x); r = r s $1 " " x; s = "; " }
		END { print r }')"
expect_eq "metrics offered" "$(seen metrics)" "time,calls,bytes,allocs,peak,kept"
# Allocated bytes: keep's 192 and big's 9000 of the total, to the pixel;
# before the switch (calls) keep was 3 of 30 calls, far from its bytes.
expect_eq "keep's width in bytes, pixels off" "$(seen 'px_off_bytes_main;run;keep')" 0
expect_eq "big's width in bytes, pixels off" "$(seen 'px_off_bytes_main;run;big')" 0
if [ "$(seen 'px_off_calls_main;run;keep')" -lt 20 ]; then
	fail "keep's width under calls is already its bytes: the switch proves nothing"
fi

# ---- --diff: old = the run without job c (fact, keep) ----
(cd "$WORK" && APROF_OUT="$WORK/old.out" "$J" ab >/dev/null)
"$APROF" --diff="$WORK/old.out" --format=html -o "$WORK/diff.html" "$J" "$WORK/amon.out"
python3 "$top_srcdir/tests/html-check.py" "$CHROMIUM" "$WORK/diff.html" \
	'?widths=main;run;keep,main;run;big;share,main;run' >"$WORK/diff.json"
# The frames' change in calls and colour: "PATH CHANGE red|blue|white".
python3 - "$WORK/diff.json" >"$WORK/diff" <<'PY'
import json, re, sys
o = json.load(open(sys.argv[1]))
s = o['selftest'] or {}
print('errors', len(o['console_errors']) + len(s.get('errors', ['no self-test'])))
for path, f in s['calls'].items():
    r, g, b = (int(x) for x in re.findall(r'\d+', f['fill'])[:3])
    print(path, f['change'], 'red' if r - b > 40 else 'blue' if b - r > 40 else 'white')
PY
expect_eq "--diff: console errors" "$(awk '$1 == "errors" { print $2 }' "$WORK/diff")" 0
expect_eq "--diff: keep, new" "$(awk '$1 == "main;run;keep" { print $2, $3 }' "$WORK/diff")" "3 red"
expect_eq "--diff: share under big, unchanged" \
	"$(awk '$1 == "main;run;big;share" { print $2, $3 }' "$WORK/diff")" "0 white"
# run: one more call, fact's and keep's four.
expect_eq "--diff: run" "$(awk '$1 == "main;run" { print $2, $3 }' "$WORK/diff")" "5 red"

# ---- recursion as run and merged: the paper's Main -> (P -> Q -> R)^n -> P -> S ----
Q="$top_builddir/tests/s-pqrs"
(cd "$WORK" && APROF_OUT="$WORK/pqrs.out" "$Q" >/dev/null)
"$APROF" --format=html -o "$WORK/pqrs.html" "$Q" "$WORK/pqrs.out"
"$APROF" -b -p "$Q" "$WORK/pqrs.out" >"$WORK/report"
python3 "$top_srcdir/tests/html-check.py" "$CHROMIUM" "$WORK/pqrs.html" \
	'?merged=main;P,main;P;Q,main;P;Q;R,main;P;S,main;P;Q;R;P' >"$WORK/pqrs.json"
# "asRun|merged PATH CALLS RECURSIVE" per frame ("- -" if not drawn), and the depths.
python3 - "$WORK/pqrs.json" >"$WORK/pqrs" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
s = o['selftest'] or {}
print('errors', len(o['console_errors']) + len(s.get('errors', ['no self-test'])))
print('depths', s['asRunDepth'], s['mergedDepth'])
for view in ('asRun', 'merged'):
    for path, f in s[view].items():
        print(view, path, *((f['calls'], f['rec']) if f else ('-', '-')))
PY
pqrs() { awk -v v="$1" -v p="$2" '$1 == v && $2 == p { print $3, $4 }' "$WORK/pqrs"; }
expect_eq "recursion: console errors" "$(awk '$1 == "errors" { print $2 }' "$WORK/pqrs")" 0
expect_eq "recursion: depth as run, merged" "$(awk '$1 == "depths" { print $2, $3 }' "$WORK/pqrs")" "6 4"
expect_eq "as run: main;P;Q;R;P drawn" "$(pqrs asRun 'main;P;Q;R;P' | cut -d' ' -f1)" 5
expect_eq "merged: main;P;Q;R;P gone" "$(pqrs merged 'main;P;Q;R;P')" "- -"
# Merged, each routine once per path: P's calls from main and the recursive
# ones, Q's, R's and S's all the flat profile's.
expect_eq "merged: P" "$(pqrs merged 'main;P')" "1 $(($(flat_calls P) - 1))"
expect_eq "merged: Q" "$(pqrs merged 'main;P;Q')" "$(flat_calls Q) 0"
expect_eq "merged: R" "$(pqrs merged 'main;P;Q;R')" "$(flat_calls R) 0"
expect_eq "merged: S" "$(pqrs merged 'main;P;S')" "$(flat_calls S) 0"
finish
