#!/bin/sh
# e2e-fuzz.sh -- the amon reader under AddressSanitizer and
# UndefinedBehaviorSanitizer (tests/fuzz-amon, a libFuzzer target run once
# per file) on a corpus of real profiles and of damaged copies of them:
# truncated at many lengths, and with bytes changed (each both as it is and
# resealed with a fresh CRC).  With APROF_FUZZ_CORPUS set it only writes the
# real profiles there, as the seed corpus of make fuzz.
. "$top_srcdir/tests/e2e-lib.sh"

fuzz="$top_builddir/tests/fuzz-amon"
corpus=${APROF_FUZZ_CORPUS:-$WORK/corpus}
mkdir -p "$corpus"

# Real profiles of every kind: calls, recursion, mutual recursion, a
# shared library, threads, the heap (one thread and several, leaks), the
# allocated types' sites (C++), and the sampling clock.
n=0
for name in s-calls s-mutual s-threads s-shared s-leaks s-heap-threads s-types s-sample; do
	[ -x "$top_builddir/tests/$name" ] || continue
	if [ "$name" = s-leaks ]; then # it leaks on purpose: no LeakSanitizer report wanted
		(cd "$WORK" && APROF_OUT="$WORK/amon.out" ASAN_OPTIONS=detect_leaks=0 \
			"$top_builddir/tests/$name" >"$WORK/stdout")
	elif [ "$name" = s-sample ]; then
		(cd "$WORK" && APROF_CLOCK=sample APROF_OUT="$WORK/amon.out" \
			"$top_builddir/tests/$name" >"$WORK/stdout")
	else
		profile "$name"
	fi
	cp "$WORK/amon.out" "$corpus/$name.amon"
	n=$((n + 1))
done
expect_eq "seed profiles" "$n" 8
[ -n "${APROF_FUZZ_CORPUS:-}" ] && finish && exit 0
if [ ! -x "$fuzz" ]; then
	echo "SKIP: tests/fuzz-amon not built (needs clang with libFuzzer)"
	exit 77
fi

# Damaged copies of one: every truncation length up to 600 bytes and a
# spread beyond, and single bytes overwritten at a spread of offsets.
seed="$corpus/s-mutual.amon"
size=$(wc -c <"$seed")
len=0
while [ "$len" -lt "$size" ]; do
	head -c "$len" "$seed" >"$corpus/cut-$len"
	if [ "$len" -lt 600 ]; then len=$((len + 7)); else len=$((len + 997)); fi
done
off=0
while [ "$off" -lt "$size" ]; do
	cp "$seed" "$corpus/flip-$off"
	printf '\377\377\377\377' | dd of="$corpus/flip-$off" bs=1 seek="$off" conv=notrunc 2>/dev/null
	off=$((off + 13))
done
files=$(ls "$corpus" | wc -l | tr -d ' ')
if "$fuzz" "$corpus"/* >"$WORK/fuzz.log" 2>&1; then
	echo "ok: $files corpus files parsed under ASan and UBSan"
else
	tail -30 "$WORK/fuzz.log" >&2
	fail "the reader crashed or misbehaved on a corpus file"
fi
finish
