/*
 * key.c: key types and public key blobs.
 *
 * The key types are rows of keytypes[]; the signature algorithms rows of
 * sigalgs[]. A key is a libcrypto EVP_PKEY plus its type (and curve for
 * ECDSA). Blobs follow RFC 4253 section 6.6 (ssh-rsa: string name,
 * mpint e, mpint n), RFC 5656 section 3.1 (string name, string curve,
 * string Q as an uncompressed point) and RFC 8709 (string name, string
 * 32-byte public key); the security key types of PROTOCOL.u2f are the
 * Ed25519 or P-256 blob followed by string application. Keys built from untrusted bytes go through
 * libcrypto's import, which refuses points off the curve; RSA moduli
 * outside [KEY_RSA_MIN_BITS, KEY_RSA_MAX_BITS] are refused with
 * ERR_KEY_LENGTH.
 *
 * The private key body of PROTOCOL.key is in key_priv.c.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

static const struct keytype keytypes[] = {
	{ "ssh-ed25519", "ED25519", KEY_ED25519, 0, NULL, NULL, 0 },
	{ "ecdsa-sha2-nistp256", "ECDSA", KEY_ECDSA, NID_X9_62_prime256v1,
	    "nistp256", "P-256", 32 },
	{ "ecdsa-sha2-nistp384", "ECDSA", KEY_ECDSA, NID_secp384r1,
	    "nistp384", "P-384", 48 },
	{ "ecdsa-sha2-nistp521", "ECDSA", KEY_ECDSA, NID_secp521r1,
	    "nistp521", "P-521", 66 },
	{ "ssh-rsa", "RSA", KEY_RSA, 0, NULL, NULL, 0 },
	{ "sk-ssh-ed25519@openssh.com", "ED25519-SK", KEY_ED25519_SK, 0,
	    NULL, NULL, 0 },
	{ "sk-ecdsa-sha2-nistp256@openssh.com", "ECDSA-SK", KEY_ECDSA_SK,
	    NID_X9_62_prime256v1, "nistp256", "P-256", 32 },
};
#define NKEYTYPES (sizeof(keytypes) / sizeof(keytypes[0]))

static const struct sigalg sigalgs[] = {
	{ "ssh-ed25519", KEY_ED25519, 0, NULL },
	{ "ecdsa-sha2-nistp256", KEY_ECDSA, NID_X9_62_prime256v1, EVP_sha256 },
	{ "ecdsa-sha2-nistp384", KEY_ECDSA, NID_secp384r1, EVP_sha384 },
	{ "ecdsa-sha2-nistp521", KEY_ECDSA, NID_secp521r1, EVP_sha512 },
	{ "rsa-sha2-512", KEY_RSA, 0, EVP_sha512 },
	{ "rsa-sha2-256", KEY_RSA, 0, EVP_sha256 },
	{ "ssh-rsa", KEY_RSA, 0, EVP_sha1 },
	{ "sk-ssh-ed25519@openssh.com", KEY_ED25519_SK, 0, NULL },
	{ "sk-ecdsa-sha2-nistp256@openssh.com", KEY_ECDSA_SK,
	    NID_X9_62_prime256v1, EVP_sha256 },
	{ "webauthn-sk-ecdsa-sha2-nistp256@openssh.com", KEY_ECDSA_SK,
	    NID_X9_62_prime256v1, EVP_sha256 },
};
#define NSIGALGS (sizeof(sigalgs) / sizeof(sigalgs[0]))

const struct keytype *
keytype_of(const struct key *k)
{
	size_t i;

	if (k == NULL)
		return NULL;
	for (i = 0; i < NKEYTYPES; i++) {
		if (keytypes[i].type == k->type &&
		    (k->type != KEY_ECDSA || keytypes[i].nid == k->ecdsa_nid))
			return &keytypes[i];
	}
	return NULL;
}

const struct keytype *
keytype_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYTYPES; i++)
		if (strcmp(keytypes[i].name, name) == 0)
			return &keytypes[i];
	return NULL;
}

const struct sigalg *
sigalg_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NSIGALGS; i++)
		if (strcmp(sigalgs[i].name, name) == 0)
			return &sigalgs[i];
	return NULL;
}

const char *
key_type_name(const struct key *k)
{
	const struct keytype *kt = keytype_of(k);

	return kt == NULL ? "unknown" : kt->name;
}

const char *
key_short_name(const struct key *k)
{
	const struct keytype *kt = keytype_of(k);

	return kt == NULL ? "unknown" : kt->shortname;
}

int
key_type_from_name(const char *name, enum key_type *type, int *nid)
{
	const struct keytype *kt;
	const struct sigalg *sa;

	if ((kt = keytype_by_name(name)) != NULL) {
		*type = kt->type;
		*nid = kt->nid;
		return 0;
	}
	if ((sa = sigalg_by_name(name)) != NULL) {
		*type = sa->type;
		*nid = sa->nid;
		return 0;
	}
	return ERR_KEY_TYPE_UNKNOWN;
}

int
key_sigalg_matches(const struct key *k, const char *name)
{
	const struct sigalg *sa;

	if (k == NULL || name == NULL || (sa = sigalg_by_name(name)) == NULL)
		return 0;
	if (sa->type != k->type)
		return 0;
	return sa->type != KEY_ECDSA || sa->nid == k->ecdsa_nid;
}

const char *
key_sigalg_all_names(void)
{
	return "ssh-ed25519,sk-ssh-ed25519@openssh.com,"
	    "ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,"
	    "sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,"
	    "rsa-sha2-512,rsa-sha2-256,ssh-rsa";
}

int
key_is_sk(const struct key *k)
{
	return k != NULL && (k->type == KEY_ED25519_SK ||
	    k->type == KEY_ECDSA_SK);
}

unsigned int
key_bits(const struct key *k)
{
	const struct keytype *kt = keytype_of(k);
	int bits;

	if (kt == NULL || k->pkey == NULL)
		return 0;
	switch (k->type) {
	case KEY_ED25519:
	case KEY_ED25519_SK:
		return 256;
	case KEY_ECDSA:
	case KEY_ECDSA_SK:
		return kt->nid == NID_secp521r1 ? 521 : kt->field_len * 8;
	default:
		bits = EVP_PKEY_get_bits(k->pkey);
		return bits < 0 ? 0 : (unsigned int)bits;
	}
}

struct key *
key_new(enum key_type type, int nid)
{
	struct key *k = x_calloc(1, sizeof(*k));

	k->type = type;
	k->ecdsa_nid = nid;
	return k;
}

void
key_free(struct key *k)
{
	if (k == NULL)
		return;
	EVP_PKEY_free(k->pkey);
	x_free(k->sk_application);
	x_freezero(k->sk_key_handle, k->sk_key_handle_len);
	x_free(k->sk_reserved);
	x_freezero(k, sizeof(*k));
}

int
key_get_bn(const struct key *k, const char *param, BIGNUM **bnp)
{
	*bnp = NULL;
	if (k->pkey == NULL || !EVP_PKEY_get_bn_param(k->pkey, param, bnp))
		return ERR_LIBCRYPTO;
	return 0;
}

int
key_ec_point(const struct key *k, unsigned char **pp, size_t *lenp)
{
	const struct keytype *kt = keytype_of(k);
	BIGNUM *x = NULL, *y = NULL;
	unsigned char *p = NULL;
	size_t len;
	int r;

	*pp = NULL;
	if (kt == NULL || (kt->type != KEY_ECDSA && kt->type != KEY_ECDSA_SK))
		return ERR_INVALID_ARGUMENT;
	if ((r = key_get_bn(k, OSSL_PKEY_PARAM_EC_PUB_X, &x)) != 0 ||
	    (r = key_get_bn(k, OSSL_PKEY_PARAM_EC_PUB_Y, &y)) != 0)
		goto out;
	len = 1 + 2 * (size_t)kt->field_len;
	p = x_malloc(len);
	p[0] = 0x04;
	if (BN_bn2binpad(x, p + 1, (int)kt->field_len) < 0 ||
	    BN_bn2binpad(y, p + 1 + kt->field_len, (int)kt->field_len) < 0) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	*pp = p;
	*lenp = len;
	p = NULL;
	r = 0;
 out:
	x_free(p);
	BN_free(x);
	BN_free(y);
	return r;
}

int
key_from_pkey(EVP_PKEY *pkey, int has_private, struct key **keyp)
{
	struct key *k;
	char group[64];
	size_t i;

	*keyp = NULL;
	switch (EVP_PKEY_get_base_id(pkey)) {
	case EVP_PKEY_ED25519:
		k = key_new(KEY_ED25519, 0);
		break;
	case EVP_PKEY_RSA:
		k = key_new(KEY_RSA, 0);
		break;
	case EVP_PKEY_EC:
		if (!EVP_PKEY_get_utf8_string_param(pkey,
		    OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group), NULL))
			return ERR_LIBCRYPTO;
		k = NULL;
		for (i = 0; i < NKEYTYPES; i++) {
			if (keytypes[i].type == KEY_ECDSA &&
			    (strcmp(keytypes[i].group, group) == 0 ||
			    OBJ_sn2nid(group) == keytypes[i].nid)) {
				k = key_new(KEY_ECDSA, keytypes[i].nid);
				break;
			}
		}
		if (k == NULL)
			return ERR_KEY_TYPE_UNKNOWN;
		break;
	default:
		return ERR_KEY_TYPE_UNKNOWN;
	}
	k->pkey = pkey;
	k->has_private = has_private;
	if (k->type == KEY_RSA && (key_bits(k) < KEY_RSA_MIN_BITS ||
	    key_bits(k) > KEY_RSA_MAX_BITS)) {
		k->pkey = NULL;
		key_free(k);
		return ERR_KEY_LENGTH;
	}
	*keyp = k;
	return 0;
}

/* Build a libcrypto key of type name from params. */
static int
pkey_fromdata(const char *name, int selection, OSSL_PARAM_BLD *bld,
    EVP_PKEY **pkeyp)
{
	EVP_PKEY_CTX *ctx = NULL;
	OSSL_PARAM *params = NULL;
	int r = ERR_KEY_INVALID;

	*pkeyp = NULL;
	if ((params = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (ctx = EVP_PKEY_CTX_new_from_name(NULL, name, NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) <= 0) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	if (EVP_PKEY_fromdata(ctx, pkeyp, selection, params) <= 0)
		goto out;
	r = 0;
 out:
	OSSL_PARAM_free(params);
	EVP_PKEY_CTX_free(ctx);
	return r;
}

/* Check a key just imported from untrusted bytes. */
static int
pkey_check(EVP_PKEY *pkey, int private)
{
	EVP_PKEY_CTX *ctx;
	int ok;

	if ((ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL)) == NULL)
		return ERR_LIBCRYPTO;
	ok = private ? EVP_PKEY_pairwise_check(ctx) : EVP_PKEY_public_check(ctx);
	EVP_PKEY_CTX_free(ctx);
	return ok == 1 ? 0 : ERR_KEY_INVALID;
}

int
key_ec_from_parts(const struct keytype *kt, const unsigned char *q, size_t qlen,
    const BIGNUM *d, EVP_PKEY **pkeyp)
{
	OSSL_PARAM_BLD *bld;
	int r;

	*pkeyp = NULL;
	if (qlen != 1 + 2 * (size_t)kt->field_len || q[0] != 0x04)
		return ERR_KEY_INVALID;
	if ((bld = OSSL_PARAM_BLD_new()) == NULL)
		return ERR_LIBCRYPTO;
	if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
	    kt->group, 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY,
	    q, qlen) ||
	    (d != NULL && !OSSL_PARAM_BLD_push_BN(bld,
	    OSSL_PKEY_PARAM_PRIV_KEY, d))) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	if ((r = pkey_fromdata("EC", d != NULL ? EVP_PKEY_KEYPAIR :
	    EVP_PKEY_PUBLIC_KEY, bld, pkeyp)) != 0)
		goto out;
	if ((r = pkey_check(*pkeyp, d != NULL)) != 0) {
		EVP_PKEY_free(*pkeyp);
		*pkeyp = NULL;
	}
 out:
	OSSL_PARAM_BLD_free(bld);
	return r;
}

