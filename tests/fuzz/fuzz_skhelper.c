/*
 * fuzz_skhelper.c: the replies of ssh-sk-helper, which runs a
 * third-party security key middleware (src/keys/sk_proto.c), as the
 * calling side checks them. The first byte picks what the rest is:
 *   0, 1  an enrollment reply for an Ed25519 / P-256 key (the key built
 *         from it must survive a round trip through the private key
 *         file form)
 *   2, 3  a signature reply for a fixed Ed25519-SK / ECDSA-SK key (the
 *         signature blob made from it goes through key_verify)
 *   4     a resident key listing
 *   5     a request, as the helper parses it
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
#include "sk_api.h"
#include "sk_proto.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct key *fixed[2];	/* Ed25519-SK, ECDSA-SK */

/* A security key for a fresh plain key, through an enrollment reply. */
static struct key *
make_fixed(enum key_type plain_type, uint32_t alg)
{
	struct key *plain = NULL, *k = NULL;
	struct sbuf *blob = sbuf_new(), *reply = sbuf_new();
	const unsigned char *pk;
	size_t pklen;
	char *s = NULL;
	int skerr;

	if (key_generate(plain_type, 256, &plain) != 0 ||
	    key_to_blob(plain, blob) != 0 ||
	    sbuf_get_cstring(blob, &s, NULL) != 0)
		abort();
	x_free(s);
	if (plain_type == KEY_ECDSA) {
		if (sbuf_get_cstring(blob, &s, NULL) != 0)
			abort();
		x_free(s);
	}
	if (sbuf_get_string_direct(blob, &pk, &pklen) != 0)
		abort();
	sbuf_put_u8(reply, SKH_OK);
	sbuf_put_u8(reply, SSH_SK_USER_PRESENCE_REQD);
	sbuf_put_string(reply, pk, pklen);
	sbuf_put_string(reply, "handle", 6);
	sbuf_put_string(reply, "", 0);
	sbuf_put_string(reply, "", 0);
	sbuf_put_string(reply, "", 0);
	if (skh_reply_status(reply, &skerr) != 0 ||
	    skh_parse_enroll(reply, alg, "ssh:", &k, NULL) != 0)
		abort();
	key_free(plain);
	sbuf_free(blob);
	sbuf_free(reply);
	return k;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	fixed[0] = make_fixed(KEY_ED25519, SSH_SK_ED25519);
	fixed[1] = make_fixed(KEY_ECDSA, SSH_SK_ECDSA);
	return 0;
}

static void
enroll(struct sbuf *b, uint32_t alg)
{
	struct sbuf *attest = sbuf_new(), *file = sbuf_new();
	struct key *k = NULL, *back = NULL;
	char *comment = NULL;

	if (skh_parse_enroll(b, alg, "ssh:fuzz", &k, attest) == 0) {
		if (key_serialize_private(k, NULL, "c", 0, file) != 0 ||
		    key_parse_private(file, NULL, &back, &comment) != 0 ||
		    !key_equal_public(k, back) ||
		    back->sk_key_handle_len != k->sk_key_handle_len)
			abort();
	}
	key_free(k);
	key_free(back);
	x_free(comment);
	sbuf_free(attest);
	sbuf_free(file);
}

static void
sign(struct sbuf *b, const struct key *k)
{
	struct sbuf *sig = sbuf_new();

	if (skh_parse_sign(b, k, sig) == 0)
		(void)key_verify(k, sbuf_ptr(sig), sbuf_len(sig),
		    (const unsigned char *)"data", 4, NULL);
	sbuf_free(sig);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf *b;
	struct skh_resident *rks = NULL;
	struct skh_request q;
	size_t n = 0;
	int skerr;

	if (size < 1)
		return 0;
	b = sbuf_from(data + 1, size - 1);
	if (data[0] == 5) {
		(void)skh_request_get(b, &q);
		skh_request_free(&q);
	} else if (skh_reply_status(b, &skerr) == 0) {
		switch (data[0]) {
		case 0:
			enroll(b, SSH_SK_ED25519);
			break;
		case 1:
			enroll(b, SSH_SK_ECDSA);
			break;
		case 2:
			sign(b, fixed[0]);
			break;
		case 3:
			sign(b, fixed[1]);
			break;
		case 4:
			if (skh_parse_resident(b, &rks, &n) == 0)
				skh_resident_free(rks, n);
			break;
		default:
			break;
		}
	}
	sbuf_free(b);
	ERR_clear_error();
	return 0;
}
