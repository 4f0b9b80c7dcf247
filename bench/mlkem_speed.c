/*
 * mlkem_speed.c: operations per second of ML-KEM-768 (mlkem.c): key
 * generation, encapsulation, decapsulation, each alone on one core, and
 * for scale one X25519 key generation plus derivation from libcrypto
 * (what the hybrid KEX pairs ML-KEM with). Time is the process's CPU
 * time, so that other load on the machine does not count.
 *
 * Usage: mlkem_speed [SECONDS] (per operation; default 0.5).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <openssl/evp.h>

#include "mlkem.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum op { KEYGEN, ENCAPS, DECAPS, X25519 };

static int
x25519_once(EVP_PKEY *peer)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
	EVP_PKEY_CTX *ctx = k ? EVP_PKEY_CTX_new(k, NULL) : NULL;
	uint8_t out[32];
	size_t len = sizeof(out);
	int ok = ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 &&
	    EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
	    EVP_PKEY_derive(ctx, out, &len) == 1;

	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(k);
	return ok ? 0 : -1;
}

/* Operations per second of op for about secs; -1 on failure. */
static double
speed(enum op op, double secs)
{
	static uint8_t ek[MLKEM768_EK_LEN], dk[MLKEM768_DK_LEN];
	static uint8_t ct[MLKEM768_CT_LEN], ss[MLKEM768_SS_LEN];
	EVP_PKEY *peer = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
	double t0, t = 0;
	unsigned long n = 0;
	int r = 0;

	if (peer == NULL || mlkem768_keypair(ek, dk) != 0 ||
	    mlkem768_encaps(ct, ss, ek, sizeof(ek)) != 0) {
		EVP_PKEY_free(peer);
		return -1;
	}
	t0 = now();
	do {
		switch (op) {
		case KEYGEN:
			r = mlkem768_keypair(ek, dk);
			break;
		case ENCAPS:
			r = mlkem768_encaps(ct, ss, ek, sizeof(ek));
			break;
		case DECAPS:
			r = mlkem768_decaps(ss, ct, sizeof(ct), dk, sizeof(dk));
			break;
		case X25519:
			r = x25519_once(peer);
			break;
		}
		n++;
	} while (r == 0 && ((n & 15) != 0 || (t = now() - t0) < secs));
	EVP_PKEY_free(peer);
	return r != 0 ? -1 : (double)n / t;
}

int
main(int argc, char **argv)
{
	static const char *const names[] = {
		"mlkem768 keygen", "mlkem768 encaps", "mlkem768 decaps",
		"x25519 keygen+derive",
	};
	double secs = argc > 1 ? atof(argv[1]) : 0.5;

	if (secs <= 0) {
		fprintf(stderr, "usage: mlkem_speed [seconds]\n");
		return 2;
	}
	printf("%-24s %12s %10s\n", "operation", "ops/s", "us/op");
	for (int i = KEYGEN; i <= X25519; i++) {
		double v = speed((enum op)i, secs);

		if (v <= 0) {
			fprintf(stderr, "mlkem_speed: %s failed\n", names[i]);
			return 1;
		}
		printf("%-24s %12.0f %10.1f\n", names[i], v, 1e6 / v);
	}
	return 0;
}
