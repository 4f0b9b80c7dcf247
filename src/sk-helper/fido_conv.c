/*
 * fido_conv.c: the device-free half of the built-in libfido2 provider
 * (fido_conv.h). Every input is what an authenticator said, passed on
 * by libfido2: lengths are checked before anything is copied.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ecdsa.h>

#include "fido_conv.h"
#include "mem.h"

#define ED25519_PUB_LEN		32
#define ED25519_SIG_LEN		64
#define P256_COORD_LEN		32
#define P256_MAX_DER_SIG	80	/* two 33-byte INTEGERs and headers */

int
skf_parse_options(struct sk_option **opts, struct skf_opts *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; opts != NULL && opts[i] != NULL; i++) {
		if (opts[i]->name == NULL)
			return SSH_SK_ERR_UNSUPPORTED;
		if (strcmp(opts[i]->name, "device") == 0)
			o->device = opts[i]->value;
		else if (strcmp(opts[i]->name, "user") == 0)
			o->user = opts[i]->value;
		else if (opts[i]->required)
			return SSH_SK_ERR_UNSUPPORTED;
	}
	return 0;
}

void
skf_user_id(const char *user, uint8_t out[SKF_USER_ID_LEN])
{
	size_t n = user != NULL ? strlen(user) : 0;

	memset(out, 0, SKF_USER_ID_LEN);
	if (n > SKF_USER_ID_LEN)
		n = SKF_USER_ID_LEN;
	if (n > 0)
		memcpy(out, user, n);
}

int
skf_pubkey(uint32_t alg, const uint8_t *pk, size_t len, uint8_t **outp,
    size_t *outlenp)
{
	uint8_t *out;

	*outp = NULL;
	*outlenp = 0;
	if (pk == NULL)
		return SSH_SK_ERR_GENERAL;
	switch (alg) {
	case SSH_SK_ED25519:
		if (len != ED25519_PUB_LEN)
			return SSH_SK_ERR_GENERAL;
		*outp = x_memdup(pk, len);
		*outlenp = len;
		return 0;
	case SSH_SK_ECDSA:
		/* x || y, or already the uncompressed point */
		if (len == 1 + 2 * P256_COORD_LEN && pk[0] == 0x04) {
			pk++;
			len--;
		}
		if (len != 2 * P256_COORD_LEN)
			return SSH_SK_ERR_GENERAL;
		out = x_malloc(1 + len);
		out[0] = 0x04;
		memcpy(out + 1, pk, len);
		*outp = out;
		*outlenp = 1 + len;
		return 0;
	default:
		return SSH_SK_ERR_UNSUPPORTED;
	}
}

static void
copy_bytes(const struct skf_bytes *b, uint8_t **pp, size_t *lenp)
{
	*pp = NULL;
	*lenp = 0;
	if (b->ptr == NULL || b->len == 0)
		return;
	*pp = x_memdup(b->ptr, b->len);
	*lenp = b->len;
}

int
skf_enroll_response(const struct skf_cred *c,
    struct sk_enroll_response **respp)
{
	struct sk_enroll_response *e;
	int r;

	*respp = NULL;
	if (c->id.ptr == NULL || c->id.len == 0)
		return SSH_SK_ERR_GENERAL;
	e = x_calloc(1, sizeof(*e));
	if ((r = skf_pubkey(c->alg, c->pubkey.ptr, c->pubkey.len,
	    &e->public_key, &e->public_key_len)) != 0) {
		free(e);
		return r;
	}
	e->flags = c->flags;
	copy_bytes(&c->id, &e->key_handle, &e->key_handle_len);
	copy_bytes(&c->sig, &e->signature, &e->signature_len);
	copy_bytes(&c->x5c, &e->attestation_cert, &e->attestation_cert_len);
	copy_bytes(&c->authdata, &e->authdata, &e->authdata_len);
	*respp = e;
	return 0;
}

