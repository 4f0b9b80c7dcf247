/*
 * sshsig.c: the SSH signature format (see sshsig.h): digests, the blob
 * and its armor, parsing and checking.
 *
 * The message is never held whole: it is digested as it is read, and the
 * key signs the small "signed data" around the digest.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "err.h"
#include "mem.h"
#include "sshsig.h"

static const EVP_MD *
hash_md(const char *name)
{
	if (name == NULL)
		return NULL;
	if (strcmp(name, "sha256") == 0)
		return EVP_sha256();
	if (strcmp(name, "sha512") == 0)
		return EVP_sha512();
	return NULL;
}

int
sshsig_hashalg_ok(const char *name)
{
	return hash_md(name) != NULL;
}

static int
digest_out(EVP_MD_CTX *ctx, struct sbuf *out)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned int dlen = 0;
	int r;

	if (EVP_DigestFinal_ex(ctx, d, &dlen) != 1)
		return ERR_LIBCRYPTO;
	r = sbuf_put(out, d, dlen);
	x_wipe(d, sizeof(d));
	return r;
}

int
sshsig_hash_fd(const char *hashalg, int fd, struct sbuf *out)
{
	const EVP_MD *md = hash_md(hashalg);
	unsigned char buf[64 * 1024];
	EVP_MD_CTX *ctx;
	ssize_t n;
	int r = 0;

	if (md == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return ERR_ALLOC;
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	for (;;) {
		if ((n = read(fd, buf, sizeof(buf))) < 0) {
			if (errno == EINTR)
				continue;
			r = ERR_SYSTEM;
			goto out;
		}
		if (n == 0)
			break;
		if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1) {
			r = ERR_LIBCRYPTO;
			goto out;
		}
	}
	r = digest_out(ctx, out);
 out:
	EVP_MD_CTX_free(ctx);
	return r;
}

int
sshsig_hash_mem(const char *hashalg, const void *p, size_t len,
    struct sbuf *out)
{
	const EVP_MD *md = hash_md(hashalg);
	EVP_MD_CTX *ctx;
	int r;

	if (md == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((ctx = EVP_MD_CTX_new()) == NULL)
		return ERR_ALLOC;
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1 ||
	    EVP_DigestUpdate(ctx, p, len) != 1)
		r = ERR_LIBCRYPTO;
	else
		r = digest_out(ctx, out);
	EVP_MD_CTX_free(ctx);
	return r;
}

int
sshsig_signed_data(const char *ns, const char *hashalg,
    const unsigned char *h, size_t hlen, struct sbuf *out)
{
	int r;

	if ((r = sbuf_put(out, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN)) != 0 ||
	    (r = sbuf_put_cstring(out, ns)) != 0 ||
	    (r = sbuf_put_string(out, NULL, 0)) != 0 ||	/* reserved */
	    (r = sbuf_put_cstring(out, hashalg)) != 0 ||
	    (r = sbuf_put_string(out, h, hlen)) != 0)
		return r;
	return 0;
}

int
sshsig_encode(const unsigned char *keyblob, size_t keylen, const char *ns,
    const char *hashalg, const unsigned char *sig, size_t siglen,
    struct sbuf *out)
{
	int r;

	if ((r = sbuf_put(out, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN)) != 0 ||
	    (r = sbuf_put_u32(out, SSHSIG_VERSION)) != 0 ||
	    (r = sbuf_put_string(out, keyblob, keylen)) != 0 ||
	    (r = sbuf_put_cstring(out, ns)) != 0 ||
	    (r = sbuf_put_string(out, NULL, 0)) != 0 ||	/* reserved */
	    (r = sbuf_put_cstring(out, hashalg)) != 0 ||
	    (r = sbuf_put_string(out, sig, siglen)) != 0)
		return r;
	return 0;
}

int
sshsig_armor(const struct sbuf *blob, struct sbuf *out)
{
	char *b64 = sbuf_to_b64(blob, 1);
	int r;

	r = sbuf_putf(out, "%s%s\n%s\n", SSHSIG_BEGIN, b64, SSHSIG_END);
	x_free(b64);
	return r;
}

