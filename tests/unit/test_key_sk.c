/*
 * test_key_sk.c: FIDO security keys (PROTOCOL.u2f). Public keys made by
 * OpenSSH 10.5's ssh-keygen with its software authenticator (committed
 * under data/keys) load, print and fingerprint as OpenSSH does, and
 * their SSHSIG signatures verify. Signatures crafted here, with a plain
 * key standing in for the authenticator, verify with their flags and
 * counter handed back, and fail when the flags, counter, application,
 * message or webauthn clientData are changed; certificates of security
 * keys parse back.
 */
#include <stdio.h>

#include <openssl/evp.h>

#include "cert.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "sshsig.h"
#include "testlib.h"

#define DATA		"data/keys/"
#define ED_SK		"sk-ssh-ed25519@openssh.com"
#define EC_SK		"sk-ecdsa-sha2-nistp256@openssh.com"
#define WEBAUTHN	"webauthn-sk-ecdsa-sha2-nistp256@openssh.com"

static struct sbuf *
read_file(const char *path)
{
	struct sbuf *b = sbuf_new();
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	CHECK(f != NULL);
	if (f == NULL)
		return b;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_put(b, buf, n);
	fclose(f);
	return b;
}

/* The public keys of OpenSSH 10.5's ssh-keygen -t ed25519-sk/ecdsa-sk. */
static void
test_fixtures(void)
{
	static const struct {
		const char *file, *type, *shortname, *fp;
	} t[] = {
		{ DATA "ed25519_sk.pub", ED_SK, "ED25519-SK",
		    "SHA256:3kHZJ6Ex7itLxMTv7966LphIpXlnxJOFPoneCz2PgXc" },
		{ DATA "ecdsa_sk.pub", EC_SK, "ECDSA-SK",
		    "SHA256:b+zH42EM5YAQkoFUpTVyju2RndqeCHHj2GEiyf8/mEc" },
	};
	struct sbuf *file;
	struct key *k;
	char *comment, *text, *fp;
	size_t i, n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK_OK(key_load_public(t[i].file, &k, &comment));
		if (k == NULL)
			continue;
		CHECK(key_is_sk(k));
		CHECK_STR(key_type_name(k), t[i].type);
		CHECK_STR(key_short_name(k), t[i].shortname);
		CHECK_STR(k->sk_application, "ssh:");
		CHECK(key_bits(k) == 256);
		fp = key_fingerprint(k, KEY_FP_SHA256);
		CHECK_STR(fp, t[i].fp);
		x_free(fp);
		/* Written back, the line is the file's, byte for byte. */
		file = read_file(t[i].file);
		text = key_public_text(k);
		n = strlen(text);
		CHECK(sbuf_len(file) > n &&
		    memcmp(sbuf_ptr(file), text, n) == 0 &&
		    sbuf_ptr(file)[n] == ' ');
		CHECK_STR(cert_type_name(k), i == 0 ?
		    "sk-ssh-ed25519-cert-v01@openssh.com" :
		    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com");
		CHECK(key_sigalg_matches(k, t[i].type));
		CHECK(key_sigalg_matches(k, WEBAUTHN) == (i == 1));
		CHECK(!key_sigalg_matches(k, i == 0 ? "ssh-ed25519" :
		    "ecdsa-sha2-nistp256"));
		x_free(text);
		x_free(comment);
		sbuf_free(file);
		key_free(k);
	}
}

