/*
 * test_cipher.c: the cipher table and the packet interface of cipher.h,
 * against published vectors (NIST SP 800-38A, the GCM spec's test cases,
 * RFC 8439) and vectors for the SSH packet forms computed with an
 * independent implementation; two-peer roundtrips for every cipher;
 * tampering; and a check that the packet path makes no libcrypto
 * allocation.
 */
#include <stdint.h>
#include <stdlib.h>

#include <openssl/crypto.h>

#include "cipher.h"
#include "cipher_int.h"
#include "mem.h"
#include "testlib.h"

static long ossl_allocs;

static void *
count_malloc(size_t n, const char *file, int line)
{
	ossl_allocs++;
	return malloc(n);
}

static void *
count_realloc(void *p, size_t n, const char *file, int line)
{
	ossl_allocs++;
	return realloc(p, n);
}

static void
count_free(void *p, const char *file, int line)
{
	free(p);
}

static struct cipher_ctx *
mk(const char *name, const unsigned char *key, const unsigned char *iv,
    int encrypt)
{
	const struct cipher_alg *alg = cipher_by_name(name);
	struct cipher_ctx *ctx = NULL;

	CHECK(alg != NULL);
	if (alg == NULL)
		return NULL;
	CHECK_OK(cipher_init(&ctx, alg, key, alg->key_len, iv, alg->iv_len,
	    encrypt));
	return ctx;
}

static void
test_table(void)
{
	char *names = x_strdup(cipher_all_names()), *cp, *name;
	const struct cipher_alg *alg;
	int n = 0;

	CHECK_STR(cipher_default_names(), "chacha20-poly1305@openssh.com,"
	    "aes128-gcm@openssh.com,aes256-gcm@openssh.com,"
	    "aes128-ctr,aes192-ctr,aes256-ctr");
	/* OpenSSH's `ssh -Q cipher`, in its order: CBC too, off by default. */
	CHECK_STR(cipher_all_names(), "3des-cbc,aes128-cbc,aes192-cbc,"
	    "aes256-cbc,aes128-ctr,aes192-ctr,aes256-ctr,"
	    "aes128-gcm@openssh.com,aes256-gcm@openssh.com,"
	    "chacha20-poly1305@openssh.com");
	for (cp = names; (name = strsep(&cp, ",")) != NULL; n++) {
		alg = cipher_by_name(name);
		CHECK(alg != NULL && strcmp(alg->name, name) == 0);
	}
	CHECK(n == 10);
	x_free(names);
	CHECK(cipher_by_name("blowfish-cbc") == NULL);
	CHECK(cipher_by_name("des-cbc") == NULL);
	CHECK(cipher_by_name("") == NULL);
	CHECK(cipher_by_name(NULL) == NULL);

	alg = cipher_by_name("chacha20-poly1305@openssh.com");
	CHECK(alg->key_len == 64 && alg->iv_len == 0 && alg->auth_len == 16 &&
	    alg->block_size == 8 &&
	    alg->flags == (CIPHER_AEAD | CIPHER_LENGTH_ENCRYPTED));
	alg = cipher_by_name("aes256-gcm@openssh.com");
	CHECK(alg->key_len == 32 && alg->iv_len == 12 && alg->auth_len == 16 &&
	    alg->block_size == 16 && alg->flags == CIPHER_AEAD);
	alg = cipher_by_name("aes192-ctr");
	CHECK(alg->key_len == 24 && alg->iv_len == 16 && alg->auth_len == 0 &&
	    alg->block_size == 16 && alg->flags == 0);
}

/*
 * NIST SP 800-38A F.2.1, F.2.3, F.2.5: CBC-AES{128,192,256}, sent as two
 * packets: the chaining runs on from one packet to the next. 3des-cbc
 * has no vector here: its round trip and chaining are checked, and the
 * interop test runs it against OpenSSH.
 */
