/*
 * sk_proto.c: encoding and checking the messages of ssh-sk-helper
 * (sk_proto.h). Requests come from our own programs; replies come from
 * a process running a third-party library and are checked field by
 * field: sizes capped, keys rebuilt through the ordinary blob parser
 * (which checks the point is on the curve), signatures of the one
 * shape their algorithm has.
 */
#include <string.h>

#include "err.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_proto.h"

#define ED25519_SIG_LEN		64
#define ED25519_PUB_LEN		32
#define P256_POINT_LEN		65
#define P256_SCALAR_LEN		32

static const char *
nz(const char *s)
{
	return s != NULL ? s : "";
}

int
skh_alg_of(enum key_type type, uint32_t *algp)
{
	switch (type) {
	case KEY_ED25519_SK:
		*algp = SSH_SK_ED25519;
		return 0;
	case KEY_ECDSA_SK:
		*algp = SSH_SK_ECDSA;
		return 0;
	default:
		return ERR_KEY_TYPE_MISMATCH;
	}
}

static const char *
alg_type_name(uint32_t alg)
{
	switch (alg) {
	case SSH_SK_ED25519:
		return "sk-ssh-ed25519@openssh.com";
	case SSH_SK_ECDSA:
		return "sk-ecdsa-sha2-nistp256@openssh.com";
	default:
		return NULL;
	}
}