/* ssh-keygen -Y sign by OpenSSH 10.5 with sk-dummy, over data/keys/sk_msg. */
static void
test_sshsig_fixtures(void)
{
	static const char *const sigs[] = {
		DATA "ed25519_sk.msg.sig", DATA "ecdsa_sk.msg.sig",
		DATA "ed25519_sk_nt.msg.sig",
	};
	struct sbuf *msg = read_file(DATA "sk_msg"), *armored, *blob, *h;
	struct sshsig *s;
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		armored = read_file(sigs[i]);
		blob = sbuf_new();
		h = sbuf_new();
		s = NULL;
		CHECK_OK(sshsig_dearmor(sbuf_ptr(armored), sbuf_len(armored),
		    blob, why, sizeof(why)));
		CHECK_OK(sshsig_parse(sbuf_ptr(blob), sbuf_len(blob), 0, &s,
		    why, sizeof(why)));
		if (s == NULL)
			goto next;
		CHECK_STR(sshsig_key_label(s), i == 1 ? "ECDSA-SK" :
		    "ED25519-SK");
		CHECK_OK(sshsig_hash_mem(s->hashalg, sbuf_ptr(msg),
		    sbuf_len(msg), h));
		CHECK_OK(sshsig_verify(s, "file", sbuf_ptr(h), sbuf_len(h),
		    why, sizeof(why)));
		/* Another message: the same signature fails. */
		sbuf_reset(h);
		CHECK_OK(sshsig_hash_mem(s->hashalg, "other", 5, h));
		CHECK(sshsig_verify(s, "file", sbuf_ptr(h), sbuf_len(h),
		    why, sizeof(why)) != 0);
 next:
		sshsig_free(s);
		sbuf_free(armored);
		sbuf_free(blob);
		sbuf_free(h);
	}
	sbuf_free(msg);
}

/*
 * A security key from a plain key of ours: same public point, the sk
 * type name and an application. The plain key signs for it.
 */
static struct key *
sk_from_plain(const struct key *plain, const char *app)
{
	struct sbuf *pb = sbuf_new(), *b = sbuf_new();
	struct key *k = NULL;

	CHECK_OK(key_to_blob(plain, pb));
	CHECK_OK(sbuf_get_string_direct(pb, NULL, NULL));	/* the name */
	sbuf_put_cstring(b, plain->type == KEY_ED25519 ? ED_SK : EC_SK);
	sbuf_put(b, sbuf_ptr(pb), sbuf_len(pb));
	sbuf_put_cstring(b, app);
	CHECK_OK(key_from_blob(sbuf_ptr(b), sbuf_len(b), &k));
	sbuf_free(pb);
	sbuf_free(b);
	return k;
}

static void
sha256(const void *p, size_t len, unsigned char out[32])
{
	CHECK(EVP_Digest(p, len, out, NULL, EVP_sha256(), NULL) == 1);
}

/*
 * An authenticator's signature by plain over app/flags/counter and the
 * hash of what (the message, or webauthn's clientData), wrapped as the
 * SSH blob of sigalg; webauthn fields appended when origin is not NULL.
 */
static struct sbuf *
sk_sign(const struct key *plain, const char *sigalg, const char *app,
    unsigned char flags, uint32_t counter, const void *what, size_t wlen,
    const char *origin)
{
	struct sbuf *d = sbuf_new(), *ps = sbuf_new(), *out = sbuf_new();
	unsigned char h[32];
	const unsigned char *raw;
	size_t rawlen;

	sha256(app, strlen(app), h);
	sbuf_put(d, h, sizeof(h));
	sbuf_put_u8(d, flags);
	sbuf_put_u32(d, counter);
	sha256(what, wlen, h);
	sbuf_put(d, h, sizeof(h));
	/* ECDSA-SHA256 over the bytes is what an sk-ecdsa key makes. */
	CHECK_OK(key_sign(plain, NULL, sbuf_ptr(d), sbuf_len(d), ps));
	CHECK_OK(sbuf_get_string_direct(ps, NULL, NULL));
	CHECK_OK(sbuf_get_string_direct(ps, &raw, &rawlen));
	sbuf_put_cstring(out, sigalg);
	sbuf_put_string(out, raw, rawlen);
	sbuf_put_u8(out, flags);
	sbuf_put_u32(out, counter);
	if (origin != NULL) {
		sbuf_put_cstring(out, origin);
		sbuf_put_string(out, what, wlen);
		sbuf_put_string(out, NULL, 0);
	}
	sbuf_free(d);
	sbuf_free(ps);
	return out;
}

static int
verify(const struct key *k, const struct sbuf *sig, const char *msg,
    const char *want, struct key_sig_details *det)
{
	return key_verify_details(k, sbuf_ptr(sig), sbuf_len(sig),
	    (const unsigned char *)msg, strlen(msg), want, det);
}

