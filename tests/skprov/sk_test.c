/*
 * sk_test.c: a software FIDO middleware for the tests (the interface of
 * src/keys/sk_api.h), Ed25519 only, that can keep resident keys and can
 * misbehave. The key handle is the key's 32-byte seed; a resident key
 * is also appended to $SK_TEST_DIR/resident (string application,
 * string user, string handle) for sk_load_resident_keys. $SK_TEST_MODE
 * picks a misbehaviour: "badkey" (a 31-byte public key), "hugesig" (a
 * megabyte signature), "badsig" (a signature that does not verify),
 * "crash" (abort in every call).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "sk_api.h"

#define SEED_LEN	32

uint32_t sk_api_version(void);
int sk_enroll(uint32_t alg, const uint8_t *challenge, size_t challenge_len,
    const char *application, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_enroll_response **enroll_response);
int sk_sign(uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle,
    size_t key_handle_len, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_sign_response **sign_response);
int sk_load_resident_keys(const char *pin, struct sk_option **options,
    struct sk_resident_key ***rks, size_t *nrks);

static int
mode(const char *m)
{
	const char *v = getenv("SK_TEST_MODE");

	if (v != NULL && strcmp(v, "crash") == 0)
		abort();
	return v != NULL && strcmp(v, m) == 0;
}

static char *
resident_path(void)
{
	const char *d = getenv("SK_TEST_DIR");
	char *p;

	if (d == NULL || (p = malloc(strlen(d) + 10)) == NULL)
		return NULL;
	sprintf(p, "%s/resident", d);
	return p;
}

uint32_t
sk_api_version(void)
{
	return SSH_SK_VERSION_MAJOR;
}

/* The raw public key of a seed. */
static int
public_of(const uint8_t *seed, uint8_t *pub)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL,
	    seed, SEED_LEN);
	size_t len = 32;
	int ok = k != NULL && EVP_PKEY_get_raw_public_key(k, pub, &len) == 1;

	EVP_PKEY_free(k);
	return ok ? 0 : -1;
}

static void
put_field(FILE *f, const void *p, uint32_t len)
{
	fwrite(&len, sizeof(len), 1, f);
	fwrite(p, 1, len, f);
}

static int
get_field(FILE *f, uint8_t **pp, uint32_t *lenp)
{
	if (fread(lenp, sizeof(*lenp), 1, f) != 1 || *lenp > 4096 ||
	    (*pp = calloc(1, *lenp + 1)) == NULL)
		return -1;
	return fread(*pp, 1, *lenp, f) == *lenp ? 0 : -1;
}

static const char *
option(struct sk_option **options, const char *name)
{
	size_t i;

	for (i = 0; options != NULL && options[i] != NULL; i++)
		if (strcmp(options[i]->name, name) == 0)
			return options[i]->value;
	return NULL;
}

int
sk_enroll(uint32_t alg, const uint8_t *challenge, size_t challenge_len,
    const char *application, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_enroll_response **enroll_response)
{
	struct sk_enroll_response *r;
	const char *user = option(options, "user");
	char *path;
	FILE *f;

	*enroll_response = NULL;
	if (alg != SSH_SK_ED25519)
		return SSH_SK_ERR_UNSUPPORTED;
	if ((r = calloc(1, sizeof(*r))) == NULL ||
	    (r->public_key = malloc(32)) == NULL ||
	    (r->key_handle = malloc(SEED_LEN)) == NULL ||
	    (r->signature = calloc(1, 1)) == NULL)
		abort();
	if (RAND_bytes(r->key_handle, SEED_LEN) != 1 ||
	    public_of(r->key_handle, r->public_key) != 0)
		abort();
	r->flags = flags;
	r->public_key_len = mode("badkey") ? 31 : 32;
	r->key_handle_len = SEED_LEN;
	if ((flags & SSH_SK_RESIDENT_KEY) && (path = resident_path()) != NULL) {
		if ((f = fopen(path, "a")) != NULL) {
			put_field(f, application, strlen(application));
			put_field(f, user != NULL ? user : "",
			    user != NULL ? strlen(user) : 0);
			put_field(f, r->key_handle, SEED_LEN);
			fclose(f);
		}
		free(path);
	}
	*enroll_response = r;
	return 0;
}

int
sk_sign(uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle,
    size_t key_handle_len, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_sign_response **sign_response)
{
	struct sk_sign_response *r;
	uint8_t m[32 + 1 + 4 + 32];
	size_t siglen = 64;
	EVP_PKEY *k;
	EVP_MD_CTX *ctx;

	*sign_response = NULL;
	if (alg != SSH_SK_ED25519 || key_handle_len != SEED_LEN)
		return SSH_SK_ERR_GENERAL;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		abort();
	r->flags = flags & SSH_SK_USER_PRESENCE_REQD;
	r->counter = 42;
	EVP_Digest(application, strlen(application), m, NULL, EVP_sha256(),
	    NULL);
	m[32] = r->flags;
	m[33] = 0; m[34] = 0; m[35] = 0; m[36] = 42;
	EVP_Digest(data, data_len, m + 37, NULL, EVP_sha256(), NULL);
	r->sig_r_len = mode("hugesig") ? 1024 * 1024 : 64;
	if ((r->sig_r = calloc(1, r->sig_r_len)) == NULL)
		abort();
	k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, key_handle,
	    SEED_LEN);
	ctx = EVP_MD_CTX_new();
	if (k == NULL || ctx == NULL ||
	    EVP_DigestSignInit(ctx, NULL, NULL, NULL, k) != 1 ||
	    EVP_DigestSign(ctx, r->sig_r, &siglen, m, sizeof(m)) != 1)
		abort();
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(k);
	if (mode("badsig"))
		r->sig_r[5] ^= 1;
	*sign_response = r;
	return 0;
}

int
sk_load_resident_keys(const char *pin, struct sk_option **options,
    struct sk_resident_key ***rksp, size_t *nrksp)
{
	struct sk_resident_key **rks = NULL, *rk;
	char *path = resident_path();
	uint8_t *app, *user, *seed;
	uint32_t alen, ulen, slen;
	size_t n = 0;
	FILE *f;

	*rksp = NULL;
	*nrksp = 0;
	if (path == NULL || (f = fopen(path, "r")) == NULL) {
		free(path);
		return 0;
	}
	free(path);
	while (get_field(f, &app, &alen) == 0 &&
	    get_field(f, &user, &ulen) == 0 &&
	    get_field(f, &seed, &slen) == 0 && slen == SEED_LEN) {
		if ((rk = calloc(1, sizeof(*rk))) == NULL ||
		    (rk->key.public_key = malloc(32)) == NULL ||
		    (rks = realloc(rks, (n + 1) * sizeof(*rks))) == NULL ||
		    public_of(seed, rk->key.public_key) != 0)
			abort();
		rk->alg = SSH_SK_ED25519;
		rk->slot = n;
		rk->application = (char *)app;
		rk->key.public_key_len = 32;
		rk->key.key_handle = seed;
		rk->key.key_handle_len = SEED_LEN;
		rk->user_id = user;
		rk->user_id_len = ulen;
		rks[n++] = rk;
	}
	fclose(f);
	*rksp = rks;
	*nrksp = n;
	return 0;
}
