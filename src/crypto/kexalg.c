/*
 * kexalg.c: the key-agreement table and the math behind each row.
 *
 * A row (struct kex_alg) names the method and its exchange hash; its impl
 * (struct kex_impl) says how to make an ephemeral key pair and how to turn
 * the peer's public value into the shared secret K. Two families:
 *
 *  - Elliptic curves (X25519, NIST P-256/384/521) go through libcrypto's
 *    EVP_PKEY derive. The peer's value is checked for exact length and
 *    form (32 bytes for X25519; 0x04||X||Y for NIST curves, which must lie
 *    on the curve and not be the point at infinity); an all-zero X25519
 *    result is refused (RFC 8731 section 3).
 *  - Finite-field Diffie-Hellman over a safe prime p with generator g,
 *    done with BIGNUM and constant-time modular exponentiation. The fixed
 *    groups come from libcrypto's RFC 2409/3526 primes, g = 2; group
 *    exchange brings its own p and g.
 *
 * DH private exponent: x has exactly xbits bits (top bit set), where
 * xbits = max(2 * hash bits, 512), capped at bits(p) - 1. Twice the hash
 * size gives a discrete-log work factor at least matching the hash (and
 * every cipher key the hash can produce keys for), as NIST SP 800-56A and
 * OpenSSH's own choice (twice the needed bits) do; the cap keeps x < p.
 * The peer's value f must satisfy 1 < f < p-1 and have more than one bit
 * set (which refuses the degenerate values and tiny powers of 2).
 *
 * K is always appended as an mpint; key derivation (RFC 4253 section 7.2)
 * hashes that encoding as is, length included.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

#include "err.h"
#include "kexalg.h"
#include "kexalg_priv.h"
#include "mem.h"
#include "sbuf.h"


static int ec_keygen(struct kex_eph *, const BIGNUM *, const BIGNUM *,
    const unsigned char *, size_t, struct sbuf *);
static int ec_derive(struct kex_eph *, const unsigned char *, size_t,
    struct sbuf *);
static int dh_keygen(struct kex_eph *, const BIGNUM *, const BIGNUM *,
    const unsigned char *, size_t, struct sbuf *);
static int dh_derive(struct kex_eph *, const unsigned char *, size_t,
    struct sbuf *);

const struct kex_impl kexalg_impl_x25519 = {
	ec_keygen, ec_derive, "X25519", NULL, NID_undef, 32, 32, NULL, NULL
};
const struct kex_impl kexalg_impl_p256 = {
	ec_keygen, ec_derive, "EC", "prime256v1", NID_X9_62_prime256v1,
	65, 32, NULL, NULL
};
static const struct kex_impl impl_p384 = {
	ec_keygen, ec_derive, "EC", "secp384r1", NID_secp384r1, 97, 48, NULL, NULL
};
static const struct kex_impl impl_p521 = {
	ec_keygen, ec_derive, "EC", "secp521r1", NID_secp521r1, 133, 66, NULL, NULL
};
static const struct kex_impl impl_dh1 = {
	dh_keygen, dh_derive, NULL, NULL, 0, 0, 0, BN_get_rfc2409_prime_1024, NULL
};
static const struct kex_impl impl_dh14 = {
	dh_keygen, dh_derive, NULL, NULL, 0, 0, 0, BN_get_rfc3526_prime_2048, NULL
};
static const struct kex_impl impl_dh16 = {
	dh_keygen, dh_derive, NULL, NULL, 0, 0, 0, BN_get_rfc3526_prime_4096, NULL
};
static const struct kex_impl impl_dh18 = {
	dh_keygen, dh_derive, NULL, NULL, 0, 0, 0, BN_get_rfc3526_prime_8192, NULL
};
static const struct kex_impl impl_gex = {
	dh_keygen, dh_derive, NULL, NULL, 0, 0, 0, NULL, NULL
};

static const struct kex_alg kexalgs[] = {
	{ "mlkem768x25519-sha256", KEX_KIND_KEM, "SHA256", 32,
	    &kexalg_impl_mlkem_x25519 },
	{ "sntrup761x25519-sha512", KEX_KIND_KEM, "SHA512", 64,
	    &kexalg_impl_sntrup_x25519 },
	{ "sntrup761x25519-sha512@openssh.com", KEX_KIND_KEM, "SHA512", 64,
	    &kexalg_impl_sntrup_x25519 },
	{ "mlkem768nistp256-sha256", KEX_KIND_KEM, "SHA256", 32,
	    &kexalg_impl_mlkem_p256 },
	{ "curve25519-sha256", KEX_KIND_ECDH, "SHA256", 32, &kexalg_impl_x25519 },
	{ "curve25519-sha256@libssh.org", KEX_KIND_ECDH, "SHA256", 32,
	    &kexalg_impl_x25519 },
	{ "ecdh-sha2-nistp256", KEX_KIND_ECDH, "SHA256", 32, &kexalg_impl_p256 },
	{ "ecdh-sha2-nistp384", KEX_KIND_ECDH, "SHA384", 48, &impl_p384 },
	{ "ecdh-sha2-nistp521", KEX_KIND_ECDH, "SHA512", 64, &impl_p521 },
	{ "diffie-hellman-group-exchange-sha256", KEX_KIND_DHGEX, "SHA256", 32,
	    &impl_gex },
	{ "diffie-hellman-group16-sha512", KEX_KIND_DH, "SHA512", 64,
	    &impl_dh16 },
	{ "diffie-hellman-group18-sha512", KEX_KIND_DH, "SHA512", 64,
	    &impl_dh18 },
	{ "diffie-hellman-group14-sha256", KEX_KIND_DH, "SHA256", 32,
	    &impl_dh14 },
	{ "diffie-hellman-group14-sha1", KEX_KIND_DH, "SHA1", 20, &impl_dh14 },
	{ "diffie-hellman-group-exchange-sha1", KEX_KIND_DHGEX, "SHA1", 20,
	    &impl_gex },
	{ "diffie-hellman-group1-sha1", KEX_KIND_DH, "SHA1", 20, &impl_dh1 },
};

/* OpenSSH 10.5's default KexAlgorithms (myproposal.h), both ends. */
#define KEX_DEFAULT_NAMES \
	"mlkem768x25519-sha256," \
	"sntrup761x25519-sha512,sntrup761x25519-sha512@openssh.com," \
	"curve25519-sha256,curve25519-sha256@libssh.org," \
	"ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521," \
	"diffie-hellman-group-exchange-sha256," \
	"diffie-hellman-group16-sha512,diffie-hellman-group18-sha512," \
	"diffie-hellman-group14-sha256"

