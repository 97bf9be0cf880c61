#!/bin/sh
# e2e-pprof.sh -- --format=pprof read by its own reader, go tool pprof
# (Debian's golang-go): -top with every sample index is aprof's flat
# profile (calls and bytes exact, time within the flat profile's
# rounding); -traces lists exactly the contexts of -S, with the same
# filters; -peek shows a routine's exact callers and callees; -proto
# round-trips; the labels (thread, pid, type, cycle) and --diff, several
# profiles, -s, -F, -E, --elide and --threshold as documented; a bad write is one line and a
# non-zero exit.  Skipped (77) only when go is not installed.
. "$top_srcdir/tests/e2e-lib.sh"

# The cycle counter's wall time: every arc of these short runs has time, so
# that -peek's time view lists each caller and callee (a sampled run of a
# few milliseconds leaves some with none).
APROF_CLOCK=counter
export APROF_CLOCK

GO=${GO:-go}
command -v "$GO" >/dev/null 2>&1 || { echo "SKIP: no go (Debian package golang-go)"; exit 77; }
# go wants a home and a cache; none of the user's.
HOME="$WORK/home" GOPATH="$WORK/gopath" GOCACHE="$WORK/gocache" GOFLAGS=
export HOME GOPATH GOCACHE GOFLAGS
mkdir -p "$HOME"

# pp ARGS...: go tool pprof ARGS, its complaints kept apart.
pp() {
	"$GO" tool pprof "$@" 2>>"$WORK/pprof.err"
}

# top FILE INDEX [UNIT]: "name flat cum" per function of -top on INDEX,
# every node shown, values as plain numbers (UNIT: -unit, for time "ns").
top() {
	pp -top -nodefraction=0 -nodecount=1000000 ${3:+-unit=$3} -sample_index="$2" "$1" |
		awk '/^ +flat +flat%/ { f = 1; next } f && NF >= 6 {
			name = $6; for (i = 7; i <= NF; i++) name = name " " $i
			v = $1; c = $4; sub(/[a-zA-Z]+$/, "", v); sub(/[a-zA-Z]+$/, "", c)
			print name, v, c }'
}

# top_field NAME FIELD (2 flat, 3 cum) of $WORK/top; 0 if pprof left NAME
# out (it shows no function whose values are all 0).
top_field() {
	awk -v n="$1" -v f="$2" '{ name = $1; for (i = 2; i <= NF - 2; i++) name = name " " $i }
		name == n { v = $(NF - 3 + f) } END { print v == "" ? 0 : v }' "$WORK/top"
}

# flat_self NAME: the self column of NAME's row of the flat profile in $WORK/report.
flat_self() {
	awk -v n="$1" '/^Flat profile/ { f = 1 } /^\f/ { f = 0 }
		f && NF >= 4 && $1 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ {
			name = $NF; if (NF >= 7 && $4 ~ /^[0-9]+$/) { name = $7
				for (i = 8; i <= NF; i++) name = name " " $i }
			if (name == n) print $3 }' "$WORK/report"
}

# traces FILE [ARGS]: each sample's stack of -traces, root first, as -S
# writes a history ("main > run > big"), sorted, each once.
traces() {
	f=$1
	shift
	pp -traces "$@" "$f" | awk '
		/^-+\+-+$/ { if (s != "") print s; s = ""; inst = 1; next }
		!inst { next }
		/^ +[a-zA-Z_:.]+: / { next }
		{ line = $0; sub(/^ +/, "", line)
		  if (line ~ /^-?[0-9.]+[a-zA-Z]* +/) sub(/^-?[0-9.]+[a-zA-Z]* +/, "", line)
		  if (line == "") next
		  s = s == "" ? line : line " > " s }
		END { if (s != "") print s }' | sort -u
}

