/*
 * test_kexalg.c: key agreement, exchange-hash digests, key derivation and
 * the group-exchange group choice.
 *
 * Vectors: RFC 7748 section 6.1 (X25519), RFC 5903 section 8 (ECDH on
 * P-256/384/521, K = x coordinate), FIPS 180 "abc" digests. The DH and
 * key-derivation answers were computed independently with Python
 * (pow() and hashlib) from the inputs written here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bn.h>

#include "kexalg.h"
#include "kexalg_priv.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

#define DEFAULTS "mlkem768x25519-sha256,sntrup761x25519-sha512," \
	"sntrup761x25519-sha512@openssh.com," \
	"curve25519-sha256,curve25519-sha256@libssh.org," \
	"ecdh-sha2-nistp256,ecdh-sha2-nistp384,ecdh-sha2-nistp521," \
	"diffie-hellman-group-exchange-sha256,diffie-hellman-group16-sha512," \
	"diffie-hellman-group18-sha512,diffie-hellman-group14-sha256"

/* Public value out of its wire encoding: string (ECDH) or mpint (DH). */
static int
pub_value(const struct kex_alg *alg, struct sbuf *pub,
    const unsigned char **vp, size_t *lenp)
{
	if (alg->kind == KEX_KIND_ECDH)
		return sbuf_get_string_direct(pub, vp, lenp);
	return sbuf_get_mpint_direct(pub, vp, lenp);
}

static void
test_names(void)
{
	char *all = x_strdup(kexalg_all_names()), *cp, *save = NULL;
	int n = 0;

	CHECK_STR(kexalg_default_names(), DEFAULTS);
	for (cp = strtok_r(all, ",", &save); cp != NULL;
	    cp = strtok_r(NULL, ",", &save)) {
		const struct kex_alg *a = kexalg_by_name(cp);

		CHECK(a != NULL && strcmp(a->name, cp) == 0);
		n++;
	}
	CHECK(n >= 9);
	x_free(all);
	CHECK(kexalg_by_name("sntrup4591761x25519-sha512@tinyssh.org") ==
	    NULL);
	CHECK(kexalg_by_name("curve25519-sha256x") == NULL);
	CHECK(kexalg_by_name("") == NULL);
	CHECK(kexalg_by_name("ecdh-sha2-nistp384")->hash_len == 48);
	CHECK(kexalg_by_name("diffie-hellman-group-exchange-sha256")->kind ==
	    KEX_KIND_DHGEX);
}

static void
test_hash(void)
{
	static const struct {
		const char *alg, *want;
	} v[] = {
		{ "curve25519-sha256", "ba7816bf8f01cfea414140de5dae2223"
		    "b00361a396177a9cb410ff61f20015ad" },
		{ "ecdh-sha2-nistp384", "cb00753f45a35e8bb5a03d699ac65007"
		    "272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca1"
		    "34c825a7" },
		{ "diffie-hellman-group16-sha512",
		    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee6"
		    "4b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e"
		    "2a9ac94fa54ca49f" },
		{ "diffie-hellman-group14-sha1",
		    "a9993e364706816aba3e25717850c26c9cd0d89d" },
	};
	unsigned char out[64], want[64];
	size_t i, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct kex_alg *a = kexalg_by_name(v[i].alg);

		n = test_unhex(v[i].want, want, sizeof(want));
		CHECK(a != NULL && a->hash_len == n);
		CHECK_OK(kexalg_hash(a, (const unsigned char *)"abc", 3, out));
		CHECK_MEM(out, want, n);
	}
}