const struct kex_alg *
kexalg_by_name(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < sizeof(kexalgs) / sizeof(kexalgs[0]); i++) {
		if (strcmp(kexalgs[i].name, name) == 0)
			return &kexalgs[i];
	}
	return NULL;
}

/* In the order of OpenSSH's `ssh -Q kex`. */
const char *
kexalg_all_names(void)
{
	return "diffie-hellman-group1-sha1,diffie-hellman-group14-sha1,"
	    "diffie-hellman-group14-sha256,diffie-hellman-group16-sha512,"
	    "diffie-hellman-group18-sha512,"
	    "diffie-hellman-group-exchange-sha1,"
	    "diffie-hellman-group-exchange-sha256,"
	    "ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521,"
	    "mlkem768nistp256-sha256,"
	    "curve25519-sha256,curve25519-sha256@libssh.org,"
	    "sntrup761x25519-sha512,sntrup761x25519-sha512@openssh.com,"
	    "mlkem768x25519-sha256";
}

const char *
kexalg_default_names(void)
{
	return KEX_DEFAULT_NAMES;
}

/*
 * OpenSSH 10.0 took finite-field Diffie-Hellman out of sshd's default
 * (it stays in ssh's, and either end can add it back with "+").
 */
const char *
kexalg_server_default_names(void)
{
	return "mlkem768x25519-sha256,"
	    "sntrup761x25519-sha512,sntrup761x25519-sha512@openssh.com,"
	    "curve25519-sha256,curve25519-sha256@libssh.org,"
	    "ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521";
}