/* 1 when a*b = 1 mod m; u is scratch. */
static int
mul_is_one(const BIGNUM *a, const BIGNUM *b, const BIGNUM *m, BIGNUM *u,
    BN_CTX *bnctx)
{
	return BN_mod_mul(u, a, b, m, bnctx) && BN_is_one(u);
}

/* RSA from n, e and optionally d, iqmp, p, q. */
int
key_rsa_from_parts(const BIGNUM *n, const BIGNUM *e, const BIGNUM *d,
    const BIGNUM *iqmp, const BIGNUM *p, const BIGNUM *q, EVP_PKEY **pkeyp)
{
	OSSL_PARAM_BLD *bld;
	BN_CTX *bnctx = NULL;
	BIGNUM *dmp1 = NULL, *dmq1 = NULL, *t = NULL, *u = NULL;
	int r = ERR_LIBCRYPTO, nbits = BN_num_bits(n);

	*pkeyp = NULL;
	if (nbits < KEY_RSA_MIN_BITS || nbits > KEY_RSA_MAX_BITS)
		return ERR_KEY_LENGTH;
	if (BN_is_zero(e) || !BN_is_odd(e) || !BN_is_odd(n))
		return ERR_KEY_INVALID;
	if ((bld = OSSL_PARAM_BLD_new()) == NULL)
		return ERR_LIBCRYPTO;
	if (!OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		goto out;
	if (d != NULL) {
		if ((bnctx = BN_CTX_new()) == NULL ||
		    (dmp1 = BN_new()) == NULL || (dmq1 = BN_new()) == NULL ||
		    (t = BN_new()) == NULL || (u = BN_new()) == NULL)
			goto out;
		BN_set_flags(dmp1, BN_FLG_CONSTTIME);
		BN_set_flags(dmq1, BN_FLG_CONSTTIME);
		if (!BN_sub(t, p, BN_value_one()) ||
		    !BN_mod(dmp1, d, t, bnctx) ||
		    !BN_sub(t, q, BN_value_one()) ||
		    !BN_mod(dmq1, d, t, bnctx))
			goto out;
		/*
		 * A key whose parts disagree would sign wrongly with CRT and
		 * leak a factor: n = pq, e*dmp1 = 1 mod p-1 (and for q),
		 * iqmp*q = 1 mod p.
		 */
		r = ERR_KEY_INVALID;
		if (!BN_mul(u, p, q, bnctx) || BN_cmp(u, n) != 0 ||
		    !mul_is_one(e, dmq1, t, u, bnctx) ||
		    !BN_sub(t, p, BN_value_one()) ||
		    !mul_is_one(e, dmp1, t, u, bnctx) ||
		    !mul_is_one(iqmp, q, p, u, bnctx))
			goto out;
		r = ERR_LIBCRYPTO;
		if (!OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, p) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, q) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1,
		    dmp1) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2,
		    dmq1) ||
		    !OSSL_PARAM_BLD_push_BN(bld,
		    OSSL_PKEY_PARAM_RSA_COEFFICIENT1, iqmp))
			goto out;
	}
	r = pkey_fromdata("RSA", d != NULL ? EVP_PKEY_KEYPAIR :
	    EVP_PKEY_PUBLIC_KEY, bld, pkeyp);
 out:
	BN_clear_free(dmp1);
	BN_clear_free(dmq1);
	BN_clear_free(t);
	BN_clear_free(u);
	BN_CTX_free(bnctx);
	OSSL_PARAM_BLD_free(bld);
	return r;
}