static void
test_cbc_vectors(void)
{
	static const char *keys[3] = {
		"2b7e151628aed2a6abf7158809cf4f3c",
		"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		"603deb1015ca71be2b73aef0857d77811f352c073b6108d7"
		"2d9810a30914dff4",
	};
	static const char *cts[3] = {
		"7649abac8119b246cee98e9b12e9197d5086cb9b507219ee"
		"95db113a917678b273bed6b8e3c1743b7116e69e22229516"
		"3ff1caa1681fac09120eca307586e1a7",
		"4f021db243bc633d7178183a9fa071e8b4d9ada9ad7dedf4"
		"e5e738763f69145a571b242012fb7ae07fa9baac3df102e0"
		"08b0e27988598881d920a9e64f5615cd",
		"f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d"
		"679f777bc6702c7d39f23369a9d9bacfa530e26304231461"
		"b2eb05e2c39be9fcda6c19078c6a9d1b",
	};
	static const char *names[3] = { "aes128-cbc", "aes192-cbc",
	    "aes256-cbc" };
	unsigned char key[32], iv[16], pt[64], want[64], buf[64], one[64];
	struct cipher_ctx *enc, *dec;
	int i;

	test_unhex("000102030405060708090a0b0c0d0e0f", iv, sizeof(iv));
	test_unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c"
	    "9eb76fac45af8e51"
	    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
	    pt, sizeof(pt));
	for (i = 0; i < 3; i++) {
		test_unhex(keys[i], key, sizeof(key));
		test_unhex(cts[i], want, sizeof(want));
		enc = mk(names[i], key, iv, 1);
		dec = mk(names[i], key, iv, 0);
		CHECK_OK(cipher_crypt(enc, 0, buf, pt, 16, 0, 0));
		CHECK_OK(cipher_crypt(enc, 1, buf + 16, pt + 16, 48, 0, 0));
		CHECK_MEM(buf, want, 64);
		/* Decrypt the first block alone, as the packet layer does. */
		CHECK_OK(cipher_crypt(dec, 0, buf, buf, 16, 0, 0));
		CHECK_OK(cipher_crypt(dec, 0, buf + 16, buf + 16, 48, 0, 0));
		CHECK_MEM(buf, pt, 64);
		cipher_free(enc);
		cipher_free(dec);
	}

	/* 3des-cbc: 8-byte blocks, 24-byte key, chaining across calls. */
	memset(key, 0x5a, sizeof(key));
	enc = mk("3des-cbc", key, iv, 1);
	CHECK_OK(cipher_crypt(enc, 0, one, pt, 64, 0, 0));
	cipher_free(enc);
	enc = mk("3des-cbc", key, iv, 1);
	CHECK_OK(cipher_crypt(enc, 0, buf, pt, 8, 0, 0));
	CHECK_OK(cipher_crypt(enc, 1, buf + 8, pt + 8, 56, 0, 0));
	CHECK_MEM(buf, one, 64);
	CHECK(memcmp(buf, pt, 64) != 0);
	dec = mk("3des-cbc", key, iv, 0);
	CHECK_OK(cipher_crypt(dec, 0, buf, buf, 8, 0, 0));
	CHECK_OK(cipher_crypt(dec, 0, buf + 8, buf + 8, 56, 0, 0));
	CHECK_MEM(buf, pt, 64);
	CHECK_ERR(cipher_crypt(dec, 1, buf, buf, 12, 0, 0),
	    ERR_INVALID_ARGUMENT);
	cipher_free(enc);
	cipher_free(dec);
}

