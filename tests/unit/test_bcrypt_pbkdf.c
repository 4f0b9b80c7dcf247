/*
 * test_bcrypt_pbkdf.c: Blowfish and bcrypt_pbkdf.
 *
 * Blowfish is checked with Eric Young's published ECB vectors (the set
 * Schneier distributes). bcrypt_pbkdf is checked with known answers for
 * the salt and rounds of two key files that OpenSSH's ssh-keygen
 * encrypted (data/keys/ed25519_enc with the default 16 rounds and
 * rsa_enc_a4 with -a 4): the derived key and IV must open the file's
 * encrypted section (its two check words agree), and must equal the
 * recorded bytes. When /usr/bin/ssh-keygen exists, a key we encrypt
 * must also open with ssh-keygen -y -P.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "bcrypt_pbkdf.h"
#include "blowfish.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

#define PASS		"test passphrase"
#define SSH_KEYGEN	"/usr/bin/ssh-keygen"

static const struct {
	const char *key, *pt, *ct;
} bf_vectors[] = {
	{ "0000000000000000", "0000000000000000", "4ef997456198dd78" },
	{ "ffffffffffffffff", "ffffffffffffffff", "51866fd5b85ecb8a" },
	{ "3000000000000000", "1000000000000001", "7d856f9a613063f2" },
	{ "1111111111111111", "1111111111111111", "2466dd878b963c9d" },
	{ "0123456789abcdef", "1111111111111111", "61f9c3802281b096" },
	{ "fedcba9876543210", "0123456789abcdef", "0aceab0fc6a0a28d" },
	{ "7ca110454a1a6e57", "01a1d6d039776742", "59c68245eb05282b" },
};

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
test_blowfish(void)
{
	struct blowfish *bf = x_malloc(sizeof(*bf));
	unsigned char key[8], pt[8], ct[8];
	uint32_t l, r;
	size_t i;

	for (i = 0; i < sizeof(bf_vectors) / sizeof(bf_vectors[0]); i++) {
		test_unhex(bf_vectors[i].key, key, sizeof(key));
		test_unhex(bf_vectors[i].pt, pt, sizeof(pt));
		test_unhex(bf_vectors[i].ct, ct, sizeof(ct));
		blowfish_setkey(bf, key, sizeof(key));
		l = be32(pt);
		r = be32(pt + 4);
		blowfish_encrypt(bf, &l, &r);
		CHECK(l == be32(ct) && r == be32(ct + 4));
		blowfish_decrypt(bf, &l, &r);
		CHECK(l == be32(pt) && r == be32(pt + 4));
	}
	x_freezero(bf, sizeof(*bf));
}

/* Key and IV (48 bytes) for aes256-ctr from ssh-keygen's files. */
static const struct {
	const char *file, *salt;
	unsigned int rounds;
	const char *keyiv;
} kats[] = {
	{ "data/keys/ed25519_enc", "8299df2d6ac704b3092073c0d13da1a5", 16,
	    "055adcbf2029286f331691b98e6b30ea437fc8e6fc338a2b"
	    "b3da16742dfc46625fd351b6799492492c8b8ba394ff1ec3" },
	{ "data/keys/rsa_enc_a4", "e61440acf3cd4df643ba0c39fddd8c9f", 4,
	    "8f5aeb33c29dccdc69f57b56176c989a2519cc56f3df93f4"
	    "a5baf316a614920874bbe9470a89277f819362a15bb954f5" },
};

/* The encrypted section of an openssh-key-v1 file. */
static int
file_section(const char *path, struct sbuf *sect)
{
	char text[8192], *b, *e;
	struct sbuf *raw = sbuf_new();
	const unsigned char *p;
	size_t n, len;
	FILE *f;
	int r = -1;

	if ((f = fopen(path, "r")) == NULL)
		goto out;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	if ((b = strchr(text, '\n')) == NULL ||
	    (e = strstr(b, "-----END")) == NULL)
		goto out;
	*e = '\0';
	if (sbuf_b64_decode(raw, b) != 0 || sbuf_consume(raw, 15) != 0)
		goto out;
	/* cipher, kdf, kdfoptions, nkeys, public key, section */
	if (sbuf_get_string_direct(raw, NULL, NULL) != 0 ||
	    sbuf_get_string_direct(raw, NULL, NULL) != 0 ||
	    sbuf_get_string_direct(raw, NULL, NULL) != 0 ||
	    sbuf_consume(raw, 4) != 0 ||
	    sbuf_get_string_direct(raw, NULL, NULL) != 0 ||
	    sbuf_get_string_direct(raw, &p, &len) != 0)
		goto out;
	r = sbuf_put(sect, p, len);
 out:
	sbuf_free(raw);
	return r;
}

