/*
 * fuzz_authinfo.c: the line ExposeAuthInfo writes for a method that
 * succeeded (authinfo_add), from a key blob and extra text that came
 * from the client, however well checked before.
 *
 * The input: one byte picking the method, one byte n, then n bytes of
 * extra text (none when n is 0xff), the rest the key blob (none when
 * empty). Whatever the bytes, a line that is written is one line: text
 * without a newline but the last, starting with the method's name; a
 * refused one leaves the text as it was.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "authinfo.h"
#include "err.h"
#include "mem.h"
#include "sbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static const char *const methods[] = {
	"publickey", "hostbased", "password", "keyboard-interactive:pam",
	"none",
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *method, *p;
	struct sbuf *text;
	char *info = NULL;
	size_t n, len;
	int r;

	if (size < 2)
		return 0;
	method = methods[data[0] % (sizeof(methods) / sizeof(methods[0]))];
	n = data[1];
	data += 2;
	size -= 2;
	if (n != 0xff) {
		if (n > size)
			n = size;
		info = x_strndup((const char *)data, n);
		data += n;
		size -= n;
	}
	text = sbuf_new();
	REQUIRE(sbuf_put(text, "x\n", 2) == 0);
	r = authinfo_add(text, method, size > 0 ? data : NULL, size, info);
	p = (const char *)sbuf_ptr(text) + 2;
	len = sbuf_len(text) - 2;
	if (r != 0)
		REQUIRE(len == 0);
	else {
		REQUIRE(len > 0 && p[len - 1] == '\n');
		REQUIRE(memchr(p, '\n', len - 1) == NULL);
		REQUIRE(len > 4 && strncmp(p, method, 4) == 0);
	}
	sbuf_free(text);
	x_free(info);
	return 0;
}
