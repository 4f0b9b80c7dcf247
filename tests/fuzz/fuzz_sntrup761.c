/*
 * fuzz_sntrup761.c: sntrup761 fed bytes from the peer.
 *
 * The input is taken three ways:
 *   - as a public key, whole: refused unless 1158 bytes long; and its
 *     first 1158 bytes (when there are that many) encapsulated to, which
 *     must work for any bytes;
 *   - as a ciphertext, whole, to decapsulate with a fixed key: refused
 *     unless 1039 bytes long, accepted for any 1039 bytes;
 *   - xored onto an honest ciphertext of that key: the shared secret
 *     must be the honest one exactly when nothing was changed.
 * The key pair and the honest ciphertext are made once per process from
 * a fixed-seed generator, and so is the encapsulation's randomness, so a
 * crash reproduces from its input alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "sntrup761.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)
#define PK_SIZE		SNTRUP761_PUBLICKEY_SIZE
#define CT_SIZE		SNTRUP761_CIPHERTEXT_SIZE
#define SS_SIZE		SNTRUP761_SHARED_SIZE

static unsigned char sk[SNTRUP761_SECRETKEY_SIZE], pk[PK_SIZE];
static unsigned char honest_ct[CT_SIZE], honest_ss[SS_SIZE];
static int ready;

/* Not random at all (xorshift64): reproducible runs are the point. */
static int
rng_fixed(void *arg, unsigned char *buf, size_t len)
{
	uint64_t *s = arg;
	size_t i;

	for (i = 0; i < len; i++) {
		*s ^= *s << 13;
		*s ^= *s >> 7;
		*s ^= *s << 17;
		buf[i] = (unsigned char)(*s >> 32);
	}
	return 0;
}

static void
setup(void)
{
	uint64_t state = 0x243f6a8885a308d3ULL;

	REQUIRE(sntrup761_keypair_rng(pk, sk, rng_fixed, &state) == 0);
	REQUIRE(sntrup761_enc_rng(honest_ct, honest_ss, pk, PK_SIZE,
	    rng_fixed, &state) == 0);
	ready = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char ct[CT_SIZE], ss[SS_SIZE], ss2[SS_SIZE];
	uint64_t state = 0x13198a2e03707344ULL;
	size_t i;
	int changed = 0, r;

	if (!ready)
		setup();

	r = sntrup761_enc_rng(ct, ss, data, size, rng_fixed, &state);
	REQUIRE(r == (size == PK_SIZE ? 0 : ERR_INVALID_FORMAT));
	if (size >= PK_SIZE)
		REQUIRE(sntrup761_enc_rng(ct, ss, data, PK_SIZE, rng_fixed,
		    &state) == 0);

	r = sntrup761_dec(ss, data, size, sk);
	REQUIRE(r == (size == CT_SIZE ? 0 : ERR_INVALID_FORMAT));

	if (size >= CT_SIZE) {
		for (i = 0; i < CT_SIZE; i++) {
			ct[i] = honest_ct[i] ^ data[i];
			changed |= data[i];
		}
		REQUIRE(sntrup761_dec(ss2, ct, CT_SIZE, sk) == 0);
		REQUIRE((memcmp(ss2, honest_ss, SS_SIZE) == 0) == !changed);
	}
	return 0;
}
