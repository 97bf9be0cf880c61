/*
** check_amon.c -- the compact contexts of amon.out (runtime/amon.h): entry
** codes round trip, and the reader rebuilds histories from their prefixes
** and refuses each kind of corrupt context with its own message.  Files are
** built by hand here, sealed with a true CRC-32, so only the fault under
** test can stop the reader.
*/
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aprof/read/amon_read.h"
#include "tests/check_aprof.h"

#define M AMON_MARK
#define ANY 4096 /* history entries enough for every file below: the fault under test comes first */

/* An amon.out being built. */
struct image {
	unsigned char bytes[4096];
	size_t used;
};


static void put(struct image *im, const void *p, size_t n)
{
	ck_assert_uint_le(im->used + n, sizeof im->bytes);
	memcpy(im->bytes + im->used, p, n);
	im->used += n;
}


static void put_record(struct image *im, uint32_t tag, uint64_t length)
{
	struct amon_record r = { tag, 0, length };

	put(im, &r, sizeof r);
}


/*
** A file of one executable and one thread whose contexts are the N bytes
** CODED, claiming CONTEXTS contexts whose histories spell out ENTRIES
** entries; parsed, with *ERROR the message if it is refused.
*/
static struct amon_data *parse(const unsigned char *coded, size_t n, uint64_t contexts,
			       uint64_t entries, char **error)
{
	static const char path[] = "/bin/prog";
	struct image im = { .used = 0 };
	struct amon_header h;
	struct amon_module mod;
	struct amon_thread th;
	unsigned char *copy;
	uint32_t crc;

	memset(&h, 0, sizeof h);
	amon_header_stamp(&h);
	h.clock = AMON_CLOCK_MONOTONIC;
	h.ticks_per_second = 1e9;
	put(&im, &h, sizeof h);
	memset(&mod, 0, sizeof mod);
	mod.end = 0x100000;
	mod.path_length = sizeof path - 1;
	put_record(&im, AMON_TAG_EXE, sizeof mod + mod.path_length);
	put(&im, &mod, sizeof mod);
	put(&im, path, mod.path_length);
	memset(&th, 0, sizeof th);
	th.contexts = contexts;
	th.memory = 4096;
	th.history_entries = entries;
	put_record(&im, AMON_TAG_THREAD, sizeof th + n);
	put(&im, &th, sizeof th);
	put(&im, coded, n);
	put_record(&im, AMON_TAG_END, sizeof crc);
	crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), im.bytes, im.used);
	put(&im, &crc, sizeof crc);
	copy = malloc(im.used);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, im.bytes, im.used);
	*error = NULL;
	return amon_parse(copy, im.used, "t.out", error);
}


/* The reader must refuse CODED with a message containing WANT. */
static void refused(const unsigned char *coded, size_t n, uint64_t contexts, uint64_t entries,
		    const char *want)
{
	char *error;
	struct amon_data *d = parse(coded, n, contexts, entries, &error);

	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(error);
	ck_assert_msg(strstr(error, want) != NULL, "'%s' does not say '%s'", error, want);
	free(error);
}


/* Entry codes round trip, far and near, up and down, marked or not. */
START_TEST(test_entry_codes)
{
	static const uint64_t e[] = {
		0x401000 | M, 0x401040 | M, 0x401000, 0x7fffffffffffffffull, 1 | M,
		0x7ffff7a00000 | M, 0x555555555000, 0x4000000000000000ull | M, 0x3fffffffffffffffull,
	};
	size_t i, j;

	for (i = 0; i < sizeof e / sizeof e[0]; i++)
		for (j = 0; j < sizeof e / sizeof e[0]; j++)
			ck_assert_uint_eq(amon_entry_decode(e[i], amon_entry_code(e[i], e[j])), e[j]);
	/* A near callee, marked: 0x40 bytes on is zigzag 0x80, then the mark: 0x101. */
	ck_assert_uint_eq(amon_entry_code(0x401000 | M, 0x401040 | M), 0x101);
	ck_assert_uint_eq(amon_entry_code(0x401040 | M, 0x401000), 0xfe);
}
END_TEST


/*
** Root; main (0x401000) from the root; f (0x401040) after main; g
** (0x401020) after main too; then a history of main, f unmarked and main
** again, given whole.
*/
static const unsigned char good[] = {
	0, 0, 0x04, 7,                             /* root: ticks 7 */
	0, 1, 0x81, 0x80, 0x81, 0x08, 0x01, 1,     /* main (code 0x1004001); calls 1 */
	1, 1, 0x81, 0x02, 0x05, 2, 9,              /* f after context 1: calls 2, ticks 9 */
	2, 1, 0x81, 0x01, 0x61, 3, 5, 0xe8, 0x07,  /* g after context 1: calls 3, allocs 5, 1000 bytes */
	0, 3, 0x81, 0x80, 0x81, 0x08, 0x80, 0x02, 0xff, 0x01, 0x01, 1, /* main, f, main; calls 1 */
};