/* ---- elliptic curves ---- */

/* Key pair for a NIST curve from a fixed scalar (tests only). */
static int
ec_fixed_key(const struct kex_impl *impl, const unsigned char *priv,
    size_t privlen, EVP_PKEY **pkeyp)
{
	EC_GROUP *grp = NULL;
	EC_POINT *pt = NULL;
	BIGNUM *d = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	unsigned char pub[EC_MAX_PUB];
	size_t publen;
	int r = ERR_LIBCRYPTO;

	if ((grp = EC_GROUP_new_by_curve_name(impl->nid)) == NULL ||
	    (pt = EC_POINT_new(grp)) == NULL ||
	    (d = BN_secure_new()) == NULL)
		goto out;
	if (BN_bin2bn(priv, (int)privlen, d) == NULL ||
	    BN_is_zero(d) || BN_cmp(d, EC_GROUP_get0_order(grp)) >= 0) {
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	if (!EC_POINT_mul(grp, pt, d, NULL, NULL, NULL))
		goto out;
	publen = EC_POINT_point2oct(grp, pt, POINT_CONVERSION_UNCOMPRESSED,
	    pub, sizeof(pub), NULL);
	if (publen != impl->publen)
		goto out;
	if ((bld = OSSL_PARAM_BLD_new()) == NULL ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
	    impl->group, 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
	    pub, publen) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) ||
	    (params = OSSL_PARAM_BLD_to_param(bld)) == NULL)
		goto out;
	if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, pkeyp, EVP_PKEY_KEYPAIR, params) <= 0)
		goto out;
	r = 0;
 out:
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	BN_clear_free(d);
	EC_POINT_free(pt);
	EC_GROUP_free(grp);
	return r;
}

/*
 * An X25519 or NIST-curve key pair for impl (eph->pkey), from priv when
 * given (tests), else random; its public value, raw, into buf (*lenp is
 * set to impl->publen). The hybrid methods use it for their classical
 * half, with their own impl.
 */
int
kexalg_ec_make(struct kex_eph *eph, const struct kex_impl *impl,
    const unsigned char *priv, size_t privlen, unsigned char *buf,
    size_t *lenp)
{
	EVP_PKEY_CTX *ctx = NULL;
	size_t len = 0;
	int r = ERR_LIBCRYPTO;

	if (priv != NULL && impl->group == NULL) {
		if (privlen != impl->secretlen) {
			r = ERR_INVALID_ARGUMENT;
			goto out;
		}
		eph->pkey = EVP_PKEY_new_raw_private_key_ex(NULL,
		    impl->keytype, NULL, priv, privlen);
		if (eph->pkey == NULL)
			goto out;
	} else if (priv != NULL) {
		if ((r = ec_fixed_key(impl, priv, privlen, &eph->pkey)) != 0)
			goto out;
	} else {
		if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, impl->keytype,
		    NULL)) == NULL || EVP_PKEY_keygen_init(ctx) <= 0)
			goto out;
		if (impl->group != NULL &&
		    EVP_PKEY_CTX_set_group_name(ctx, impl->group) <= 0)
			goto out;
		if (EVP_PKEY_generate(ctx, &eph->pkey) <= 0)
			goto out;
	}
	if (!EVP_PKEY_get_octet_string_param(eph->pkey,
	    OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, buf, EC_MAX_PUB, &len) ||
	    len != impl->publen ||
	    (impl->group != NULL && buf[0] != POINT_CONVERSION_UNCOMPRESSED)) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	*lenp = len;
	r = 0;
 out:
	EVP_PKEY_CTX_free(ctx);
	return r;
}