int
skf_resident_key(const struct skf_cred *c, const char *app, size_t slot,
    const struct skf_bytes *user_id, struct sk_resident_key **rkp)
{
	struct sk_resident_key *rk;
	struct sk_enroll_response *e = NULL;
	int r;

	*rkp = NULL;
	if (app == NULL)
		return SSH_SK_ERR_GENERAL;
	if ((r = skf_enroll_response(c, &e)) != 0)
		return r;
	rk = x_calloc(1, sizeof(*rk));
	rk->alg = c->alg;
	rk->slot = slot;
	rk->application = x_strdup(app);
	rk->key = *e;
	rk->flags = c->flags;
	free(e);
	copy_bytes(user_id, &rk->user_id, &rk->user_id_len);
	*rkp = rk;
	return 0;
}

/* A BIGNUM as unsigned big-endian bytes (at least one byte). */
static int
bn_bytes(const BIGNUM *bn, uint8_t **pp, size_t *lenp)
{
	int n = BN_num_bytes(bn);

	if (n > P256_COORD_LEN)
		return SSH_SK_ERR_GENERAL;
	*pp = x_calloc(1, n > 0 ? (size_t)n : 1);
	*lenp = n > 0 ? (size_t)n : 1;
	if (n > 0 && BN_bn2bin(bn, *pp) != n) {
		free(*pp);
		*pp = NULL;
		return SSH_SK_ERR_GENERAL;
	}
	return 0;
}

/* DER ECDSA-Sig-Value into r and s; nothing may follow it. */
static int
split_ecdsa(const uint8_t *sig, size_t siglen, struct sk_sign_response *s)
{
	const unsigned char *p = sig;
	const BIGNUM *br, *bs;
	ECDSA_SIG *es;
	int r = SSH_SK_ERR_GENERAL;

	if (siglen == 0 || siglen > P256_MAX_DER_SIG)
		return SSH_SK_ERR_GENERAL;
	if ((es = d2i_ECDSA_SIG(NULL, &p, (long)siglen)) == NULL)
		return SSH_SK_ERR_GENERAL;
	if (p != sig + siglen)
		goto out;
	ECDSA_SIG_get0(es, &br, &bs);
	if (BN_is_negative(br) || BN_is_negative(bs) ||
	    bn_bytes(br, &s->sig_r, &s->sig_r_len) != 0 ||
	    bn_bytes(bs, &s->sig_s, &s->sig_s_len) != 0)
		goto out;
	r = 0;
 out:
	ECDSA_SIG_free(es);
	return r;
}

int
skf_sign_response(uint32_t alg, const uint8_t *sig, size_t siglen,
    uint8_t flags, uint32_t counter, struct sk_sign_response **respp)
{
	struct sk_sign_response *s;
	int r = 0;

	*respp = NULL;
	if (sig == NULL)
		return SSH_SK_ERR_GENERAL;
	s = x_calloc(1, sizeof(*s));
	s->flags = flags;
	s->counter = counter;
	switch (alg) {
	case SSH_SK_ED25519:
		if (siglen != ED25519_SIG_LEN)
			r = SSH_SK_ERR_GENERAL;
		else {
			s->sig_r = x_memdup(sig, siglen);
			s->sig_r_len = siglen;
		}
		break;
	case SSH_SK_ECDSA:
		r = split_ecdsa(sig, siglen, s);
		break;
	default:
		r = SSH_SK_ERR_UNSUPPORTED;
		break;
	}
	if (r != 0) {
		skf_sign_free(s);
		return r;
	}
	*respp = s;
	return 0;
}

void
skf_enroll_free_parts(struct sk_enroll_response *e)
{
	if (e == NULL)
		return;
	free(e->public_key);
	free(e->key_handle);
	free(e->signature);
	free(e->attestation_cert);
	free(e->authdata);
	memset(e, 0, sizeof(*e));
}

void
skf_enroll_free(struct sk_enroll_response *e)
{
	skf_enroll_free_parts(e);
	free(e);
}

void
skf_sign_free(struct sk_sign_response *s)
{
	if (s == NULL)
		return;
	free(s->sig_r);
	free(s->sig_s);
	free(s);
}

void
skf_resident_free(struct sk_resident_key *rk)
{
	if (rk == NULL)
		return;
	skf_enroll_free_parts(&rk->key);
	free(rk->application);
	free(rk->user_id);
	free(rk);
}

void
skf_resident_list_free(struct sk_resident_key **list, size_t n)
{
	size_t i;

	for (i = 0; list != NULL && i < n; i++)
		skf_resident_free(list[i]);
	free(list);
}
