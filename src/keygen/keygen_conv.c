/*
 * keygen_conv.c: ssh-keygen -e (export an OpenSSH key in another format)
 * and -i (import one), selected by -m: RFC4716 (the default; the SSH2
 * public key file of RFC 4716), PKCS8 (a SubjectPublicKeyInfo "PUBLIC
 * KEY" PEM) or PEM (for RSA the PKCS#1 "RSA PUBLIC KEY"; for ECDSA the
 * SubjectPublicKeyInfo form, as OpenSSH writes). Output goes to stdout.
 *
 * Export reads a public key, a certificate (RFC4716 only) or a private
 * key (its public half). The PEM forms come from libcrypto's encoders;
 * Ed25519 keys have no PEM export, as in OpenSSH. Import prints the key
 * as one OpenSSH public key line.
 */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>

#include "cert.h"
#include "err.h"
#include "key.h"
#include "key_int.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

#define FATAL	255

/* -m's names; "ssh2" is OpenSSH's other name for RFC4716. */
static const struct {
	const char *name;
	enum kg_fmt fmt;
} conv_fmts[] = {
	{ "RFC4716", KG_FMT_RFC4716 },
	{ "ssh2", KG_FMT_RFC4716 },
	{ "PKCS8", KG_FMT_PKCS8 },
	{ "PEM", KG_FMT_PEM },
};

/* Upper-case type names as OpenSSH prints them in the Comment header. */
static const struct {
	enum key_type type;
	const char *name;
} conv_type_names[] = {
	{ KEY_ED25519, "ED25519" },
	{ KEY_ECDSA, "ECDSA" },
	{ KEY_RSA, "RSA" },
	{ KEY_ED25519_SK, "ED25519-SK" },
	{ KEY_ECDSA_SK, "ECDSA-SK" },
};

int
kg_format(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(conv_fmts) / sizeof(conv_fmts[0]); i++)
		if (strcasecmp(name, conv_fmts[i].name) == 0)
			return (int)conv_fmts[i].fmt;
	return -1;
}

enum key_file_format
kg_private_format(const struct kg_opts *o)
{
	switch (o->format != NULL ? kg_format(o->format) : KG_FMT_RFC4716) {
	case KG_FMT_PEM:
		return KEY_FILE_PEM;
	case KG_FMT_PKCS8:
		return KEY_FILE_PKCS8;
	default:
		return KEY_FILE_OPENSSH;
	}
}

/* main() has refused names kg_format() does not know. */
static enum kg_fmt
conv_format(const struct kg_opts *o)
{
	return o->format != NULL ? (enum kg_fmt)kg_format(o->format) :
	    KG_FMT_RFC4716;
}

static const char *
upper_type(const struct key *k)
{
	size_t i;

	for (i = 0; i < sizeof(conv_type_names) / sizeof(conv_type_names[0]);
	    i++)
		if (conv_type_names[i].type == k->type)
			return conv_type_names[i].name;
	return "UNKNOWN";
}

static int
export_rfc4716(const struct key *k, const struct key_cert *c)
{
	struct sbuf *b = sbuf_new();
	struct passwd *pw = getpwuid(getuid());
	char host[256], *b64;
	int r;

	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	r = c != NULL ? cert_to_blob(c, b) : key_to_blob(k, b);
	if (r != 0) {
		sbuf_free(b);
		return FATAL;
	}
	b64 = sbuf_to_b64(b, 1);
	printf("---- BEGIN SSH2 PUBLIC KEY ----\n");
	printf("Comment: \"%u-bit %s%s, converted by %s@%s from OpenSSH\"\n",
	    key_bits(k), upper_type(k), c != NULL ? "-CERT" : "",
	    pw != NULL ? pw->pw_name : "unknown", host);
	printf("%s\n---- END SSH2 PUBLIC KEY ----\n", b64);
	x_free(b64);
	sbuf_free(b);
	return 0;
}

static int
export_pem(const struct key *k, enum kg_fmt fmt)
{
	OSSL_ENCODER_CTX *ectx;
	const char *structure = "SubjectPublicKeyInfo";
	BIO *bio;
	char *p;
	long n;
	int ok;

	if (k->type != KEY_ECDSA && k->type != KEY_RSA) {
		fprintf(stderr, "do_convert_to_%s: unsupported key type "
		    "%s\n", fmt == KG_FMT_PEM ? "pem" : "pkcs8",
		    upper_type(k));
		return FATAL;
	}
	if (fmt == KG_FMT_PEM && k->type == KEY_RSA)
		structure = "type-specific";
	if ((bio = BIO_new(BIO_s_mem())) == NULL)
		return FATAL;
	ectx = OSSL_ENCODER_CTX_new_for_pkey(k->pkey,
	    OSSL_KEYMGMT_SELECT_PUBLIC_KEY, "PEM", structure, NULL);
	ok = ectx != NULL && OSSL_ENCODER_to_bio(ectx, bio) == 1;
	OSSL_ENCODER_CTX_free(ectx);
	if (ok && (n = BIO_get_mem_data(bio, &p)) > 0)
		fwrite(p, 1, (size_t)n, stdout);
	else
		fprintf(stderr, "PEM export failed\n");
	BIO_free(bio);
	return ok ? 0 : FATAL;
}