static int
ec_keygen(struct kex_eph *eph, const BIGNUM *p, const BIGNUM *g,
    const unsigned char *priv, size_t privlen, struct sbuf *pub)
{
	unsigned char buf[EC_MAX_PUB];
	size_t len = 0;
	int r;

	if ((r = kexalg_ec_make(eph, eph->impl, priv, privlen, buf,
	    &len)) != 0)
		return r;
	return sbuf_put_string(pub, buf, len);
}

/* The peer's public value as a key; refuses anything malformed. */
static int
ec_peer_key(const struct kex_impl *impl, const unsigned char *peer,
    size_t peerlen, EVP_PKEY **peerp)
{
	EVP_PKEY_CTX *ctx = NULL, *cctx = NULL;
	OSSL_PARAM params[3];
	int r = ERR_KEY_INVALID;

	*peerp = NULL;
	if (peerlen != impl->publen)
		return ERR_INVALID_FORMAT;
	if (impl->group == NULL) {
		*peerp = EVP_PKEY_new_raw_public_key_ex(NULL, impl->keytype,
		    NULL, peer, peerlen);
		return *peerp == NULL ? ERR_KEY_INVALID : 0;
	}
	/* Uncompressed form only, as RFC 5656 section 4 requires. */
	if (peer[0] != POINT_CONVERSION_UNCOMPRESSED)
		return ERR_INVALID_FORMAT;
	params[0] = OSSL_PARAM_construct_utf8_string(
	    OSSL_PKEY_PARAM_GROUP_NAME, (char *)impl->group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(
	    OSSL_PKEY_PARAM_PUB_KEY, (void *)peer, peerlen);
	params[2] = OSSL_PARAM_construct_end();
	/* Decoding checks the point lies on the curve. */
	if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, peerp, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto out;
	/* And the full check: on curve, not infinity, right order. */
	if ((cctx = EVP_PKEY_CTX_new_from_pkey(NULL, *peerp, NULL)) == NULL ||
	    EVP_PKEY_public_check(cctx) != 1)
		goto out;
	r = 0;
 out:
	if (r != 0) {
		EVP_PKEY_free(*peerp);
		*peerp = NULL;
	}
	EVP_PKEY_CTX_free(cctx);
	EVP_PKEY_CTX_free(ctx);
	return r;
}

/*
 * The raw shared secret of our key mine (made for impl) and the peer's
 * public value: impl->secretlen bytes into secret. Refuses a malformed
 * peer value and an all-zero result.
 */
int
kexalg_ec_shared(EVP_PKEY *mine, const struct kex_impl *impl,
    const unsigned char *peer, size_t peerlen, unsigned char *secret)
{
	EVP_PKEY *peerkey = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	unsigned char buf[EC_MAX_SECRET];
	unsigned char acc = 0;
	size_t len = 0, i;
	int r;

	if ((r = ec_peer_key(impl, peer, peerlen, &peerkey)) != 0)
		goto out;
	r = ERR_LIBCRYPTO;
	if ((ctx = EVP_PKEY_CTX_new_from_pkey(NULL, mine, NULL)) == NULL ||
	    EVP_PKEY_derive_init(ctx) <= 0)
		goto out;
	if (EVP_PKEY_derive_set_peer_ex(ctx, peerkey, 1) <= 0) {
		r = ERR_KEY_INVALID;
		goto out;
	}
	len = sizeof(buf);
	if (EVP_PKEY_derive(ctx, buf, &len) <= 0) {
		/* libcrypto refuses an all-zero X25519 result here. */
		r = ERR_KEY_INVALID;
		goto out;
	}
	if (len != impl->secretlen)
		goto out;
	for (i = 0; i < len; i++)
		acc |= buf[i];
	if (acc == 0) {
		r = ERR_KEY_INVALID;
		goto out;
	}
	memcpy(secret, buf, len);
	r = 0;
 out:
	x_wipe(buf, sizeof(buf));
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peerkey);
	if (r != 0)
		ERR_clear_error();
	return r;
}