/* NIST SP 800-38A F.5.1, F.5.3, F.5.5: CTR-AES{128,192,256}. */
static void
test_ctr_vectors(void)
{
	static const char *keys[3] = {
		"2b7e151628aed2a6abf7158809cf4f3c",
		"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		"603deb1015ca71be2b73aef0857d77811f352c073b6108d7"
		"2d9810a30914dff4",
	};
	static const char *cts[3] = {
		"874d6191b620e3261bef6864990db6ce9806f66b7970fdff"
		"8617187bb9fffdff"
		"5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1"
		"792170a0f3009cee",
		"1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faef"
		"d5ccc2c6f4ce8e94"
		"1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d2980958"
		"5a97daec58c6b050",
		"601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59a"
		"ca84e990cacaf5c5"
		"2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada6"
		"13c2dd08457941a6",
	};
	static const char *names[3] = { "aes128-ctr", "aes192-ctr",
	    "aes256-ctr" };
	unsigned char key[32], iv[16], pt[64], want[64], buf[64];
	struct cipher_ctx *enc, *dec;
	int i;

	test_unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", iv, sizeof(iv));
	test_unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c"
	    "9eb76fac45af8e51"
	    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
	    pt, sizeof(pt));
	for (i = 0; i < 3; i++) {
		test_unhex(keys[i], key, sizeof(key));
		test_unhex(cts[i], want, sizeof(want));
		enc = mk(names[i], key, iv, 1);
		dec = mk(names[i], key, iv, 0);
		/* Two packets: the counter runs on from the first. */
		CHECK_OK(cipher_crypt(enc, 0, buf, pt, 16, 0, 0));
		CHECK_OK(cipher_crypt(enc, 1, buf + 16, pt + 16, 48, 0, 0));
		CHECK_MEM(buf, want, 64);
		/* In place, the second packet with a clear 4-byte prefix. */
		CHECK_OK(cipher_crypt(dec, 0, buf, buf, 32, 0, 0));
		memcpy(buf + 28, pt + 28, 4);
		CHECK_OK(cipher_crypt(dec, 1, buf + 28, buf + 28, 32, 4, 0));
		CHECK_MEM(buf, pt, 64);
		CHECK_ERR(cipher_crypt(dec, 2, buf, buf, 15, 0, 0),
		    ERR_INVALID_ARGUMENT);
		CHECK_ERR(cipher_crypt(dec, 2, buf, buf, 16, 0, 16),
		    ERR_INVALID_ARGUMENT);
		cipher_free(enc);
		cipher_free(dec);
	}
}

/*
 * AES-GCM. Test Case 3 of McGrew & Viega, "The Galois/Counter Mode of
 * Operation" (no AAD); then SSH packets with the 4-byte length as AAD
 * and the invocation counter stepping per packet (expected values from
 * an independent AES-GCM with IVs fixed || counter, counter+1).
 */
