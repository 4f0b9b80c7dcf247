/*
 * test_sshsig.c: SSH signatures (sshsig.h) and allowed signers lines
 * (allowed_signers.h).
 *
 * A fixed ed25519 key and the signatures OpenSSH's ssh-keygen -Y sign
 * made with it (ed25519 is deterministic, so ours must be the same bytes,
 * armor and wrapping included); round trips with every key type; the
 * parser refusing what is malformed. Allowed signers lines are
 * test_allowed_signers.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "sshsig.h"
#include "testlib.h"

/* Made by ssh-keygen -t ed25519 -C fixture (test data, not a secret). */
static const char fixture_key[] =
	"-----BEGIN OPENSSH PRIVATE KEY-----\n"
	"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
	"QyNTUxOQAAACAS50FF6uSDLhUnwjqMG7b46QFTULOVpyFVX2apQ/Z1UAAAAJBUYLB8VGCw\n"
	"fAAAAAtzc2gtZWQyNTUxOQAAACAS50FF6uSDLhUnwjqMG7b46QFTULOVpyFVX2apQ/Z1UA\n"
	"AAAEA4vFhsWzzaOS85ZtJnOdZL1l6eT6ZjMwo/zWbP+st8lhLnQUXq5IMuFSfCOowbtvjp\n"
	"AVNQs5WnIVVfZqlD9nVQAAAAB2ZpeHR1cmUBAgMEBQY=\n"
	"-----END OPENSSH PRIVATE KEY-----\n";