# histories ARGS: aprof -S ARGS's histories (marks dropped, the root left out), sorted, each once.
histories() {
	"$APROF" -S "$@" | awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 5 {
		x = $0; sub(/^ *[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+  /, "", x)
		if (x == "<no routine active>") next; gsub(/[()]/, "", x); print x }' | sort -u
}

J="$top_builddir/tests/s-jobs"
profile s-jobs abc
mv "$WORK/amon.out" "$WORK/jobs.out"
P="$WORK/p.pb.gz"
"$APROF" --format=pprof -o "$P" "$J" "$WORK/jobs.out" || fail "aprof --format=pprof failed"
expect_eq "gzip -t" "$(gzip -t "$P" 2>&1 && echo ok)" ok

# ---- the default name, aprof.pb.gz ----
(cd "$WORK" && "$APROF" --format=pprof "$J" jobs.out) || fail "aprof --format=pprof (no -o) failed"
expect_eq "default output aprof.pb.gz, the same bytes" "$(cmp "$P" "$WORK/aprof.pb.gz" && echo same)" same

# ---- -top with each sample index: the flat profile ----
"$APROF" -b -p "$J" "$WORK/jobs.out" >"$WORK/report"
names=$(awk '/^Flat profile/ { f = 1 } f && NF >= 7 && $4 ~ /^[0-9]+$/ { print $7 }' "$WORK/report")
expect_eq "the flat profile's routines" "$(echo $names | tr ' ' '\n' | sort | tr '\n' ' ')" \
	"big fact keep main run share small "
top "$P" calls >"$WORK/top"
for f in $names; do
	expect_eq "-top calls: $f" "$(top_field "$f" 2)" "$(flat_calls "$f")"
done
# Time: the flat profile's self seconds, to its last decimal's half, plus
# a nanosecond for pprof's own rounding of the samples.
decimals=$(awk -v n=share '/^Flat profile/ { f = 1 } f && $7 == n { x = $3; sub(/^[0-9]*\./, "", x); print length(x) }' "$WORK/report")
slack=$(awk -v d="$decimals" 'BEGIN { printf "%.0f\n", 0.5 * 10 ^ (9 - d) + 1 }')
top "$P" wall ns >"$WORK/top"
for f in $names; do
	near "-top wall: $f (ns)" "$(top_field "$f" 2)" \
		"$(awk -v s="$(flat_self "$f")" 'BEGIN { printf "%.0f\n", s * 1e9 }')" "$slack"
done
expect_eq "default sample index: wall" "$(pp -top "$P" | sed -n 's/^Type: //p')" wall
heap_totals "$J" "$WORK/jobs.out"
for m in alloc_objects:allocs alloc_space:bytes inuse_space:peak kept_space:kept; do
	si=${m%%:*} metric=${m#*:}
	"$APROF" -b -p --metric="$metric" "$J" "$WORK/jobs.out" >"$WORK/report"
	expect_eq "--metric=$metric: the flat profile in whole units" \
		"$(grep -c 'Each sample counts as 1 ' "$WORK/report")" 1
	top "$P" "$si" >"$WORK/top"
	for f in $names; do
		expect_eq "-top $si: $f" "$(top_field "$f" 2)" \
			"$(awk -v s="$(flat_self "$f")" 'BEGIN { printf "%.0f\n", s }')"
	done
	expect_eq "--format=pprof --metric=$metric: default sample index $si" \
		"$("$APROF" --format=pprof --metric="$metric" -o "$WORK/m.pb.gz" "$J" "$WORK/jobs.out" &&
			pp -top "$WORK/m.pb.gz" | sed -n 's/^Type: //p')" "$si"
done
# Cumulative: exact bytes while active (heap-totals' self + child).
top "$P" alloc_space >"$WORK/top"
for f in $names; do
	expect_eq "-top alloc_space cum: $f" "$(top_field "$f" 3)" "$(heap_proc "$f" bytes+)"
done

# ---- -traces: exactly the contexts of -S ----
histories "$J" "$WORK/jobs.out" >"$WORK/want"
traces "$P" >"$WORK/got"
expect_eq "-traces are -S's contexts" "$(cat "$WORK/got")" "$(cat "$WORK/want")"
expect_eq "labels: thread and pid" \
	"$(pp -traces "$P" | awk '/^ +(thread|pid): / { print $1 }' | sort -u | tr '\n' ' ')" "pid: thread: "

# s-pqrs: Main -> (P -> Q -> R)^n -> P -> S, histories with unmarked entries.
Q="$top_builddir/tests/s-pqrs"
profile s-pqrs 5
"$APROF" --format=pprof --cycles -o "$WORK/q.pb.gz" "$Q" "$WORK/amon.out"
histories "$Q" "$WORK/amon.out" >"$WORK/want"
expect_eq "s-pqrs: -traces are -S's contexts" "$(traces "$WORK/q.pb.gz")" "$(cat "$WORK/want")"
expect_eq "s-pqrs --cycles: the cycle label" \
	"$(pp -traces "$WORK/q.pb.gz" | sed -n 's/^ *cycle:  //p' | sort -u)" "P -> Q -> R -> P"

# ---- -peek: exact callers and callees, with the arcs' time ----
"$APROF" -b "$J" "$WORK/jobs.out" >"$WORK/report"
# peek NAME: "in|out NAME NS" per caller and callee of NAME in -peek's wall (ns) view.
peek() {
	pp -peek "^$1\$" -unit=ns -sample_index=wall -nodefraction=0 -edgefraction=0 "$P" |
		awk '/^-+\+-+$/ { blk++; next } blk < 2 { next }
			/\|   [^ ]/ { v = $1; sub(/[a-z]+$/, "", v); n = $0; sub(/^.*\| +/, "", n)
				print (seen ? "out" : "in"), n, v; next }
			/\| [^ ]/ { seen = 1 }'
}
# graph_arcs NAME: "in|out NAME" per parent and child of NAME in the call graph.
graph_arcs() {
	graph_entry "$1" | awk '/^\[/ { primary = 1; next } NF >= 4 && $4 != "<spontaneous>" {
		print (primary ? "out" : "in"), $4 }'
}
# peek_calls NAME CALLER: the calls (-sample_index=calls) -peek shows from CALLER to NAME.
peek_calls() {
	pp -peek "^$1\$" -sample_index=calls -nodefraction=0 -edgefraction=0 "$P" |
		awk -v c="$2" '/\|   [^ ]/ { n = $0; sub(/^.*\| +/, "", n); if (n == c) { print $1; exit } }'
}
for f in run big share; do
	peek "$f" >"$WORK/peek"
	expect_eq "-peek $f: callers and callees" "$(cut -d' ' -f1,2 "$WORK/peek" | sort)" \
		"$(graph_arcs "$f" | sort)"
	graph_entry "$f" >"$WORK/entry"
	while read -r side name ns; do
		s=$(arc_field "$name" "$side" 1 <"$WORK/entry")
		c=$(arc_field "$name" "$side" 2 <"$WORK/entry")
		calls=$(arc_field "$name" "$side" 3 <"$WORK/entry")
		near "-peek $f: $side $name (ns)" "$ns" \
			"$(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.0f\n", (s + c) * 1e9 }')" \
			"$((2 * slack))"
		# Where the callee is a leaf its calls are the arc's.
		if [ "$side" = in ] && [ "$f" = share ]; then
			expect_eq "-peek share: calls from $name" "$(peek_calls share "$name")" "${calls%/*}"
		fi
	done <"$WORK/peek"