int
key_public_from_sbuf(const struct keytype *kt, struct sbuf *b,
    struct key **keyp)
{
	const unsigned char *p;
	size_t len;
	char *curve = NULL, *app = NULL;
	BIGNUM *e = NULL, *n = NULL;
	EVP_PKEY *pkey = NULL;
	int r;

	*keyp = NULL;
	switch (kt->type) {
	case KEY_ED25519:
	case KEY_ED25519_SK:
		if ((r = sbuf_get_string_direct(b, &p, &len)) != 0)
			goto out;
		if (len != ED25519_PK_LEN) {
			r = ERR_KEY_INVALID;
			goto out;
		}
		if ((pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519,
		    NULL, p, len)) == NULL) {
			r = ERR_KEY_INVALID;
			goto out;
		}
		break;
	case KEY_ECDSA:
	case KEY_ECDSA_SK:
		if ((r = sbuf_get_cstring(b, &curve, NULL)) != 0 ||
		    (r = sbuf_get_string_direct(b, &p, &len)) != 0)
			goto out;
		if (strcmp(curve, kt->curve) != 0) {
			r = ERR_KEY_TYPE_MISMATCH;
			goto out;
		}
		if ((r = key_ec_from_parts(kt, p, len, NULL, &pkey)) != 0)
			goto out;
		break;
	case KEY_RSA:
		if ((r = sbuf_get_bignum(b, &e)) != 0 ||
		    (r = sbuf_get_bignum(b, &n)) != 0 ||
		    (r = key_rsa_from_parts(n, e, NULL, NULL, NULL, NULL,
		    &pkey)) != 0)
			goto out;
		break;
	default:
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	if (kt->type == KEY_ED25519_SK || kt->type == KEY_ECDSA_SK) {
		/* The application: text, though the wire allows any bytes. */
		if ((r = sbuf_get_cstring(b, &app, NULL)) != 0)
			goto out;
	}
	if ((r = key_from_pkey(pkey, 0, keyp)) != 0)
		goto out;
	pkey = NULL;
	if (app != NULL) {
		(*keyp)->type = kt->type;
		(*keyp)->sk_application = app;
		app = NULL;
	}
 out:
	EVP_PKEY_free(pkey);
	x_free(app);
	x_free(curve);
	BN_free(e);
	BN_free(n);
	return r;
}

