/*
 * test_cert.c: certificates signed and parsed back by every CA type,
 * cert_check, and refusal of tampered, unsorted and cert-signed blobs;
 * cert_sign_with() taking a signature from elsewhere, and refusing a bad
 * one.
 */
#include <stdio.h>

#include "cert.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

static struct key_cert *
make(const struct key *subj, const struct key *ca, const char *alg)
{
	struct key_cert *c = NULL;

	CHECK_OK(cert_new(subj, CERT_TYPE_USER, &c));
	if (c == NULL)
		return NULL;
	x_free(c->key_id);
	c->key_id = x_strdup("kid");
	c->serial = 77;
	c->valid_after = 1000;
	c->valid_before = 2000;
	CHECK_OK(cert_add_principal(c, "alice"));
	CHECK_OK(cert_set_option(c, 0, "permit-pty", NULL, 0));
	CHECK_OK(cert_set_option(c, 0, "permit-X11-forwarding", NULL, 0));
	CHECK_OK(cert_set_option(c, 1, "verify-required", NULL, 0));
	CHECK_OK(cert_sign(c, ca, alg));
	return c;
}

/* A signer "elsewhere": the private key, or garbage when corrupt. */
struct far_signer {
	const struct key *key;
	int corrupt;
	char alg[64];		/* the algorithm asked for */
};

static int
far_sign(void *arg, const unsigned char *data, size_t len,
    const char *sigalg, struct sbuf *sig)
{
	struct far_signer *f = arg;
	int r;

	snprintf(f->alg, sizeof(f->alg), "%s", sigalg);
	if ((r = key_sign(f->key, sigalg, data, len, sig)) != 0)
		return r;
	if (f->corrupt)
		sbuf_mutable_ptr(sig)[sbuf_len(sig) - 1] ^= 1;
	return 0;
}

static void
test_sign_with(struct key *const *keys)
{
	struct far_signer f = { keys[4], 0, "" };
	struct key_cert *c = NULL, *p = NULL;
	struct key *pub = NULL;

	CHECK_OK(key_demote(keys[4], &pub));
	CHECK_OK(cert_new(keys[0], CERT_TYPE_HOST, &c));
	if (c == NULL || pub == NULL)
		goto out;
	CHECK_OK(cert_sign_with(c, pub, NULL, far_sign, &f));
	CHECK_STR(f.alg, "rsa-sha2-512");	/* the default for RSA */
	CHECK_OK(cert_from_blob(sbuf_ptr(c->blob), sbuf_len(c->blob), &p));
	if (p != NULL)
		CHECK(key_equal_public(p->ca_key, keys[4]));
	cert_free(p);
	f.corrupt = 1;
	CHECK_ERR(cert_sign_with(c, pub, "rsa-sha2-256", far_sign, &f),
	    ERR_SIGNATURE_INVALID);
	CHECK_STR(f.alg, "rsa-sha2-256");
 out:
	cert_free(c);
	key_free(pub);
}

int
main(void)
{
	static const char *const files[] = {
		"data/keys/ed25519", "data/keys/ecdsa256", "data/keys/ecdsa384",
		"data/keys/ecdsa521", "data/keys/rsa2048",
	};
	struct key *keys[5] = { NULL };
	struct key_cert *c, *p;
	unsigned char *raw;
	size_t i, len;

	for (i = 0; i < 5; i++)
		CHECK_OK(key_load_private(files[i], NULL, 0, &keys[i], NULL));
	for (i = 0; i < 5; i++) {
		const char *alg = i == 4 ? "rsa-sha2-256" : NULL;

		c = make(keys[(i + 1) % 5], keys[i], alg);
		if (c == NULL)
			continue;
		CHECK_OK(cert_from_blob(sbuf_ptr(c->blob), sbuf_len(c->blob),
		    &p));
		if (p != NULL) {
			CHECK(p->serial == 77);
			CHECK_STR(p->key_id, "kid");
			CHECK(p->nprincipals == 1);
			CHECK(p->nextensions == 2);
			CHECK_STR(p->extensions[0].name,
			    "permit-X11-forwarding");
			CHECK(cert_option(p, 1, "verify-required") != NULL);
			CHECK(key_equal_public(p->key, keys[(i + 1) % 5]));
			CHECK(key_equal_public(p->ca_key, keys[i]));
			if (i == 4)
				CHECK_STR(p->sig_alg, "rsa-sha2-256");
			CHECK_OK(cert_check(p, 1500, "alice", 0));
			CHECK_ERR(cert_check(p, 1500, "bob", 0),
			    ERR_KEY_CERT_INVALID);
			CHECK_ERR(cert_check(p, 2000, "alice", 0),
			    ERR_KEY_CERT_INVALID);
			CHECK_ERR(cert_check(p, 999, NULL, 0),
			    ERR_KEY_CERT_INVALID);
			CHECK_ERR(cert_check(p, 1500, NULL, 1),
			    ERR_KEY_CERT_INVALID);
			cert_free(p);
		}
		/* Flip one signed byte (in the key id): bad signature. */
		len = sbuf_len(c->blob);
		raw = x_memdup(sbuf_ptr(c->blob), len);
		for (size_t j = 0; j + 3 < len; j++)
			if (memcmp(raw + j, "kid", 3) == 0) {
				raw[j] = 'K';
				break;
			}
		CHECK_ERR(cert_from_blob(raw, len, &p), ERR_SIGNATURE_INVALID);
		CHECK(p == NULL);
		/* Trailing garbage. */
		raw = x_reallocarray(raw, len + 1, 1);
		memcpy(raw, sbuf_ptr(c->blob), len);
		raw[len] = 0;
		CHECK(cert_from_blob(raw, len + 1, &p) != 0);
		x_free(raw);
		cert_free(c);
	}
	/* Options out of order are refused even when signed. */
	CHECK_OK(cert_new(keys[0], CERT_TYPE_HOST, &c));
	CHECK_OK(cert_set_option(c, 0, "b", NULL, 0));
	CHECK_OK(cert_set_option(c, 0, "a", NULL, 0));
	CHECK_STR(c->extensions[0].name, "a");
	c->extensions[0].name[0] = 'c';		/* now "c", "b" */
	CHECK_OK(cert_sign(c, keys[1], NULL));
	CHECK_ERR(cert_from_blob(sbuf_ptr(c->blob), sbuf_len(c->blob), &p),
	    ERR_KEY_CERT_INVALID);
	cert_free(c);
	/*
	 * The CA key slot is parsed with key_from_blob(), which knows plain
	 * key types only: a certificate there is refused.
	 */
	c = make(keys[0], keys[1], NULL);
	if (c != NULL) {
		struct key *tmp = NULL;

		CHECK(key_from_blob(sbuf_ptr(c->blob), sbuf_len(c->blob),
		    &tmp) != 0);
		CHECK(tmp == NULL);
		cert_free(c);
	}
	test_sign_with(keys);
	CHECK(cert_is_cert_name("ssh-rsa-cert-v01@openssh.com"));
	CHECK(!cert_is_cert_name("ssh-rsa"));
	for (i = 0; i < 5; i++)
		key_free(keys[i]);
	return TEST_DONE();
}