static int
ec_derive(struct kex_eph *eph, const unsigned char *peer, size_t peerlen,
    struct sbuf *K)
{
	unsigned char secret[EC_MAX_SECRET];
	int r;

	if ((r = kexalg_ec_shared(eph->pkey, eph->impl, peer, peerlen,
	    secret)) == 0)
		r = sbuf_put_mpint_bytes(K, secret, eph->impl->secretlen);
	x_wipe(secret, sizeof(secret));
	return r;
}

/* ---- finite-field Diffie-Hellman ---- */

/* 1 < v < p-1 and more than one bit set. */
static int
dh_value_ok(const BIGNUM *v, const BIGNUM *p, BN_CTX *ctx)
{
	BIGNUM *pm1;
	int i, nbits, set = 0, ok = 0;

	BN_CTX_start(ctx);
	if ((pm1 = BN_CTX_get(ctx)) == NULL || BN_copy(pm1, p) == NULL ||
	    !BN_sub_word(pm1, 1))
		goto out;
	if (BN_is_negative(v) || BN_cmp(v, BN_value_one()) <= 0 ||
	    BN_cmp(v, pm1) >= 0)
		goto out;
	nbits = BN_num_bits(v);
	for (i = 0; i < nbits && set < 2; i++)
		set += BN_is_bit_set(v, i);
	ok = set > 1;
 out:
	BN_CTX_end(ctx);
	return ok;
}

/* A group fit for use: odd p of 2048..8192 bits, 1 < g < p-1. */
static int
dh_group_ok(const BIGNUM *p, const BIGNUM *g, BN_CTX *ctx)
{
	BIGNUM *pm1;
	int bits = BN_num_bits(p), r = ERR_LIBCRYPTO;

	if (bits < KEX_DH_GRP_MIN || bits > KEX_DH_GRP_MAX || !BN_is_odd(p))
		return ERR_KEY_LENGTH;
	BN_CTX_start(ctx);
	if ((pm1 = BN_CTX_get(ctx)) == NULL || BN_copy(pm1, p) == NULL ||
	    !BN_sub_word(pm1, 1))
		goto out;
	r = ERR_KEY_INVALID;
	if (BN_is_negative(g) || BN_cmp(g, BN_value_one()) <= 0 ||
	    BN_cmp(g, pm1) >= 0)
		goto out;
	r = 0;
 out:
	BN_CTX_end(ctx);
	return r;
}

static int
dh_keygen(struct kex_eph *eph, const BIGNUM *p, const BIGNUM *g,
    const unsigned char *priv, size_t privlen, struct sbuf *pub)
{
	const struct kex_impl *impl = eph->impl;
	BN_CTX *ctx = NULL;
	BIGNUM *e = NULL;
	int xbits, r = ERR_LIBCRYPTO;

	if ((ctx = BN_CTX_secure_new()) == NULL)
		goto out;
	if (impl->prime != NULL) {
		if ((eph->p = impl->prime(NULL)) == NULL ||
		    (eph->g = BN_new()) == NULL || !BN_set_word(eph->g, 2))
			goto out;
	} else {
		if (p == NULL || g == NULL) {
			r = ERR_INVALID_ARGUMENT;
			goto out;
		}
		if ((r = dh_group_ok(p, g, ctx)) != 0)
			goto out;
		r = ERR_LIBCRYPTO;
		if ((eph->p = BN_dup(p)) == NULL ||
		    (eph->g = BN_dup(g)) == NULL)
			goto out;
	}
	if ((eph->x = BN_secure_new()) == NULL || (e = BN_new()) == NULL)
		goto out;
	if (priv != NULL) {
		if (BN_bin2bn(priv, (int)privlen, eph->x) == NULL)
			goto out;
		if (BN_is_zero(eph->x) || BN_cmp(eph->x, eph->p) >= 0) {
			r = ERR_INVALID_ARGUMENT;
			goto out;
		}
	} else {
		xbits = (int)eph->alg->hash_len * 8 * 2;
		if (xbits < 512)
			xbits = 512;
		if (xbits > BN_num_bits(eph->p) - 1)
			xbits = BN_num_bits(eph->p) - 1;
		if (!BN_priv_rand_ex(eph->x, xbits, BN_RAND_TOP_ONE,
		    BN_RAND_BOTTOM_ANY, 0, ctx))
			goto out;
	}
	BN_set_flags(eph->x, BN_FLG_CONSTTIME);
	if (!BN_mod_exp_mont_consttime(e, eph->g, eph->x, eph->p, ctx, NULL))
		goto out;
	if (!dh_value_ok(e, eph->p, ctx)) {
		r = ERR_KEY_INVALID;
		goto out;
	}
	r = sbuf_put_bignum(pub, e);
 out:
	BN_free(e);
	BN_CTX_free(ctx);
	return r;
}