int
key_from_blob(const unsigned char *blob, size_t len, struct key **keyp)
{
	struct sbuf *b;
	const struct keytype *kt;
	char *name = NULL;
	int r;

	*keyp = NULL;
	if ((b = sbuf_from(blob, len)) == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0)
		goto out;
	if ((kt = keytype_by_name(name)) == NULL) {
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	if ((r = key_public_from_sbuf(kt, b, keyp)) != 0)
		goto out;
	if (sbuf_len(b) != 0) {
		key_free(*keyp);
		*keyp = NULL;
		r = ERR_INVALID_FORMAT;
	}
 out:
	x_free(name);
	sbuf_free(b);
	return r;
}

/* The type-specific public fields (after the name). */
int
key_public_fields_to_sbuf(const struct key *k, struct sbuf *out)
{
	const struct keytype *kt = keytype_of(k);
	unsigned char pk[ED25519_PK_LEN], *q = NULL;
	size_t len = sizeof(pk);
	BIGNUM *e = NULL, *n = NULL;
	int r;

	if (kt == NULL || k->pkey == NULL)
		return ERR_INVALID_ARGUMENT;
	if (key_is_sk(k) && k->sk_application == NULL)
		return ERR_INVALID_ARGUMENT;
	switch (k->type) {
	case KEY_ED25519:
	case KEY_ED25519_SK:
		if (!EVP_PKEY_get_raw_public_key(k->pkey, pk, &len) ||
		    len != sizeof(pk))
			return ERR_LIBCRYPTO;
		if ((r = sbuf_put_string(out, pk, len)) != 0)
			return r;
		break;
	case KEY_ECDSA:
	case KEY_ECDSA_SK:
		if ((r = key_ec_point(k, &q, &len)) != 0)
			return r;
		if ((r = sbuf_put_cstring(out, kt->curve)) == 0)
			r = sbuf_put_string(out, q, len);
		x_free(q);
		if (r != 0)
			return r;
		break;
	case KEY_RSA:
		if ((r = key_get_bn(k, OSSL_PKEY_PARAM_RSA_E, &e)) == 0 &&
		    (r = key_get_bn(k, OSSL_PKEY_PARAM_RSA_N, &n)) == 0 &&
		    (r = sbuf_put_bignum(out, e)) == 0)
			r = sbuf_put_bignum(out, n);
		BN_free(e);
		BN_free(n);
		return r;
	default:
		return ERR_KEY_TYPE_UNKNOWN;
	}
	return key_is_sk(k) ? sbuf_put_cstring(out, k->sk_application) : 0;
}

int
key_to_blob(const struct key *k, struct sbuf *out)
{
	int r;

	if (keytype_of(k) == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((r = sbuf_put_cstring(out, key_type_name(k))) != 0)
		return r;
	return key_public_fields_to_sbuf(k, out);
}

int
key_equal_public(const struct key *a, const struct key *b)
{
	struct sbuf *ba = sbuf_new(), *bb = sbuf_new();
	int eq = 0;

	if (a != NULL && b != NULL && a->type == b->type &&
	    key_to_blob(a, ba) == 0 && key_to_blob(b, bb) == 0)
		eq = sbuf_equal(ba, bb);
	sbuf_free(ba);
	sbuf_free(bb);
	return eq;
}

int
key_demote(const struct key *k, struct key **pubp)
{
	struct sbuf *b = sbuf_new();
	int r;

	*pubp = NULL;
	if ((r = key_to_blob(k, b)) == 0)
		r = key_from_blob(sbuf_ptr(b), sbuf_len(b), pubp);
	sbuf_free(b);
	return r;
}

int
key_generate(enum key_type type, unsigned int bits, struct key **keyp)
{
	const struct keytype *kt = NULL;
	EVP_PKEY *pkey = NULL;
	size_t i;
	int r;

	*keyp = NULL;
	switch (type) {
	case KEY_ED25519:
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
		break;
	case KEY_ECDSA:
		if (bits == 0)
			bits = 256;
		for (i = 0; i < NKEYTYPES; i++) {
			if (keytypes[i].type == KEY_ECDSA &&
			    (keytypes[i].nid == NID_secp521r1 ? 521 :
			    keytypes[i].field_len * 8) == bits)
				kt = &keytypes[i];
		}
		if (kt == NULL)
			return ERR_KEY_LENGTH;
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", kt->group);
		break;
	case KEY_RSA:
		if (bits == 0)
			bits = 3072;
		if (bits < KEY_RSA_MIN_BITS || bits > KEY_RSA_MAX_BITS)
			return ERR_KEY_LENGTH;
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits);
		break;
	default:
		return ERR_KEY_TYPE_UNKNOWN;
	}
	if (pkey == NULL)
		return ERR_LIBCRYPTO;
	if ((r = key_from_pkey(pkey, 1, keyp)) != 0)
		EVP_PKEY_free(pkey);
	return r;
}
