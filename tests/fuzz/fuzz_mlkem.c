/*
 * fuzz_mlkem.c: ML-KEM-768's decoders of what a peer sends: an
 * encapsulation key (the client's, to the server) and a ciphertext (the
 * server's, back to the client).
 *
 * Every input is tried both ways. As an encapsulation key, encaps must
 * succeed exactly when the input is 1184 bytes whose 768 12-bit values
 * are all below q (checked here independently of mlkem.c), and fail with
 * ERR_INVALID_FORMAT (length) or ERR_KEY_INVALID otherwise. As a
 * ciphertext it is decapsulated with a fixed key pair made once per
 * process: a wrong length is ERR_INVALID_FORMAT; any 1088 bytes give 0
 * and, unless they are the one ciphertext encapsulated at start-up (then
 * its shared secret), the implicit-rejection key SHAKE256(z || c, 32).
 * The seed corpus holds that key's ek and that ciphertext.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "err.h"
#include "mlkem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

static uint8_t ek0[MLKEM768_EK_LEN], dk0[MLKEM768_DK_LEN];
static uint8_t ct0[MLKEM768_CT_LEN], ss0[MLKEM768_SS_LEN];
static EVP_MD *shake256;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uint8_t d[MLKEM_SEED_LEN], z[MLKEM_SEED_LEN], m[MLKEM_SEED_LEN];

	(void)argc;
	(void)argv;
	memset(d, 0x11, sizeof(d));
	memset(z, 0x22, sizeof(z));
	memset(m, 0x33, sizeof(m));
	REQUIRE(mlkem768_keypair_derand(ek0, dk0, d, z) == 0);
	REQUIRE(mlkem768_encaps_derand(ct0, ss0, ek0, sizeof(ek0), m) == 0);
	REQUIRE((shake256 = EVP_MD_fetch(NULL, "SHAKE256", NULL)) != NULL);
	return 0;
}

/* 1 when data is 1184 bytes with every 12-bit value below q. */
static int
ek_valid(const uint8_t *data, size_t size)
{
	if (size != MLKEM768_EK_LEN)
		return 0;
	for (size_t i = 0; i + 3 <= 1152; i += 3) {
		unsigned int a = data[i] | (data[i + 1] & 0x0fU) << 8;
		unsigned int b = data[i + 1] >> 4 | (unsigned int)data[i + 2] << 4;

		if (a >= 3329 || b >= 3329)
			return 0;
	}
	return 1;
}

static void
as_ek(const uint8_t *data, size_t size)
{
	uint8_t ct[MLKEM768_CT_LEN], ss[MLKEM768_SS_LEN];
	int r = mlkem768_encaps(ct, ss, data, size);

	if (ek_valid(data, size))
		REQUIRE(r == 0);
	else if (size != MLKEM768_EK_LEN)
		REQUIRE(r == ERR_INVALID_FORMAT);
	else
		REQUIRE(r == ERR_KEY_INVALID);
	REQUIRE(mlkem768_check_ek(data, size) == r);
}

static void
as_ct(const uint8_t *data, size_t size)
{
	uint8_t ss[MLKEM768_SS_LEN], want[MLKEM768_SS_LEN];
	EVP_MD_CTX *ctx;
	int r = mlkem768_decaps(ss, data, size, dk0, sizeof(dk0));

	if (size != MLKEM768_CT_LEN) {
		REQUIRE(r == ERR_INVALID_FORMAT);
		return;
	}
	REQUIRE(r == 0);
	if (memcmp(data, ct0, size) == 0) {
		REQUIRE(memcmp(ss, ss0, sizeof(ss)) == 0);
		return;
	}
	REQUIRE((ctx = EVP_MD_CTX_new()) != NULL);
	REQUIRE(EVP_DigestInit_ex2(ctx, shake256, NULL) == 1 &&
	    EVP_DigestUpdate(ctx, dk0 + MLKEM768_DK_LEN - 32, 32) == 1 &&
	    EVP_DigestUpdate(ctx, data, size) == 1 &&
	    EVP_DigestFinalXOF(ctx, want, sizeof(want)) == 1);
	EVP_MD_CTX_free(ctx);
	REQUIRE(memcmp(ss, want, sizeof(ss)) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	as_ek(data, size);
	as_ct(data, size);
	return 0;
}