static void
test_crafted(enum key_type type)
{
	static const char msg[] = "the session id and request";
	struct key *plain = NULL, *k, *other;
	struct key_sig_details det;
	const char *alg;
	struct sbuf *sig, *bad;
	size_t flagpos;

	CHECK_OK(key_generate(type, 0, &plain));
	if (plain == NULL)
		return;
	k = sk_from_plain(plain, "ssh:");
	other = sk_from_plain(plain, "ssh:other");
	if (k == NULL || other == NULL)
		goto out;
	alg = key_type_name(k);
	sig = sk_sign(plain, alg, "ssh:", 0x05, 0x01020304, msg, strlen(msg),
	    NULL);
	CHECK_OK(verify(k, sig, msg, alg, &det));
	CHECK(det.is_sk && det.sk_flags == 0x05 &&
	    det.sk_counter == 0x01020304);
	CHECK_OK(key_verify(k, sbuf_ptr(sig), sbuf_len(sig),
	    (const unsigned char *)msg, strlen(msg), NULL));
	/* Another message, another application, a plain algorithm. */
	CHECK(verify(k, sig, "another message", alg, &det) != 0);
	CHECK(!det.is_sk);
	CHECK(verify(other, sig, msg, alg, NULL) != 0);
	CHECK(verify(k, sig, msg, type == KEY_ED25519 ? "ssh-ed25519" :
	    "ecdsa-sha2-nistp256", NULL) != 0);
	/* The flags byte and the counter are signed. */
	flagpos = sbuf_len(sig) - 5;
	bad = sbuf_dup(sig);
	sbuf_mutable_ptr(bad)[flagpos] ^= 0x01;
	CHECK_ERR(verify(k, bad, msg, alg, NULL), ERR_SIGNATURE_INVALID);
	sbuf_free(bad);
	bad = sbuf_dup(sig);
	sbuf_mutable_ptr(bad)[flagpos + 4] ^= 0x80;
	CHECK_ERR(verify(k, bad, msg, alg, NULL), ERR_SIGNATURE_INVALID);
	sbuf_free(bad);
	/* Cut short, or with a byte after it. */
	bad = sbuf_from(sbuf_ptr(sig), sbuf_len(sig) - 1);
	CHECK(verify(k, bad, msg, alg, NULL) != 0);
	sbuf_free(bad);
	bad = sbuf_dup(sig);
	sbuf_put_u8(bad, 0);
	CHECK_ERR(verify(k, bad, msg, alg, NULL), ERR_INVALID_FORMAT);
	sbuf_free(bad);
	/* The plain key must not take the sk signature, nor k a plain one. */
	CHECK(verify(plain, sig, msg, NULL, NULL) != 0);
	bad = sbuf_new();
	CHECK_OK(key_sign(plain, NULL, (const unsigned char *)msg,
	    strlen(msg), bad));
	CHECK(verify(k, bad, msg, NULL, NULL) != 0);
	sbuf_free(bad);
	sbuf_free(sig);
 out:
	key_free(plain);
	key_free(k);
	key_free(other);
}

/* A browser's clientData for msg: the fixed preamble, then more. */
static char *
client_data(const char *challenge_of, const char *origin)
{
	struct sbuf *b = sbuf_from(challenge_of, strlen(challenge_of));
	char *t = sbuf_to_b64(b, 0), *c, *s;

	for (c = t; *c != '\0'; c++) {
		if (*c == '+')
			*c = '-';
		else if (*c == '/')
			*c = '_';
		else if (*c == '=')
			*c = '\0';
	}
	s = x_asprintf("{\"type\":\"webauthn.get\",\"challenge\":\"%s\","
	    "\"origin\":\"%s\",\"crossOrigin\":false}", t, origin);
	x_free(t);
	sbuf_free(b);
	return s;
}

