/*
 * fuzz_x11auth.c: the X11 connection setup message ssh(1) reads from
 * a forwarded X11 channel before its first byte reaches the display
 * (x11auth.c), then the fake cookie check and the swap.
 *
 * The input is the channel's bytes so far, whatever an X client on the
 * server sent. Every prefix is parsed as the channel would see it
 * arrive; a complete message lies within what was read, its fields
 * within it; the swap writes the real cookie only where the fake one
 * was, and only when it was there.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mem.h"
#include "x11auth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static const unsigned char fake[16] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};
static const unsigned char real[16] = {
	0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5,
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct x11_setup st;
	unsigned char *copy;
	const char *why;
	size_t i;
	int r;

	/* A few prefixes, then the whole: the answer only firms up. */
	for (i = 0; i < size && i < 64; i++) {
		r = x11_setup_parse(data, i, &st);
		REQUIRE(r == 0 || r == ERR_AGAIN || r == ERR_INVALID_FORMAT);
		if (r == 0)
			REQUIRE(st.total <= i);
	}
	r = x11_setup_parse(data, size, &st);
	REQUIRE(r == 0 || r == ERR_AGAIN || r == ERR_INVALID_FORMAT);
	if (r != 0)
		return 0;
	REQUIRE(st.total <= size && st.total >= 12);
	REQUIRE(st.name_off + st.name_len <= st.total);
	REQUIRE(st.data_off + st.data_len <= st.total);
	copy = x_malloc(size);
	memcpy(copy, data, size);
	r = x11_setup_spoof(copy, &st, "MIT-MAGIC-COOKIE-1", fake, real,
	    sizeof(fake), &why);
	if (r == 0) {
		REQUIRE(memcmp(data + st.data_off, fake, sizeof(fake)) == 0);
		REQUIRE(memcmp(copy + st.data_off, real, sizeof(real)) == 0);
		REQUIRE(memcmp(copy, data, st.data_off) == 0);
		REQUIRE(memcmp(copy + st.data_off + 16, data + st.data_off +
		    16, size - st.data_off - 16) == 0);
	} else {
		REQUIRE(r == ERR_PERMISSION_DENIED && why != NULL);
		REQUIRE(memcmp(copy, data, size) == 0);
	}
	x_free(copy);
	return 0;
}