static void
test_gcm_vectors(void)
{
	unsigned char key[16], iv[12], pt[64], want[100], buf[100], pkt[52];
	struct cipher_ctx *enc, *dec;
	size_t i;

	test_unhex("feffe9928665731c6d6a8f9467308308", key, sizeof(key));
	test_unhex("cafebabefacedbaddecaf888", iv, sizeof(iv));
	test_unhex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da"
	    "2e4c303d8a318a72"
	    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
	    pt, sizeof(pt));
	test_unhex("42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e0"
	    "35c17e2329aca12e"
	    "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985"
	    "4d5c2af327cd64a62cf35abd2ba6fab4", want, 80);
	enc = mk("aes128-gcm@openssh.com", key, iv, 1);
	dec = mk("aes128-gcm@openssh.com", key, iv, 0);
	CHECK_OK(cipher_crypt(enc, 0, buf, pt, 64, 0, 16));
	CHECK_MEM(buf, want, 80);
	CHECK_OK(cipher_crypt(dec, 0, buf, buf, 64, 0, 16));
	CHECK_MEM(buf, pt, 64);

	/* Next packets: IV counter + 1 and + 2, length as AAD. */
	pkt[0] = pkt[1] = pkt[2] = 0;
	pkt[3] = 0x30;
	for (i = 0; i < 0x30; i++)
		pkt[4 + i] = (unsigned char)i;
	cipher_free(enc);
	cipher_free(dec);
	enc = mk("aes128-gcm@openssh.com", key, iv, 1);
	dec = mk("aes128-gcm@openssh.com", key, iv, 0);
	test_unhex("00000030"
	    "9bb32ee4ddf674c6e62222792728fc09751c9a6f2d23452d03945405bf803543"
	    "1dc83a04e52bbc687a694e55c90f310f68f64db1ee1283b24feba0e52f4c2162",
	    want, 68);
	CHECK_OK(cipher_crypt(enc, 5, buf, pkt, 48, 4, 16));
	CHECK_MEM(buf, want, 68);
	CHECK_OK(cipher_crypt(dec, 5, buf, buf, 48, 4, 16));
	CHECK_MEM(buf, pkt, 52);
	test_unhex("00000030"
	    "8511f6ac55f97c9039e2d46ad996a6d81c6c45aa886a14c904687fd0bcd2cfcc"
	    "24bd06f2fc6b24772aaf12a8c3a155d60371d0beb5bdb01117abde3b9c472e61",
	    want, 68);
	CHECK_OK(cipher_crypt(enc, 6, buf, pkt, 48, 4, 16));
	CHECK_MEM(buf, want, 68);
	/* A bad tag fails and still uses up the IV, as on the sender. */
	buf[10] ^= 0x01;
	CHECK_ERR(cipher_crypt(dec, 6, buf, buf, 48, 4, 16), ERR_MAC_INVALID);
	cipher_free(enc);
	cipher_free(dec);

	/* The counter is 64 bits and carries, the fixed field does not. */
	memset(iv + 4, 0xff, 8);
	enc = mk("aes128-gcm@openssh.com", key, iv, 1);
	test_unhex("00000030"
	    "6e0aed85fc4506a046315b37acf0ff6eb546e327d2a5daaebaa6736193f9d0d2"
	    "2bb58a75c975f50ab5897e52ef5e53457a89a184b5ac90e6c71e8f346f572158",
	    want, 68);
	CHECK_OK(cipher_crypt(enc, 0, buf, pkt, 48, 4, 16));
	CHECK(memcmp(buf, want, 68) != 0);
	CHECK_OK(cipher_crypt(enc, 1, buf, pkt, 48, 4, 16));
	CHECK_MEM(buf, want, 68);
	cipher_free(enc);
}

/* RFC 8439 2.3.2 (block function), 2.5.2 (poly1305), 2.6.2 (key gen). */
static void
test_chacha_primitives(void)
{
	unsigned char key[32], iv[16], want[64], out[64], zero[64];
	static const char msg[] = "Cryptographic Forum Research Group";
	EVP_CIPHER_CTX *c = NULL;
	EVP_MAC_CTX *m = NULL;
	size_t i;

	memset(zero, 0, sizeof(zero));
	for (i = 0; i < 32; i++)
		key[i] = (unsigned char)i;
	CHECK_OK(chachapoly_new_stream(&c, key));
	/* RFC IV: counter 1 (LE), nonce 000000090000004a00000000. */
	test_unhex("01000000000000090000004a00000000", iv, sizeof(iv));
	test_unhex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c06803"
	    "0422aa9ac3d46c4e"
	    "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
	    want, sizeof(want));
	CHECK_OK(chachapoly_xor(c, iv, zero, out, 64));
	CHECK_MEM(out, want, 64);
	/* The same through chachapoly_iv's counter placement. */
	chachapoly_iv(iv, 1, 0);
	CHECK(iv[0] == 1 && iv[1] == 0 && iv[4] == 0 && iv[15] == 0);
	chachapoly_iv(iv, 0, 0x0102030405060708ull);
	CHECK(iv[0] == 0 && iv[7] == 0 && iv[8] == 1 && iv[15] == 8);
	EVP_CIPHER_CTX_free(c);

	/* 2.6.2: key 80..9f, nonce 000000000001020304050607, counter 0. */
	for (i = 0; i < 32; i++)
		key[i] = (unsigned char)(0x80 + i);
	CHECK_OK(chachapoly_new_stream(&c, key));
	chachapoly_iv(iv, 0, 0x0001020304050607ull);
	test_unhex("8ad5a08b905f81cc815040274ab29471a833b637e3fd0da5"
	    "08dbb8e2fdd1a646",
	    want, 32);
	CHECK_OK(chachapoly_xor(c, iv, zero, out, 32));
	CHECK_MEM(out, want, 32);
	EVP_CIPHER_CTX_free(c);

	test_unhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd"
	    "4abff6af4149f51b",
	    key, 32);
	test_unhex("a8061dc1305136c6c22b8baf0c0127a9", want, 16);
	CHECK_OK(chachapoly_new_poly(&m));
	CHECK_OK(chachapoly_poly1305(m, key, (const unsigned char *)msg,
	    strlen(msg), out));
	CHECK_MEM(out, want, 16);
	/* The context is rekeyed per use: the same again gives the same. */
	CHECK_OK(chachapoly_poly1305(m, key, (const unsigned char *)msg,
	    strlen(msg), out));
	CHECK_MEM(out, want, 16);
	EVP_MAC_CTX_free(m);
}

