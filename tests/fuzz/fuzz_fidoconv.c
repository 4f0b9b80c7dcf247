/*
 * fuzz_fidoconv.c: the device-free half of the built-in libfido2
 * provider (src/sk-helper/fido_conv.c), which turns what an
 * authenticator returned, through libfido2, into the sk_api.h
 * structures that ssh-sk-helper sends on. Only that file is compiled in
 * (included below, as test_sk_fido.c does): the device code and
 * libfido2 stay out of the fuzz build.
 *
 * Byte 0 picks the entry point, byte 1 the algorithm (P-256, Ed25519,
 * or a number no provider knows); a "field" below is a u16 length and
 * that many bytes (cut short where the input ends):
 *   0  skf_pubkey: the rest is libfido2's public key
 *   1  skf_sign_response: flags, u32 counter, then the signature
 *   2  skf_enroll_response: flags, then the fields public key,
 *      credential ID, attestation signature, certificate, authdata
 *   3  a resident key list (skf_resident_key) of up to 64 entries, each
 *      an algorithm byte, flags, then the fields public key, credential
 *      ID, user ID, application; freed with skf_resident_list_free
 *   4  skf_parse_options over up to 16 options, each a required byte,
 *      then the fields name and value; then skf_user_id of the user
 * What is made is checked against what went in: copies equal to their
 * source, a point with its 0x04, r and s as minimal unsigned numbers.
 * The seeds (real keys and signatures) are written by
 * mkseeds_fidoconv.py.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/sk-helper/fido_conv.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RESIDENT	64
#define MAX_OPTIONS	16
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static const uint32_t algs[] = { SSH_SK_ECDSA, SSH_SK_ED25519, 0x7f };

struct in {
	const uint8_t *p;
	size_t n;
};

static uint8_t
get_u8(struct in *in)
{
	uint8_t v = 0;

	if (in->n > 0) {
		v = in->p[0];
		in->p++;
		in->n--;
	}
	return v;
}

static uint32_t
get_u32(struct in *in)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 8 | get_u8(in);
	return v;
}

static void
get_field(struct in *in, struct skf_bytes *b)
{
	size_t len = (size_t)get_u8(in) << 8;

	len |= get_u8(in);
	if (len > in->n)
		len = in->n;
	b->ptr = len > 0 ? in->p : NULL;
	b->len = len;
	in->p += len;
	in->n -= len;
}

/* A copy made by the conversion: empty for an empty source, else equal. */
static void
check_copy(const struct skf_bytes *src, const uint8_t *p, size_t len)
{
	if (src->ptr == NULL || src->len == 0) {
		if (p != NULL || len != 0)
			abort();
	} else if (len != src->len || p == NULL ||
	    memcmp(p, src->ptr, len) != 0)
		abort();
}

static void
check_pubkey(uint32_t alg, const struct skf_bytes *in, const uint8_t *out,
    size_t outlen)
{
	if (alg == SSH_SK_ED25519) {
		check_copy(in, out, outlen);
		if (outlen != 32)
			abort();
		return;
	}
	/* 0x04 || x || y, from x || y or from the whole point */
	if (outlen != 65 || out[0] != 0x04 || in->len < 64 ||
	    memcmp(out + 65 - 64, in->ptr + in->len - 64, 64) != 0)
		abort();
}

static void
fz_pubkey(uint32_t alg, struct in *in)
{
	struct skf_bytes pk = { in->p, in->n };
	uint8_t *out;
	size_t outlen;

	if (skf_pubkey(alg, in->p, in->n, &out, &outlen) != 0) {
		if (out != NULL || outlen != 0)
			abort();
		return;
	}
	check_pubkey(alg, &pk, out, outlen);
	free(out);
}

/* r or s: 1 to 32 bytes, no leading zero byte unless it is all of it. */
static void
check_number(const uint8_t *p, size_t len)
{
	if (p == NULL || len == 0 || len > 32 || (len > 1 && p[0] == 0))
		abort();
}

static void
fz_sign(uint32_t alg, struct in *in)
{
	struct sk_sign_response *s;
	uint8_t flags = get_u8(in);
	uint32_t counter = get_u32(in);

	if (skf_sign_response(alg, in->p, in->n, flags, counter, &s) != 0) {
		if (s != NULL)
			abort();
		return;
	}
	if (s == NULL || s->flags != flags || s->counter != counter)
		abort();
	if (alg == SSH_SK_ED25519) {
		if (s->sig_r_len != 64 || s->sig_s != NULL ||
		    memcmp(s->sig_r, in->p, 64) != 0)
			abort();
	} else {
		check_number(s->sig_r, s->sig_r_len);
		check_number(s->sig_s, s->sig_s_len);
	}
	skf_sign_free(s);
}

