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
	static const size_t sizes[] = { 1024, 16384, 32768 };
	double secs = argc > 1 ? atof(argv[1]) : 0.3, base[3], v;
	size_t i, j;

	if (secs <= 0) {
		fprintf(stderr, "usage: mac_speed [seconds]\n");
		return 2;
	}
	for (j = 0; j < 3; j++)
		if ((base[j] = speed("hmac-sha2-256", sizes[j], secs)) <= 0)
			return 1;
	printf("%-24s %10s %10s %10s %12s\n", "MAC", "1 KiB", "16 KiB",
	    "32 KiB", "x hmac-256");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		printf("%-24s", names[i]);
		for (j = 0; j < 3; j++) {
			if ((v = speed(names[i], sizes[j], secs)) <= 0)
				return 1;
			printf(" %10.0f", v);
			if (j == 2)
				printf(" %12.2f", v / base[j]);
		}
		printf("\n");
	}
	return 0;
}