/*
 * chacha20-poly1305@openssh.com on whole packets. Expected values come
 * from an independent implementation of PROTOCOL.chacha20poly1305 (64-bit
 * counter and nonce, K_2 first, K_1 last).
 */
static void
test_chachapoly_packets(void)
{
	static const struct {
		uint32_t seqnr;
		const char *ct;
	} kat[] = {
		{ 7, "f38eb4ca59391452d50c5d79f67d629da092f73d485dd1f2771430f2"
		    "0a72313d9d507a082bb02426bfdbbd90ae841e8c871f54e6" },
		{ 0x01020304, "e096b8fbae4a6a3523557e8b96037172949a96c2464fd161"
		    "679d83103f2e9db277dbe0c1e9871d0a6b0d272d20eadada"
		    "beec5f28" },
	};
	unsigned char key[64], pkt[36], want[52], buf[52], tmp[52];
	struct cipher_ctx *enc, *dec;
	uint32_t plen;
	size_t i, bit;

	for (i = 0; i < 64; i++)
		key[i] = (unsigned char)(0x40 + i);
	test_unhex("00000020066d6f61742063686163686132302d706f6c7931"
	    "333035206b61"
	    "740102030405", pkt, sizeof(pkt));
	enc = mk("chacha20-poly1305@openssh.com", key, NULL, 1);
	dec = mk("chacha20-poly1305@openssh.com", key, NULL, 0);
	for (i = 0; i < sizeof(kat) / sizeof(kat[0]); i++) {
		test_unhex(kat[i].ct, want, sizeof(want));
		CHECK_OK(cipher_crypt(enc, kat[i].seqnr, buf, pkt, 32, 4, 16));
		CHECK_MEM(buf, want, sizeof(want));
		plen = 0;
		CHECK_OK(cipher_get_length(dec, &plen, kat[i].seqnr, buf, 4));
		CHECK(plen == 32);
		/* get_length does not disturb the next decryption. */
		CHECK_OK(cipher_get_length(dec, &plen, kat[i].seqnr + 1, buf,
		    52));
		CHECK(plen != 32);
		CHECK_ERR(cipher_get_length(dec, &plen, kat[i].seqnr, buf, 3),
		    ERR_MESSAGE_INCOMPLETE);
		memcpy(tmp, buf, sizeof(tmp));
		CHECK_OK(cipher_crypt(dec, kat[i].seqnr, tmp, tmp, 32, 4, 16));
		CHECK_MEM(tmp, pkt, sizeof(pkt));
		/* The wrong seqnr fails. */
		memcpy(tmp, buf, sizeof(tmp));
		CHECK_ERR(cipher_crypt(dec, kat[i].seqnr ^ 1, tmp, tmp, 32, 4,
		    16), ERR_MAC_INVALID);
	}
	/* Any flipped bit (length, payload, tag) is caught. */
	for (i = 0; i < sizeof(buf); i++) {
		bit = i % 8;
		memcpy(tmp, buf, sizeof(tmp));
		tmp[i] ^= (unsigned char)(1u << bit);
		CHECK_ERR(cipher_crypt(dec, kat[1].seqnr, tmp, tmp, 32, 4, 16),
		    ERR_MAC_INVALID);
		/* Undecrypted on failure: the payload is still ciphertext. */
		if (i >= 4 && i < 36)
			CHECK(memcmp(tmp + 4, pkt + 4, 32) != 0);
	}
	CHECK_ERR(cipher_crypt(dec, 0, tmp, tmp, 32, 4, 0),
	    ERR_INVALID_ARGUMENT);
	CHECK_ERR(cipher_crypt(dec, 0, tmp, tmp, 31, 4, 16),
	    ERR_INVALID_ARGUMENT);
	cipher_free(enc);
	cipher_free(dec);
}