static void
test_x25519_rfc7748(void)
{
	const struct kex_alg *a = kexalg_by_name("curve25519-sha256");
	unsigned char apriv[32], apub[32], bpriv[32], bpub[32], k[32];
	unsigned char wantk[36];
	struct kex_eph *ea = NULL, *eb = NULL;
	struct sbuf *pa = sbuf_new(), *pb = sbuf_new();
	struct sbuf *ka = sbuf_new(), *kb = sbuf_new();
	const unsigned char *v;
	size_t len;

	test_unhex("77076d0a7318a57d3c16c17251b26645"
	    "df4c2f87ebc0992ab177fba51db92c2a", apriv, 32);
	test_unhex("8520f0098930a754748b7ddcb43ef75a"
	    "0dbf3a0d26381af4eba4a98eaa9b4e6a", apub, 32);
	test_unhex("5dab087e624a8a4b79e17f8b83800ee6"
	    "6f3bb1292618b6fd1c2f8b27ff88e0eb", bpriv, 32);
	test_unhex("de9edb7d7b7dc1b4d35b61c2ece43537"
	    "3f8343c85b78674dadfc7e146f882b4f", bpub, 32);
	test_unhex("4a5d9d5ba4ce2de1728e3bf480350f25"
	    "e07e21c947d19e3376f09b3c1e161742", k, 32);
	/* K as an mpint: top bit clear, so no leading zero. */
	wantk[0] = wantk[1] = wantk[2] = 0;
	wantk[3] = 32;
	memcpy(wantk + 4, k, 32);

	CHECK_OK(kexalg_keygen_fixed(a, NULL, NULL, apriv, 32, &ea, pa));
	CHECK_OK(kexalg_keygen_fixed(a, NULL, NULL, bpriv, 32, &eb, pb));
	CHECK_OK(sbuf_get_string_direct(pa, &v, &len));
	CHECK(len == 32 && memcmp(v, apub, 32) == 0);
	CHECK_OK(sbuf_get_string_direct(pb, &v, &len));
	CHECK(len == 32 && memcmp(v, bpub, 32) == 0);
	CHECK_OK(kexalg_derive(ea, bpub, 32, ka));
	CHECK_OK(kexalg_derive(eb, apub, 32, kb));
	CHECK(sbuf_len(ka) == 36 && memcmp(sbuf_ptr(ka), wantk, 36) == 0);
	CHECK(sbuf_equal(ka, kb));
	/* Wrong private key length is refused. */
	kexalg_eph_free(eb);
	CHECK_ERR(kexalg_keygen_fixed(a, NULL, NULL, bpriv, 31, &eb, pb),
	    ERR_INVALID_ARGUMENT);
	CHECK(eb == NULL);
	kexalg_eph_free(ea);
	sbuf_free(pa);
	sbuf_free(pb);
	sbuf_free(ka);
	sbuf_free(kb);
}

