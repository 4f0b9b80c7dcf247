/*
 * test_allowed_signers.c: lines of an allowed signers file: the fields,
 * quoting and options OpenSSH reads, with its messages for bad lines;
 * times; and which signers a line lets sign, for whom, in which
 * namespace and when: plain keys, certificates under a cert-authority
 * line, a certificate listed itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowed_signers.h"
#include "cert.h"
#include "key.h"
#include "mem.h"
#include "testlib.h"

#define T2030	1893456000ull	/* 2030-01-01T00:00:00Z */
#define NOW	1700000000ull	/* 2023-11-14 */
#define WHYLEN	256

static struct key *signer, *other, *ca;

/* Parse line tmpl, its "%s" replaced by a key's text; *whyp as given. */
static int
parse_with(const char *tmpl, const char *keytext, const char *principal,
    struct allowed_signer *as, const char **whyp)
{
	const char *at = strstr(tmpl, "%s");
	char *line = at == NULL ? x_strdup(tmpl) : x_asprintf("%.*s%s%s",
	    (int)(at - tmpl), tmpl, keytext, at + 2);
	int r;

	r = allowed_signer_parse(line, principal, as, whyp);
	x_free(line);
	return r;
}

static void
test_bad_lines(const char *kt)
{
	static const struct { const char *fmt, *why; } cases[] = {
		{ "me@x", "invalid line" },
		{ "\"me@x %s\n", "invalid line" },
		{ "   \n", "missing key" },
		{ "\r\n", "missing key" },
		{ "me@x\n", "missing key" },
		{ "me@x namespaces=\"git\"\n", "missing key" },
		{ "me@x opts notakey\n", "invalid key" },
		{ "me@x foo %s\n", "bad options: unknown key option" },
		{ "me@x Cert-Authority=1 %s",
		    "bad options: unknown key option" },
		{ "\"q w\",x@y %s", "bad options: unknown key option" },
		{ "me@x valid-before=20200101 %s",
		    "bad options: missing start quote" },
		{ "me@x namespaces=\"a %s", "invalid options" },
		{ "me@x cert-authority, %s",
		    "bad options: unexpected end-of-options" },
		{ "me@x namespaces=\"a\",namespaces=\"b\" %s",
		    "bad options: multiple \"namespaces\" clauses" },
		{ "me@x valid-after=\"2030\" %s",
		    "bad options: invalid \"valid-after\" time" },
		{ "me@x valid-before=\"19700101000000Z\" %s",
		    "bad options: invalid \"valid-before\" time" },
		{ "me@x valid-after=\"20300101\",valid-before=\"20200101\" %s",
		    "bad options: \"valid-before\" time is before "
		    "\"valid-after\"" },
	};
	struct allowed_signer as;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_ERR(parse_with(cases[i].fmt, kt, NULL, &as, &why),
		    ERR_INVALID_FORMAT);
		CHECK_STR(why, cases[i].why);
		CHECK(as.principals == NULL && as.key == NULL);
	}
	/* Comments and empty lines are nothing; so are others' lines. */
	CHECK_ERR(allowed_signer_parse("", NULL, &as, &why), ERR_NOT_FOUND);
	CHECK_ERR(allowed_signer_parse("  # me@x\n", NULL, &as, &why),
	    ERR_NOT_FOUND);
	CHECK_ERR(parse_with("you@y %s", kt, "me@x", &as, &why),
	    ERR_NOT_FOUND);
	CHECK_ERR(allowed_signer_parse("you@y garbage\n", "me@x", &as, &why),
	    ERR_NOT_FOUND);
	CHECK_ERR(parse_with("!me@x,* %s", kt, "me@x", &as, &why),
	    ERR_NOT_FOUND);
}

