/*
 * fuzz_sshsig.c: the SSH signature parsers (signature files and allowed
 * signers files are whatever a user is handed: git reads both for every
 * signed commit it shows). The first byte picks what the rest is fed to:
 *   0  an armored signature (sshsig_dearmor), then the blob inside as 1
 *   1  a signature blob (sshsig_parse, whole and key only); one that
 *      parses is checked against a fixed message, and must survive being
 *      encoded and armored again unchanged in every field
 *   2  an allowed signers file, line by line as ssh-keygen reads it, each
 *      line parsed with and without a principal to look for, and checked
 *      against a fixed signer: a plain ed25519 key and a certificate of
 *      it (principals alice and bob, from a fixed CA)
 *   3  a time as allowed signers options and -O verify-time write it
 * The seeds (tests/fuzz/corpus/fuzz_sshsig) use these fixed keys, made by
 * ssh-keygen (test data, not secrets), and signatures by them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include "allowed_signers.h"
#include "cert.h"
#include "err.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "sshsig.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)
#define NOW		1700000000ull

static const char signer_text[] =
	"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBLnQUXq5IMuFSfCOowbtvjpAVNQs5WnI"
	"VVfZqlD9nVQ fixture";
/* The key above signed by the CA "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG0
 * qdDHDnpr6v0oYgL3VYLxJcBsR544CLuJ/cBhCYU9q fuzzca". */
static const char cert_text[] =
	"ssh-ed25519-cert-v01@openssh.com AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9w"
	"ZW5zc2guY29tAAAAIAZ8CL1G7lf8igcgLx+S8P88EK+wrg7bykRuTzh+xHwYAAAAIBLnQU"
	"Xq5IMuFSfCOowbtvjpAVNQs5WnIVVfZqlD9nVQAAAAAAAAAAMAAAABAAAACGZ1enpjZXJ0"
	"AAAAEAAAAAVhbGljZQAAAANib2IAAAAAAAAAAP//////////AAAAAAAAAIIAAAAVcGVybW"
	"l0LVgxMS1mb3J3YXJkaW5nAAAAAAAAABdwZXJtaXQtYWdlbnQtZm9yd2FyZGluZwAAAAAA"
	"AAAWcGVybWl0LXBvcnQtZm9yd2FyZGluZwAAAAAAAAAKcGVybWl0LXB0eQAAAAAAAAAOcG"
	"VybWl0LXVzZXItcmMAAAAAAAAAAAAAADMAAAALc3NoLWVkMjU1MTkAAAAgbSp0McOemvq/"
	"ShiAvdVgvElwGxHnjgIu4n9wGEJhT2oAAABTAAAAC3NzaC1lZDI1NTE5AAAAQAAweiZxvP"
	"pT9fT6PgCrVHS7URGGt7qFFEmqFyS/rokOK2JqyncIB65y0VfZxzYUHAGs5Zloj8nPsMhf"
	"msnTZgk= fixture";
static const char message[] = "fuzz message\n";

static struct key *signer;
static struct key_cert *cert;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *cp = signer_text;

	(void)argc;
	(void)argv;
	REQUIRE(key_read_public_text(&cp, &signer) == 0);
	cp = cert_text;
	REQUIRE(cert_read_public_text(&cp, &cert) == 0);
	return 0;
}

/* The signer's blob, as a signature carries it. */
static struct sbuf *
signer_blob(const struct sshsig *s)
{
	struct sbuf *b = sbuf_new();

	REQUIRE((s->cert != NULL ? cert_to_blob(s->cert, b) :
	    key_to_blob(s->key, b)) == 0);
	return b;
}

/* Encoded and armored again, it must read back the same. */
static void
reencode(const struct sshsig *s)
{
	struct sbuf *kb = signer_blob(s), *blob = sbuf_new();
	struct sbuf *armored = sbuf_new(), *back = sbuf_new();
	struct sshsig *again = NULL;
	char why[SSHSIG_WHY_MAX];

	REQUIRE(sshsig_encode(sbuf_ptr(kb), sbuf_len(kb), s->ns, s->hashalg,
	    s->sig, s->siglen, blob) == 0);
	REQUIRE(sshsig_armor(blob, armored) == 0);
	REQUIRE(sshsig_dearmor(sbuf_ptr(armored), sbuf_len(armored), back,
	    why, sizeof(why)) == 0);
	REQUIRE(sbuf_equal(blob, back));
	REQUIRE(sshsig_parse(sbuf_ptr(back), sbuf_len(back), 0, &again, why,
	    sizeof(why)) == 0);
	REQUIRE(strcmp(again->ns, s->ns) == 0);
	REQUIRE(strcmp(again->hashalg, s->hashalg) == 0);
	REQUIRE(again->siglen == s->siglen &&
	    memcmp(again->sig, s->sig, s->siglen) == 0);
	REQUIRE(key_equal_public(again->key, s->key));
	REQUIRE((again->cert == NULL) == (s->cert == NULL));
	sshsig_free(again);
	sbuf_free(kb);
	sbuf_free(blob);
	sbuf_free(armored);
	sbuf_free(back);
}

