/*
 * fuzz_key_blob.c: the key parsers. The first byte picks what the rest
 * is fed to:
 *   0  a public key blob (key_from_blob; then everything one can do with
 *      a public key: back to a blob, fingerprints, randomart, text), and
 *      a signature blob checked against it by key_verify (security
 *      key signatures too, flags and counter handed back); the second
 *      byte says where the key blob ends and the signature starts
 *   1  one public key line (key_read_public_text)
 *   2  a private key file as text (key_parse_private: openssh-key-v1
 *      armor, PEM, PKCS#8), passphrase NULL, then "x" when that says
 *      the passphrase is wrong and it is not an openssh-key-v1 file
 *   3  the binary inside an openssh-key-v1 file; the harness adds the
 *      armor. Passphrase NULL, then "x" when that says the passphrase
 *      is wrong and the bcrypt work factor is small (a large one is
 *      slow by design, not a bug).
 * A key that parses must survive a round trip to its blob unchanged.
 *
 * Speed: libcrypto 3 sets up its PEM decoders anew on every call (about
 * a millisecond here), so a text that is not an encrypted key is parsed
 * once, not twice; and libcrypto's error queue is emptied after every
 * input, or the strings it holds count as allocations not yet freed and
 * make libFuzzer run a full leak check after each input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "err.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *sigalgs[] = { NULL, "ssh-ed25519",
    "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
    "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa", "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com" };
static struct key *fixed;	/* checks signatures when the blob is bad */

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file("/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	if (key_generate(KEY_ED25519, 0, &fixed) != 0)
		abort();
	return 0;
}

/* Use a public key every way a caller might; abort if it is unstable. */
static void
exercise_key(const struct key *k)
{
	struct sbuf *b = sbuf_new();
	struct key *k2 = NULL;
	char *s;

	(void)key_type_name(k);
	(void)key_bits(k);
	if (key_to_blob(k, b) != 0 ||
	    key_from_blob(sbuf_ptr(b), sbuf_len(b), &k2) != 0 ||
	    !key_equal_public(k, k2))
		abort();
	x_free(key_fingerprint(k, KEY_FP_SHA256));
	x_free(key_fingerprint(k, KEY_FP_MD5));
	x_free(key_randomart(k, KEY_FP_SHA256));
	if ((s = key_public_text(k)) != NULL) {
		const char *cp = s;
		struct key *k3 = NULL;

		if (key_read_public_text(&cp, &k3) != 0 ||
		    !key_equal_public(k, k3))
			abort();
		key_free(k3);
	}
	x_free(s);
	key_free(k2);
	sbuf_free(b);
}

static void
fuzz_blob(const uint8_t *data, size_t size)
{
	static const unsigned char msg[] = "fuzz data signed";
	struct key_sig_details det;
	struct key *k = NULL;
	char *alg = NULL;
	size_t split, i;

	if (size < 2)
		return;
	split = data[0];
	data++;
	size--;
	if (split > size)
		split = size;
	/* The whole rest as a blob, then the split form with a signature. */
	if (key_from_blob(data, size, &k) == 0) {
		exercise_key(k);
		key_free(k);
		k = NULL;
	}
	if (key_sig_alg(data + split, size - split, &alg) == 0)
		x_free(alg);
	if (key_from_blob(data, split, &k) == 0)
		exercise_key(k);
	for (i = 0; i < sizeof(sigalgs) / sizeof(sigalgs[0]); i++)
		if (key_verify_details(k != NULL ? k : fixed, data + split,
		    size - split, msg, sizeof(msg) - 1, sigalgs[i], &det) == 0 &&
		    det.is_sk != key_is_sk(k))
			abort();
	key_free(k);
}

static void
fuzz_text(const uint8_t *data, size_t size)
{
	char *s = x_strndup((const char *)data, size);
	const char *cp = s;
	struct key *k = NULL;

	if (key_read_public_text(&cp, &k) == 0) {
		if (cp < s || cp > s + strlen(s))
			abort();
		exercise_key(k);
	}
	key_free(k);
	x_free(s);
}

/* What key_parse_private() returned. */
static int
parse_private(const struct sbuf *file, const char *pass)
{
	struct key *k = NULL, *pub = NULL;
	char *comment = NULL;
	int r;

	if ((r = key_parse_private(file, pass, &k, &comment)) == 0) {
		if (!k->has_private || key_demote(k, &pub) != 0)
			abort();
		exercise_key(pub);
	}
	key_free(pub);
	key_free(k);
	x_free(comment);
	return r;
}

/* The bcrypt work factor of an openssh-key-v1 binary; 0 if none. */
static uint32_t
bcrypt_rounds(const uint8_t *data, size_t size)
{
	struct sbuf *b = sbuf_from(data, size), *o = NULL;
	const unsigned char *opts, *salt;
	size_t len, slen;
	uint32_t rounds = 0;

	if (b == NULL || sbuf_consume(b, 15) != 0 ||
	    sbuf_get_string_direct(b, &opts, &len) != 0 ||	/* cipher */
	    sbuf_get_string_direct(b, &opts, &len) != 0 ||	/* kdf */
	    sbuf_get_string_direct(b, &opts, &len) != 0)
		goto out;
	if ((o = sbuf_from(opts, len)) == NULL ||
	    sbuf_get_string_direct(o, &salt, &slen) != 0 ||
	    sbuf_get_u32(o, &rounds) != 0)
		rounds = 0;
 out:
	sbuf_free(o);
	sbuf_free(b);
	return rounds;
}

static void
fuzz_private_text(const uint8_t *data, size_t size)
{
	static const char mark[] = "-----BEGIN OPENSSH PRIVATE KEY-----";
	struct sbuf *file = sbuf_from(data, size);

	if (file == NULL)
		return;
	if (parse_private(file, NULL) == ERR_KEY_WRONG_PASSPHRASE &&
	    (size < sizeof(mark) - 1 || memcmp(data, mark, sizeof(mark) - 1)))
		parse_private(file, "x");
	sbuf_free(file);
}

static void
fuzz_private_binary(const uint8_t *data, size_t size)
{
	struct sbuf *bin = sbuf_from(data, size), *file = sbuf_new();
	char *b64 = NULL;

	if (bin == NULL || file == NULL || (b64 = sbuf_to_b64(bin, 1)) == NULL)
		goto out;
	if (sbuf_putf(file, "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n"
	    "-----END OPENSSH PRIVATE KEY-----\n", b64) != 0)
		goto out;
	if (parse_private(file, NULL) == ERR_KEY_WRONG_PASSPHRASE &&
	    bcrypt_rounds(data, size) <= 2)
		parse_private(file, "x");
 out:
	x_free(b64);
	sbuf_free(file);
	sbuf_free(bin);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] & 3) {
	case 0:
		fuzz_blob(data + 1, size - 1);
		break;
	case 1:
		fuzz_text(data + 1, size - 1);
		break;
	case 2:
		fuzz_private_text(data + 1, size - 1);
		break;
	default:
		fuzz_private_binary(data + 1, size - 1);
		break;
	}
	ERR_clear_error();
	return 0;
}
