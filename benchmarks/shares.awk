# shares.awk -- self time by routine, as "name<TAB>amount" lines, from
# either side of a comparison of profiles (shares.sh, accuracy.sh):
#   -v mode=flat  a gprof-format flat profile (aprof -p -b, gprof -b -p):
#                 each routine's self seconds;
#   -v mode=perf  `perf script -F ip,sym,dso` of a `perf record --call-graph
#                 dwarf` run of the bare build: samples, each to the
#                 innermost frame of the program EXE (-v exe=PATH) whose
#                 routine is in KNOWN (-v known=FILE, mode flat's output for
#                 the instrumented build), since aprof charges a routine's
#                 calls into libc and other uninstrumented code to the
#                 routine itself; a sample with no such frame goes to
#                 "<outside the program>".

# A routine's name without its parameter list (the last parenthesised group
# and a "const" after it), as perf and aprof both print it.
function unparam(s,   i, depth) {
	sub(/ const$/, "", s)
	if (s !~ /\)$/)
		return s
	for (i = length(s); i > 0; i--) {
		depth += substr(s, i, 1) == ")"
		depth -= substr(s, i, 1) == "("
		if (depth == 0)
			return substr(s, 1, i - 1)
	}
	return s
}
# A gprof-format flat profile (aprof -p -b, gprof -b -p): each row's
# routine and self seconds; rows of no time too (aprof's), up to the blank
# line after the table.
mode == "flat" && /^ +%/ { flat = 1; next }
mode == "flat" && flat && NF == 0 && rows { exit }
mode == "flat" && flat && $1 ~ /^[0-9.]+$/ && NF >= 4 {
	s = $0
	k = $4 ~ /^[0-9]+$/ && NF >= 7 ? 6 : 3
	for (i = 1; i <= k; i++)
		sub(/^ *[^ ]+/, "", s)
	sub(/^ +/, "", s)
	print unparam(s) "\t" $3
	rows++
}

# A frame: "ADDRESS SYMBOL (DSO)", or "(inlined)" for a routine inlined
# at ADDRESS into the next frame of the same address, whose object it
# shares (or, with no such frame, into the frame before it).
function sample(   i, j, dso) {
	if (n == 0)
		return
	for (i = 1; i <= n; i++) {
		if (obj[i] != "(inlined)") {
			dso = obj[i]
			continue
		}
		for (j = i + 1; j <= n && obj[j] == "(inlined)"; j++)
			;
		obj[i] = j <= n && ip[j] == ip[i] ? obj[j] : dso
	}
	for (i = 1; i <= n && (obj[i] != "(" exe ")" || !(name[i] in routine)); i++)
		;
	count[i <= n ? name[i] : "<outside the program>"]++
	n = 0
}
BEGIN {
	if (mode == "perf") {
		FS = "\t"
		while ((getline line < known) > 0) {
			split(line, f, "\t")
			routine[f[1]] = 1
		}
		FS = " "
	}
}
mode == "perf" && NF == 0 { sample(); next }
mode == "perf" {
	n++
	obj[n] = $NF
	ip[n] = $1
	s = $0
	sub(/^[ \t]*[0-9a-f]+ /, "", s)
	sub(/ \([^()]*\)$/, "", s)
	sub(/\+0x[0-9a-f]+$/, "", s)
	name[n] = unparam(s)
}
END {
	if (mode != "perf")
		exit
	sample()
	for (r in count)
		print r "\t" count[r]
}
