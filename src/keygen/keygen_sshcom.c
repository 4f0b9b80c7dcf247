/*
 * keygen_sshcom.c: the private keys of ssh.com's SSH2 implementation,
 * "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----" files, for ssh-keygen -i,
 * which prints them as a PEM private key as OpenSSH does.
 *
 * Between the armour lines, the base64 of
 *	uint32 0x3f6ff9eb, uint32 total length, string key type,
 *	string cipher, string (string payload, then padding)
 * where an RSA key's type is "if-modn{sign{rsa-pkcs1-sha1},encrypt{rsa-
 * pkcs1v2-oaep}}" and its payload holds e, d, n, iqmp, q and p, each an
 * ssh.com integer: uint32 bit count, then that many bits, big-endian,
 * in whole bytes. Only unencrypted keys (cipher "none") are read, as by
 * OpenSSH; DSA keys are not, as moat has none. Messages are OpenSSH's;
 * bytes left over after the integers are reported but do no harm.
 */
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "key_int.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

#define SSHCOM_MAGIC	0x3f6ff9eb
#define SSHCOM_RSA \
	"if-modn{sign{rsa-pkcs1-sha1},encrypt{rsa-pkcs1v2-oaep}}"
#define CONV_FAILED	"do_convert_from_ssh2: private key conversion failed"

static void
incomplete(const char *where)
{
	kg_error("%s: %s", where, err_str(ERR_MESSAGE_INCOMPLETE));
}

/*
 * One ssh.com integer from b as an SSH mpint into out: 0, or -1. A short
 * exponent (first) is told of as OpenSSH, which reads it on its own.
 */
static int
get_bits_int(struct sbuf *b, struct sbuf *out, int first)
{
	const unsigned char *p;
	uint32_t bits;
	size_t bytes;

	if (sbuf_get_u32(b, &bits) != 0) {
		incomplete(first ? "do_convert_private_ssh2: parse" :
		    "buffer_get_bignum_bits: parse");
		return -1;
	}
	bytes = ((size_t)bits + 7) / 8;
	if (bytes > sbuf_len(b) || (first && bytes == 0)) {
		if (first)
			incomplete("do_convert_private_ssh2: parse");
		else
			kg_error("buffer_get_bignum_bits: input buffer too "
			    "small: need %zu have %zu", bytes, sbuf_len(b));
		return -1;
	}
	p = sbuf_ptr(b);
	if (sbuf_put_mpint_bytes(out, p, bytes) != 0 ||
	    sbuf_consume(b, bytes) != 0)
		return -1;
	return 0;
}

/*
 * The RSA payload as an openssh-key-v1 private key body ("ssh-rsa", n,
 * e, d, iqmp, p, q), then the key. 0, or -1 (reported).
 */
static int
rsa_from_payload(struct sbuf *b, struct key **kp)
{
	struct sbuf *f[6], *body = sbuf_new();
	/* from e d n u q p to n e d u p q */
	static const int order[] = { 2, 0, 1, 3, 5, 4 };
	size_t i;
	int r = -1;

	for (i = 0; i < 6; i++)
		f[i] = sbuf_new();
	for (i = 0; i < 6; i++)
		if (get_bits_int(b, f[i], i == 0) != 0)
			goto out;
	if (sbuf_len(b) != 0)
		kg_error("do_convert_private_ssh2: remaining bytes in key blob "
		    "%zu", sbuf_len(b));
	if (sbuf_put_cstring(body, "ssh-rsa") != 0)
		goto out;
	for (i = 0; i < 6; i++)
		if (sbuf_putb(body, f[order[i]]) != 0)
			goto out;
	if (key_private_from_sbuf(body, kp) != 0) {
		kg_error(CONV_FAILED);
		goto out;
	}
	r = 0;
 out:
	for (i = 0; i < 6; i++)
		sbuf_free(f[i]);
	sbuf_free(body);
	return r;
}

/* Check the blob's frame; on success b is left at the payload. */
static int
read_frame(struct sbuf *b, int *rsa)
{
	char *type = NULL, *cipher = NULL;
	uint32_t magic, total, inner;
	int r = -1;

	if (sbuf_get_u32(b, &magic) != 0) {
		incomplete("do_convert_private_ssh2: parse magic");
		return -1;
	}
	if (magic != SSHCOM_MAGIC) {
		kg_error("bad magic 0x%x != 0x%x", magic, SSHCOM_MAGIC);
		kg_error(CONV_FAILED);
		return -1;
	}
	/* The total length is not checked, as OpenSSH does not. */
	if (sbuf_get_u32(b, &total) != 0 ||
	    sbuf_get_cstring(b, &type, NULL) != 0 ||
	    sbuf_get_cstring(b, &cipher, NULL) != 0 ||
	    sbuf_get_u32(b, &inner) != 0) {
		incomplete("do_convert_private_ssh2: parse");
		goto out;
	}
	if (strcmp(cipher, "none") != 0) {
		kg_error("unsupported cipher %s", cipher);
		kg_error(CONV_FAILED);
		goto out;
	}
	*rsa = strcmp(type, SSHCOM_RSA) == 0;
	if (!*rsa) {
		kg_error(CONV_FAILED);
		goto out;
	}
	/* Inside: a string whose length the integers make up for. */
	if (sbuf_get_u32(b, &inner) != 0) {
		incomplete("do_convert_private_ssh2: parse");
		goto out;
	}
	r = 0;
 out:
	x_free(type);
	x_free(cipher);
	return r;
}

int
kg_import_sshcom(const struct sbuf *blob)
{
	struct sbuf *b = sbuf_new(), *pem = sbuf_new();
	struct key *k = NULL;
	int rsa = 0, r = 255;

	if (sbuf_putb(b, blob) != 0 || read_frame(b, &rsa) != 0 ||
	    rsa_from_payload(b, &k) != 0)
		goto out;
	if (key_serialize_pem(k, NULL, 0, pem) != 0) {
		kg_error("key write failed");
		goto out;
	}
	fwrite(sbuf_ptr(pem), 1, sbuf_len(pem), stdout);
	r = 0;
 out:
	key_free(k);
	sbuf_free(b);
	sbuf_free(pem);
	return r;
}
