/*
 * test_keysign.c: what ssh-keysign agrees to sign (src/keysign/
 * ksrequest.c). The helper is a program, not part of the library, so its
 * pure checking code is compiled into this test directly.
 *
 * Three host keys are generated; a well-formed request is built field by
 * field, and each test changes one field and expects a refusal.
 */
#include <string.h>

#include "testlib.h"

#include "../../src/keysign/ksrequest.c"

#define LUSER	"alice"
#define LHOST	"client.example.org."

struct fields {
	size_t sidlen;
	uint8_t type;
	const char *service, *method, *alg, *chost, *cuser;
	const struct key *key;
	int trailing;		/* a byte after the last field */
	int truncate;		/* drop the last byte */
};

static void
defaults(struct fields *f, const struct key *k, const char *alg)
{
	f->sidlen = 32;
	f->type = 50;
	f->service = "ssh-connection";
	f->method = "hostbased";
	f->alg = alg;
	f->chost = LHOST;
	f->cuser = LUSER;
	f->key = k;
	f->trailing = 0;
	f->truncate = 0;
}

static struct sbuf *
build(const struct fields *f)
{
	struct sbuf *b = sbuf_new(), *blob = sbuf_new();
	unsigned char sid[64];

	memset(sid, 0xa5, sizeof(sid));
	key_to_blob(f->key, blob);
	sbuf_put_string(b, sid, f->sidlen);
	sbuf_put_u8(b, f->type);
	sbuf_put_cstring(b, "bob");
	sbuf_put_cstring(b, f->service);
	sbuf_put_cstring(b, f->method);
	sbuf_put_cstring(b, f->alg);
	sbuf_put_stringb(b, blob);
	sbuf_put_cstring(b, f->chost);
	sbuf_put_cstring(b, f->cuser);
	if (f->trailing)
		sbuf_put_u8(b, 0);
	if (f->truncate)
		sbuf_consume_end(b, 1);
	sbuf_free(blob);
	return b;
}

static int
check(const struct fields *f, struct key *const *keys, size_t nkeys,
    size_t *idxp, char **algp)
{
	struct sbuf *b = build(f);
	int r;

	r = ks_check_request(sbuf_ptr(b), sbuf_len(b), LUSER, LHOST, keys,
	    nkeys, idxp, algp);
	sbuf_free(b);
	return r;
}

static void
test_accept(struct key *const *keys)
{
	static const struct {
		size_t idx;
		const char *alg;
	} ok[] = {
		{ 0, "ssh-ed25519" },
		{ 1, "ecdsa-sha2-nistp256" },
		{ 2, "rsa-sha2-256" },
		{ 2, "rsa-sha2-512" },
	};
	struct fields f;
	size_t i, idx;
	char *alg;
	static const size_t sids[] = { 20, 32, 48, 64 };

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		defaults(&f, keys[ok[i].idx], ok[i].alg);
		idx = 99;
		alg = NULL;
		CHECK_OK(check(&f, keys, 3, &idx, &alg));
		CHECK(idx == ok[i].idx);
		CHECK_STR(alg, ok[i].alg);
		x_free(alg);
	}
	for (i = 0; i < sizeof(sids) / sizeof(sids[0]); i++) {
		defaults(&f, keys[0], "ssh-ed25519");
		f.sidlen = sids[i];
		CHECK_OK(check(&f, keys, 3, &idx, &alg));
		x_free(alg);
	}
	/* The host name compares without regard to case. */
	defaults(&f, keys[0], "ssh-ed25519");
	f.chost = "CLIENT.Example.ORG.";
	CHECK_OK(check(&f, keys, 3, &idx, &alg));
	x_free(alg);
	/* A host key that did not load is skipped. */
	{
		struct key *some[3] = { NULL, keys[1], NULL };

		defaults(&f, keys[1], "ecdsa-sha2-nistp256");
		CHECK_OK(check(&f, some, 3, &idx, &alg));
		CHECK(idx == 1);
		x_free(alg);
	}
}