static void
fz_enroll(uint32_t alg, struct in *in)
{
	struct sk_enroll_response *e;
	struct skf_cred c;

	memset(&c, 0, sizeof(c));
	c.alg = alg;
	c.flags = get_u8(in);
	get_field(in, &c.pubkey);
	get_field(in, &c.id);
	get_field(in, &c.sig);
	get_field(in, &c.x5c);
	get_field(in, &c.authdata);
	if (skf_enroll_response(&c, &e) != 0) {
		if (e != NULL)
			abort();
		return;
	}
	if (e == NULL || e->flags != c.flags || c.id.len == 0)
		abort();
	check_pubkey(alg, &c.pubkey, e->public_key, e->public_key_len);
	check_copy(&c.id, e->key_handle, e->key_handle_len);
	check_copy(&c.sig, e->signature, e->signature_len);
	check_copy(&c.x5c, e->attestation_cert, e->attestation_cert_len);
	check_copy(&c.authdata, e->authdata, e->authdata_len);
	skf_enroll_free(e);
}

static void
fz_resident(struct in *in)
{
	struct sk_resident_key **list = NULL, *k;
	struct skf_bytes uid, app;
	struct skf_cred c;
	char *appz;
	size_t n = 0, slot;

	for (slot = 0; in->n > 0 && n < MAX_RESIDENT; slot++) {
		memset(&c, 0, sizeof(c));
		c.alg = algs[get_u8(in) % NELEM(algs)];
		c.flags = get_u8(in);
		get_field(in, &c.pubkey);
		get_field(in, &c.id);
		get_field(in, &uid);
		get_field(in, &app);
		/* libfido2 hands over the relying party as a C string */
		appz = x_calloc(1, app.len + 1);
		if (app.len > 0)
			memcpy(appz, app.ptr, app.len);
		if (skf_resident_key(&c, appz, slot, &uid, &k) != 0) {
			x_free(appz);
			if (k != NULL)
				abort();
			continue;
		}
		if (k == NULL || k->alg != c.alg || k->slot != slot ||
		    k->flags != c.flags || k->key.flags != c.flags ||
		    strcmp(k->application, appz) != 0)
			abort();
		check_pubkey(c.alg, &c.pubkey, k->key.public_key,
		    k->key.public_key_len);
		check_copy(&c.id, k->key.key_handle, k->key.key_handle_len);
		check_copy(&uid, k->user_id, k->user_id_len);
		x_free(appz);
		list = x_reallocarray(list, n + 1, sizeof(*list));
		list[n++] = k;
	}
	skf_resident_list_free(list, n);
}

static char *
field_str(struct in *in)
{
	struct skf_bytes b;
	char *s;

	get_field(in, &b);
	s = x_calloc(1, b.len + 1);
	if (b.len > 0)
		memcpy(s, b.ptr, b.len);
	return s;
}

static void
fz_options(struct in *in)
{
	struct sk_option opt[MAX_OPTIONS], *list[MAX_OPTIONS + 1];
	struct skf_opts o;
	uint8_t uid[SKF_USER_ID_LEN];
	size_t i, n = 0;

	while (in->n > 0 && n < MAX_OPTIONS) {
		opt[n].required = get_u8(in);
		opt[n].name = field_str(in);
		opt[n].value = field_str(in);
		list[n] = &opt[n];
		n++;
	}
	list[n] = NULL;
	if (skf_parse_options(list, &o) == 0)
		skf_user_id(o.user, uid);
	for (i = 0; i < n; i++) {
		x_free(opt[i].name);
		x_free(opt[i].value);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	uint8_t op = get_u8(&in);
	uint32_t alg = algs[get_u8(&in) % NELEM(algs)];

	switch (op % 5) {
	case 0:
		fz_pubkey(alg, &in);
		break;
	case 1:
		fz_sign(alg, &in);
		break;
	case 2:
		fz_enroll(alg, &in);
		break;
	case 3:
		fz_resident(&in);
		break;
	default:
		fz_options(&in);
		break;
	}
	return 0;
}