static void
test_ecdh_rfc5903(void)
{
	static const struct {
		const char *alg, *i, *gi, *gr, *girx;
	} v[] = {
		{ "ecdh-sha2-nistp256",
		  "c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433",
		  "04dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c37725811"
		  "805271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3",
		  "04d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf"
		  "6356fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab",
		  "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de" },
		{ "ecdh-sha2-nistp384",
		  "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655"
		  "e35b538041e649ee3faef896783ab194",
		  "04667842d7d180ac2cde6f74f37551f55755c7645c20ef73e31634fe72b4c55e"
		  "e6de3ac808acb4bdb4c88732aee95f41aa9482ed1fc0eeb9cafc4984625ccfc2"
		  "3f65032149e0e144ada024181535a0f38eeb9fcff3c2c947dae69b4c634573a81c",
		  "04e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc50"
		  "9d0d1ac43a0336def96fda41d0774a3571dcfbec7aacf3196472169e83843036"
		  "7f66eebe3c6e70c416dd5f0c68759dd1fff83fa40142209dff5eaad96db9e6386c",
		  "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4"
		  "d603135569b9e9d09cf5d4a270f59746" },
		{ "ecdh-sha2-nistp521",
		  "0037ade9319a89f4dabdb3ef411aaccca5123c61acab57b5393dce47608172a0"
		  "95aa85a30fe1c2952c6771d937ba9777f5957b2639bab072462f68c27a57382d4a52",
		  "040015417e84dbf28c0ad3c278713349dc7df153c897a1891bd98bab4357c9ec"
		  "bee1e3bf42e00b8e380aeae57c2d107564941885942af5a7f4601723c4195d17"
		  "6ced3e017cae20b6641d2eeb695786d8c946146239d099e18e1d5a514c739d7c"
		  "b4a10ad8a788015ac405d7799dc75e7b7d5b6cf2261a6a7f1507438bf01beb6c"
		  "a3926f9582",
		  "0400d0b3975ac4b799f5bea16d5e13e9af971d5e9b984c9f39728b5e5739735a"
		  "219b97c356436adc6e95bb0352f6be64a6c2912d4ef2d0433ced2b6171640012"
		  "d9460f015c68226383956e3bd066e797b623c27ce0eac2f551a10c2c724d9852"
		  "077b87220b6536c5c408a1d2aebb8e86d678ae49cb57091f4732296579ab44fc"
		  "d17f0fc56a",
		  "01144c7d79ae6956bc8edb8e7c787c4521cb086fa64407f97894e5e6b2d79b04"
		  "d1427e73ca4baa240a34786859810c06b3c715a3a8cc3151f2bee417996d19f3"
		  "ddea" },
	};
	unsigned char priv[66], gi[133], gr[133], x[66], bad[133];
	size_t i, privlen, gilen, grlen, xlen;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct kex_alg *a = kexalg_by_name(v[i].alg);
		struct kex_eph *e = NULL;
		struct sbuf *pub = sbuf_new(), *K = sbuf_new(), *want;
		const unsigned char *pv;
		size_t pvlen;

		privlen = test_unhex(v[i].i, priv, sizeof(priv));
		gilen = test_unhex(v[i].gi, gi, sizeof(gi));
		grlen = test_unhex(v[i].gr, gr, sizeof(gr));
		xlen = test_unhex(v[i].girx, x, sizeof(x));
		CHECK_OK(kexalg_keygen_fixed(a, NULL, NULL, priv, privlen, &e,
		    pub));
		CHECK_OK(sbuf_get_string_direct(pub, &pv, &pvlen));
		CHECK(pvlen == gilen && memcmp(pv, gi, gilen) == 0);
		CHECK_OK(kexalg_derive(e, gr, grlen, K));
		want = sbuf_new();
		CHECK_OK(sbuf_put_mpint_bytes(want, x, xlen));
		CHECK(sbuf_equal(K, want));

		/* Off the curve: one bit of Y flipped. */
		memcpy(bad, gr, grlen);
		bad[grlen - 1] ^= 1;
		CHECK_ERR(kexalg_derive(e, bad, grlen, K), ERR_KEY_INVALID);
		/* X and Y zero (not on any of these curves). */
		memset(bad + 1, 0, grlen - 1);
		CHECK_ERR(kexalg_derive(e, bad, grlen, K), ERR_KEY_INVALID);
		/* Compressed or hybrid forms, wrong lengths, infinity. */
		memcpy(bad, gr, grlen);
		bad[0] = 0x02;
		CHECK_ERR(kexalg_derive(e, bad, grlen, K), ERR_INVALID_FORMAT);
		bad[0] = 0x06;
		CHECK_ERR(kexalg_derive(e, bad, grlen, K), ERR_INVALID_FORMAT);
		CHECK_ERR(kexalg_derive(e, gr, grlen - 1, K),
		    ERR_INVALID_FORMAT);
		CHECK_ERR(kexalg_derive(e, gr, (grlen + 1) / 2, K),
		    ERR_INVALID_FORMAT);
		bad[0] = 0;
		CHECK_ERR(kexalg_derive(e, bad, 1, K), ERR_INVALID_FORMAT);
		CHECK_ERR(kexalg_derive(e, bad, 0, K), ERR_INVALID_FORMAT);
		/* Nothing was appended by the failures. */
		CHECK(sbuf_equal(K, want));

		kexalg_eph_free(e);
		sbuf_free(want);
		sbuf_free(pub);
		sbuf_free(K);
	}
}