done

# ---- -proto round-trips ----
pp -proto "$P" >"$WORK/rt.pb.gz"
for si in calls wall alloc_space kept_space; do
	expect_eq "-proto round trip: -top $si" "$(top "$WORK/rt.pb.gz" "$si")" "$(top "$P" "$si")"
done
expect_eq "-proto round trip: -traces" "$(traces "$WORK/rt.pb.gz")" "$(traces "$P")"
expect_eq "-raw: mapping with build ID, functions with files" \
	"$(pp -raw "$P" | awk '/^Mappings/ { m = 1; next } m && /s-jobs [0-9a-f]+ \[FN\]\[FL\]\[LN\]/ { print "mapping" }
		/^ +[0-9]+: 0x[0-9a-f]+ M=1 share .*s-jobs\.c:[0-9]+ s=[0-9]+$/ { print "share" }' | sort -u | tr '\n' ' ')" \
	"mapping share "

# ---- filters: -F, -E, --elide are -S's with the same options ----
for opt in "-F big" "-E big" "--elide=run" "--elide=big -E small"; do
	# shellcheck disable=SC2086
	"$APROF" --format=pprof $opt -o "$WORK/f.pb.gz" "$J" "$WORK/jobs.out"
	# shellcheck disable=SC2086
	expect_eq "$opt: -traces are -S's" "$(traces "$WORK/f.pb.gz")" "$(histories $opt "$J" "$WORK/jobs.out")"
