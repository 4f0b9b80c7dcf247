/*
 * ksrequest.c: what ssh-keysign agrees to sign.
 *
 * The caller is an unprivileged user holding a connection; the helper
 * signs with keys that user cannot read. So the bytes to sign must be a
 * hostbased USERAUTH_REQUEST naming this machine (as the connection's
 * local address resolves) and the calling user, for one of the loaded
 * host keys, and nothing else: otherwise the user could make the host
 * key sign arbitrary data, or claim another user's identity.
 *
 * Every field is read through the sbuf getters; the key blob is compared
 * byte for byte with the loaded keys' blobs, so nothing from the caller
 * is parsed as a key.
 */
#include <string.h>
#include <strings.h>

#include "clienthostbased.h"
#include "err.h"
#include "key.h"
#include "keysign.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

/* Session id sizes: the exchange hash of SHA-1, -256, -384 or -512. */
static const size_t ks_sid_lens[] = { 20, 32, 48, 64 };

/* Signature algorithms the helper signs with. */
static const char *const ks_sigalgs[] = {
	"ssh-ed25519",
	"ecdsa-sha2-nistp256",
	"ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521",
	"rsa-sha2-512",
	"rsa-sha2-256",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* 1 when the next string in b is exactly s (and consume it). */
static int
get_fixed(struct sbuf *b, const char *s, int *okp)
{
	const unsigned char *p;
	size_t len;
	int r;

	if ((r = sbuf_get_string_direct(b, &p, &len)) != 0)
		return r;
	*okp = len == strlen(s) && memcmp(p, s, len) == 0;
	return 0;
}

static int
sid_len_ok(size_t len)
{
	size_t i;

	for (i = 0; i < NELEM(ks_sid_lens); i++)
		if (ks_sid_lens[i] == len)
			return 1;
	return 0;
}

static int
sigalg_ok(const char *alg)
{
	size_t i;

	for (i = 0; i < NELEM(ks_sigalgs); i++)
		if (strcmp(ks_sigalgs[i], alg) == 0)
			return 1;
	return 0;
}

/* The index of the key whose blob is exactly blob, or -1. */
static int
find_key(const unsigned char *blob, size_t blen, struct key *const *keys,
    size_t nkeys, size_t *idxp)
{
	struct sbuf *kb;
	size_t i;
	int r, found = 0;

	for (i = 0; i < nkeys && !found; i++) {
		if (keys[i] == NULL)
			continue;
		kb = sbuf_new();
		if ((r = key_to_blob(keys[i], kb)) != 0) {
			sbuf_free(kb);
			return r;
		}
		if (sbuf_len(kb) == blen && memcmp(sbuf_ptr(kb), blob,
		    blen) == 0) {
			*idxp = i;
			found = 1;
		}
		sbuf_free(kb);
	}
	return found ? 0 : ERR_NOT_FOUND;
}

int
ks_parse_message(struct sbuf *msg, unsigned int *verp, uint32_t *fdp,
    const unsigned char **datap, size_t *dlenp)
{
	uint8_t ver;
	int r;

	*verp = 0;
	*fdp = 0;
	*datap = NULL;
	*dlenp = 0;
	if ((r = sbuf_get_u8(msg, &ver)) != 0 ||
	    (r = sbuf_get_u32(msg, fdp)) != 0 ||
	    (r = sbuf_get_string_direct(msg, datap, dlenp)) != 0 ||
	    sbuf_len(msg) != 0) {
		*datap = NULL;
		*dlenp = 0;
		return ERR_INVALID_FORMAT;
	}
	*verp = ver;
	if (ver != HB_KEYSIGN_VERSION)
		return ERR_PROTOCOL;
	if (*fdp != HB_KEYSIGN_FD)
		return ERR_INVALID_ARGUMENT;
	return 0;
}

int
ks_check_request(const unsigned char *data, size_t dlen,
    const char *luser, const char *lhost, struct key *const *keys,
    size_t nkeys, size_t *idxp, char **algp)
{
	struct sbuf *b = sbuf_from(data, dlen);
	const unsigned char *sid, *blob;
	char *alg = NULL, *chost = NULL, *cuser = NULL;
	size_t sidlen, blen, idx = 0;
	int r, svc_ok = 0, meth_ok = 0;
	uint8_t type;

	*idxp = 0;
	*algp = NULL;
	if ((r = sbuf_get_string_direct(b, &sid, &sidlen)) != 0 ||
	    (r = sbuf_get_u8(b, &type)) != 0 ||
	    (r = sbuf_get_string_direct(b, NULL, NULL)) != 0 ||	/* user */
	    (r = get_fixed(b, "ssh-connection", &svc_ok)) != 0 ||
	    (r = get_fixed(b, "hostbased", &meth_ok)) != 0 ||
	    (r = sbuf_get_cstring(b, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(b, &blob, &blen)) != 0 ||
	    (r = sbuf_get_cstring(b, &chost, NULL)) != 0 ||
	    (r = sbuf_get_cstring(b, &cuser, NULL)) != 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (sbuf_len(b) != 0 || !sid_len_ok(sidlen) ||
	    type != SSH2_MSG_USERAUTH_REQUEST) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (!svc_ok || !meth_ok || !sigalg_ok(alg) ||
	    strcasecmp(chost, lhost) != 0 || strcmp(cuser, luser) != 0) {
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	if ((r = find_key(blob, blen, keys, nkeys, &idx)) != 0)
		goto out;
	if (!key_sigalg_matches(keys[idx], alg)) {
		r = ERR_PERMISSION_DENIED;
		goto out;
	}
	*idxp = idx;
	*algp = alg;
	alg = NULL;
	r = 0;
 out:
	x_free(alg);
	x_free(chost);
	x_free(cuser);
	sbuf_free(b);
	return r;
}
