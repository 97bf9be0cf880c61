#!/bin/sh
# e2e-process.sh -- the profile across the life of a process.
# fork (tests/s-fork.c): two profiles, each exact: the parent's in amon.out,
# the child's in amon.out.<pid>, holding only what the child did after the
# fork; also when the child then execs /bin/true (written before the exec).
# exec (tests/s-exec.c): the image's profile is written before each of the
# exec family replaces it, and the next image of the process, writing to
# the same path, adds a sequence number.  daemon (tests/s-daemon.c): the
# parent's profile and the child's.  exit from depth 50 (tests/s-exit.c): exit(),
# _exit() and _Exit() with 51 activations open still write amon.out.
. "$top_srcdir/tests/e2e-lib.sh"

exe="$top_builddir/tests/s-fork"
for how in exit exec; do
	rm -f "$WORK"/amon.out*
	if [ $how = exit ]; then profile s-fork; else profile s-fork exec; fi
	pid=$(sed -n 's/^child \([0-9][0-9]*\)$/\1/p' "$WORK/stdout")
	expect_eq "fork/$how: files" "$(cd "$WORK" && ls amon.out* | tr '\n' ' ')" \
		"amon.out amon.out.$pid "
	[ -f "$WORK/amon.out" ] && [ -f "$WORK/amon.out.$pid" ] || { finish; exit 1; }

	# The parent: everything before the fork, and its own calls after it.
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "fork/$how: parent: flat calls main" "$(flat_calls main)" 1
	expect_eq "fork/$how: parent: flat calls shared_before" "$(flat_calls shared_before)" 2
	expect_eq "fork/$how: parent: flat calls parent_work" "$(flat_calls parent_work)" 3
	expect_eq "fork/$how: parent: flat calls child_work" "$(flat_calls child_work)" ""
	contexts "$exe" "$WORK/amon.out"
	expect_eq "fork/$how: parent: context main > parent_work" \
		"$(context_row 'main > parent_work')" "3+0"
	expect_eq "fork/$how: parent: context main > child_work" \
		"$(context_row 'main > child_work')" ""
	amon_threads "$WORK/amon.out"
	expect_eq "fork/$how: parent: threads" "$(thread_field '*' tid | wc -l | tr -d ' ')" 1
	expect_eq "fork/$how: parent: pid is not the child's" \
		"$(sed -n 's/^pid //p' "$WORK/threads" | grep -cx "$pid" || true)" 0

	# The child: child_work only; main and shared_before were entered before
	# the fork, by the parent: their contexts stay, with no calls.
	"$APROF" -b "$exe" "$WORK/amon.out.$pid" >"$WORK/report"
	expect_eq "fork/$how: child: flat calls child_work" "$(flat_calls child_work)" 5
	expect_eq "fork/$how: child: flat calls shared_before" "$(flat_calls shared_before)" ""
	expect_eq "fork/$how: child: flat calls parent_work" "$(flat_calls parent_work)" ""
	expect_eq "fork/$how: child: flat calls main" "$(flat_calls main)" ""
	contexts "$exe" "$WORK/amon.out.$pid"
	expect_eq "fork/$how: child: context main > child_work" \
		"$(context_row 'main > child_work')" "5+0"
	expect_eq "fork/$how: child: context main" "$(context_row 'main')" "0+0"
	expect_eq "fork/$how: child: context main > parent_work" \
		"$(context_row 'main > parent_work')" ""
	expect_eq "fork/$how: child: calls in all" \
		"$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { n += $2 + $3 } END { print n }' "$WORK/contexts")" 5
	amon_threads "$WORK/amon.out.$pid"
	expect_eq "fork/$how: child: pid" "$(sed -n 's/^pid //p' "$WORK/threads")" "$pid"
	expect_eq "fork/$how: child: thread" "$(thread_field '*' tid)" "$pid"
done