static const char fixture_pub[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBLnQUXq5IMuFSfCOowbtvjpAVNQs5WnI"
	"VVfZqlD9nVQ fixture";
static const char fixture_msg[] = "signed message\n";
/* ssh-keygen -Y sign -n file, the message above, sha512 then sha256. */
static const char fixture_sig512[] =
	"-----BEGIN SSH SIGNATURE-----\n"
	"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgEudBRerkgy4VJ8I6jBu2+OkBU1\n"
	"CzlachVV9mqUP2dVAAAAAEZmlsZQAAAAAAAAAGc2hhNTEyAAAAUwAAAAtzc2gtZWQyNTUx\n"
	"OQAAAEDru5/7sYwMSI1acHtw5Botd/nJR2Af8ddnlve6RSIOcBxMW4Jb8nVF8azASnB7P2\n"
	"3WGiNvupjGie5cvCb2sacG\n"
	"-----END SSH SIGNATURE-----\n";
static const char fixture_sig256[] =
	"-----BEGIN SSH SIGNATURE-----\n"
	"U1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAgEudBRerkgy4VJ8I6jBu2+OkBU1\n"
	"CzlachVV9mqUP2dVAAAAAEZmlsZQAAAAAAAAAGc2hhMjU2AAAAUwAAAAtzc2gtZWQyNTUx\n"
	"OQAAAECR1j58lJhkQpxej5pOZAzOcOYRiz0MtFMIadjXJt0DauxiL9UenjQMN1OPG7DfQg\n"
	"CClgt0hYMntUOfvzcNbegE\n"
	"-----END SSH SIGNATURE-----\n";

/* Sign msg with k (or, when cert is not NULL, under that certificate). */
static struct sbuf *
sign_msg(const struct key *k, const struct key_cert *cert, const char *ns,
    const char *hashalg, const char *sigalg, const char *msg)
{
	struct sbuf *h = sbuf_new(), *data = sbuf_new(), *sig = sbuf_new();
	struct sbuf *kb = sbuf_new(), *blob = sbuf_new(), *out = sbuf_new();

	CHECK_OK(sshsig_hash_mem(hashalg, msg, strlen(msg), h));
	CHECK_OK(sshsig_signed_data(ns, hashalg, sbuf_ptr(h), sbuf_len(h),
	    data));
	CHECK_OK(key_sign(k, sigalg, sbuf_ptr(data), sbuf_len(data), sig));
	if (cert != NULL)
		CHECK_OK(cert_to_blob(cert, kb));
	else
		CHECK_OK(key_to_blob(k, kb));
	CHECK_OK(sshsig_encode(sbuf_ptr(kb), sbuf_len(kb), ns, hashalg,
	    sbuf_ptr(sig), sbuf_len(sig), blob));
	CHECK_OK(sshsig_armor(blob, out));
	sbuf_free(h);
	sbuf_free(data);
	sbuf_free(sig);
	sbuf_free(kb);
	sbuf_free(blob);
	return out;
}

/* Dearmor, parse and verify armored against msg; the result code. */
static int
check_msg(const struct sbuf *armored, const char *ns, const char *msg,
    char *why, size_t whylen, struct sshsig **sp)
{
	struct sbuf *blob = sbuf_new(), *h = sbuf_new();
	struct sshsig *s = NULL;
	int r;

	if ((r = sshsig_dearmor(sbuf_ptr(armored), sbuf_len(armored), blob,
	    why, whylen)) == 0 &&
	    (r = sshsig_parse(sbuf_ptr(blob), sbuf_len(blob), 0, &s, why,
	    whylen)) == 0 &&
	    (r = sshsig_hash_mem(s->hashalg, msg, strlen(msg), h)) == 0)
		r = sshsig_verify(s, ns, sbuf_ptr(h), sbuf_len(h), why, whylen);
	if (sp != NULL)
		*sp = s;
	else
		sshsig_free(s);
	sbuf_free(blob);
	sbuf_free(h);
	return r;
}

static struct sbuf *
text_buf(const char *text)
{
	struct sbuf *b = sbuf_new();

	sbuf_put(b, text, strlen(text));
	return b;
}

static void
test_fixture(void)
{
	struct sbuf *file = text_buf(fixture_key), *ours, *theirs;
	struct key *k = NULL, *pub = NULL;
	struct sshsig *s = NULL;
	char why[SSHSIG_WHY_MAX], *fp;
	const char *cp = fixture_pub;

	CHECK_OK(key_parse_private(file, NULL, &k, NULL));
	CHECK_OK(key_read_public_text(&cp, &pub));
	CHECK(pub != NULL && key_equal_public(k, pub));
	key_free(pub);
	ours = sign_msg(k, NULL, "file", "sha512", NULL, fixture_msg);
	CHECK(sbuf_len(ours) == strlen(fixture_sig512) &&
	    memcmp(sbuf_ptr(ours), fixture_sig512, sbuf_len(ours)) == 0);
	sbuf_free(ours);
	ours = sign_msg(k, NULL, "file", "sha256", NULL, fixture_msg);
	CHECK(sbuf_len(ours) == strlen(fixture_sig256) &&
	    memcmp(sbuf_ptr(ours), fixture_sig256, sbuf_len(ours)) == 0);
	sbuf_free(ours);

	theirs = text_buf(fixture_sig512);
	CHECK_OK(check_msg(theirs, "file", fixture_msg, why, sizeof(why), &s));
	if (s != NULL) {
		CHECK_STR(s->ns, "file");
		CHECK_STR(s->hashalg, "sha512");
		CHECK(s->cert == NULL);
		CHECK_STR(sshsig_key_label(s), "ED25519");
		fp = key_fingerprint(s->key, KEY_FP_SHA256);
		CHECK(fp != NULL && strncmp(fp, "SHA256:", 7) == 0);
		x_free(fp);
		CHECK(key_equal_public(s->key, k));
	}
	sshsig_free(s);
	CHECK_ERR(check_msg(theirs, "git", fixture_msg, why, sizeof(why),
	    NULL), ERR_SIGNATURE_INVALID);
	CHECK_STR(why, "Couldn't verify signature: namespace does not match");
	CHECK_ERR(check_msg(theirs, "file", "signed massage\n", why,
	    sizeof(why), NULL), ERR_SIGNATURE_INVALID);
	CHECK_STR(why, "Signature verification failed: incorrect signature");
	sbuf_free(theirs);
	sbuf_free(file);
	key_free(k);
}

static void
test_key_types(void)
{
	static const struct { enum key_type t; unsigned int bits; } types[] = {
		{ KEY_ED25519, 0 }, { KEY_ECDSA, 256 }, { KEY_ECDSA, 384 },
		{ KEY_ECDSA, 521 }, { KEY_RSA, 2048 },
	};
	char why[SSHSIG_WHY_MAX];
	struct sbuf *a;
	struct key *k;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		k = NULL;
		CHECK_OK(key_generate(types[i].t, types[i].bits, &k));
		a = sign_msg(k, NULL, "git", "sha512", NULL, "tree abc\n");
		CHECK_OK(check_msg(a, "git", "tree abc\n", why, sizeof(why),
		    NULL));
		CHECK_ERR(check_msg(a, "git", "tree abd\n", why, sizeof(why),
		    NULL), ERR_SIGNATURE_INVALID);
		sbuf_free(a);
		key_free(k);
	}
}

/* RSA with SHA-1 ("ssh-rsa") is refused, SHA-256 accepted. */
static void
test_rsa_sigalgs(void)
{
	char why[SSHSIG_WHY_MAX];
	struct sbuf *a;
	struct key *k = NULL;

	CHECK_OK(key_generate(KEY_RSA, 2048, &k));
	a = sign_msg(k, NULL, "file", "sha256", "rsa-sha2-256", "m");
	CHECK_OK(check_msg(a, "file", "m", why, sizeof(why), NULL));
	sbuf_free(a);
	a = sign_msg(k, NULL, "file", "sha256", "ssh-rsa", "m");
	CHECK_ERR(check_msg(a, "file", "m", why, sizeof(why), NULL),
	    ERR_SIGNATURE_INVALID);
	CHECK_STR(why, "Couldn't verify signature: unsupported RSA signature "
	    "algorithm ssh-rsa");
	sbuf_free(a);
	key_free(k);
}