static void
test_x25519_reject(void)
{
	const struct kex_alg *a = kexalg_by_name("curve25519-sha256");
	struct kex_eph *e = NULL;
	struct sbuf *pub = sbuf_new(), *K = sbuf_new();
	unsigned char u[33];

	CHECK_OK(kexalg_keygen(a, NULL, NULL, &e, pub));
	CHECK(sbuf_len(pub) == 4 + 32);
	memset(u, 0, sizeof(u));
	u[0] = 9;
	CHECK_ERR(kexalg_derive(e, u, 31, K), ERR_INVALID_FORMAT);
	CHECK_ERR(kexalg_derive(e, u, 33, K), ERR_INVALID_FORMAT);
	CHECK_ERR(kexalg_derive(e, u, 0, K), ERR_INVALID_FORMAT);
	/* Small-order points give an all-zero secret: refused. */
	u[0] = 0;
	CHECK_ERR(kexalg_derive(e, u, 32, K), ERR_KEY_INVALID);
	u[0] = 1;
	CHECK_ERR(kexalg_derive(e, u, 32, K), ERR_KEY_INVALID);
	CHECK(sbuf_len(K) == 0);
	/* The base point itself is fine. */
	u[0] = 9;
	CHECK_OK(kexalg_derive(e, u, 32, K));
	kexalg_eph_free(e);
	sbuf_free(pub);
	sbuf_free(K);
}

/* Both ends of every method agree on K. */
static void
test_agreement(void)
{
	char *all = x_strdup(kexalg_all_names()), *cp, *save = NULL;
	BIGNUM *p = NULL, *g = NULL;

	CHECK_OK(kexalg_gex_choose("/nonexistent/moduli", 2048, 2048, 3000,
	    &p, &g));
	for (cp = strtok_r(all, ",", &save); cp != NULL;
	    cp = strtok_r(NULL, ",", &save)) {
		const struct kex_alg *a = kexalg_by_name(cp);
		struct kex_eph *ec = NULL, *es = NULL;
		struct sbuf *pc = sbuf_new(), *ps = sbuf_new();
		struct sbuf *kc = sbuf_new(), *ks = sbuf_new();
		const unsigned char *vc = NULL, *vs = NULL;
		size_t lc = 0, ls = 0;

		if (a->kind == KEX_KIND_KEM) {	/* test_kexalg_pq.c */
			sbuf_free(pc);
			sbuf_free(ps);
			sbuf_free(kc);
			sbuf_free(ks);
			continue;
		}
		/* The client's value, the server's reply, the client's K. */
		CHECK_OK(kexalg_keygen(a, p, g, &ec, pc));
		CHECK_OK(pub_value(a, pc, &vc, &lc));
		CHECK_OK(kexalg_reply(a, p, g, vc, lc, &es, ps, ks));
		CHECK(!sbuf_equal(pc, ps));
		CHECK_OK(pub_value(a, ps, &vs, &ls));
		CHECK(sbuf_len(pc) == 0 && sbuf_len(ps) == 0);
		CHECK_OK(kexalg_derive(ec, vs, ls, kc));
		if (!sbuf_equal(kc, ks) || sbuf_len(kc) < 5)
			fprintf(stderr, "%s: no agreement\n", cp);
		CHECK(sbuf_equal(kc, ks) && sbuf_len(kc) >= 5);
		/* K is a well-formed non-negative mpint. */
		CHECK_OK(sbuf_get_mpint_direct(kc, &vc, &lc));
		CHECK(sbuf_len(kc) == 0 && lc > 0);
		kexalg_eph_free(ec);
		kexalg_eph_free(es);
		sbuf_free(pc);
		sbuf_free(ps);
		sbuf_free(kc);
		sbuf_free(ks);
	}
	BN_free(p);
	BN_free(g);
	x_free(all);
}

