/*
 * mac_speed.c: MB/s of each MAC alone, as the transport calls it: one
 * mac_compute() per packet, the sequence number as nonce, on messages of
 * the sizes packets have in bulk transfers. bench/all.sh prints these
 * beside hmac-sha2-256 (the default MAC UMAC is meant to beat).
 *
 * Usage: mac_speed [SECONDS] (per MAC and size; default 0.3).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mac.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* MB/s of name on len-byte messages for about secs; -1 on failure. */
static double
speed(const char *name, size_t len, double secs)
{
	const struct mac_alg *alg = mac_by_name(name);
	unsigned char key[64], tag[64], *msg;
	struct mac_ctx *ctx = NULL;
	double t0, t = 0;
	uint32_t n = 0;

	if (alg == NULL || alg->key_len > sizeof(key) ||
	    (msg = malloc(len)) == NULL)
		return -1;
	memset(key, 0x5a, sizeof(key));
	memset(msg, 0xa5, len);
	if (mac_init(&ctx, alg, key, alg->key_len) != 0) {
		free(msg);
		return -1;
	}
	t0 = now();
	do {
		if (mac_compute(ctx, n++, msg, len, tag) != 0) {
			t = -1;
			break;
		}
	} while ((n & 63) != 0 || (t = now() - t0) < secs);
	mac_free(ctx);
	free(msg);
	return t < 0 ? -1 : (double)n * (double)len / t / 1e6;
}

int
main(int argc, char **argv)
{
	static const char *const names[] = {
		"umac-64@openssh.com", "umac-128@openssh.com",
		"hmac-sha2-256", "hmac-sha2-512", "hmac-sha1",
	};
	/* BASE: the row of hmac-sha2-256, which the ratios are to. */
	enum { NMAC = sizeof(names) / sizeof(names[0]), NSIZE = 3, BASE = 2 };
	static const size_t sizes[NSIZE] = { 1024, 16384, 32768 };
	double secs = argc > 1 ? atof(argv[1]) : 0.3, v[NMAC][NSIZE];
	size_t i, j;

	if (secs <= 0) {
		fprintf(stderr, "usage: mac_speed [seconds]\n");
		return 2;
	}
	for (i = 0; i < NMAC; i++)
		for (j = 0; j < NSIZE; j++)
			if ((v[i][j] = speed(names[i], sizes[j], secs)) <= 0) {
				fprintf(stderr, "mac_speed: %s failed\n",
				    names[i]);
				return 1;
			}
	printf("%-24s %10s %10s %10s %12s\n", "MAC", "1 KiB", "16 KiB",
	    "32 KiB", "x hmac-256");
	for (i = 0; i < NMAC; i++)
		printf("%-24s %10.0f %10.0f %10.0f %12.2f\n", names[i],
		    v[i][0], v[i][1], v[i][2], v[i][2] / v[BASE][2]);
	return 0;
}