START_TEST(test_good)
{
	char *error;
	struct amon_data *d = parse(good, sizeof good, 5, 8, &error);
	const struct amon_context_info *c;

	ck_assert_msg(d != NULL, "%s", error);
	ck_assert_int_eq(d->nthreads, 1);
	ck_assert_uint_eq(d->threads[0].ncontexts, 5);
	c = d->threads[0].contexts;
	ck_assert_uint_eq(c[0].depth, 0);
	ck_assert_uint_eq(c[0].ticks, 7);
	ck_assert_uint_eq(c[1].depth, 1);
	ck_assert_uint_eq(c[1].history[0], 0x401000 | M);
	ck_assert_uint_eq(c[1].calls, 1);
	ck_assert_uint_eq(c[2].depth, 2);
	ck_assert_uint_eq(c[2].history[0], 0x401000 | M);
	ck_assert_uint_eq(c[2].history[1], 0x401040 | M);
	ck_assert_uint_eq(c[2].calls, 2);
	ck_assert_uint_eq(c[2].ticks, 9);
	ck_assert_uint_eq(c[3].depth, 2);
	ck_assert_uint_eq(c[3].history[1], 0x401020 | M);
	ck_assert_uint_eq(c[3].calls, 3);
	ck_assert_uint_eq(c[3].allocs, 5);
	ck_assert_uint_eq(c[3].alloc_bytes, 1000);
	ck_assert_uint_eq(c[4].depth, 3);
	ck_assert_uint_eq(c[4].history[1], 0x401040);
	ck_assert_uint_eq(c[4].history[2], 0x401000 | M);
	ck_assert_uint_eq(c[4].calls, 1);
	amon_free(d);
}
END_TEST


START_TEST(test_corrupt)
{
	static const unsigned char far_ref[] = { 0, 0, 0, 2, 1, 0x01, 0 };
	static const unsigned char cut[] = { 0, 0, 0, 0, 1, 0x81 };
	static const unsigned char long_varint[] = {
		0, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02,
	};
	static const unsigned char unknown[] = { 0, 0, 0x80, 0x80, 0x20 };
	/* The root with one type site (counter AMON_SITES, bit 18): no candidate, 5, a marked one. */
	static const unsigned char no_candidate[] = { 0, 0, 0x80, 0x80, 0x10, 1, 8, 1, 0, 0 };
	static const unsigned char five[] = { 0, 0, 0x80, 0x80, 0x10, 1, 8, 1, 5, 2, 2, 2, 2, 2 };
	static const unsigned char marked[] = { 0, 0, 0x80, 0x80, 0x10, 1, 8, 1, 1, 3 };
	static const unsigned char sites_cut[] = { 0, 0, 0x80, 0x80, 0x10, 9, 8, 1, 1, 2 };
	static const unsigned char null[] = { 0, 0, 0, 0, 1, 0x01, 0 };
	static const unsigned char unmarked[] = { 0, 0, 0, 0, 1, 0x80, 0x80, 0x81, 0x08, 0 };
	static const unsigned char freed[] = { 0, 0, 0x80, 0x01, 1 };
	static const unsigned char left[] = { 0, 0, 0, 9 };
	/* Each context repeats its predecessor's history and adds one entry. */
	static const unsigned char chain[] = {
		0, 0, 0, 0, 1, 0x05, 0, 1, 1, 0x01, 0, 1, 1, 0x01, 0,
	};

	refused(far_ref, sizeof far_ref, 2, ANY, "history of a context that does not exist");
	refused(cut, sizeof cut, 2, ANY, "bad varint");
	refused(long_varint, sizeof long_varint, 2, ANY, "bad varint");
	refused(unknown, sizeof unknown, 1, ANY, "unknown counter");
	refused(no_candidate, sizeof no_candidate, 1, ANY, "corrupt type site");
	refused(five, sizeof five, 1, ANY, "corrupt type site");
	refused(marked, sizeof marked, 1, ANY, "corrupt type site (candidate)");
	refused(sites_cut, sizeof sites_cut, 1, ANY, "type sites cannot fit");
	refused(null, sizeof null, 2, ANY, "null address");
	refused(unmarked, sizeof unmarked, 2, ANY, "running routine unmarked");
	refused(freed, sizeof freed, 1, ANY, "more freed than allocated");
	refused(left, sizeof left, 1, ANY, "bytes left over");
	refused(left, sizeof left, 2, ANY, "contexts cannot fit");
	/*
	** 1 + 2 + 3 entries spelled out: refused as soon as they pass the 5 the
	** thread record gives, before the block grows; read with 6; refused
	** with 7, once every context is read.
	*/
	refused(chain, sizeof chain, 4, 5, "longer than the 5 entries the thread record gives");
	{
		char *error;
		struct amon_data *d = parse(chain, sizeof chain, 4, 6, &error);

		ck_assert_msg(d != NULL, "%s", error);
		ck_assert_uint_eq(d->threads[0].contexts[3].depth, 3);
		ck_assert_uint_eq(d->threads[0].contexts[3].history[2], 1 | M);
		amon_free(d);
	}
	refused(chain, sizeof chain, 4, 7, "histories of 6 entries, not the 7 it gives");
}
END_TEST


Suite *suite_amon(void)
{
	Suite *s = suite_create("amon");
	TCase *tc = tcase_create("contexts");

	tcase_add_test(tc, test_entry_codes);
	tcase_add_test(tc, test_good);
	tcase_add_test(tc, test_corrupt);
	suite_add_tcase(s, tc);
	return s;
}