static void
test_good_lines(const char *kt)
{
	struct allowed_signer as;
	const char *why;

	CHECK_OK(parse_with("  me@x\t%s comment\r\n", kt, "me@x", &as, &why));
	CHECK_STR(as.principals, "me@x");
	CHECK(as.key != NULL && key_equal_public(as.key, signer));
	CHECK(!as.cert_authority && as.namespaces == NULL);
	allowed_signer_clear(&as);

	CHECK_OK(parse_with("a,b* CERT-AUTHORITY,Namespaces=\"git,f\\\"x\","
	    "valid-after=\"20300101Z\",valid-before=\"203001011200UTC\" %s",
	    kt, "bob", &as, &why));
	CHECK_STR(as.principals, "a,b*");
	CHECK(as.cert_authority);
	CHECK_STR(as.namespaces, "git,f\"x");
	CHECK(as.valid_after == T2030 && as.valid_before == T2030 + 43200);
	allowed_signer_clear(&as);

	/* Quotes: around the field, or opened inside it. */
	CHECK_OK(parse_with("\"q w,x@y\" %s", kt, "q w", &as, &why));
	CHECK_STR(as.principals, "q w,x@y");
	allowed_signer_clear(&as);
	CHECK_OK(parse_with("a\"b c\"  %s", kt, NULL, &as, &why));
	CHECK_STR(as.principals, "ab c");
	allowed_signer_clear(&as);
	/* An empty option before the first is passed over, as OpenSSH does. */
	CHECK_OK(parse_with("me@x ,cert-authority %s", kt, NULL, &as, &why));
	CHECK(as.cert_authority);
	allowed_signer_clear(&as);
}

