/*
 * types.c: the key types ssh-keyscan asks for, as a table: the names -t
 * takes for each, the host key algorithms a connection for it offers
 * (plain, or certificates with -c), and the SSHFP number of its keys.
 *
 * The transport verifies the exchange signature for RSA, ECDSA and
 * Ed25519 keys and their certificates. DSA and security-key host keys
 * are only taken apart here, enough to be sure the blob is one such key
 * before it is printed as it came, as OpenSSH's ssh-keyscan prints
 * every key.
 */
#include <strings.h>
#include <string.h>

#include "cert.h"
#include "err.h"
#include "keyscan.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"

static const struct ks_typeinfo {
	const char *shortname;		/* -t, any case */
	const char *names[3];		/* -t, exactly (and signatures) */
	const char *algs;		/* offered for plain keys */
	const char *cert_algs;		/* offered with -c */
} types[KS_NTYPES] = {
	[KS_DSA] = { "dsa", { "ssh-dss" }, "ssh-dss",
	    "ssh-dss-cert-v01@openssh.com" },
	[KS_RSA] = { "rsa", { "ssh-rsa", "rsa-sha2-256", "rsa-sha2-512" },
	    "rsa-sha2-512,rsa-sha2-256,ssh-rsa",
	    "rsa-sha2-512-cert-v01@openssh.com,"
	    "rsa-sha2-256-cert-v01@openssh.com,"
	    "ssh-rsa-cert-v01@openssh.com" },
	[KS_ECDSA] = { "ecdsa", { "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521" },
	    "ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521",
	    "ecdsa-sha2-nistp256-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp384-cert-v01@openssh.com,"
	    "ecdsa-sha2-nistp521-cert-v01@openssh.com" },
	[KS_ED25519] = { "ed25519", { "ssh-ed25519" }, "ssh-ed25519",
	    "ssh-ed25519-cert-v01@openssh.com" },
	[KS_ECDSA_SK] = { "ecdsa-sk", { "sk-ecdsa-sha2-nistp256@openssh.com",
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com" },
	    "sk-ecdsa-sha2-nistp256@openssh.com",
	    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com" },
	[KS_ED25519_SK] = { "ed25519-sk", { "sk-ssh-ed25519@openssh.com" },
	    "sk-ssh-ed25519@openssh.com",
	    "sk-ssh-ed25519-cert-v01@openssh.com" },
};

int
ks_type_from_name(const char *name)
{
	size_t i, j;

	for (i = 0; i < KS_NTYPES; i++) {
		if (strcasecmp(name, types[i].shortname) == 0)
			return (int)i;
		for (j = 0; j < 3 && types[i].names[j] != NULL; j++)
			if (strcmp(name, types[i].names[j]) == 0)
				return (int)i;
	}
	return -1;
}

const char *
ks_type_algs(enum ks_type type, int certs)
{
	return certs ? types[type].cert_algs : types[type].algs;
}

int
ks_alg_verifiable(const char *alg)
{
	enum key_type kt;
	int nid;

	return cert_sigalg_base(alg) != NULL ||
	    key_type_from_name(alg, &kt, &nid) == 0;
}

char *
ks_blob_type(const unsigned char *blob, size_t len)
{
	struct sbuf *b = sbuf_from(blob, len);
	char *name = NULL;

	if (sbuf_get_cstring(b, &name, NULL) != 0)
		name = NULL;
	sbuf_free(b);
	return name;
}

/*
 * The fields after the type name of the keys checked here (RFC 4253
 * section 6.6, PROTOCOL.u2f): each a string, the first of an ECDSA
 * security key naming its curve, an Ed25519 one's first 32 bytes.
 */
static int
fields_check(const char *type, struct sbuf *b)
{
	const unsigned char *v;
	size_t vlen, i, n;
	int r;

	if (strcmp(type, "ssh-dss") == 0)
		n = 4;			/* p, q, g, y */
	else if (strcmp(type, "sk-ecdsa-sha2-nistp256@openssh.com") == 0)
		n = 3;			/* curve, Q, application */
	else if (strcmp(type, "sk-ssh-ed25519@openssh.com") == 0)
		n = 2;			/* key, application */
	else
		return 0;	/* a certificate: its type name is enough */
	for (i = 0; i < n; i++) {
		if ((r = sbuf_get_string_direct(b, &v, &vlen)) != 0)
			return r;
		if (i == 0 && n == 3 && (vlen != 8 ||
		    memcmp(v, "nistp256", 8) != 0))
			return ERR_KEY_INVALID;
		if (i == 0 && n == 2 && vlen != 32)
			return ERR_KEY_INVALID;
	}
	return sbuf_len(b) == 0 ? 0 : ERR_INVALID_FORMAT;
}

int
ks_blob_check(const char *alg, const unsigned char *blob, size_t len)
{
	struct sbuf *b = sbuf_from(blob, len);
	char *type = NULL;
	int r;

	/* These algorithms are named after their key types. */
	if ((r = sbuf_get_cstring(b, &type, NULL)) == 0)
		r = strcmp(type, alg) != 0 ? ERR_KEY_TYPE_MISMATCH :
		    fields_check(type, b);
	x_free(type);
	sbuf_free(b);
	return r;
}

int
ks_sshfp_alg(const char *keytype)
{
	if (strcmp(keytype, "ssh-rsa") == 0)
		return 1;
	if (strcmp(keytype, "ssh-dss") == 0)
		return 2;
	if (strcmp(keytype, "ecdsa-sha2-nistp256") == 0 ||
	    strcmp(keytype, "ecdsa-sha2-nistp384") == 0 ||
	    strcmp(keytype, "ecdsa-sha2-nistp521") == 0)
		return 3;
	if (strcmp(keytype, "ssh-ed25519") == 0)
		return 4;
	return 0;
}