static void
test_refuse(struct key *const *keys, const struct key *stranger)
{
	struct fields f;
	size_t idx;
	char *alg;

#define REFUSED(want) do { \
	alg = (char *)"x"; \
	CHECK_ERR(check(&f, keys, 3, &idx, &alg), want); \
	CHECK(alg == NULL); \
} while (0)

	defaults(&f, keys[0], "ssh-ed25519");
	f.service = "ssh-userauth";
	REFUSED(ERR_PERMISSION_DENIED);

	defaults(&f, keys[0], "ssh-ed25519");
	f.method = "publickey";
	REFUSED(ERR_PERMISSION_DENIED);

	defaults(&f, keys[0], "ssh-ed25519");
	f.cuser = "root";
	REFUSED(ERR_PERMISSION_DENIED);

	defaults(&f, keys[0], "ssh-ed25519");
	f.cuser = "alicex";
	REFUSED(ERR_PERMISSION_DENIED);

	defaults(&f, keys[0], "ssh-ed25519");
	f.chost = "other.example.org.";
	REFUSED(ERR_PERMISSION_DENIED);

	/* The trailing dot is part of the name sent. */
	defaults(&f, keys[0], "ssh-ed25519");
	f.chost = "client.example.org";
	REFUSED(ERR_PERMISSION_DENIED);

	defaults(&f, stranger, "ssh-ed25519");
	REFUSED(ERR_NOT_FOUND);

	/* An algorithm that does not fit the key, or SHA-1. */
	defaults(&f, keys[0], "ecdsa-sha2-nistp256");
	REFUSED(ERR_PERMISSION_DENIED);
	defaults(&f, keys[1], "ecdsa-sha2-nistp384");
	REFUSED(ERR_PERMISSION_DENIED);
	defaults(&f, keys[2], "ssh-rsa");
	REFUSED(ERR_PERMISSION_DENIED);
	defaults(&f, keys[2], "ssh-ed25519");
	REFUSED(ERR_PERMISSION_DENIED);

	defaults(&f, keys[0], "ssh-ed25519");
	f.trailing = 1;
	REFUSED(ERR_INVALID_FORMAT);

	defaults(&f, keys[0], "ssh-ed25519");
	f.truncate = 1;
	REFUSED(ERR_INVALID_FORMAT);

	defaults(&f, keys[0], "ssh-ed25519");
	f.type = 51;
	REFUSED(ERR_INVALID_FORMAT);

	defaults(&f, keys[0], "ssh-ed25519");
	f.sidlen = 31;
	REFUSED(ERR_INVALID_FORMAT);

	defaults(&f, keys[0], "ssh-ed25519");
	f.sidlen = 0;
	REFUSED(ERR_INVALID_FORMAT);

	/* Empty input. */
	alg = (char *)"x";
	CHECK_ERR(ks_check_request((const unsigned char *)"", 0, LUSER,
	    LHOST, keys, 3, &idx, &alg), ERR_INVALID_FORMAT);
	CHECK(alg == NULL);
#undef REFUSED
}

static void
test_message(void)
{
	struct sbuf *m;
	const unsigned char *d;
	size_t dlen;
	unsigned int ver;
	uint32_t fd;

	/* What the client sends parses back. */
	m = sbuf_new();
	CHECK_OK(hb_keysign_request(m, (const unsigned char *)"abc", 3));
	CHECK_OK(sbuf_consume(m, 4));
	CHECK_OK(ks_parse_message(m, &ver, &fd, &d, &dlen));
	CHECK(ver == 2 && fd == 3 && dlen == 3 && memcmp(d, "abc", 3) == 0);
	sbuf_free(m);

	m = sbuf_new();
	sbuf_put_u8(m, 1);
	sbuf_put_u32(m, 3);
	sbuf_put_cstring(m, "abc");
	CHECK_ERR(ks_parse_message(m, &ver, &fd, &d, &dlen), ERR_PROTOCOL);
	CHECK(ver == 1);
	sbuf_free(m);

	m = sbuf_new();
	sbuf_put_u8(m, 2);
	sbuf_put_u32(m, 0);
	sbuf_put_cstring(m, "abc");
	CHECK_ERR(ks_parse_message(m, &ver, &fd, &d, &dlen),
	    ERR_INVALID_ARGUMENT);
	CHECK(fd == 0);
	sbuf_free(m);

	m = sbuf_new();
	sbuf_put_u8(m, 2);
	sbuf_put_u32(m, 3);
	sbuf_put_cstring(m, "abc");
	sbuf_put_u8(m, 0);
	CHECK_ERR(ks_parse_message(m, &ver, &fd, &d, &dlen),
	    ERR_INVALID_FORMAT);
	CHECK(d == NULL);
	sbuf_free(m);

	m = sbuf_new();
	sbuf_put_u8(m, 2);
	sbuf_put_u32(m, 3);
	sbuf_put_u32(m, 10);	/* string longer than what follows */
	sbuf_put(m, "abc", 3);
	CHECK_ERR(ks_parse_message(m, &ver, &fd, &d, &dlen),
	    ERR_INVALID_FORMAT);
	sbuf_free(m);
}

int
main(void)
{
	struct key *keys[3], *stranger;
	size_t i;

	CHECK_OK(key_generate(KEY_ED25519, 0, &keys[0]));
	CHECK_OK(key_generate(KEY_ECDSA, 256, &keys[1]));
	CHECK_OK(key_generate(KEY_RSA, 2048, &keys[2]));
	CHECK_OK(key_generate(KEY_ED25519, 0, &stranger));
	test_accept(keys);
	test_refuse(keys, stranger);
	test_message();
	for (i = 0; i < 3; i++)
		key_free(keys[i]);
	key_free(stranger);
	return TEST_DONE();
}