static void
test_webauthn(void)
{
	static const char msg[] = "signed through a web browser?";
	struct key *plain = NULL, *k;
	struct key_sig_details det;
	struct sbuf *sig;
	char *cd;

	CHECK_OK(key_generate(KEY_ECDSA, 256, &plain));
	if (plain == NULL || (k = sk_from_plain(plain, "ssh:")) == NULL) {
		key_free(plain);
		return;
	}
	cd = client_data(msg, "https://example.org");
	sig = sk_sign(plain, WEBAUTHN, "ssh:", 0x01, 7, cd, strlen(cd),
	    "https://example.org");
	/* Taken under either ECDSA security key algorithm, as OpenSSH. */
	CHECK_OK(verify(k, sig, msg, EC_SK, &det));
	CHECK(det.is_sk && det.sk_flags == 0x01 && det.sk_counter == 7);
	CHECK_OK(verify(k, sig, msg, WEBAUTHN, NULL));
	CHECK(verify(k, sig, "not the challenge", EC_SK, NULL) != 0);
	sbuf_free(sig);
	/* The origin named must be the one in clientData. */
	sig = sk_sign(plain, WEBAUTHN, "ssh:", 0x01, 7, cd, strlen(cd),
	    "https://example.com");
	CHECK(verify(k, sig, msg, EC_SK, NULL) != 0);
	sbuf_free(sig);
	x_free(cd);
	/* An origin with a quote could close the JSON string: refused. */
	cd = client_data(msg, "https://a\",\"b");
	sig = sk_sign(plain, WEBAUTHN, "ssh:", 0x01, 7, cd, strlen(cd),
	    "https://a\",\"b");
	CHECK_ERR(verify(k, sig, msg, EC_SK, NULL), ERR_INVALID_FORMAT);
	sbuf_free(sig);
	x_free(cd);
	/* Extension flag set with no extensions. */
	cd = client_data(msg, "https://example.org");
	sig = sk_sign(plain, WEBAUTHN, "ssh:", 0x81, 7, cd, strlen(cd),
	    "https://example.org");
	CHECK_ERR(verify(k, sig, msg, EC_SK, NULL), ERR_INVALID_FORMAT);
	sbuf_free(sig);
	x_free(cd);
	key_free(plain);
	key_free(k);
}

/* A certificate of a security key, signed by a plain CA, parses back. */
static void
test_cert(void)
{
	struct key *ca = NULL, *plain = NULL, *k;
	struct key_cert *c = NULL, *back = NULL;
	struct sbuf *b = sbuf_new();

	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	CHECK_OK(key_generate(KEY_ED25519, 0, &plain));
	if (ca == NULL || plain == NULL ||
	    (k = sk_from_plain(plain, "ssh:")) == NULL)
		goto out;
	CHECK_OK(cert_new(k, CERT_TYPE_USER, &c));
	CHECK_OK(cert_set_option(c, 0, "no-touch-required", NULL, 0));
	CHECK_OK(cert_sign(c, ca, NULL));
	CHECK_OK(cert_to_blob(c, b));
	CHECK_OK(cert_from_blob(sbuf_ptr(b), sbuf_len(b), &back));
	if (back != NULL) {
		CHECK(key_equal_public(back->key, k));
		CHECK_STR(back->key->sk_application, "ssh:");
		CHECK(cert_option(back, 0, "no-touch-required") != NULL);
		CHECK(cert_sigalg_matches(back,
		    "sk-ssh-ed25519-cert-v01@openssh.com"));
		CHECK(!cert_sigalg_matches(back,
		    "ssh-ed25519-cert-v01@openssh.com"));
	}
	CHECK_STR(cert_sigalg_base("webauthn-sk-ecdsa-sha2-nistp256-cert-v01"
	    "@openssh.com"), WEBAUTHN);
	key_free(k);
 out:
	cert_free(c);
	cert_free(back);
	sbuf_free(b);
	key_free(ca);
	key_free(plain);
}

int
main(void)
{
	test_fixtures();
	test_sshsig_fixtures();
	test_crafted(KEY_ED25519);
	test_crafted(KEY_ECDSA);
	test_webauthn();
	test_cert();
	return TEST_DONE();
}
