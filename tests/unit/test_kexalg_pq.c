/*
 * test_kexalg_pq.c: the post-quantum hybrid key exchanges (kexalg_pq.c).
 *
 * Both ends in one process for each method: the client's C_INIT and the
 * server's S_REPLY have the drafts' sizes, both ends reach the same K,
 * and K is string(HASH(K_PQ || K_CL)) recomputed here from the parts
 * (the KEM's decapsulation with the client's secret key and the ECDH
 * with libcrypto directly). Then the hostile cases a peer can send:
 * values truncated, oversized or empty, an encapsulation key that fails
 * ML-KEM's modulus check, an all-zero X25519 share, an sntrup761
 * ciphertext of the wrong length; and a tampered ciphertext, which
 * decapsulates (implicit rejection) to a K the server does not have.
 */
#include <string.h>

#include <openssl/evp.h>

#include "err.h"
#include "kexalg.h"
#include "kexalg_priv.h"
#include "mem.h"
#include "mlkem.h"
#include "sbuf.h"
#include "sntrup761.h"
#include "testlib.h"

struct method {
	const char *name;
	size_t pklen, ctlen, eclen;	/* KEM key, ciphertext, ECDH public */
	int sntrup;
};

static const struct method methods[] = {
	{ "mlkem768x25519-sha256", MLKEM768_EK_LEN, MLKEM768_CT_LEN, 32, 0 },
	{ "mlkem768nistp256-sha256", MLKEM768_EK_LEN, MLKEM768_CT_LEN, 65, 0 },
	{ "sntrup761x25519-sha512", SNTRUP761_PUBLICKEY_SIZE,
	    SNTRUP761_CIPHERTEXT_SIZE, 32, 1 },
	{ "sntrup761x25519-sha512@openssh.com", SNTRUP761_PUBLICKEY_SIZE,
	    SNTRUP761_CIPHERTEXT_SIZE, 32, 1 },
};

/* The contents of the one string in b. */
static const unsigned char *
str_of(struct sbuf *b, size_t *lenp)
{
	const unsigned char *p = NULL;

	*lenp = 0;
	CHECK_OK(sbuf_peek_string_direct(b, &p, lenp));
	return p;
}

/* The raw ECDH secret of our key and the peer's public value. */
static size_t
ecdh(EVP_PKEY *mine, const char *name, const unsigned char *peer,
    size_t peerlen, unsigned char *out)
{
	EVP_PKEY *pk = NULL;
	EVP_PKEY_CTX *ctx;
	size_t len = 66;

	if (strstr(name, "x25519") != NULL)
		pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer,
		    peerlen);
	else {
		OSSL_PARAM p[3];

		p[0] = OSSL_PARAM_construct_utf8_string("group",
		    (char *)"prime256v1", 0);
		p[1] = OSSL_PARAM_construct_octet_string("pub",
		    (void *)peer, peerlen);
		p[2] = OSSL_PARAM_construct_end();
		ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
		CHECK(ctx != NULL && EVP_PKEY_fromdata_init(ctx) > 0 &&
		    EVP_PKEY_fromdata(ctx, &pk, EVP_PKEY_PUBLIC_KEY, p) > 0);
		EVP_PKEY_CTX_free(ctx);
	}
	CHECK(pk != NULL);
	ctx = EVP_PKEY_CTX_new(mine, NULL);
	CHECK(ctx != NULL && EVP_PKEY_derive_init(ctx) > 0 &&
	    EVP_PKEY_derive_set_peer(ctx, pk) > 0 &&
	    EVP_PKEY_derive(ctx, out, &len) > 0);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pk);
	return len;
}

/* K recomputed from the parts, as the drafts define it. */
static void
check_k_formula(const struct method *m, const struct kex_alg *a,
    struct kex_eph *client, const unsigned char *reply, struct sbuf *K)
{
	unsigned char both[32 + 66], h[64];
	const unsigned char *k;
	size_t klen, cl;

	if (m->sntrup)
		CHECK_OK(sntrup761_dec(both, reply, m->ctlen,
		    client->kem_sk));
	else
		CHECK_OK(mlkem768_decaps(both, reply, m->ctlen,
		    client->kem_sk, client->kem_sklen));
	cl = ecdh(client->pkey, m->name, reply + m->ctlen, m->eclen,
	    both + 32);
	CHECK(cl == 32);
	CHECK_OK(kexalg_hash(a, both, 32 + cl, h));
	k = str_of(K, &klen);
	CHECK(klen == a->hash_len && memcmp(k, h, klen) == 0);
}

static void
test_agreement(void)
{
	size_t i, n;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		const struct method *m = &methods[i];
		const struct kex_alg *a = kexalg_by_name(m->name);
		struct kex_eph *c = NULL, *s = NULL;
		struct sbuf *cinit = sbuf_new(), *sreply = sbuf_new();
		struct sbuf *kc = sbuf_new(), *ks = sbuf_new();
		const unsigned char *ci, *sr;

		CHECK(a != NULL && a->kind == KEX_KIND_KEM);
		if (a == NULL)
			continue;
		CHECK_OK(kexalg_keygen(a, NULL, NULL, &c, cinit));
		ci = str_of(cinit, &n);
		CHECK(n == m->pklen + m->eclen);
		CHECK_OK(kexalg_reply(a, NULL, NULL, ci, n, &s, sreply, ks));
		sr = str_of(sreply, &n);
		CHECK(n == m->ctlen + m->eclen);
		CHECK_OK(kexalg_derive(c, sr, n, kc));
		CHECK(sbuf_len(kc) == 4 + a->hash_len && sbuf_equal(kc, ks));
		check_k_formula(m, a, c, sr, kc);
		/* No fixed-key form for a KEM. */
		kexalg_eph_free(s);
		CHECK_ERR(kexalg_keygen_fixed(a, NULL, NULL,
		    (const unsigned char *)"x", 1, &s, cinit),
		    ERR_INVALID_ARGUMENT);
		CHECK(s == NULL);
		kexalg_eph_free(c);
		sbuf_free(cinit);
		sbuf_free(sreply);
		sbuf_free(kc);
		sbuf_free(ks);
	}
}