/* The armor: lines of 70, the END line after a newline, errors. */
static void
test_armor(void)
{
	static const char *const bad[] = {
		"", "-----BEGIN SSH SIGNATURE-----",
		"\n-----BEGIN SSH SIGNATURE-----\nU1NI\n"
		"-----END SSH SIGNATURE-----\n",
		"-----BEGIN SSH SIGNATURE-----\n-----END SSH SIGNATURE-----\n",
		"-----BEGIN SSH SIGNATURE-----\nU1NI "
		"-----END SSH SIGNATURE-----",
		"-----BEGIN SSH SIGNATURE-----\nU1N!\n"
		"-----END SSH SIGNATURE-----\n",
	};
	static const char *const whys[] = {
		"Couldn't parse signature: missing header",
		"Couldn't parse signature: missing header",
		"Couldn't parse signature: missing header",
		"Couldn't parse signature: missing footer",
		"Couldn't parse signature: missing footer",
		"sshsig_dearmor: decode base64: invalid format",
	};
	struct sbuf *blob = sbuf_new(), *out = sbuf_new(), *back = sbuf_new();
	char why[SSHSIG_WHY_MAX], *text;
	const char *line, *nl;
	size_t i;

	for (i = 0; i < 140; i++)	/* 188 base64 characters */
		sbuf_put_u8(blob, (uint8_t)i);
	CHECK_OK(sshsig_armor(blob, out));
	text = x_strndup((const char *)sbuf_ptr(out), sbuf_len(out));
	line = text;
	for (i = 0; (nl = strchr(line, '\n')) != NULL; i++, line = nl + 1) {
		if (i >= 1 && i <= 2)
			CHECK(nl - line == 70);
		if (i == 3)
			CHECK(nl - line == 48);
	}
	CHECK(i == 5 && *line == '\0');
	/* What follows the END line does not matter. */
	sbuf_put(out, "trailing words\n", 15);
	CHECK_OK(sshsig_dearmor(sbuf_ptr(out), sbuf_len(out), back, why,
	    sizeof(why)));
	CHECK(sbuf_equal(blob, back));
	x_free(text);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sbuf_reset(back);
		CHECK(sshsig_dearmor((const unsigned char *)bad[i],
		    strlen(bad[i]), back, why, sizeof(why)) != 0);
		CHECK_STR(why, whys[i]);
	}
	sbuf_free(blob);
	sbuf_free(out);
	sbuf_free(back);
}

/* Blobs the parser refuses, each for its own reason. */
static void
test_parse_refusals(void)
{
	struct sbuf *file = text_buf(fixture_key), *blob = sbuf_new();
	struct sbuf *kb = sbuf_new(), *b;
	struct sshsig *s = NULL;
	struct key *k = NULL;
	char why[SSHSIG_WHY_MAX];
	size_t i;

	CHECK_OK(key_parse_private(file, NULL, &k, NULL));
	CHECK_OK(key_to_blob(k, kb));
	CHECK_OK(sshsig_encode(sbuf_ptr(kb), sbuf_len(kb), "ns", "sha512",
	    (const unsigned char *)"sig", 3, blob));
	CHECK_OK(sshsig_parse(sbuf_ptr(blob), sbuf_len(blob), 0, &s, why,
	    sizeof(why)));
	sshsig_free(s);
	/* Every truncation fails; after the key, key_only still parses. */
	for (i = 0; i < sbuf_len(blob); i++) {
		s = NULL;
		CHECK(sshsig_parse(sbuf_ptr(blob), i, 0, &s, why,
		    sizeof(why)) != 0 && s == NULL);
		if (i >= 10 + 4 + sbuf_len(kb)) {
			CHECK_OK(sshsig_parse(sbuf_ptr(blob), i, 1, &s, why,
			    sizeof(why)));
			CHECK(s != NULL && s->ns == NULL);
			sshsig_free(s);
		}
	}
	b = sbuf_dup(blob);
	sbuf_put_u8(b, 0);
	CHECK_ERR(sshsig_parse(sbuf_ptr(b), sbuf_len(b), 0, &s, why,
	    sizeof(why)), ERR_INVALID_FORMAT);
	CHECK_STR(why, "Signature contains trailing data");
	sbuf_free(b);
	b = sbuf_dup(blob);
	sbuf_mutable_ptr(b)[9] = 2;	/* version 2 */
	CHECK_ERR(sshsig_parse(sbuf_ptr(b), sbuf_len(b), 1, &s, why,
	    sizeof(why)), ERR_FEATURE_UNSUPPORTED);
	CHECK_STR(why, "Signature version 2 is larger than supported "
	    "version 1");
	sbuf_mutable_ptr(b)[9] = 1;
	sbuf_mutable_ptr(b)[0] = 'X';
	CHECK_ERR(sshsig_parse(sbuf_ptr(b), sbuf_len(b), 0, &s, why,
	    sizeof(why)), ERR_INVALID_FORMAT);
	CHECK_STR(why, "Couldn't verify signature: invalid format");
	sbuf_free(b);
	sbuf_free(blob);
	sbuf_free(kb);
	sbuf_free(file);
	key_free(k);
}

int
main(void)
{
	test_fixture();
	test_key_types();
	test_rsa_sigalgs();
	test_armor();
	test_parse_refusals();
	return TEST_DONE();
}