static void
test_kats(void)
{
	unsigned char salt[16], want[48], got[48], blk[16];
	struct sbuf *sect;
	EVP_CIPHER_CTX *ctx;
	size_t i, j;
	int outl;

	for (i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		test_unhex(kats[i].salt, salt, sizeof(salt));
		CHECK_OK(bcrypt_pbkdf(PASS, strlen(PASS), salt, sizeof(salt),
		    got, sizeof(got), kats[i].rounds));
		CHECK(test_unhex(kats[i].keyiv, want, sizeof(want)) ==
		    sizeof(want));
		CHECK_MEM(got, want, sizeof(want));
		if (memcmp(got, want, sizeof(want)) != 0) {
			fprintf(stderr, "%s: got ", kats[i].file);
			for (j = 0; j < sizeof(got); j++)
				fprintf(stderr, "%02x", got[j]);
			fprintf(stderr, "\n");
		}
		/* The derived key opens the file: check words agree. */
		sect = sbuf_new();
		CHECK_OK(file_section(kats[i].file, sect));
		CHECK(sbuf_len(sect) >= 16);
		ctx = EVP_CIPHER_CTX_new();
		CHECK(ctx != NULL && sbuf_len(sect) >= 16 &&
		    EVP_DecryptInit_ex(ctx, EVP_aes_256_ctr(), NULL, got,
		    got + 32) == 1 &&
		    EVP_DecryptUpdate(ctx, blk, &outl, sbuf_ptr(sect),
		    16) == 1);
		CHECK(memcmp(blk, blk + 4, 4) == 0);
		EVP_CIPHER_CTX_free(ctx);
		sbuf_free(sect);
	}
	/* Output spread: a shorter key is not a prefix of a longer one. */
	CHECK_OK(bcrypt_pbkdf(PASS, strlen(PASS), salt, sizeof(salt), blk,
	    sizeof(blk), 4));
	CHECK(memcmp(blk, got, sizeof(blk)) != 0);
	CHECK_ERR(bcrypt_pbkdf(PASS, strlen(PASS), salt, sizeof(salt), got,
	    sizeof(got), 0), ERR_INVALID_ARGUMENT);
	CHECK_ERR(bcrypt_pbkdf("", 0, salt, sizeof(salt), got, sizeof(got),
	    4), ERR_INVALID_ARGUMENT);
}

/* ssh-keygen encrypts, we load; we encrypt, ssh-keygen loads. */
static void
test_keygen_roundtrip(void)
{
	char dir[] = "/tmp/moat-test-bcrypt.XXXXXX", path[256], cmd[512];
	char line[4096], *want;
	struct key *k = NULL, *pub = NULL, *bad = NULL;
	FILE *p;

	if (access(SSH_KEYGEN, X_OK) != 0) {
		printf("skipping ssh-keygen round trip: %s not found\n",
		    SSH_KEYGEN);
		return;
	}
	if (mkdtemp(dir) == NULL) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/k", dir);
	snprintf(cmd, sizeof(cmd), SSH_KEYGEN " -q -t ed25519 -a 4 -N '"
	    PASS "' -C x -f %s", path);
	CHECK(system(cmd) == 0);
	CHECK_OK(key_load_private(path, PASS, 1, &k, NULL));
	snprintf(cmd, sizeof(cmd), "%s.pub", path);
	CHECK_OK(key_load_public(cmd, &pub, NULL));
	CHECK(k != NULL && pub != NULL && key_equal_public(k, pub));
	CHECK_ERR(key_load_private(path, "wrong", 1, &bad, NULL),
	    ERR_KEY_WRONG_PASSPHRASE);
	CHECK(bad == NULL);
	unlink(path);
	unlink(cmd);
	if (k != NULL) {
		CHECK_OK(key_save_private(k, path, PASS, "ours", 0));
		snprintf(cmd, sizeof(cmd), SSH_KEYGEN " -y -P '" PASS
		    "' -f %s", path);
		line[0] = '\0';
		if ((p = popen(cmd, "r")) != NULL) {
			if (fgets(line, sizeof(line), p) == NULL)
				line[0] = '\0';
			pclose(p);
		}
		want = key_public_text(k);
		CHECK(want != NULL && strncmp(line, want, strlen(want)) == 0);
		x_free(want);
		unlink(path);
	}
	key_free(k);
	key_free(pub);
	rmdir(dir);
}

int
main(void)
{
	test_blowfish();
	test_kats();
	test_keygen_roundtrip();
	return TEST_DONE();
}
