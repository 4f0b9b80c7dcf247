/*
 * krl_lookup.c: how many certificate lookups a second a KRL answers.
 * Usage: krl_lookup KRL CERT MAXSERIAL SECONDS. Loads the KRL and a
 * certificate, then checks the certificate with serials cycling through
 * 1..MAXSERIAL for about SECONDS and prints lookups/s and how many of the
 * serials were revoked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cert.h"
#include "err.h"
#include "krl.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct krl *krl = NULL;
	struct key_cert *cert = NULL;
	unsigned long long max, n = 0, revoked = 0, s = 0;
	double secs, t0, t;
	int r;

	if (argc != 5) {
		fprintf(stderr, "usage: krl_lookup krl cert maxserial secs\n");
		return 2;
	}
	max = strtoull(argv[3], NULL, 10);
	secs = atof(argv[4]);
	if ((r = krl_load_file(argv[1], &krl)) != 0 ||
	    (r = cert_load_public(argv[2], &cert, NULL)) != 0) {
		fprintf(stderr, "load: %s\n", err_str(r));
		return 1;
	}
	t0 = now();
	do {
		int i;

		for (i = 0; i < 1000; i++) {
			cert->serial = 1 + (s++ * 7919) % max;
			if (krl_check_key(krl, cert->key, cert) != 0)
				revoked++;
			n++;
		}
		t = now() - t0;
	} while (t < secs);
	printf("%.0f lookups/s (%llu of %llu revoked)\n", n / t, revoked, n);
	cert_free(cert);
	krl_free(krl);
	return 0;
}