/* Two peers over several packets, every cipher, separately initialised. */
static void
test_roundtrip(void)
{
	static const char *names[] = {
		"chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr",
		"aes256-ctr", "aes128-gcm@openssh.com",
		"aes256-gcm@openssh.com",
	};
	static const unsigned int lens[] = { 16, 32, 64, 1024, 48, 32768, 16 };
	unsigned char key[64], iv[16], *plain, *wire, *back;
	const struct cipher_alg *alg;
	struct cipher_ctx *enc, *dec;
	unsigned int aad, auth, len, seq;
	size_t n, i, j;
	uint32_t plen;

	plain = x_malloc(40000);
	wire = x_malloc(40000);
	back = x_malloc(40000);
	for (i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(i * 7 + 1);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = (unsigned char)(0xf0 + i);
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		alg = cipher_by_name(names[n]);
		enc = mk(names[n], key, iv, 1);
		dec = mk(names[n], key, iv, 0);
		aad = alg->auth_len != 0 ? 4 : (n % 2 == 0 ? 4 : 0);
		auth = alg->auth_len;
		for (j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			seq = 0xfffffffdU + (unsigned int)j;	/* wraps */
			len = lens[j];
			for (i = 0; i < aad + len; i++)
				plain[i] = (unsigned char)(i * 31 + j + n);
			plain[0] = (unsigned char)(len >> 24);
			plain[1] = (unsigned char)(len >> 16);
			plain[2] = (unsigned char)(len >> 8);
			plain[3] = (unsigned char)len;
			CHECK_OK(cipher_crypt(enc, seq, wire, plain, len, aad,
			    auth));
			CHECK(memcmp(wire + aad, plain + aad, len) != 0);
			if (aad == 4) {
				CHECK_OK(cipher_get_length(dec, &plen, seq,
				    wire, aad + len));
				CHECK(plen == len);
				if (!(alg->flags & CIPHER_LENGTH_ENCRYPTED))
					CHECK_MEM(wire, plain, 4);
			}
			CHECK_OK(cipher_crypt(dec, seq, back, wire, len, aad,
			    auth));
			CHECK_MEM(back, plain, aad + len);
		}
		CHECK(cipher_ctx_alg(enc) == alg);
		cipher_free(enc);
		cipher_free(dec);
	}
	/* Keys and IVs of the wrong size are refused. */
	alg = cipher_by_name("aes128-ctr");
	CHECK_ERR(cipher_init(&enc, alg, key, 32, iv, 16, 1),
	    ERR_INVALID_ARGUMENT);
	CHECK(enc == NULL);
	CHECK_ERR(cipher_init(&enc, alg, key, 16, iv, 12, 1),
	    ERR_INVALID_ARGUMENT);
	cipher_free(NULL);
	x_free(plain);
	x_free(wire);
	x_free(back);
}