static int
dh_derive(struct kex_eph *eph, const unsigned char *peer, size_t peerlen,
    struct sbuf *K)
{
	BN_CTX *ctx = NULL;
	BIGNUM *f = NULL, *k = NULL;
	int r = ERR_LIBCRYPTO;

	if (peerlen > (size_t)BN_num_bytes(eph->p))
		return ERR_KEY_INVALID;
	if ((ctx = BN_CTX_secure_new()) == NULL || (f = BN_new()) == NULL ||
	    (k = BN_secure_new()) == NULL)
		goto out;
	if (BN_bin2bn(peer, (int)peerlen, f) == NULL)
		goto out;
	if (!dh_value_ok(f, eph->p, ctx)) {
		r = ERR_KEY_INVALID;
		goto out;
	}
	if (!BN_mod_exp_mont_consttime(k, f, eph->x, eph->p, ctx, NULL))
		goto out;
	r = sbuf_put_bignum(K, k);
 out:
	BN_clear_free(k);
	BN_free(f);
	BN_CTX_free(ctx);
	return r;
}

/* ---- the common entry points ---- */

int
kexalg_keygen_fixed(const struct kex_alg *alg, const BIGNUM *p,
    const BIGNUM *g, const unsigned char *priv, size_t privlen,
    struct kex_eph **ephp, struct sbuf *pub)
{
	struct kex_eph *eph;
	int r;

	if (ephp != NULL)
		*ephp = NULL;
	if (alg == NULL || alg->impl == NULL || ephp == NULL || pub == NULL)
		return ERR_INVALID_ARGUMENT;
	eph = x_calloc(1, sizeof(*eph));
	eph->alg = alg;
	eph->impl = alg->impl;
	if ((r = eph->impl->keygen(eph, p, g, priv, privlen, pub)) != 0) {
		kexalg_eph_free(eph);
		ERR_clear_error();
		return r;
	}
	*ephp = eph;
	return 0;
}

int
kexalg_keygen(const struct kex_alg *alg, const BIGNUM *p, const BIGNUM *g,
    struct kex_eph **ephp, struct sbuf *pub)
{
	return kexalg_keygen_fixed(alg, p, g, NULL, 0, ephp, pub);
}

int
kexalg_derive(struct kex_eph *eph, const unsigned char *peer, size_t peerlen,
    struct sbuf *K)
{
	if (eph == NULL || K == NULL || (peer == NULL && peerlen != 0))
		return ERR_INVALID_ARGUMENT;
	return eph->impl->derive(eph, peer, peerlen, K);
}

int
kexalg_reply(const struct kex_alg *alg, const BIGNUM *p, const BIGNUM *g,
    const unsigned char *peer, size_t peerlen, struct kex_eph **ephp,
    struct sbuf *pub, struct sbuf *K)
{
	struct kex_eph *eph;
	int r;

	if (ephp != NULL)
		*ephp = NULL;
	if (alg == NULL || alg->impl == NULL || ephp == NULL || pub == NULL ||
	    K == NULL || (peer == NULL && peerlen != 0))
		return ERR_INVALID_ARGUMENT;
	if (((const struct kex_impl *)alg->impl)->hybrid == NULL) {
		if ((r = kexalg_keygen(alg, p, g, ephp, pub)) != 0)
			return r;
		return kexalg_derive(*ephp, peer, peerlen, K);
	}
	eph = x_calloc(1, sizeof(*eph));
	eph->alg = alg;
	eph->impl = alg->impl;
	*ephp = eph;
	return kexalg_hybrid_reply(eph, peer, peerlen, pub, K);
}