int
kg_export(struct kg_opts *o)
{
	struct key_cert *cert = NULL;
	struct key *k = NULL;
	enum kg_fmt fmt = conv_format(o);
	int ret;


	if (kg_stat_file(o, kg_need_file(o, "Enter file in which the key "
	    "is")) != 0)
		return FATAL;
	if (cert_load_public(o->file, &cert, NULL) != 0 &&
	    key_load_public(o->file, &k, NULL) != 0 &&
	    key_load_private_public(o->file, &k) != 0 &&
	    kg_load_private(o->file, o->old_pass, &k, NULL, 1) != 0)
		return FATAL;
	/* The PEM forms of a certificate hold its plain key. */
	if (fmt == KG_FMT_RFC4716)
		ret = export_rfc4716(cert != NULL ? cert->key : k, cert);
	else
		ret = export_pem(cert != NULL ? cert->key : k, fmt);
	key_free(k);
	cert_free(cert);
	return ret;
}

/*
 * The base64 of an RFC 4716 file (or of ssh.com's private key file) as
 * OpenSSH reads it: every line up to the END line that is neither an
 * armour line ("----") nor a header ("Tag: value", continued by a
 * trailing '\'). *privatep: the BEGIN line was a private key's.
 */
static int
import_rfc4716(const char *text, struct sbuf *blob, int *privatep)
{
	char *copy = x_strdup(text), *line, *next, *end, *body;
	int cont = 0, r;
	size_t blen = 0;

	*privatep = 0;
	body = x_calloc(1, strlen(text) + 1);
	for (line = copy; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		end = line + strlen(line);
		while (end > line && isspace((unsigned char)end[-1]))
			*--end = '\0';
		if (strncmp(line, "----", 4) == 0 ||
		    strchr(line, ':') != NULL) {
			if (strstr(line, "BEGIN SSH2 ENCRYPTED PRIVATE KEY"))
				*privatep = 1;
			if (strstr(line, " END ") != NULL)
				break;
			cont = end > line && end[-1] == '\\';
			continue;
		}
		if (cont) {
			cont = end > line && end[-1] == '\\';
			continue;
		}
		memcpy(body + blen, line, (size_t)(end - line));
		blen += (size_t)(end - line);
	}
	r = sbuf_b64_decode(blob, body);
	x_free(body);
	x_free(copy);
	return r;
}

static int
import_pem(const char *text, size_t len, enum kg_fmt fmt, struct key **kp)
{
	OSSL_DECODER_CTX *dctx;
	EVP_PKEY *pkey = NULL;
	const unsigned char *p = (const unsigned char *)text;
	size_t left = len;
	int ok;

	/* PEM means the raw PKCS#1 RSA form only, as OpenSSH reads it. */
	if (fmt == KG_FMT_PEM && strstr(text, "-----BEGIN RSA PUBLIC KEY-----")
	    == NULL)
		return ERR_INVALID_FORMAT;
	dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, "PEM",
	    fmt == KG_FMT_PEM ? "type-specific" : NULL,
	    fmt == KG_FMT_PEM ? "RSA" : NULL, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
	    NULL, NULL);
	ok = dctx != NULL && OSSL_DECODER_from_data(dctx, &p, &left) == 1;
	OSSL_DECODER_CTX_free(dctx);
	if (!ok || pkey == NULL) {
		EVP_PKEY_free(pkey);
		return ERR_INVALID_FORMAT;
	}
	return key_from_pkey(pkey, 0, kp);
}

int
kg_import(struct kg_opts *o)
{
	struct key_cert *cert = NULL;
	struct sbuf *blob = NULL;
	struct key *k = NULL;
	enum kg_fmt fmt;
	char *text = NULL, *line = NULL;
	size_t len;
	int r, ret, private = 0;

	fmt = conv_format(o);
	if (kg_stat_file(o, kg_need_file(o, "Enter file in which the key "
	    "is")) != 0)
		return FATAL;
	if (kg_read_file(o->file, &text, &len) != 0) {
		kg_error("%s: %s: %s", o->prog, o->file, strerror(errno));
		return FATAL;
	}
	if (fmt == KG_FMT_RFC4716) {
		blob = sbuf_new();
		if ((r = import_rfc4716(text, blob, &private)) != 0)
			kg_error("do_convert_from_ssh2: base64 decode: %s",
			    err_str(r));
		else if (private) {
			ret = kg_import_sshcom(blob);
			goto out;
		} else if ((r = key_from_blob(sbuf_ptr(blob), sbuf_len(blob),
		    &k)) != 0) {
			if (cert_from_blob(sbuf_ptr(blob), sbuf_len(blob),
			    &cert) == 0)
				r = 0;
			else	/* OpenSSH names no finer reason */
				kg_error("do_convert_from_ssh2: parse key: %s",
				    err_str(r == ERR_KEY_TYPE_UNKNOWN ? r :
				    ERR_INVALID_FORMAT));
		}
	} else if ((r = import_pem(text, len, fmt, &k)) != 0)
		kg_error("do_convert_from_%s: unrecognised key format",
		    fmt == KG_FMT_PEM ? "pem" : "pkcs8");
	if (r == 0) {
		line = cert != NULL ? cert_public_text(cert) :
		    key_public_text(k);
		printf("%s\n", line);
	}
	ret = r == 0 ? 0 : FATAL;
 out:
	x_free(line);
	x_free(text);
	sbuf_free(blob);
	key_free(k);
	cert_free(cert);
	return ret;
}