int
sshsig_dearmor(const unsigned char *text, size_t len, struct sbuf *out,
    char *why, size_t whylen)
{
	static const char end[] = "\n" SSHSIG_END;
	const size_t blen = sizeof(SSHSIG_BEGIN) - 1, elen = sizeof(end) - 1;
	const unsigned char *body, *stop;
	char *b64;
	int r;

	if (len < blen || memcmp(text, SSHSIG_BEGIN, blen) != 0) {
		err_why(why, whylen, "Couldn't parse signature: missing "
		    "header");
		return len < blen ? ERR_MESSAGE_INCOMPLETE : ERR_INVALID_FORMAT;
	}
	body = text + blen;
	len -= blen;
	if (len < elen || (stop = memmem(body, len, end, elen)) == NULL) {
		err_why(why, whylen, "Couldn't parse signature: missing "
		    "footer");
		return len < elen ? ERR_MESSAGE_INCOMPLETE : ERR_INVALID_FORMAT;
	}
	if (memchr(body, '\0', (size_t)(stop - body)) != NULL) {
		err_why(why, whylen, "Couldn't parse signature: invalid "
		    "format");
		return ERR_INVALID_FORMAT;
	}
	b64 = x_strndup((const char *)body, (size_t)(stop - body));
	if ((r = sbuf_b64_decode(out, b64)) != 0)
		err_why(why, whylen, "sshsig_dearmor: decode base64: %s",
		    err_str(r));
	x_free(b64);
	return r;
}

/* The signer's key blob: a certificate or a plain key. */
static int
parse_signer(const unsigned char *blob, size_t len, struct sshsig *s)
{
	struct sbuf *b = sbuf_from(blob, len);
	char *type = NULL;
	int r;

	if (b == NULL)
		return ERR_ALLOC;
	r = sbuf_get_cstring(b, &type, NULL);
	sbuf_free(b);
	if (r != 0)
		return ERR_INVALID_FORMAT;	/* no type: OpenSSH's word */
	if (cert_is_cert_name(type)) {
		if ((r = cert_from_blob(blob, len, &s->cert)) == 0)
			r = key_demote(s->cert->key, &s->key);
	} else
		r = key_from_blob(blob, len, &s->key);
	x_free(type);
	return r;
}

/*
 * Whether the five fields after the version are all there, before the
 * key is looked at: OpenSSH's check comes first, and so its message.
 */
static int
fields_present(const struct sbuf *b)
{
	struct sbuf *v = sbuf_from(sbuf_ptr(b), sbuf_len(b));
	int i, r = 0;

	if (v == NULL)
		return ERR_ALLOC;
	for (i = 0; i < 5 && r == 0; i++)
		r = sbuf_get_string_direct(v, NULL, NULL);
	sbuf_free(v);
	return r;
}

/* Everything after the key; b is past it. */
static int
parse_rest(struct sbuf *b, struct sshsig *s, char *why, size_t whylen)
{
	int r;

	if ((r = sbuf_get_cstring(b, &s->ns, NULL)) != 0 ||
	    (r = sbuf_get_string(b, NULL, NULL)) != 0 ||	/* reserved */
	    (r = sbuf_get_cstring(b, &s->hashalg, NULL)) != 0 ||
	    (r = sbuf_get_string(b, &s->sig, &s->siglen)) != 0) {
		err_why(why, whylen, "sshsig_peek_hashalg: parse signature "
		    "object: %s", err_str(r));
		return r;
	}
	if (sbuf_len(b) != 0) {
		err_why(why, whylen, "Signature contains trailing data");
		return ERR_INVALID_FORMAT;
	}
	return 0;
}

int
sshsig_parse(const unsigned char *blob, size_t len, int key_only,
    struct sshsig **sigp, char *why, size_t whylen)
{
	struct sbuf *b = sbuf_from(blob, len);
	struct sshsig *s = x_calloc(1, sizeof(*s));
	const unsigned char *kb;
	size_t klen;
	uint32_t version;
	int r;