int
skh_request_put(const struct skh_request *q, struct sbuf *out)
{
	struct sbuf *b = sbuf_new();
	int r;

	if ((r = sbuf_put_u8(b, q->type)) != 0 ||
	    (r = sbuf_put_cstring(b, nz(q->provider))) != 0 ||
	    (r = sbuf_put_cstring(b, nz(q->pin))) != 0 ||
	    (r = sbuf_put_cstring(b, nz(q->device))) != 0)
		goto out;
	switch (q->type) {
	case SKH_ENROLL:
		if ((r = sbuf_put_u32(b, q->alg)) != 0 ||
		    (r = sbuf_put_cstring(b, nz(q->application))) != 0 ||
		    (r = sbuf_put_u8(b, q->flags)) != 0 ||
		    (r = sbuf_put_string(b, q->data, q->datalen)) != 0 ||
		    (r = sbuf_put_cstring(b, nz(q->user))) != 0)
			goto out;
		break;
	case SKH_SIGN:
		if ((r = sbuf_put_u32(b, q->alg)) != 0 ||
		    (r = sbuf_put_cstring(b, nz(q->application))) != 0 ||
		    (r = sbuf_put_u8(b, q->flags)) != 0 ||
		    (r = sbuf_put_string(b, q->key_handle, q->khlen)) != 0 ||
		    (r = sbuf_put_string(b, q->data, q->datalen)) != 0)
			goto out;
		break;
	case SKH_LOAD_RESIDENT:
		break;
	default:
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	if (sbuf_len(b) > SKH_MAX_MSG) {
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	if ((r = sbuf_put_u32(out, (uint32_t)sbuf_len(b))) == 0)
		r = sbuf_putb(out, b);
 out:
	sbuf_wipe(b);
	sbuf_free(b);
	return r;
}

int
skh_request_get(struct sbuf *body, struct skh_request *q)
{
	int r;

	memset(q, 0, sizeof(*q));
	if ((r = sbuf_get_u8(body, &q->type)) != 0 ||
	    (r = sbuf_get_cstring(body, &q->provider, NULL)) != 0 ||
	    (r = sbuf_get_cstring(body, &q->pin, NULL)) != 0 ||
	    (r = sbuf_get_cstring(body, &q->device, NULL)) != 0)
		return r;
	switch (q->type) {
	case SKH_ENROLL:
		if ((r = sbuf_get_u32(body, &q->alg)) != 0 ||
		    (r = sbuf_get_cstring(body, &q->application, NULL)) != 0 ||
		    (r = sbuf_get_u8(body, &q->flags)) != 0 ||
		    (r = sbuf_get_string(body, &q->data, &q->datalen)) != 0 ||
		    (r = sbuf_get_cstring(body, &q->user, NULL)) != 0)
			return r;
		break;
	case SKH_SIGN:
		if ((r = sbuf_get_u32(body, &q->alg)) != 0 ||
		    (r = sbuf_get_cstring(body, &q->application, NULL)) != 0 ||
		    (r = sbuf_get_u8(body, &q->flags)) != 0 ||
		    (r = sbuf_get_string(body, &q->key_handle,
		    &q->khlen)) != 0 ||
		    (r = sbuf_get_string(body, &q->data, &q->datalen)) != 0)
			return r;
		break;
	case SKH_LOAD_RESIDENT:
		break;
	default:
		return ERR_PROTOCOL;
	}
	return sbuf_len(body) == 0 ? 0 : ERR_PROTOCOL;
}

void
skh_request_free(struct skh_request *q)
{
	x_free(q->provider);
	if (q->pin != NULL)
		x_freezero(q->pin, strlen(q->pin));
	x_free(q->device);
	x_free(q->application);
	x_free(q->data);
	x_free(q->key_handle);
	x_free(q->user);
	memset(q, 0, sizeof(*q));
}

int
skh_reply_status(struct sbuf *body, int *skerrp)
{
	uint8_t st;
	uint32_t code;
	int r;

	*skerrp = 0;
	if ((r = sbuf_get_u8(body, &st)) != 0)
		return ERR_PROTOCOL;
	if (st == SKH_OK)
		return 0;
	if (st != SKH_FAIL || sbuf_get_u32(body, &code) != 0 ||
	    sbuf_len(body) != 0 || code == 0 || code > 1000)
		return ERR_PROTOCOL;
	*skerrp = -(int)code;
	return ERR_FEATURE_UNSUPPORTED;
}

/* A string field of a reply: at most SKH_MAX_FIELD bytes. */
static int
get_field(struct sbuf *b, const unsigned char **pp, size_t *lenp)
{
	int r;

	if ((r = sbuf_get_string_direct(b, pp, lenp)) != 0)
		return ERR_PROTOCOL;
	return *lenp <= SKH_MAX_FIELD ? 0 : ERR_PROTOCOL;
}

/*
 * A private security key from the middleware's parts: the public key
 * goes through key_from_blob, as a peer's would.
 */
static int
make_key(uint32_t alg, const char *application, uint8_t flags,
    const unsigned char *pk, size_t pklen, const unsigned char *kh,
    size_t khlen, struct key **keyp)
{
	const char *name = alg_type_name(alg);
	struct sbuf *blob = sbuf_new();
	struct key *k = NULL;
	int r;

	*keyp = NULL;
	if (name == NULL || khlen == 0 || *application == '\0' ||
	    pklen != (alg == SSH_SK_ED25519 ? ED25519_PUB_LEN :
	    P256_POINT_LEN)) {
		r = ERR_PROTOCOL;
		goto out;
	}
	if ((r = sbuf_put_cstring(blob, name)) != 0 ||
	    (alg == SSH_SK_ECDSA &&
	    (r = sbuf_put_cstring(blob, "nistp256")) != 0) ||
	    (r = sbuf_put_string(blob, pk, pklen)) != 0 ||
	    (r = sbuf_put_cstring(blob, application)) != 0)
		goto out;
	if ((r = key_from_blob(sbuf_ptr(blob), sbuf_len(blob), &k)) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	k->sk_flags = flags;
	k->sk_key_handle = x_malloc(khlen);
	memcpy(k->sk_key_handle, kh, khlen);
	k->sk_key_handle_len = khlen;
	k->sk_reserved = x_malloc(1);
	k->sk_reserved_len = 0;
	k->has_private = 1;
	*keyp = k;
	k = NULL;
 out:
	key_free(k);
	sbuf_free(blob);
	return r;
}

int
skh_parse_enroll(struct sbuf *body, uint32_t alg, const char *application,
    struct key **keyp, struct sbuf *attest)
{
	const unsigned char *pk, *kh, *sig, *cert, *auth;
	size_t pklen, khlen, siglen, certlen, authlen;
	uint8_t flags;
	int r;

	*keyp = NULL;
	if (sbuf_get_u8(body, &flags) != 0 ||
	    (r = get_field(body, &pk, &pklen)) != 0 ||
	    (r = get_field(body, &kh, &khlen)) != 0 ||
	    (r = get_field(body, &sig, &siglen)) != 0 ||
	    (r = get_field(body, &cert, &certlen)) != 0 ||
	    (r = get_field(body, &auth, &authlen)) != 0)
		return ERR_PROTOCOL;
	if (sbuf_len(body) != 0)
		return ERR_PROTOCOL;
	if ((r = make_key(alg, application, flags, pk, pklen, kh, khlen,
	    keyp)) != 0)
		return r;
	if (attest == NULL)
		return 0;
	if ((r = sbuf_put_cstring(attest, "ssh-sk-attest-v01")) != 0 ||
	    (r = sbuf_put_string(attest, cert, certlen)) != 0 ||
	    (r = sbuf_put_string(attest, sig, siglen)) != 0 ||
	    (r = sbuf_put_string(attest, auth, authlen)) != 0 ||
	    (r = sbuf_put_u32(attest, 0)) != 0 ||
	    (r = sbuf_put_string(attest, "", 0)) != 0) {
		key_free(*keyp);
		*keyp = NULL;
	}
	return r;
}

/* ECDSA's r and s as an SSH signature: string (mpint r, mpint s). */
static int
put_ecdsa_sig(struct sbuf *out, const unsigned char *rb, size_t rlen,
    const unsigned char *sb, size_t slen)
{
	struct sbuf *inner = sbuf_new();
	int r;

	if (rlen == 0 || slen == 0 || rlen > P256_SCALAR_LEN + 1 ||
	    slen > P256_SCALAR_LEN + 1) {
		r = ERR_PROTOCOL;
		goto out;
	}
	if ((r = sbuf_put_mpint_bytes(inner, rb, rlen)) != 0 ||
	    (r = sbuf_put_mpint_bytes(inner, sb, slen)) != 0 ||
	    (r = sbuf_put_stringb(out, inner)) != 0)
		goto out;
 out:
	sbuf_free(inner);
	return r;
}

int
skh_parse_sign(struct sbuf *body, const struct key *k, struct sbuf *sig)
{
	const unsigned char *rb, *sb;
	size_t rlen, slen;
	uint32_t counter;
	uint8_t flags;
	int r;

	if (sbuf_get_u8(body, &flags) != 0 ||
	    sbuf_get_u32(body, &counter) != 0 ||
	    get_field(body, &rb, &rlen) != 0 ||
	    get_field(body, &sb, &slen) != 0 || sbuf_len(body) != 0)
		return ERR_PROTOCOL;
	if (k->type == KEY_ED25519_SK) {
		if (rlen != ED25519_SIG_LEN || slen != 0)
			return ERR_PROTOCOL;
		if ((r = sbuf_put_cstring(sig, key_type_name(k))) != 0 ||
		    (r = sbuf_put_string(sig, rb, rlen)) != 0)
			return r;
	} else if (k->type == KEY_ECDSA_SK) {
		if ((r = sbuf_put_cstring(sig, key_type_name(k))) != 0 ||
		    (r = put_ecdsa_sig(sig, rb, rlen, sb, slen)) != 0)
			return r;
	} else
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_put_u8(sig, flags)) != 0)
		return r;
	return sbuf_put_u32(sig, counter);
}

/* One key of a resident key listing. */
static int
parse_one_resident(struct sbuf *body, struct skh_resident *rk)
{
	const unsigned char *pk, *kh, *uid;
	size_t pklen, khlen, uidlen;
	char *app = NULL;
	uint32_t alg;
	uint8_t flags;
	int r;

	if (sbuf_get_u32(body, &alg) != 0 ||
	    sbuf_get_cstring(body, &app, NULL) != 0 ||
	    sbuf_get_u8(body, &flags) != 0 ||
	    get_field(body, &pk, &pklen) != 0 ||
	    get_field(body, &kh, &khlen) != 0 ||
	    get_field(body, &uid, &uidlen) != 0 ||
	    strlen(app) > SKH_MAX_FIELD) {
		r = ERR_PROTOCOL;
		goto out;
	}
	if ((r = make_key(alg, app, flags, pk, pklen, kh, khlen,
	    &rk->key)) != 0)
		goto out;
	rk->user_id = x_malloc(uidlen + 1);
	if (uidlen > 0)
		memcpy(rk->user_id, uid, uidlen);
	rk->user_id_len = uidlen;
 out:
	x_free(app);
	return r;
}

int
skh_parse_resident(struct sbuf *body, struct skh_resident **keysp,
    size_t *nkeysp)
{
	struct skh_resident *keys = NULL;
	uint32_t n, i;
	int r = 0;

	*keysp = NULL;
	*nkeysp = 0;
	if (sbuf_get_u32(body, &n) != 0 || n > SKH_MAX_RESIDENT)
		return ERR_PROTOCOL;
	if (n > 0)
		keys = x_calloc(n, sizeof(*keys));
	for (i = 0; i < n; i++)
		if ((r = parse_one_resident(body, &keys[i])) != 0)
			break;
	if (r == 0 && sbuf_len(body) != 0)
		r = ERR_PROTOCOL;
	if (r != 0) {
		skh_resident_free(keys, n);
		return r;
	}
	*keysp = keys;
	*nkeysp = n;
	return 0;
}

void
skh_resident_free(struct skh_resident *keys, size_t n)
{
	size_t i;

	if (keys == NULL)
		return;
	for (i = 0; i < n; i++) {
		key_free(keys[i].key);
		x_free(keys[i].user_id);
	}
	x_free(keys);
}
