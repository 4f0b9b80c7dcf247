/*
 * request.c: the body of a request ssh-pkcs11-helper reads from its
 * caller (p11_client.h), parsed whole, with nothing after it, before
 * anything is done with it.
 */
#include <string.h>

#include "err.h"
#include "helper.h"
#include "mem.h"
#include "p11_client.h"

int
p11h_request_parse(uint8_t type, struct sbuf *m, struct p11h_request *q)
{
	memset(q, 0, sizeof(*q));
	q->type = type;
	switch (type) {
	case P11_OPEN:
		if (sbuf_get_cstring(m, &q->path, NULL) != 0 ||
		    sbuf_get_cstring(m, &q->pin, &q->pinlen) != 0)
			goto bad;
		break;
	case P11_SIGN:
		if (sbuf_get_string_direct(m, &q->blob, &q->bloblen) != 0 ||
		    sbuf_get_string_direct(m, &q->data, &q->dlen) != 0 ||
		    sbuf_get_u32(m, &q->flags) != 0 ||
		    sbuf_get_cstring(m, &q->pin, &q->pinlen) != 0)
			goto bad;
		break;
	default:
		return ERR_FEATURE_UNSUPPORTED;
	}
	if (sbuf_len(m) == 0)
		return 0;
 bad:
	p11h_request_clear(q);
	return ERR_INVALID_FORMAT;
}

void
p11h_request_clear(struct p11h_request *q)
{
	x_free(q->path);
	if (q->pin != NULL)
		x_freezero(q->pin, q->pinlen);
	memset(q, 0, sizeof(*q));
}