/* Feed v to derive as a peer's mpint; expect want. */
static void
check_dh_reject(struct kex_eph *e, const BIGNUM *v, int want)
{
	struct sbuf *b = sbuf_new(), *K = sbuf_new();
	const unsigned char *p;
	size_t len;

	CHECK_OK(sbuf_put_bignum(b, v));
	CHECK_OK(sbuf_get_mpint_direct(b, &p, &len));
	CHECK_ERR(kexalg_derive(e, p, len, K), want);
	CHECK(want == 0 ? sbuf_len(K) > 0 : sbuf_len(K) == 0);
	sbuf_free(b);
	sbuf_free(K);
}

static void
test_dh(void)
{
	const struct kex_alg *a = kexalg_by_name("diffie-hellman-group14-sha256");
	const struct kex_alg *gex =
	    kexalg_by_name("diffie-hellman-group-exchange-sha256");
	unsigned char x[64], y[64], h[32], want[32];
	struct kex_eph *ea = NULL, *eb = NULL;
	struct sbuf *pa = sbuf_new(), *pb = sbuf_new(), *K = sbuf_new();
	const unsigned char *fv;
	size_t flen, i;
	BIGNUM *p = BN_get_rfc3526_prime_2048(NULL), *v = BN_new();
	BIGNUM *small = BN_get_rfc2409_prime_1024(NULL), *two = BN_new();

	for (i = 0; i < 64; i++) {
		x[i] = (unsigned char)(1 + i);
		y[i] = (unsigned char)(0x41 + i);
	}
	/* e = 2^x mod p, f = 2^y mod p, K = f^x mod p (Python). */
	CHECK_OK(kexalg_keygen_fixed(a, NULL, NULL, x, 64, &ea, pa));
	CHECK_OK(kexalg_keygen_fixed(a, NULL, NULL, y, 64, &eb, pb));
	CHECK_OK(kexalg_hash(a, sbuf_ptr(pa), sbuf_len(pa), h));
	test_unhex("3d66f37966690a94a9be3b0b6c77f220"
	    "a7d2227103b2d172830233cb87919b7c", want, 32);
	CHECK_MEM(h, want, 32);
	CHECK_OK(kexalg_hash(a, sbuf_ptr(pb), sbuf_len(pb), h));
	test_unhex("77ad47e236d6c28203185cfbd79e18e3"
	    "b137738d37153434bee56c45d8321fb4", want, 32);
	CHECK_MEM(h, want, 32);
	CHECK_OK(sbuf_get_mpint_direct(pb, &fv, &flen));
	CHECK_OK(kexalg_derive(ea, fv, flen, K));
	CHECK_OK(kexalg_hash(a, sbuf_ptr(K), sbuf_len(K), h));
	test_unhex("461791fd4f6eed73db3a311597ad7d35"
	    "f6a9683fb5161c000382cdeecf7d9e3b", want, 32);
	CHECK_MEM(h, want, 32);

	/* Peer values out of range: 0, 1, 2 (one bit), p-1, p, p+1, 2^2048. */
	BN_zero(v);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	BN_one(v);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	BN_set_word(v, 2);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	BN_copy(v, p);
	BN_sub_word(v, 1);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	BN_copy(v, p);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	BN_add_word(v, 1);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	BN_zero(v);
	BN_set_bit(v, 2048);
	check_dh_reject(ea, v, ERR_KEY_INVALID);
	/* p-2 and 3 are in range. */
	BN_copy(v, p);
	BN_sub_word(v, 2);
	check_dh_reject(ea, v, 0);
	BN_set_word(v, 3);
	check_dh_reject(ea, v, 0);
	kexalg_eph_free(ea);
	kexalg_eph_free(eb);
	ea = eb = NULL;

	/* Group exchange refuses weak or broken groups. */
	BN_set_word(two, 2);
	CHECK_ERR(kexalg_keygen(gex, small, two, &ea, pa), ERR_KEY_LENGTH);
	CHECK_ERR(kexalg_keygen(gex, NULL, NULL, &ea, pa),
	    ERR_INVALID_ARGUMENT);
	BN_one(v);
	CHECK_ERR(kexalg_keygen(gex, p, v, &ea, pa), ERR_KEY_INVALID);
	BN_copy(v, p);
	BN_sub_word(v, 1);
	CHECK_ERR(kexalg_keygen(gex, p, v, &ea, pa), ERR_KEY_INVALID);
	/* An even modulus (p-1). */
	CHECK_ERR(kexalg_keygen(gex, v, two, &ea, pa), ERR_KEY_LENGTH);
	CHECK(ea == NULL);
	CHECK_OK(kexalg_keygen(gex, p, two, &ea, pa));
	kexalg_eph_free(ea);

	BN_free(p);
	BN_free(v);
	BN_free(small);
	BN_free(two);
	sbuf_free(pa);
	sbuf_free(pb);
	sbuf_free(K);
}