# exec without fork: "s-exec FUNCTION OUT2" calls stage_one 4 times, then
# becomes "s-exec second" (profile to OUT2), which calls stage_two 6 times.
exe="$top_builddir/tests/s-exec"
for how in execv execve execl execle execlp execvp; do
	rm -f "$WORK/amon.out" "$WORK/second.out"
	profile s-exec $how "$WORK/second.out"
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report" ||
		{ fail "$how: no profile before the exec"; continue; }
	expect_eq "$how: first: flat calls stage_one" "$(flat_calls stage_one)" 4
	expect_eq "$how: first: flat calls stage_two" "$(flat_calls stage_two)" ""
	expect_eq "$how: first: flat calls main" "$(flat_calls main)" 1
	"$APROF" -b "$exe" "$WORK/second.out" >"$WORK/report" ||
		{ fail "$how: no profile of the new image"; continue; }
	expect_eq "$how: second: flat calls stage_two" "$(flat_calls stage_two)" 6
	expect_eq "$how: second: flat calls stage_one" "$(flat_calls stage_one)" ""
	expect_eq "$how: second: flat calls main" "$(flat_calls main)" 1
done

# Each image of one process keeps its profile: with APROF_OUT as it was,
# the image exec'd writes amon.out.1, the one it execs amon.out.2.
for how in execv execl; do
	rm -f "$WORK"/amon.out*
	profile s-exec $how -
	expect_eq "$how, same path: files" "$(cd "$WORK" && ls amon.out* | tr '\n' ' ')" \
		"amon.out amon.out.1 "
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report" || fail "$how, same path: first image"
	expect_eq "$how, same path: first: flat calls stage_one" "$(flat_calls stage_one)" 4
	"$APROF" -b "$exe" "$WORK/amon.out.1" >"$WORK/report" || fail "$how, same path: second image"
	expect_eq "$how, same path: second: flat calls stage_two" "$(flat_calls stage_two)" 6
	expect_eq "$how, same path: second: flat calls stage_one" "$(flat_calls stage_one)" ""
done
rm -f "$WORK"/amon.out*
profile s-exec execl twice
expect_eq "three images: files" "$(cd "$WORK" && ls amon.out* | tr '\n' ' ')" \
	"amon.out amon.out.1 amon.out.2 "
for f in "amon.out stage_one 4" "amon.out.1 stage_two 1" "amon.out.2 stage_two 2"; do
	set -- $f
	"$APROF" -b "$exe" "$WORK/$1" >"$WORK/report" || fail "three images: $1"
	expect_eq "three images: $1: flat calls $2" "$(flat_calls "$2")" "$3"
done

# daemon(3): the parent's profile (written before glibc's daemon leaves
# through its own _exit) and the child's, in amon.out.<pid>.
exe="$top_builddir/tests/s-daemon"
rm -f "$WORK"/amon.out*
profile s-daemon
i=0
until pid=$(sed -n 's/^child \([0-9][0-9]*\)$/\1/p' "$WORK/stdout") && [ -n "$pid" ] &&
	[ -f "$WORK/amon.out.$pid" ] || [ $i -ge 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -f "$WORK/amon.out" ]; then
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report"
	expect_eq "daemon: parent: flat calls before_daemon" "$(flat_calls before_daemon)" 3
	expect_eq "daemon: parent: flat calls child_work" "$(flat_calls child_work)" ""
else
	fail "daemon: no profile of the parent"
fi
if [ -n "$pid" ] && [ -f "$WORK/amon.out.$pid" ]; then
	"$APROF" -b "$exe" "$WORK/amon.out.$pid" >"$WORK/report"
	expect_eq "daemon: child: flat calls child_work" "$(flat_calls child_work)" 5
	expect_eq "daemon: child: flat calls before_daemon" "$(flat_calls before_daemon)" ""
else
	fail "daemon: no profile of the child"
fi

# exit, _exit and _Exit 51 activations deep (main, down x 50 ... leave).
exe="$top_builddir/tests/s-exit"
for how in exit _exit _Exit; do
	rm -f "$WORK/amon.out"
	profile s-exit $how
	"$APROF" -b "$exe" "$WORK/amon.out" >"$WORK/report" ||
		{ fail "$how: no profile"; continue; }
	expect_eq "$how: flat calls warm_up" "$(flat_calls warm_up)" 3
	expect_eq "$how: flat calls leave" "$(flat_calls leave)" 1
	expect_eq "$how: down called 1+49" \
		"$(graph_entry down | grep -cE '^\[[0-9]+\] .* 1\+49 +down \[')" 1
	contexts "$exe" "$WORK/amon.out"
	expect_eq "$how: context main > down" "$(context_row 'main > down')" "1+49"
	expect_eq "$how: context main > down > leave" "$(context_row 'main > down > leave')" "1+0"
	expect_eq "$how: contexts" "$(context_count)" 5
done
finish