/* Packets after cipher_init make no allocation inside libcrypto. */
static void
test_no_packet_alloc(void)
{
	static const char *names[] = {
		"chacha20-poly1305@openssh.com", "aes128-ctr", "aes256-ctr",
		"aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
	};
	unsigned char key[64], iv[16], buf[1100];
	const struct cipher_alg *alg;
	struct cipher_ctx *enc, *dec;
	unsigned int aad;
	uint32_t plen, seq;
	size_t n;
	long before;

	memset(key, 0x5a, sizeof(key));
	memset(iv, 0xa5, sizeof(iv));
	memset(buf, 0, sizeof(buf));
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		alg = cipher_by_name(names[n]);
		enc = mk(names[n], key, iv, 1);
		dec = mk(names[n], key, iv, 0);
		aad = alg->auth_len != 0 ? 4 : 0;
		before = ossl_allocs;
		for (seq = 0; seq < 20; seq++) {
			CHECK_OK(cipher_crypt(enc, seq, buf, buf, 1024, aad,
			    alg->auth_len));
			CHECK_OK(cipher_get_length(dec, &plen, seq, buf, 4));
			CHECK_OK(cipher_crypt(dec, seq, buf, buf, 1024, aad,
			    alg->auth_len));
		}
		if (ossl_allocs != before)
			fprintf(stderr, "%s: %ld allocations\n", names[n],
			    ossl_allocs - before);
		CHECK(ossl_allocs == before);
		cipher_free(enc);
		cipher_free(dec);
	}
}

/*
 * cipher_export(): a context rebuilt from the exported key and IV after
 * some packets produces the same bytes as the original from there on,
 * for every cipher and in both directions.
 */
static void
test_export(void)
{
	char *names = x_strdup(cipher_all_names()), *cp, *name;
	unsigned char key[64], iv[16], k2[64], iv2[16];
	unsigned char pt[96], a[96 + 16], b[96 + 16], c[96 + 16];
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)(i * 7 + 1);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = (unsigned char)(0xf0 + i);
	for (i = 0; i < sizeof(pt); i++)
		pt[i] = (unsigned char)i;
	cp = names;
	while ((name = strsep(&cp, ",")) != NULL) {
		const struct cipher_alg *alg = cipher_by_name(name);
		struct cipher_ctx *enc = mk(name, key, iv, 1), *dec, *enc2, *dec2;
		unsigned int aad = alg->auth_len != 0 ? 4 : 0;
		unsigned int len = 48, n;
		uint32_t seq;

		dec = mk(name, key, iv, 0);
		/* Three packets through both, then export both. */
		for (seq = 0; seq < 3; seq++) {
			CHECK_OK(cipher_crypt(enc, seq, a, pt, len, aad,
			    alg->auth_len));
			CHECK_OK(cipher_crypt(dec, seq, b, a, len, aad,
			    alg->auth_len));
			CHECK_MEM(b + aad, pt + aad, len);
		}
		memset(k2, 0, sizeof(k2));
		memset(iv2, 0, sizeof(iv2));
		CHECK_OK(cipher_export(enc, k2, iv2));
		CHECK_MEM(k2, key, alg->key_len);
		if (alg->iv_len != 0)
			CHECK(memcmp(iv2, iv, alg->iv_len) != 0);
		enc2 = mk(name, k2, iv2, 1);
		CHECK_OK(cipher_export(dec, k2, iv2));
		dec2 = mk(name, k2, iv2, 0);
		/* The copies go on exactly where the originals stand. */
		for (n = 0; n < 2; n++, seq++) {
			CHECK_OK(cipher_crypt(enc, seq, a, pt, len, aad,
			    alg->auth_len));
			CHECK_OK(cipher_crypt(enc2, seq, c, pt, len, aad,
			    alg->auth_len));
			CHECK_MEM(a, c, aad + len + alg->auth_len);
			CHECK_OK(cipher_crypt(dec2, seq, b, a, len, aad,
			    alg->auth_len));
			CHECK_MEM(b + aad, pt + aad, len);
		}
		cipher_free(enc);
		cipher_free(dec);
		cipher_free(enc2);
		cipher_free(dec2);
	}
	CHECK_ERR(cipher_export(NULL, k2, iv2), ERR_INVALID_ARGUMENT);
	x_free(names);
}

int
main(void)
{
	/* Must precede any libcrypto allocation. */
	CHECK(CRYPTO_set_mem_functions(count_malloc, count_realloc,
	    count_free) == 1);
	test_table();
	test_ctr_vectors();
	test_cbc_vectors();
	test_gcm_vectors();
	test_chacha_primitives();
	test_chachapoly_packets();
	test_roundtrip();
	test_no_packet_alloc();
	test_export();
	return TEST_DONE();
}
