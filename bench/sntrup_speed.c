/*
 * sntrup_speed.c: operations per second of sntrup761 key generation,
 * encapsulation and decapsulation (the post-quantum half of
 * sntrup761x25519-sha512), and the milliseconds each takes.
 *
 * Usage: sntrup_speed [SECONDS] (per operation; default 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sntrup761.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned char pk[SNTRUP761_PUBLICKEY_SIZE];
static unsigned char sk[SNTRUP761_SECRETKEY_SIZE];
static unsigned char ct[SNTRUP761_CIPHERTEXT_SIZE];
static unsigned char ss[SNTRUP761_SHARED_SIZE];

static int
op(int which)
{
	switch (which) {
	case 0:
		return sntrup761_keypair(pk, sk);
	case 1:
		return sntrup761_enc(ct, ss, pk, sizeof(pk));
	default:
		return sntrup761_dec(ss, ct, sizeof(ct), sk);
	}
}

int
main(int argc, char **argv)
{
	static const char *const names[] = { "keypair", "enc", "dec" };
	double secs = argc > 1 ? atof(argv[1]) : 1.0, t0, t;
	unsigned long n;
	int i;

	if (secs <= 0) {
		fprintf(stderr, "usage: sntrup_speed [seconds]\n");
		return 2;
	}
	if (op(0) != 0 || op(1) != 0) {
		fprintf(stderr, "sntrup_speed: sntrup761 failed\n");
		return 1;
	}
	printf("%-10s %10s %10s\n", "sntrup761", "ops/s", "ms/op");
	for (i = 0; i < 3; i++) {
		n = 0;
		t0 = now();
		do {
			if (op(i) != 0) {
				fprintf(stderr, "sntrup_speed: %s failed\n",
				    names[i]);
				return 1;
			}
			n++;
		} while ((t = now() - t0) < secs);
		printf("%-10s %10.1f %10.3f\n", names[i], (double)n / t,
		    t * 1e3 / (double)n);
	}
	return 0;
}