done
"$APROF" -b -p -F big "$J" "$WORK/jobs.out" >"$WORK/report"
"$APROF" --format=pprof -F big -o "$WORK/f.pb.gz" "$J" "$WORK/jobs.out"
top "$WORK/f.pb.gz" calls >"$WORK/top"
expect_eq "-F big: -top calls share" "$(top_field share 2)" "$(flat_calls share)"
# --threshold: only the contexts whose running routine is at or above it,
# on sampled CPU time (20,000 samples a second of a run of some 10 ms),
# which a busy machine does not move as it moves the counter's wall time.
(cd "$WORK" && APROF_CLOCK=sample APROF_HZ=20000 APROF_OUT="$WORK/cpu.out" "$J" abc >/dev/null)
"$APROF" --format=pprof --threshold=50 -o "$WORK/f.pb.gz" "$J" "$WORK/cpu.out"
# (small's 9.3% and its context left out, share's under it kept: share is at 100%).
expect_eq "--threshold=50: without small's context" "$(traces "$WORK/f.pb.gz" | tr '\n' ';')" \
	"main;main > run;main > run > big;main > run > big > share;main > run > small > share;"

# ---- several profiles: summed by pprof, each process's pid kept; -s's sum has none ----
(cd "$WORK" && APROF_OUT="$WORK/old.out" "$J" a >/dev/null)
"$APROF" --format=pprof -o "$WORK/s.pb.gz" "$J" "$WORK/jobs.out" "$WORK/old.out"
top "$WORK/s.pb.gz" calls >"$WORK/top"
expect_eq "two profiles: share's calls, 20 + 10" "$(top_field share 2)" 30
# pid_of AMON: the process that wrote AMON (amon-threads' header line).
pid_of() {
	"$top_builddir/tests/amon-threads" "$1" | awk '$1 == "pid" { print $2 }'
}
expect_eq "two profiles: their two pids" \
	"$(pp -traces "$WORK/s.pb.gz" | sed -n 's/^ *pid:  //p' | sort -u | tr '\n' ' ')" \
	"$(printf '%s\n' "$(pid_of "$WORK/jobs.out")" "$(pid_of "$WORK/old.out")" | sort -u | tr '\n' ' ')"
expect_eq "two profiles: -F big keeps big's calls, 1 + 1" \
	"$("$APROF" --format=pprof -F big -o "$WORK/s.pb.gz" "$J" "$WORK/jobs.out" "$WORK/old.out" &&
		top "$WORK/s.pb.gz" calls >"$WORK/top" && top_field big 2)" 2
"$APROF" -s -o "$WORK/sum.out" "$J" "$WORK/jobs.out" "$WORK/old.out"
"$APROF" --format=pprof -o "$WORK/s.pb.gz" "$J" "$WORK/sum.out"
expect_eq "-s's sum: no pid label" "$(pp -traces "$WORK/s.pb.gz" | grep -c ' pid: ' || true)" 0
top "$WORK/s.pb.gz" calls >"$WORK/top"
expect_eq "-s's sum: share's calls" "$(top_field share 2)" 30

# ---- --diff: the old profile negated, pprof::base ----
"$APROF" --format=pprof --diff="$WORK/old.out" -o "$WORK/d.pb.gz" "$J" "$WORK/jobs.out"
top "$WORK/d.pb.gz" calls >"$WORK/top"
expect_eq "--diff abc - a: share's calls" "$(top_field share 2)" 10
expect_eq "--diff abc - a: big's calls" "$(top_field big 2)" 0
expect_eq "--diff abc - a: keep's calls" "$(top_field keep 2)" 3
top "$WORK/d.pb.gz" alloc_space >"$WORK/top"
expect_eq "--diff abc - a: share's bytes" "$(top_field share 2)" 1000