static void
test_derive_key(void)
{
	static const struct {
		const char *alg;
		char c;
		size_t need;
		const char *want;
	} v[] = {
		{ "curve25519-sha256", 'A', 100,
		  "111c34824e27bcf60e047eb9a5128e1c9aad88e35967bc3987b34708d78ae4f6"
		  "3127931241f5e6c9cb7301352de2e0835356319835d6f28e54d74f0ba4252658"
		  "7df3a3fd98c6ef3aa295c290bcfaad6e580477aba281eb6185fdd5e695e89e44"
		  "2aaf5699" },
		{ "ecdh-sha2-nistp521", 'C', 64,
		  "5bd547680320aaf197e38dd51a832c782a9e84131789eaac9e4e0ce9a7ab8371"
		  "6e62915f97f99f5f978a8b97f70f55b97962e79fb462efa959e9d219ca6c3b5d" },
		{ "diffie-hellman-group16-sha512", 'E', 130,
		  "a0c6195b4df3a7523c519fda13662b8e8ad446200eb974dfd7e6ae7a9fd1d4e4"
		  "15f3c3258e5be9a32dd9adeb72311e7871c66263d3dcfc6605dd3509c52d700c"
		  "cbbe9df11f7a90714a23dc9ac6e0fcfbe80a2180efa61ec1fd122f26170c39a8"
		  "1c2adcf6fbd07ea4bc4f274f46312a81bc51a8936328acbc5f2e9c25f3f1877a"
		  "1e58" },
	};
	const struct kex_alg *s256 = kexalg_by_name("curve25519-sha256");
	unsigned char k[32], sid[32], H[64], out[130], want[130];
	struct sbuf *K = sbuf_new();
	size_t i, n;

	/* K = mpint of 0x80..0x9f: 00000021 00 80 ... 9f. */
	for (i = 0; i < 32; i++)
		k[i] = (unsigned char)(0x80 + i);
	CHECK_OK(sbuf_put_mpint_bytes(K, k, 32));
	CHECK(sbuf_len(K) == 37 && sbuf_ptr(K)[3] == 0x21);
	CHECK_OK(kexalg_hash(s256, (const unsigned char *)"session id", 10,
	    sid));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct kex_alg *a = kexalg_by_name(v[i].alg);

		CHECK_OK(kexalg_hash(a, (const unsigned char *)"exchange hash",
		    13, H));
		n = test_unhex(v[i].want, want, sizeof(want));
		CHECK(n == v[i].need);
		memset(out, 0xee, sizeof(out));
		CHECK_OK(kexalg_derive_key(a, K, H, a->hash_len, v[i].c, sid,
		    32, out, v[i].need));
		CHECK_MEM(out, want, n);
		if (n < sizeof(out))
			CHECK(out[n] == 0xee);
		/* A shorter request is a prefix of the longer one. */
		CHECK_OK(kexalg_derive_key(a, K, H, a->hash_len, v[i].c, sid,
		    32, out, 7));
		CHECK_MEM(out, want, 7);
	}
	sbuf_free(K);
}

/* Hex of a libcrypto prime, for writing moduli lines. */
static char *
prime_hex(BIGNUM *(*f)(BIGNUM *))
{
	BIGNUM *p = f(NULL);
	char *h = BN_bn2hex(p), *r = x_strdup(h);

	OPENSSL_free(h);
	BN_free(p);
	return r;
}