/* The server's answer to a C_INIT of n bytes from buf: must fail. */
static void
server_refuses(const struct kex_alg *a, const unsigned char *buf, size_t n,
    int want)
{
	struct kex_eph *s = NULL;
	struct sbuf *out = sbuf_new(), *K = sbuf_new();

	CHECK_ERR(kexalg_reply(a, NULL, NULL, buf, n, &s, out, K), want);
	kexalg_eph_free(s);
	sbuf_free(out);
	sbuf_free(K);
}

static void
test_hostile(void)
{
	size_t i, n, big = 4096;
	unsigned char *buf = x_calloc(1, big);

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		const struct method *m = &methods[i];
		const struct kex_alg *a = kexalg_by_name(m->name);
		struct kex_eph *c = NULL, *s = NULL;
		struct sbuf *cinit = sbuf_new(), *sreply = sbuf_new();
		struct sbuf *kc = sbuf_new(), *ks = sbuf_new();
		const unsigned char *ci, *sr;

		if (a == NULL)
			continue;
		CHECK_OK(kexalg_keygen(a, NULL, NULL, &c, cinit));
		ci = str_of(cinit, &n);
		memcpy(buf, ci, n);
		/* C_INIT: truncated, oversized, empty. */
		server_refuses(a, buf, n - 1, ERR_INVALID_FORMAT);
		server_refuses(a, buf, n + 1, ERR_INVALID_FORMAT);
		server_refuses(a, buf, 0, ERR_INVALID_FORMAT);
		/* An all-zero X25519 share (the KEM half intact). */
		if (m->eclen == 32) {
			memset(buf + m->pklen, 0, 32);
			server_refuses(a, buf, n, ERR_KEY_INVALID);
			memcpy(buf, ci, n);
		} else {
			/* A P-256 point off the curve. */
			buf[m->pklen + 64] ^= 1;
			server_refuses(a, buf, n, ERR_KEY_INVALID);
			memcpy(buf, ci, n);
		}
		/* ML-KEM: an encapsulation key failing the modulus check. */
		if (!m->sntrup) {
			memset(buf, 0xff, m->pklen);
			server_refuses(a, buf, n, ERR_KEY_INVALID);
			memcpy(buf, ci, n);
		}

		CHECK_OK(kexalg_reply(a, NULL, NULL, ci, n, &s, sreply, ks));
		sr = str_of(sreply, &n);
		memcpy(buf, sr, n);
		/* S_REPLY: truncated (a short sntrup761 ciphertext), long. */
		CHECK_ERR(kexalg_derive(c, buf, n - 1, kc), ERR_INVALID_FORMAT);
		CHECK_ERR(kexalg_derive(c, buf, n + 1, kc), ERR_INVALID_FORMAT);
		CHECK_ERR(kexalg_derive(c, buf, 0, kc), ERR_INVALID_FORMAT);
		CHECK(sbuf_len(kc) == 0);
		/* An all-zero ECDH share from the server. */
		if (m->eclen == 32) {
			memset(buf + m->ctlen, 0, 32);
			CHECK_ERR(kexalg_derive(c, buf, n, kc),
			    ERR_KEY_INVALID);
			memcpy(buf, sr, n);
		}
		/* A tampered or all-zero ciphertext: a K of its own. */
		buf[0] ^= 1;
		CHECK_OK(kexalg_derive(c, buf, n, kc));
		CHECK(sbuf_len(kc) == sbuf_len(ks) && !sbuf_equal(kc, ks));
		sbuf_reset(kc);
		memset(buf, 0, m->ctlen);
		CHECK_OK(kexalg_derive(c, buf, n, kc));
		CHECK(sbuf_len(kc) == sbuf_len(ks) && !sbuf_equal(kc, ks));
		sbuf_reset(kc);
		/* The real one still agrees. */
		CHECK_OK(kexalg_derive(c, sr, n, kc));
		CHECK(sbuf_equal(kc, ks));
		kexalg_eph_free(c);
		kexalg_eph_free(s);
		sbuf_free(cinit);
		sbuf_free(sreply);
		sbuf_free(kc);
		sbuf_free(ks);
	}
	x_free(buf);
}

static void
test_names(void)
{
	CHECK_STR(kexalg_default_names(), "mlkem768x25519-sha256,"
	    "sntrup761x25519-sha512,sntrup761x25519-sha512@openssh.com,"
	    "curve25519-sha256,curve25519-sha256@libssh.org,"
	    "ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521,"
	    "diffie-hellman-group-exchange-sha256,"
	    "diffie-hellman-group16-sha512,diffie-hellman-group18-sha512,"
	    "diffie-hellman-group14-sha256");
	CHECK(strstr(kexalg_all_names(), "mlkem768nistp256-sha256") != NULL);
	CHECK(kexalg_by_name("mlkem768x25519-sha256")->hash_len == 32);
	CHECK(kexalg_by_name("sntrup761x25519-sha512")->hash_len == 64);
	CHECK(kexalg_by_name("curve25519-sha256")->kind != KEX_KIND_KEM);
}

int
main(void)
{
	test_names();
	test_agreement();
	test_hostile();
	return TEST_DONE();
}