# ---- threads: a sample per thread and context, each thread's label ----
profile s-workers
"$APROF" --format=pprof -o "$WORK/w.pb.gz" "$top_builddir/tests/s-workers" "$WORK/amon.out"
expect_eq "s-workers: 9 thread labels" \
	"$(pp -traces "$WORK/w.pb.gz" | sed -n 's/^ *thread:  //p' | sort -u | wc -l)" 9
expect_eq "s-workers: worker-3's label" \
	"$(pp -traces "$WORK/w.pb.gz" | grep -c '^ *thread:  [0-9]* worker-3$' | sed 's/^[1-9][0-9]*$/yes/')" yes
top "$WORK/w.pb.gz" calls >"$WORK/top"
expect_eq "s-workers: leaf's calls" "$(top_field leaf 2)" 36041

# ---- types: the label of each allocating context ----
profile s-types
"$APROF" --format=pprof -o "$WORK/t.pb.gz" "$top_builddir/tests/s-types" "$WORK/amon.out"
# tags INDEX: "value type" per type label of -tags on INDEX.
tags() {
	pp -tags -unit=B -sample_index="$1" "$WORK/t.pb.gz" | awk '/^ type:/ { t = 1; next } /^ [a-z]/ { t = 0 }
		t && index($0, "): ") { v = $1; sub(/(\.0)?B?$/, "", v)
			print v, substr($0, index($0, "): ") + 3) }' | sort -k2
}
"$APROF" --types -b "$top_builddir/tests/s-types" "$WORK/amon.out" >"$WORK/report"
# --types' rows: "bytes allocs type", the unknown one left out.
awk '/^ +bytes +% +allocs/ { f = 1; next } f && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ && NF >= 7 {
	name = $7; for (i = 8; i <= NF; i++) name = name " " $i
	if (name != "<unknown>") print $1, $3, name }' "$WORK/report" >"$WORK/rows"
expect_eq "s-types: the type labels' bytes are --types'" "$(tags alloc_space)" \
	"$(awk '{ $2 = ""; sub(/  /, " "); print }' "$WORK/rows" | sort -k2)"
expect_eq "s-types: the type labels' allocations are --types'" "$(tags alloc_objects)" \
	"$(awk '{ $1 = ""; sub(/^ /, ""); print }' "$WORK/rows" | sort -k2)"
top "$WORK/t.pb.gz" alloc_space B >"$WORK/top"
heap_totals "$top_builddir/tests/s-types" "$WORK/amon.out"
expect_eq "s-types: bytes while main was active, exact" "$(top_field main 3)" "$(heap_proc main bytes+)"

# ---- a bad write: one line, non-zero ----
for out in "$WORK/no/such/dir/x.pb.gz" /dev/full; do
	if "$APROF" --format=pprof -o "$out" "$J" "$WORK/jobs.out" 2>"$WORK/stderr"; then
		fail "-o $out: exit status 0"
	else
		expect_eq "-o $out: one line" "$(wc -l <"$WORK/stderr")" 1
		echo "  ($(cat "$WORK/stderr"))"
	fi
done

# The default clock, sampled CPU time: its time is the cpu sample type.
(cd "$WORK" && APROF_CLOCK=sample APROF_OUT="$WORK/sampled.out" "$J" abc >/dev/null)
"$APROF" --format=pprof -o "$WORK/sampled.pb.gz" "$J" "$WORK/sampled.out" ||
	fail "aprof --format=pprof (sampling) failed"
expect_eq "sampling: default sample index" "$(pp -top "$WORK/sampled.pb.gz" | sed -n 's/^Type: //p')" cpu

expect_eq "go tool pprof's complaints" "$(grep -v '^$' "$WORK/pprof.err" || true)" ""
finish
