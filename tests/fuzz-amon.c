/*
** fuzz-amon.c -- the libFuzzer target for the amon reader (amon_parse).
** Each input is parsed twice: as it is, and with its CRC-32 seal recomputed,
** since otherwise nearly every mutation would stop at the checksum and the
** fuzzer would never reach the records behind it.  Any crash, leak or
** undefined behaviour is a bug; a refusal with a message is the right answer.
** Built with clang -fsanitize=fuzzer,address,undefined (make fuzz, and the
** corpus test in make check, which runs every corpus file once).
*/
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "aprof/read/amon_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


/* Parses a malloc'd copy of DATA, resealed with its CRC if RESEAL. */
static void parse_copy(const uint8_t *data, size_t size, int reseal)
{
	unsigned char *image = malloc(size ? size : 1);
	struct amon_data *d;
	char *error = NULL;

	if (image == NULL)
		return;
	memcpy(image, data, size);
	if (reseal && size >= sizeof(uint32_t)) {
		uint32_t crc = (uint32_t)crc32_z(crc32_z(0L, Z_NULL, 0), image,
						 size - sizeof crc);

		memcpy(image + size - sizeof crc, &crc, sizeof crc);
	}
	d = amon_parse(image, size, "fuzz", &error);
	amon_free(d);
	free(error);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_copy(data, size, 0);
	parse_copy(data, size, 1);
	return 0;
}