static int
same_prime(const BIGNUM *p, BIGNUM *(*f)(BIGNUM *))
{
	BIGNUM *q = f(NULL);
	int r = BN_cmp(p, q) == 0;

	BN_free(q);
	return r;
}

static void
test_gex_file(void)
{
	char path[] = "/tmp/moat-test-moduli.XXXXXX";
	char *h2 = prime_hex(BN_get_rfc3526_prime_2048);
	char *h3 = prime_hex(BN_get_rfc3526_prime_3072);
	char *h4 = prime_hex(BN_get_rfc3526_prime_4096);
	BIGNUM *p = NULL, *g = NULL;
	int fd, seen3 = 0, seen2 = 0, i;
	FILE *f;

	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		CHECK(0);
		return;
	}
	fprintf(f, "# Time Type Tests Tries Size Generator Modulus\n\n");
	fprintf(f, "   # indented comment\n");
	/* Good: two 2048-bit groups (g 2 and 3) and one 4096-bit (g 5). */
	fprintf(f, "20220714110357 2 6 100 2047 2 %s\n", h2);
	fprintf(f, "20220714110358 2 6 100 2047 3 %s\n", h2);
	fprintf(f, "20220714110359\t2\t6\t100\t4095\t5\t%s\r\n", h4);
	/* Every 3072-bit line is broken in one way. */
	fprintf(f, "20220714110400 1 6 100 3071 2 %s\n", h3);	/* type */
	fprintf(f, "20220714110400 2 7 100 3071 2 %s\n", h3);	/* composite */
	fprintf(f, "20220714110400 2 2 100 3071 2 %s\n", h3);	/* no M-R */
	fprintf(f, "20220714110400 2 6 0 3071 2 %s\n", h3);	/* tries */
	fprintf(f, "20220714110400 2 6 100 3071 1 %s\n", h3);	/* g = 1 */
	fprintf(f, "20220714110400 2 6 100 3071 2 -%s\n", h3);	/* sign */
	fprintf(f, "20220714110400 2 6 100 3071 2 %sG\n", h3);	/* hex */
	fprintf(f, "20220714110400 2 6 100 3071 2 %s 7\n", h3);	/* extra */
	fprintf(f, "20220714110400 2 6 100 3071 %s\n", h3);	/* short */
	fprintf(f, "20220714110400 2 6 100 -3071 2 %s\n", h3);	/* size */
	fprintf(f, "x 2 6 100 3071 2 %s\n", h3);		/* time */
	fprintf(f, "20220714110400 2 6 100 3071 02 0%s\n", h2);	/* bits */
	fprintf(f, "20220714110400 2 6 100 6143 2 %s\n", h3);	/* bits */
	fprintf(f, "20220714110400 2 6 100 99999999999999999999 2 %s\n", h3);
	fprintf(f, "garbage\n");
	fclose(f);

	/* want 3072: no good 3072 group, so the next size up. */
	CHECK_OK(kexalg_gex_choose(path, 2048, 3072, 8192, &p, &g));
	CHECK(p != NULL && same_prime(p, BN_get_rfc3526_prime_4096));
	CHECK(g != NULL && BN_is_word(g, 5));
	BN_free(p);
	BN_free(g);
	/* want 6144 with max 8192: nothing >= want, so the largest below. */
	CHECK_OK(kexalg_gex_choose(path, 2048, 6144, 8192, &p, &g));
	CHECK(p != NULL && BN_num_bits(p) == 4096);
	BN_free(p);
	BN_free(g);
	/* Random choice between the two 2048-bit lines. */
	for (i = 0; i < 40; i++) {
		CHECK_OK(kexalg_gex_choose(path, 2048, 2048, 3072, &p, &g));
		CHECK(p != NULL && same_prime(p, BN_get_rfc3526_prime_2048));
		if (g != NULL && BN_is_word(g, 2))
			seen2++;
		else if (g != NULL && BN_is_word(g, 3))
			seen3++;
		BN_free(p);
		BN_free(g);
	}
	CHECK(seen2 > 0 && seen3 > 0 && seen2 + seen3 == 40);
	/* Nothing in the file fits [6000, 8192]: group 18 as fallback. */
	CHECK_OK(kexalg_gex_choose(path, 6000, 7000, 8192, &p, &g));
	CHECK(p != NULL && same_prime(p, BN_get_rfc3526_prime_8192));
	CHECK(g != NULL && BN_is_word(g, 2));
	BN_free(p);
	BN_free(g);
	/* Nothing anywhere fits [3000, 3500]. */
	CHECK_ERR(kexalg_gex_choose(path, 3000, 3072, 3500, &p, &g),
	    ERR_NOT_FOUND);
	CHECK(p == NULL && g == NULL);

	unlink(path);
	x_free(h2);
	x_free(h3);
	x_free(h4);
}