static void
test_times(void)
{
	static const char *const bad[] = {
		"", "2030", "2030010", "2030010a", "20301301", "20300132",
		"203001012400", "203001010060", "Z", "UTC", "20300101ZZ",
		"20300101 ", "+20300101",
	};
	uint64_t t;
	size_t i;

	CHECK(allowed_signer_parse_time("20300101Z", &t) == 0 && t == T2030);
	CHECK(allowed_signer_parse_time("203001010001utc", &t) == 0 &&
	    t == T2030 + 60);
	CHECK(allowed_signer_parse_time("20300101000001z", &t) == 0 &&
	    t == T2030 + 1);
	CHECK(allowed_signer_parse_time("20300101", &t) == 0 && t != 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(allowed_signer_parse_time(bad[i], &t) ==
		    ERR_INVALID_FORMAT);
}

/* Check a line (formatted with key text kt) against a signer. */
static int
check_line(const char *fmt, const char *kt, const struct key *k,
    const struct key_cert *c, const char *principal, const char *ns,
    uint64_t now, char **granted, char *why)
{
	struct allowed_signer as;
	const char *pwhy;
	int r;

	if ((r = parse_with(fmt, kt, principal, &as, &pwhy)) != 0)
		return r;
	r = allowed_signer_check(&as, k, c, principal, ns, now, granted,
	    why, WHYLEN);
	allowed_signer_clear(&as);
	return r;
}

static void
test_plain_checks(const char *kt)
{
	char why[WHYLEN], *g = NULL;

	CHECK_OK(check_line("me@x,you %s", kt, signer, NULL, "me@x", "git",
	    NOW, &g, why));
	CHECK_STR(g, "me@x,you");
	x_free(g);
	CHECK_ERR(check_line("me@x %s", kt, other, NULL, "me@x", "git", NOW,
	    NULL, why), ERR_NOT_FOUND);
	/* A cert-authority line is not for the CA's own signatures. */
	CHECK_ERR(check_line("me@x cert-authority %s", kt, signer, NULL,
	    "me@x", "git", NOW, NULL, why), ERR_NOT_FOUND);
	CHECK_ERR(check_line("me@x namespaces=\"file,mail\" %s", kt, signer,
	    NULL, "me@x", "git", NOW, NULL, why), ERR_PERMISSION_DENIED);
	CHECK_STR(why, "key is not permitted for use in signature namespace "
	    "\"git\"");
	CHECK_OK(check_line("me@x namespaces=\"file,g*\" %s", kt, signer,
	    NULL, "me@x", "git", NOW, NULL, why));
	/* find-principals: no namespace to check. */
	CHECK_OK(check_line("me@x namespaces=\"file\" %s", kt, signer, NULL,
	    NULL, NULL, NOW, NULL, why));
	CHECK_ERR(check_line("me@x valid-before=\"20200101Z\" %s", kt,
	    signer, NULL, "me@x", "git", NOW, NULL, why),
	    ERR_PERMISSION_DENIED);
	CHECK(strncmp(why, "key has expired: verify time ", 29) == 0);
	CHECK_ERR(check_line("me@x valid-after=\"20300101Z\" %s", kt,
	    signer, NULL, NULL, NULL, NOW, NULL, why), ERR_PERMISSION_DENIED);
	CHECK(strncmp(why, "key is not yet valid: verify time ", 34) == 0);
	CHECK_OK(check_line("me@x valid-after=\"20300101Z\" %s", kt, signer,
	    NULL, "me@x", "git", T2030, NULL, why));
}

static struct key_cert *
user_cert(uint64_t after, uint64_t before)
{
	struct key_cert *c = NULL;

	CHECK_OK(cert_new(signer, CERT_TYPE_USER, &c));
	CHECK_OK(cert_add_principal(c, "alice"));
	CHECK_OK(cert_add_principal(c, "bob"));
	c->valid_after = after;
	c->valid_before = before;
	CHECK_OK(cert_sign(c, ca, NULL));
	return c;
}

static void
test_cert_checks(const char *kt, const char *cakt)
{
	struct key_cert *c = user_cert(0, CERT_FOREVER);
	struct key_cert *old = user_cert(0, NOW - 1);
	char why[WHYLEN], *g = NULL, *ct = cert_public_text(c);

	CHECK_OK(check_line("alice,carol cert-authority %s", cakt, c->key, c,
	    "alice", "git", NOW, NULL, why));
	CHECK_ERR(check_line("alice,carol cert-authority %s", cakt, c->key,
	    c, "carol", "git", NOW, NULL, why), ERR_PERMISSION_DENIED);
	CHECK_STR(why, "certificate not authorized: Certificate invalid: "
	    "name is not a listed principal");
	CHECK_ERR(check_line("alice cert-authority %s", cakt, old->key, old,
	    "alice", "git", NOW, NULL, why), ERR_PERMISSION_DENIED);
	CHECK_STR(why, "certificate not authorized: Certificate invalid: "
	    "expired");
	/* Who may it be? Those of its principals the patterns name. */
	CHECK_OK(check_line("b*,zed,alice cert-authority %s", cakt, c->key, c,
	    NULL, NULL, NOW, &g, why));
	CHECK_STR(g, "bob,alice");
	x_free(g);
	CHECK_ERR(check_line("zed cert-authority %s", cakt, c->key, c, NULL,
	    NULL, NOW, &g, why), ERR_PERMISSION_DENIED);
	CHECK_STR(why, "no valid principals found");
	CHECK_ERR(check_line("alice cert-authority %s", cakt, old->key, old,
	    NULL, NULL, NOW, &g, why), ERR_PERMISSION_DENIED);
	/* A certificate is not its plain key, nor its CA's plain line. */
	CHECK_ERR(check_line("alice %s", kt, c->key, c, "alice", "git", NOW,
	    NULL, why), ERR_NOT_FOUND);
	CHECK_ERR(check_line("alice %s", cakt, c->key, c, "alice", "git", NOW,
	    NULL, why), ERR_NOT_FOUND);
	/* A line may hold the very certificate. */
	CHECK_OK(check_line("alice %s", ct, c->key, c, "alice", "git", NOW,
	    NULL, why));
	CHECK_ERR(check_line("alice %s", ct, signer, NULL, "alice", "git",
	    NOW, NULL, why), ERR_NOT_FOUND);
	x_free(ct);
	cert_free(c);
	cert_free(old);
}

int
main(void)
{
	char *kt, *cakt;

	setenv("TZ", "UTC", 1);
	CHECK_OK(key_generate(KEY_ED25519, 0, &signer));
	CHECK_OK(key_generate(KEY_ECDSA, 256, &other));
	CHECK_OK(key_generate(KEY_ED25519, 0, &ca));
	kt = key_public_text(signer);
	cakt = key_public_text(ca);
	test_bad_lines(kt);
	test_good_lines(kt);
	test_times();
	test_plain_checks(kt);
	test_cert_checks(kt, cakt);
	x_free(kt);
	x_free(cakt);
	key_free(signer);
	key_free(other);
	key_free(ca);
	return TEST_DONE();
}