	*sigp = NULL;
	err_why(why, whylen, "%s", "");
	if (b == NULL) {
		r = ERR_ALLOC;
		goto out;
	}
	if (len < SSHSIG_MAGIC_LEN ||
	    memcmp(blob, SSHSIG_MAGIC, SSHSIG_MAGIC_LEN) != 0 ||
	    (r = sbuf_consume(b, SSHSIG_MAGIC_LEN)) != 0 ||
	    (r = sbuf_get_u32(b, &version)) != 0) {
		err_why(why, whylen, "Couldn't verify signature: invalid "
		    "format");
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (version > SSHSIG_VERSION) {
		err_why(why, whylen, "Signature version %lu is larger than "
		    "supported version %u", (unsigned long)version,
		    SSHSIG_VERSION);
		r = ERR_FEATURE_UNSUPPORTED;
		goto out;
	}
	if (!key_only && (r = fields_present(b)) != 0) {
		err_why(why, whylen, "sshsig_peek_hashalg: parse signature "
		    "object: %s", err_str(r));
		goto out;
	}
	if ((r = sbuf_get_string_direct(b, &kb, &klen)) != 0)
		goto out;
	if ((r = parse_signer(kb, klen, s)) != 0) {
		if (!key_only)
			err_why(why, whylen, "sshsig_wrap_verify: parse "
			    "signature object: %s", err_str(r));
		goto out;
	}
	if (!key_only && (r = parse_rest(b, s, why, whylen)) != 0)
		goto out;
	*sigp = s;
	s = NULL;
	r = 0;
 out:
	sshsig_free(s);
	sbuf_free(b);
	return r;
}

int
sshsig_verify(const struct sshsig *s, const char *ns,
    const unsigned char *h, size_t hlen, char *why, size_t whylen)
{
	struct sbuf *data = NULL;
	char *alg = NULL;
	int r;

	err_why(why, whylen, "%s", "");
	if (s->ns == NULL || s->hashalg == NULL || s->sig == NULL)
		return ERR_INVALID_ARGUMENT;
	if (strcmp(s->ns, ns) != 0) {
		err_why(why, whylen, "Couldn't verify signature: namespace "
		    "does not match");
		return ERR_SIGNATURE_INVALID;
	}
	if (s->key->type == KEY_RSA) {
		/* No SHA-1 RSA here, whatever ssh may allow. */
		if ((r = key_sig_alg(s->sig, s->siglen, &alg)) != 0) {
			err_why(why, whylen, "Couldn't verify signature: "
			    "unable to get signature type: %s", err_str(r));
			return r;
		}
		if (strcmp(alg, "rsa-sha2-512") != 0 &&
		    strcmp(alg, "rsa-sha2-256") != 0) {
			err_why(why, whylen, "Couldn't verify signature: "
			    "unsupported RSA signature algorithm %s", alg);
			x_free(alg);
			return ERR_SIGNATURE_INVALID;
		}
		x_free(alg);
	}
	data = sbuf_new();
	if ((r = sshsig_signed_data(ns, s->hashalg, h, hlen, data)) == 0 &&
	    (r = key_verify(s->key, s->sig, s->siglen, sbuf_ptr(data),
	    sbuf_len(data), NULL)) != 0) {
		if (r == ERR_KEY_TYPE_UNKNOWN || r == ERR_INVALID_FORMAT ||
		    r == ERR_MESSAGE_INCOMPLETE)
			r = ERR_SIGNATURE_INVALID;
		err_why(why, whylen, "Signature verification failed: %s",
		    err_str(r));
	}
	sbuf_free(data);
	return r;
}

const char *
sshsig_key_label(const struct sshsig *s)
{
	static const char *const certs[] = {
		"ED25519-CERT", "ECDSA-CERT", "RSA-CERT", "ED25519-SK-CERT",
		"ECDSA-SK-CERT",
	};
	static const enum key_type types[] = {
		KEY_ED25519, KEY_ECDSA, KEY_RSA, KEY_ED25519_SK, KEY_ECDSA_SK,
	};
	size_t i;

	if (s->cert == NULL)
		return key_short_name(s->key);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i] == s->key->type)
			return certs[i];
	return "unknown";
}

void
sshsig_free(struct sshsig *s)
{
	if (s == NULL)
		return;
	key_free(s->key);
	cert_free(s->cert);
	x_free(s->ns);
	x_free(s->hashalg);
	x_free(s->sig);
	x_free(s);
}