void
kexalg_eph_free(struct kex_eph *eph)
{
	if (eph == NULL)
		return;
	EVP_PKEY_free(eph->pkey);
	BN_free(eph->p);
	BN_free(eph->g);
	BN_clear_free(eph->x);
	x_freezero(eph->kem_sk, eph->kem_sklen);
	x_freezero(eph, sizeof(*eph));
}

int
kexalg_hash(const struct kex_alg *alg, const unsigned char *data, size_t len,
    unsigned char *out)
{
	EVP_MD *md;
	unsigned int olen = 0;
	int r = ERR_LIBCRYPTO;

	if (alg == NULL || out == NULL || (data == NULL && len != 0))
		return ERR_INVALID_ARGUMENT;
	if ((md = EVP_MD_fetch(NULL, alg->digest, NULL)) == NULL)
		return ERR_LIBCRYPTO;
	if ((size_t)EVP_MD_get_size(md) == alg->hash_len &&
	    EVP_Digest(data, len, out, &olen, md, NULL) &&
	    olen == alg->hash_len)
		r = 0;
	EVP_MD_free(md);
	return r;
}

int
kexalg_derive_key(const struct kex_alg *alg, const struct sbuf *K,
    const unsigned char *H, size_t hlen, char c,
    const unsigned char *session_id, size_t sidlen,
    unsigned char *out, size_t need)
{
	EVP_MD *md = NULL;
	EVP_MD_CTX *ctx = NULL;
	unsigned char *buf = NULL;
	size_t have, blocks, buflen = 0;
	unsigned char letter = (unsigned char)c;
	int r = ERR_LIBCRYPTO;

	if (need == 0)
		return 0;
	if (alg == NULL || K == NULL || H == NULL || out == NULL ||
	    (session_id == NULL && sidlen != 0) || need > 64 * 1024)
		return ERR_INVALID_ARGUMENT;
	blocks = (need + alg->hash_len - 1) / alg->hash_len;
	buflen = blocks * alg->hash_len;
	buf = x_malloc(buflen);
	if ((md = EVP_MD_fetch(NULL, alg->digest, NULL)) == NULL ||
	    (size_t)EVP_MD_get_size(md) != alg->hash_len ||
	    (ctx = EVP_MD_CTX_new()) == NULL)
		goto out;
	/* K1 = HASH(K || H || X || session_id) */
	if (!EVP_DigestInit_ex(ctx, md, NULL) ||
	    !EVP_DigestUpdate(ctx, sbuf_ptr(K), sbuf_len(K)) ||
	    !EVP_DigestUpdate(ctx, H, hlen) ||
	    !EVP_DigestUpdate(ctx, &letter, 1) ||
	    !EVP_DigestUpdate(ctx, session_id, sidlen) ||
	    !EVP_DigestFinal_ex(ctx, buf, NULL))
		goto out;
	/* Kn = HASH(K || H || K1 || ... || Kn-1) */
	for (have = alg->hash_len; have < need; have += alg->hash_len) {
		if (!EVP_DigestInit_ex(ctx, md, NULL) ||
		    !EVP_DigestUpdate(ctx, sbuf_ptr(K), sbuf_len(K)) ||
		    !EVP_DigestUpdate(ctx, H, hlen) ||
		    !EVP_DigestUpdate(ctx, buf, have) ||
		    !EVP_DigestFinal_ex(ctx, buf + have, NULL))
			goto out;
	}
	memcpy(out, buf, need);
	r = 0;
 out:
	EVP_MD_CTX_free(ctx);
	EVP_MD_free(md);
	x_freezero(buf, buflen);
	return r;
}
