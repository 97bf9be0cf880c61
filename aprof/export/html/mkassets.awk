# mkassets.awk -- makes aprof/export/html-assets.c, the page --format=html writes,
# from aprof/export/html/page.html: a line "@include FILE@" is replaced by FILE
# (relative to the source directory SRC), the line "@data@" splits the page
# into html_page_head and html_page_tail, between which aprof/export/html.c writes
# the profile.  Each line becomes a C string literal.
# Usage: awk -v src=SRCDIR -f mkassets.awk page.html > html-assets.c
# S with every CH written REP (plain strings: gsub's replacement treats '\'
# differently from one awk to another).
function replace(s, ch, rep,    out, i) {
	out = ""
	while ((i = index(s, ch)) > 0) {
		out = out substr(s, 1, i - 1) rep
		s = substr(s, i + 1)
	}
	return out s
}

function emit(line) {
	line = replace(line, "\\", "\\\\")
	line = replace(line, "\"", "\\\"")
	line = replace(line, "\t", "\\t")
	line = replace(line, "\r", "")
	printf "\t\"%s\\n\"\n", line
}

BEGIN {
	print "/* Generated from aprof/export/html/page.html by aprof/export/html/mkassets.awk; do not edit. */"
	print "#include <config.h>"
	print ""
	print "#include \"aprof/export/html.h\""
	print ""
	print "const char html_page_head[] ="
}

/^@include .*@$/ {
	file = src "/" substr($0, 10, length($0) - 10)
	while ((getline line < file) > 0)
		emit(line)
	close(file)
	next
}

/^@data@$/ {
	print "\t\"\";"
	print ""
	print "const char html_page_tail[] ="
	next
}

{ emit($0) }

END { print "\t\"\";" }
