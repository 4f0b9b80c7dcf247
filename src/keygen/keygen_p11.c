/*
 * keygen_p11.c: ssh-keygen -D provider: the public keys of a PKCS#11
 * token, through ssh-pkcs11-helper (the module is never loaded here).
 * One line per key, "type base64 label", or with -l "bits fingerprint
 * TYPE (PKCS11 key)" and, with -v, the randomart; as OpenSSH prints
 * them. No PIN is asked: public objects need no login.
 */
#include <stdio.h>
#include <stdlib.h>

#include "keygen.h"
#include "mem.h"
#include "p11_client.h"

static void
print_key(const struct kg_opts *o, const struct p11_key *pk)
{
	char *s, *ra;

	if (o->list) {
		if ((s = key_fingerprint(pk->key, o->fp_hash)) == NULL)
			return;
		printf("%u %s %s (PKCS11 key)\n", key_bits(pk->key), s,
		    key_short_name(pk->key));
		x_free(s);
		if (o->verbose > 0 &&
		    (ra = key_randomart(pk->key, o->fp_hash)) != NULL) {
			printf("%s\n", ra);
			x_free(ra);
		}
		return;
	}
	if ((s = key_public_text(pk->key)) == NULL)
		return;
	printf("%s%s%s\n", s, *pk->label == '\0' ? "" : " ", pk->label);
	x_free(s);
}

int
kg_download(struct kg_opts *o)
{
	struct p11_helper *h = NULL;
	struct p11_key *keys = NULL;
	char *why = NULL;
	size_t i, n = 0;
	int r;

	if ((r = p11_helper_start(o->pkcs11, &h)) == 0)
		r = p11_helper_open(h, NULL, &keys, &n, &why);
	p11_helper_stop(h);
	x_free(why);
	if (r != 0 || n == 0) {
		p11_keys_free(keys, n);
		fprintf(stderr, "cannot read public key from pkcs11\n");
		exit(255);
	}
	for (i = 0; i < n; i++)
		print_key(o, &keys[i]);
	p11_keys_free(keys, n);
	return 0;
}
