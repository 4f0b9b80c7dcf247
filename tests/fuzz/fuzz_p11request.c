/*
 * fuzz_p11request.c: ssh-pkcs11-helper's side: the requests it reads
 * from its caller (src/pkcs11-helper/request.c). The first byte is the
 * request type, the rest its body. A body that parses must be exactly
 * the fields read: written back in the protocol's form, it gives the
 * same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/pkcs11-helper/request.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* q in the protocol's form, to compare with what was parsed. */
static void
reencode(const struct p11h_request *q, struct sbuf *b)
{
	if (q->type == P11_OPEN) {
		(void)sbuf_put_cstring(b, q->path);
		(void)sbuf_put_string(b, q->pin, q->pinlen);
	} else {
		(void)sbuf_put_string(b, q->blob, q->bloblen);
		(void)sbuf_put_string(b, q->data, q->dlen);
		(void)sbuf_put_u32(b, q->flags);
		(void)sbuf_put_string(b, q->pin, q->pinlen);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct p11h_request q;
	struct sbuf *m, *back;

	if (size < 1)
		return 0;
	m = sbuf_from(data + 1, size - 1);
	if (p11h_request_parse(data[0], m, &q) == 0) {
		if (q.type != P11_OPEN && q.type != P11_SIGN)
			abort();
		if (q.pin == NULL || strlen(q.pin) != q.pinlen)
			abort();
		back = sbuf_new();
		reencode(&q, back);
		if (sbuf_len(back) != size - 1 ||
		    memcmp(sbuf_ptr(back), data + 1, size - 1) != 0)
			abort();
		sbuf_free(back);
		p11h_request_clear(&q);
	}
	sbuf_free(m);
	return 0;
}
