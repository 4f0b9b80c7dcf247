/*
 * hkproof.c: the data a host key signs to prove it is the server's
 * (see hkproof.h).
 */
#include "err.h"
#include "hkproof.h"

int
hkproof_data(const unsigned char *sid, size_t sidlen, const struct key *k,
    struct sbuf *out)
{
	struct sbuf *blob;
	int r;

	if (sid == NULL || sidlen == 0 || k == NULL || out == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((blob = sbuf_new()) == NULL)
		return ERR_ALLOC;
	if ((r = key_to_blob(k, blob)) == 0 &&
	    (r = sbuf_put_cstring(out, HKPROOF_PROVE)) == 0 &&
	    (r = sbuf_put_string(out, sid, sidlen)) == 0)
		r = sbuf_put_stringb(out, blob);
	sbuf_free(blob);
	return r;
}
