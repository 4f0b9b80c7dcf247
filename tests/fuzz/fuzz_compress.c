/*
 * fuzz_compress.c: the inflate side of transport compression, which
 * takes a peer's bytes once zlib or zlib@openssh.com is running.
 *
 * The first byte picks the mode and the inflate limit; the rest is
 * records "u16 length, bytes":
 *  - even first byte: each record is one packet's compressed payload,
 *    inflated in turn on one stream (as the packets of a connection
 *    are) until one is refused. Nothing may inflate past the limit.
 *  - odd first byte: each record (but an empty one, which no packet
 *    is) is deflated on one stream and inflated on another, and must
 *    come back unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compress.h"
#include "err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
next_record(const uint8_t **data, size_t *size, const uint8_t **rec,
    size_t *len)
{
	if (*size < 2)
		return 0;
	*len = (size_t)(*data)[0] << 8 | (*data)[1];
	*data += 2;
	*size -= 2;
	if (*len > *size)
		*len = *size;
	*rec = *data;
	*data += *len;
	*size -= *len;
	return 1;
}

static void
hostile(const uint8_t *data, size_t size, size_t max)
{
	struct comp_ctx *in = NULL;
	const unsigned char *out;
	const uint8_t *rec;
	size_t len, olen;
	int r;

	if (comp_new(&in, 0) != 0)
		abort();
	while (next_record(&data, &size, &rec, &len)) {
		r = comp_inflate(in, rec, len, max, &out, &olen);
		if (r != 0)
			break;
		if (olen > max)
			abort();
		if (olen > 0)
			(void)out[olen - 1];	/* readable to the end */
	}
	comp_free(in);
}

static void
roundtrip(const uint8_t *data, size_t size)
{
	struct comp_ctx *d = NULL, *in = NULL;
	const unsigned char *out;
	unsigned char *z;
	const uint8_t *rec;
	size_t len, zlen, olen;

	if (comp_new(&d, 1) != 0 || comp_new(&in, 0) != 0)
		abort();
	while (next_record(&data, &size, &rec, &len)) {
		if (len == 0)
			continue;	/* the transport sends no empty payload */
		if (comp_deflate(d, rec, len, 5, 256, &z, &zlen) != 0 ||
		    comp_inflate(in, z + 5, zlen, 65536, &out, &olen) != 0 ||
		    olen != len || (len > 0 && memcmp(out, rec, len) != 0))
			abort();
	}
	comp_free(d);
	comp_free(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] & 1)
		roundtrip(data + 1, size - 1);
	else	/* limits from 1 to 32 KiB, and the transport's 256 KiB */
		hostile(data + 1, size - 1, data[0] == 0 ? 256 * 1024 :
		    (size_t)(data[0] >> 1) * 256 + 1);
	return 0;
}