static void
test_gex_fallback(void)
{
	BIGNUM *p = NULL, *g = NULL;

	CHECK_OK(kexalg_gex_choose("/nonexistent/moduli", 2048, 3072, 8192,
	    &p, &g));
	CHECK(p != NULL && same_prime(p, BN_get_rfc3526_prime_4096));
	CHECK(g != NULL && BN_is_word(g, 2));
	BN_free(p);
	BN_free(g);
	CHECK_OK(kexalg_gex_choose(NULL, 1024, 3072, 3072, &p, &g));
	CHECK(p != NULL && same_prime(p, BN_get_rfc3526_prime_2048));
	BN_free(p);
	BN_free(g);
	/* Requests are clamped to [2048, 8192]. */
	CHECK_OK(kexalg_gex_choose(NULL, 0, 100000, 100000, &p, &g));
	CHECK(p != NULL && same_prime(p, BN_get_rfc3526_prime_8192));
	BN_free(p);
	BN_free(g);
	CHECK_OK(kexalg_gex_choose(NULL, 0, 0, 2048, &p, &g));
	CHECK(p != NULL && BN_num_bits(p) == 2048);
	BN_free(p);
	BN_free(g);
	CHECK_ERR(kexalg_gex_choose(NULL, 4096, 3072, 8192, &p, &g),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(kexalg_gex_choose(NULL, 4096, 8192, 3072, &p, &g),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(kexalg_gex_choose(NULL, 1024, 1024, 1024, &p, &g),
	    ERR_INVALID_ARGUMENT);
	CHECK(p == NULL && g == NULL);
}

static void
test_gex_system(void)
{
	const char *path = "/etc/ssh/moduli";
	BIGNUM *p = NULL, *g = NULL;
	int bits;

	if (access(path, R_OK) != 0) {
		printf("skip: %s not readable\n", path);
		return;
	}
	CHECK_OK(kexalg_gex_choose(path, 2048, 3072, 8192, &p, &g));
	bits = p != NULL ? BN_num_bits(p) : 0;
	CHECK(bits >= 2048 && bits <= 8192);
	CHECK(p != NULL && BN_is_odd(p) && g != NULL && !BN_is_one(g));
	/* Debian's file has 3072-bit groups; say so if not. */
	if (bits != 3072)
		printf("note: %s gave %d bits for want 3072\n", path, bits);
	BN_free(p);
	BN_free(g);
	CHECK_OK(kexalg_gex_choose(path, 2048, 8192, 8192, &p, &g));
	CHECK(p != NULL && BN_num_bits(p) == 8192);
	BN_free(p);
	BN_free(g);
}

int
main(void)
{
	log_init("test_kexalg", LOG_LEVEL_QUIET, 0, 1);
	test_names();
	test_hash();
	test_x25519_rfc7748();
	test_x25519_reject();
	test_ecdh_rfc5903();
	test_agreement();
	test_dh();
	test_derive_key();
	test_gex_fallback();
	test_gex_file();
	test_gex_system();
	return TEST_DONE();
}