static void
fuzz_blob(const uint8_t *data, size_t size)
{
	struct sshsig *s = NULL, *k = NULL;
	struct sbuf *h;
	char why[SSHSIG_WHY_MAX], *fp;
	int r;

	r = sshsig_parse(data, size, 1, &k, why, sizeof(why));
	REQUIRE((r == 0) == (k != NULL));
	if (k != NULL)
		REQUIRE(k->key != NULL && k->ns == NULL && k->sig == NULL);
	if (sshsig_parse(data, size, 0, &s, why, sizeof(why)) != 0) {
		REQUIRE(s == NULL);
		sshsig_free(k);
		return;
	}
	REQUIRE(k != NULL && key_equal_public(k->key, s->key));
	REQUIRE(s->ns != NULL && s->hashalg != NULL && s->sig != NULL);
	REQUIRE(sshsig_key_label(s) != NULL);
	fp = key_fingerprint(s->key, KEY_FP_SHA256);
	REQUIRE(fp != NULL);
	x_free(fp);
	if (sshsig_hashalg_ok(s->hashalg)) {
		h = sbuf_new();
		REQUIRE(sshsig_hash_mem(s->hashalg, message,
		    sizeof(message) - 1, h) == 0);
		(void)sshsig_verify(s, "git", sbuf_ptr(h), sbuf_len(h), why,
		    sizeof(why));
		sbuf_free(h);
	}
	reencode(s);
	sshsig_free(s);
	sshsig_free(k);
}

static void
fuzz_armor(const uint8_t *data, size_t size)
{
	struct sbuf *blob = sbuf_new();
	char why[SSHSIG_WHY_MAX];

	if (sshsig_dearmor(data, size, blob, why, sizeof(why)) == 0)
		fuzz_blob(sbuf_ptr(blob), sbuf_len(blob));
	else
		REQUIRE(why[0] != '\0');
	sbuf_free(blob);
}

/* One parsed line against both signers, as verify and find do. */
static void
check_line(const struct allowed_signer *as, const char *principal)
{
	static const char *const nss[] = { "git", NULL };
	char why[256], *granted;
	size_t i;
	int r;

	for (i = 0; i < 2; i++) {
		granted = NULL;
		r = allowed_signer_check(as, signer, NULL, principal, nss[i],
		    NOW, &granted, why, sizeof(why));
		REQUIRE(r == 0 || r == ERR_NOT_FOUND ||
		    r == ERR_PERMISSION_DENIED);
		REQUIRE((r == 0) == (granted != NULL));
		x_free(granted);
		granted = NULL;
		r = allowed_signer_check(as, cert->key, cert, principal,
		    nss[i], NOW, &granted, why, sizeof(why));
		REQUIRE(r == 0 || r == ERR_NOT_FOUND ||
		    r == ERR_PERMISSION_DENIED);
		REQUIRE((r == 0) == (granted != NULL));
		if (r == ERR_PERMISSION_DENIED)
			REQUIRE(why[0] != '\0');
		x_free(granted);
	}
}

/* One line, looked at for anyone and for alice. */
static void
fuzz_line(const char *line)
{
	static const char *const principals[] = { NULL, "alice" };
	struct allowed_signer as;
	const char *why;
	size_t i;
	int r;

	for (i = 0; i < 2; i++) {
		r = allowed_signer_parse(line, principals[i], &as, &why);
		REQUIRE(r == 0 || r == ERR_NOT_FOUND ||
		    (r == ERR_INVALID_FORMAT && why != NULL));
		if (r == 0) {
			REQUIRE(as.principals != NULL);
			REQUIRE((as.key == NULL) != (as.cert == NULL));
			check_line(&as, principals[i]);
		}
		allowed_signer_clear(&as);
	}
}

static void
fuzz_allowed(const uint8_t *data, size_t size)
{
	char *text = x_strndup((const char *)data, size), *line, *next, *one;

	/* Lines keep their newline, as getline() hands them over. */
	for (line = text; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? next + 1 : line + strlen(line);
		one = x_strndup(line, (size_t)(next - line));
		fuzz_line(one);
		x_free(one);
	}
	x_free(text);
}

static void
fuzz_time(const uint8_t *data, size_t size)
{
	char *s = x_strndup((const char *)data, size), buf[64];
	uint64_t t;

	if (allowed_signer_parse_time(s, &t) == 0)
		allowed_signer_format_time(t, buf, sizeof(buf));
	x_free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] & 3) {
	case 0:
		fuzz_armor(data + 1, size - 1);
		break;
	case 1:
		fuzz_blob(data + 1, size - 1);
		break;
	case 2:
		fuzz_allowed(data + 1, size - 1);
		break;
	default:
		fuzz_time(data + 1, size - 1);
		break;
	}
	/* libcrypto's queued errors would count as leaks between inputs. */
	ERR_clear_error();
	return 0;
}
