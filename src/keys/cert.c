/*
 * cert.c: OpenSSH v01 certificates (see cert.h and PROTOCOL.certkeys).
 *
 * Wire form: string cert type, string nonce, the plain key's public
 * fields, uint64 serial, uint32 type, string key id, string principals
 * (packed strings), uint64 valid after, uint64 valid before, string
 * critical options, string extensions (each packed name/data string
 * pairs), string reserved, string CA key blob, string signature. The
 * signature covers every byte before its own string.
 *
 * The plain key's fields are read with key_public_from_sbuf() and
 * written by cutting the name off key_to_blob()'s output, so cert.c adds
 * nothing to the per-type key code.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "cert.h"
#include "err.h"
#include "key_int.h"
#include "mem.h"

static const struct {
	const char *plain;
	const char *cert;
} cert_types[] = {
	{ "ssh-ed25519", "ssh-ed25519-cert-v01@openssh.com" },
	{ "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256-cert-v01@openssh.com" },
	{ "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp384-cert-v01@openssh.com" },
	{ "ecdsa-sha2-nistp521", "ecdsa-sha2-nistp521-cert-v01@openssh.com" },
	{ "ssh-rsa", "ssh-rsa-cert-v01@openssh.com" },
	{ "sk-ssh-ed25519@openssh.com",
	    "sk-ssh-ed25519-cert-v01@openssh.com" },
	{ "sk-ecdsa-sha2-nistp256@openssh.com",
	    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com" },
};
#define NCERT_TYPES (sizeof(cert_types) / sizeof(cert_types[0]))

/*
 * Certificate signature algorithms (PROTOCOL.certkeys): the name used in
 * negotiation and userauth, the plain signature algorithm the subject
 * key signs with, and the certificate type on the wire. The RSA SHA-2
 * names carry an ssh-rsa-cert-v01 blob.
 */
static const struct {
	const char *name;
	const char *sigalg;
	const char *certtype;
} cert_sigalgs[] = {
	{ "ssh-ed25519-cert-v01@openssh.com", "ssh-ed25519",
	    "ssh-ed25519-cert-v01@openssh.com" },
	{ "ecdsa-sha2-nistp256-cert-v01@openssh.com", "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp256-cert-v01@openssh.com" },
	{ "ecdsa-sha2-nistp384-cert-v01@openssh.com", "ecdsa-sha2-nistp384",
	    "ecdsa-sha2-nistp384-cert-v01@openssh.com" },
	{ "ecdsa-sha2-nistp521-cert-v01@openssh.com", "ecdsa-sha2-nistp521",
	    "ecdsa-sha2-nistp521-cert-v01@openssh.com" },
	{ "rsa-sha2-512-cert-v01@openssh.com", "rsa-sha2-512",
	    "ssh-rsa-cert-v01@openssh.com" },
	{ "rsa-sha2-256-cert-v01@openssh.com", "rsa-sha2-256",
	    "ssh-rsa-cert-v01@openssh.com" },
	{ "ssh-rsa-cert-v01@openssh.com", "ssh-rsa",
	    "ssh-rsa-cert-v01@openssh.com" },
	{ "sk-ssh-ed25519-cert-v01@openssh.com", "sk-ssh-ed25519@openssh.com",
	    "sk-ssh-ed25519-cert-v01@openssh.com" },
	{ "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com",
	    "sk-ecdsa-sha2-nistp256@openssh.com",
	    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com" },
	{ "webauthn-sk-ecdsa-sha2-nistp256-cert-v01@openssh.com",
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com",
	    "sk-ecdsa-sha2-nistp256-cert-v01@openssh.com" },
};
#define NCERT_SIGALGS (sizeof(cert_sigalgs) / sizeof(cert_sigalgs[0]))

#define CERT_MAX_ITEMS	1024	/* principals or options */

const char *
cert_type_name(const struct key *k)
{
	const char *n = key_type_name(k);
	size_t i;

	for (i = 0; i < NCERT_TYPES; i++)
		if (strcmp(cert_types[i].plain, n) == 0)
			return cert_types[i].cert;
	return NULL;
}

static const char *
plain_of(const char *certname)
{
	size_t i;

	for (i = 0; i < NCERT_TYPES; i++)
		if (strcmp(cert_types[i].cert, certname) == 0)
			return cert_types[i].plain;
	return NULL;
}

int
cert_is_cert_name(const char *name)
{
	return name != NULL && plain_of(name) != NULL;
}

static void
free_options(struct cert_option *o, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		x_free(o[i].name);
		x_free(o[i].data);
	}
	x_free(o);
}

void
cert_free(struct key_cert *c)
{
	size_t i;

	if (c == NULL)
		return;
	key_free(c->key);
	key_free(c->ca_key);
	x_free(c->key_id);
	for (i = 0; i < c->nprincipals; i++)
		x_free(c->principals[i]);
	x_free(c->principals);
	free_options(c->critical, c->ncritical);
	free_options(c->extensions, c->nextensions);
	x_free(c->sig_alg);
	sbuf_free(c->blob);
	x_free(c);
}

/* Packed name/data pairs; names must be strictly ascending. */
static int
parse_options(const unsigned char *p, size_t len, struct cert_option **op,
    size_t *np)
{
	struct sbuf *b = sbuf_from(p, len);
	struct cert_option *o = NULL;
	char *name = NULL;
	unsigned char *data = NULL;
	size_t n = 0, dlen;
	int r = 0;

	*op = NULL;
	*np = 0;
	if (b == NULL)
		return ERR_ALLOC;
	while (sbuf_len(b) > 0) {
		if ((r = sbuf_get_cstring(b, &name, NULL)) != 0 ||
		    (r = sbuf_get_string(b, &data, &dlen)) != 0)
			goto out;
		if (n >= CERT_MAX_ITEMS ||
		    (n > 0 && strcmp(o[n - 1].name, name) >= 0)) {
			r = ERR_KEY_CERT_INVALID;
			goto out;
		}
		o = x_reallocarray(o, n + 1, sizeof(*o));
		o[n].name = name;
		o[n].data = data;
		o[n].len = dlen;
		n++;
		name = NULL;
		data = NULL;
	}
 out:
	x_free(name);
	x_free(data);
	sbuf_free(b);
	if (r != 0) {
		free_options(o, n);
		return r;
	}
	*op = o;
	*np = n;
	return 0;
}

static int
parse_principals(const unsigned char *p, size_t len, struct key_cert *c)
{
	struct sbuf *b = sbuf_from(p, len);
	char *s;
	int r = 0;

	if (b == NULL)
		return ERR_ALLOC;
	while (sbuf_len(b) > 0) {
		if ((r = sbuf_get_cstring(b, &s, NULL)) != 0)
			break;
		if (c->nprincipals >= CERT_MAX_ITEMS) {
			x_free(s);
			r = ERR_KEY_CERT_INVALID;
			break;
		}
		c->principals = x_reallocarray(c->principals,
		    c->nprincipals + 1, sizeof(char *));
		c->principals[c->nprincipals++] = s;
	}
	sbuf_free(b);
	return r;
}

int
cert_from_blob(const unsigned char *blob, size_t len, struct key_cert **certp)
{
	struct sbuf *b = NULL;
	struct key_cert *c = x_calloc(1, sizeof(*c));
	const struct keytype *kt;
	const unsigned char *nonce, *princ, *crit, *ext, *cablob, *sig;
	size_t nlen, plen, clen, elen, calen, siglen, signed_len;
	char *name = NULL;
	const char *plain;
	int r;

	*certp = NULL;
	if ((b = sbuf_from(blob, len)) == NULL) {
		r = ERR_ALLOC;
		goto out;
	}
	if ((r = sbuf_get_cstring(b, &name, NULL)) != 0)
		goto out;
	if ((plain = plain_of(name)) == NULL ||
	    (kt = keytype_by_name(plain)) == NULL) {
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	if ((r = sbuf_get_string_direct(b, &nonce, &nlen)) != 0)
		goto out;
	if (nlen < 16 || nlen > sizeof(c->nonce)) {
		r = ERR_KEY_CERT_INVALID;
		goto out;
	}
	memcpy(c->nonce, nonce, nlen);
	c->nonce_len = nlen;
	if ((r = key_public_from_sbuf(kt, b, &c->key)) != 0 ||
	    (r = sbuf_get_u64(b, &c->serial)) != 0 ||
	    (r = sbuf_get_u32(b, &c->type)) != 0 ||
	    (r = sbuf_get_cstring(b, &c->key_id, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(b, &princ, &plen)) != 0 ||
	    (r = sbuf_get_u64(b, &c->valid_after)) != 0 ||
	    (r = sbuf_get_u64(b, &c->valid_before)) != 0 ||
	    (r = sbuf_get_string_direct(b, &crit, &clen)) != 0 ||
	    (r = sbuf_get_string_direct(b, &ext, &elen)) != 0 ||
	    (r = sbuf_get_string_direct(b, NULL, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(b, &cablob, &calen)) != 0)
		goto out;
	signed_len = len - sbuf_len(b);
	if ((r = sbuf_get_string_direct(b, &sig, &siglen)) != 0)
		goto out;
	if (sbuf_len(b) != 0 || (c->type != CERT_TYPE_USER &&
	    c->type != CERT_TYPE_HOST)) {
		r = ERR_KEY_CERT_INVALID;
		goto out;
	}
	if ((r = parse_principals(princ, plen, c)) != 0 ||
	    (r = parse_options(crit, clen, &c->critical, &c->ncritical)) != 0 ||
	    (r = parse_options(ext, elen, &c->extensions,
	    &c->nextensions)) != 0)
		goto out;
	/* key_from_blob knows plain key types only: a cert CA fails here. */
	if ((r = key_from_blob(cablob, calen, &c->ca_key)) != 0) {
		r = ERR_KEY_CERT_INVALID;
		goto out;
	}
	if ((r = key_sig_alg(sig, siglen, &c->sig_alg)) != 0)
		goto out;
	if ((r = key_verify(c->ca_key, sig, siglen, blob, signed_len,
	    NULL)) != 0)
		goto out;
	c->blob = sbuf_new();
	if ((r = sbuf_put(c->blob, blob, len)) != 0)
		goto out;
	*certp = c;
	c = NULL;
 out:
	x_free(name);
	sbuf_free(b);
	cert_free(c);
	return r;
}

int
cert_to_blob(const struct key_cert *c, struct sbuf *out)
{
	if (c == NULL || c->blob == NULL)
		return ERR_INVALID_ARGUMENT;
	return sbuf_putb(out, c->blob);
}

int
cert_read_public_text(const char **cpp, struct key_cert **certp)
{
	const char *cp = *cpp, *w, *b64;
	char *type = NULL, *text = NULL;
	struct sbuf *blob = sbuf_new();
	size_t tlen, blen;
	int r;

	*certp = NULL;
	cp += strspn(cp, " \t");
	w = cp;
	tlen = strcspn(cp, " \t\r\n");
	cp += tlen;
	cp += strspn(cp, " \t");
	b64 = cp;
	blen = strcspn(cp, " \t\r\n");
	cp += blen;
	if (tlen == 0 || blen == 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	type = x_strndup(w, tlen);
	if (!cert_is_cert_name(type)) {
		r = ERR_KEY_TYPE_UNKNOWN;
		goto out;
	}
	text = x_strndup(b64, blen);
	if ((r = sbuf_b64_decode(blob, text)) != 0 ||
	    (r = cert_from_blob(sbuf_ptr(blob), sbuf_len(blob), certp)) != 0)
		goto out;
	if (strcmp(cert_type_name((*certp)->key), type) != 0) {
		cert_free(*certp);
		*certp = NULL;
		r = ERR_KEY_TYPE_MISMATCH;
		goto out;
	}
	cp += strspn(cp, " \t");
	*cpp = cp;
 out:
	x_free(type);
	x_free(text);
	sbuf_free(blob);
	return r;
}

char *
cert_public_text(const struct key_cert *c)
{
	char *s, *ret;

	if (c == NULL || c->blob == NULL || (s = sbuf_to_b64(c->blob, 0)) ==
	    NULL)
		return NULL;
	ret = x_asprintf("%s %s", cert_type_name(c->key), s);
	x_free(s);
	return ret;
}

int
cert_load_public(const char *path, struct key_cert **certp, char **commentp)
{
	FILE *f;
	char *line = NULL, *end;
	const char *cp;
	size_t cap = 0;
	int r = ERR_INVALID_FORMAT;

	*certp = NULL;
	if (commentp != NULL)
		*commentp = NULL;
	if ((f = fopen(path, "r")) == NULL)
		return ERR_SYSTEM;
	while (getline(&line, &cap, f) != -1) {
		cp = line + strspn(line, " \t");
		if (*cp == '#' || *cp == '\n' || *cp == '\0')
			continue;
		if ((r = cert_read_public_text(&cp, certp)) == 0 &&
		    commentp != NULL) {
			*commentp = x_strdup(cp);
			end = *commentp + strcspn(*commentp, "\r\n");
			*end = '\0';
		}
		break;
	}
	free(line);
	fclose(f);
	return r;
}

int
cert_new(const struct key *key, uint32_t type, struct key_cert **certp)
{
	struct key_cert *c;
	int r;

	*certp = NULL;
	if (cert_type_name(key) == NULL)
		return ERR_KEY_TYPE_UNKNOWN;
	c = x_calloc(1, sizeof(*c));
	if ((r = key_demote(key, &c->key)) != 0) {
		cert_free(c);
		return r;
	}
	c->nonce_len = sizeof(c->nonce);
	if (RAND_bytes(c->nonce, (int)c->nonce_len) != 1) {
		cert_free(c);
		return ERR_LIBCRYPTO;
	}
	c->type = type;
	c->key_id = x_strdup("");
	c->valid_after = 0;
	c->valid_before = CERT_FOREVER;
	*certp = c;
	return 0;
}

int
cert_set_option(struct key_cert *c, int critical, const char *name,
    const unsigned char *data, size_t len)
{
	struct cert_option **op = critical ? &c->critical : &c->extensions;
	size_t *np = critical ? &c->ncritical : &c->nextensions, i;
	int cmp = 1;

	for (i = 0; i < *np; i++)
		if ((cmp = strcmp((*op)[i].name, name)) >= 0)
			break;
	if (i < *np && cmp == 0) {
		x_free((*op)[i].data);
	} else {
		*op = x_reallocarray(*op, *np + 1, sizeof(**op));
		memmove(&(*op)[i + 1], &(*op)[i], (*np - i) * sizeof(**op));
		(*np)++;
		(*op)[i].name = x_strdup(name);
	}
	(*op)[i].data = len > 0 ? x_memdup(data, len) : NULL;
	(*op)[i].len = len;
	return 0;
}

void
cert_clear_options(struct key_cert *c, int critical)
{
	if (critical) {
		free_options(c->critical, c->ncritical);
		c->critical = NULL;
		c->ncritical = 0;
	} else {
		free_options(c->extensions, c->nextensions);
		c->extensions = NULL;
		c->nextensions = 0;
	}
}

int
cert_add_principal(struct key_cert *c, const char *name)
{
	if (c->nprincipals >= CERT_MAX_ITEMS)
		return ERR_INVALID_ARGUMENT;
	c->principals = x_reallocarray(c->principals, c->nprincipals + 1,
	    sizeof(char *));
	c->principals[c->nprincipals++] = x_strdup(name);
	return 0;
}

static int
put_options(struct sbuf *out, const struct cert_option *o, size_t n)
{
	struct sbuf *b = sbuf_new();
	size_t i;
	int r = 0;

	for (i = 0; i < n && r == 0; i++)
		if ((r = sbuf_put_cstring(b, o[i].name)) == 0)
			r = sbuf_put_string(b, o[i].data, o[i].len);
	if (r == 0)
		r = sbuf_put_stringb(out, b);
	sbuf_free(b);
	return r;
}

static int
sign_privately(void *arg, const unsigned char *data, size_t len,
    const char *sigalg, struct sbuf *sig)
{
	return key_sign(arg, sigalg, data, len, sig);
}

int
cert_sign(struct key_cert *c, const struct key *ca, const char *sigalg)
{
	if (ca == NULL || !ca->has_private)
		return ERR_INVALID_ARGUMENT;
	return cert_sign_with(c, ca, sigalg, sign_privately, (void *)ca);
}

int
cert_sign_with(struct key_cert *c, const struct key *ca, const char *sigalg,
    cert_sign_fn sign, void *arg)
{
	struct sbuf *b = sbuf_new(), *pub = sbuf_new(), *pr = sbuf_new(),
	    *cab = sbuf_new();
	size_t i, tbs;
	int r;

	if (ca == NULL) {
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	if (sigalg == NULL)
		sigalg = ca->type == KEY_RSA ? "rsa-sha2-512" :
		    key_type_name(ca);
	if ((r = key_to_blob(c->key, pub)) != 0 ||
	    (r = sbuf_get_string_direct(pub, NULL, NULL)) != 0)
		goto out;
	for (i = 0; i < c->nprincipals; i++)
		if ((r = sbuf_put_cstring(pr, c->principals[i])) != 0)
			goto out;
	if ((r = key_to_blob(ca, cab)) != 0 ||
	    (r = sbuf_put_cstring(b, cert_type_name(c->key))) != 0 ||
	    (r = sbuf_put_string(b, c->nonce, c->nonce_len)) != 0 ||
	    (r = sbuf_putb(b, pub)) != 0 ||
	    (r = sbuf_put_u64(b, c->serial)) != 0 ||
	    (r = sbuf_put_u32(b, c->type)) != 0 ||
	    (r = sbuf_put_cstring(b, c->key_id)) != 0 ||
	    (r = sbuf_put_stringb(b, pr)) != 0 ||
	    (r = sbuf_put_u64(b, c->valid_after)) != 0 ||
	    (r = sbuf_put_u64(b, c->valid_before)) != 0 ||
	    (r = put_options(b, c->critical, c->ncritical)) != 0 ||
	    (r = put_options(b, c->extensions, c->nextensions)) != 0 ||
	    (r = sbuf_put_string(b, NULL, 0)) != 0 ||
	    (r = sbuf_put_stringb(b, cab)) != 0)
		goto out;
	sbuf_reset(pub);
	tbs = sbuf_len(b);
	if ((r = sign(arg, sbuf_ptr(b), tbs, sigalg, pub)) != 0 ||
	    (r = key_verify(ca, sbuf_ptr(pub), sbuf_len(pub), sbuf_ptr(b),
	    tbs, sigalg)) != 0 ||
	    (r = sbuf_put_stringb(b, pub)) != 0)
		goto out;
	key_free(c->ca_key);
	x_free(c->sig_alg);
	c->sig_alg = NULL;
	if ((r = key_demote(ca, &c->ca_key)) != 0 ||
	    (r = key_sig_alg(sbuf_ptr(pub), sbuf_len(pub), &c->sig_alg)) != 0)
		goto out;
	sbuf_free(c->blob);
	c->blob = b;
	b = NULL;
 out:
	sbuf_free(b);
	sbuf_free(pub);
	sbuf_free(pr);
	sbuf_free(cab);
	return r;
}

const struct cert_option *
cert_option(const struct key_cert *c, int critical, const char *name)
{
	const struct cert_option *o = critical ? c->critical : c->extensions;
	size_t n = critical ? c->ncritical : c->nextensions, i;

	for (i = 0; i < n; i++)
		if (strcmp(o[i].name, name) == 0)
			return &o[i];
	return NULL;
}

int
cert_check(const struct key_cert *c, uint64_t now, const char *principal,
    int is_host)
{
	size_t i;

	if (c == NULL)
		return ERR_INVALID_ARGUMENT;
	if (c->type != (is_host ? CERT_TYPE_HOST : CERT_TYPE_USER))
		return ERR_KEY_CERT_INVALID;
	if (now < c->valid_after || now >= c->valid_before)
		return ERR_KEY_CERT_INVALID;
	if (principal == NULL)
		return 0;
	for (i = 0; i < c->nprincipals; i++)
		if (strcmp(c->principals[i], principal) == 0)
			return 0;
	return ERR_KEY_CERT_INVALID;
}

const char *
cert_sigalg_base(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < NCERT_SIGALGS; i++)
		if (strcmp(cert_sigalgs[i].name, name) == 0)
			return cert_sigalgs[i].sigalg;
	return NULL;
}

const char *
cert_sigalg_for(const char *sigalg)
{
	size_t i;

	for (i = 0; sigalg != NULL && i < NCERT_SIGALGS; i++)
		if (strcmp(cert_sigalgs[i].sigalg, sigalg) == 0)
			return cert_sigalgs[i].name;
	return NULL;
}

int
cert_sigalg_matches(const struct key_cert *c, const char *name)
{
	size_t i;

	if (c == NULL || name == NULL)
		return 0;
	for (i = 0; i < NCERT_SIGALGS; i++)
		if (strcmp(cert_sigalgs[i].name, name) == 0)
			return strcmp(cert_sigalgs[i].certtype,
			    cert_type_name(c->key)) == 0 &&
			    key_sigalg_matches(c->key,
			    cert_sigalgs[i].sigalg) == 1;
	return 0;
}

/*
 * Every signature algorithm a configuration may name, certificates
 * first, in OpenSSH 10.5's order of preference: one row each, saying
 * whether it is in the default of HostKeyAlgorithms and the other key
 * type lists (dfl) and in CASignatureAlgorithms' (ca). The compiler
 * joins the three lists from these rows: each name taken adds ",name",
 * and a list starts past its first comma.
 */
#define SIGALG_ROWS(ROW) \
	ROW("ssh-ed25519-cert-v01@openssh.com", 1, 0) \
	ROW("ecdsa-sha2-nistp256-cert-v01@openssh.com", 1, 0) \
	ROW("ecdsa-sha2-nistp384-cert-v01@openssh.com", 1, 0) \
	ROW("ecdsa-sha2-nistp521-cert-v01@openssh.com", 1, 0) \
	ROW("sk-ssh-ed25519-cert-v01@openssh.com", 1, 0) \
	ROW("sk-ecdsa-sha2-nistp256-cert-v01@openssh.com", 1, 0) \
	ROW("webauthn-sk-ecdsa-sha2-nistp256-cert-v01@openssh.com", 1, 0) \
	ROW("rsa-sha2-512-cert-v01@openssh.com", 1, 0) \
	ROW("rsa-sha2-256-cert-v01@openssh.com", 1, 0) \
	ROW("ssh-rsa-cert-v01@openssh.com", 0, 0) \
	ROW("ssh-ed25519", 1, 1) \
	ROW("ecdsa-sha2-nistp256", 1, 1) \
	ROW("ecdsa-sha2-nistp384", 1, 1) \
	ROW("ecdsa-sha2-nistp521", 1, 1) \
	ROW("sk-ssh-ed25519@openssh.com", 1, 1) \
	ROW("sk-ecdsa-sha2-nistp256@openssh.com", 1, 1) \
	ROW("webauthn-sk-ecdsa-sha2-nistp256@openssh.com", 1, 1) \
	ROW("rsa-sha2-512", 1, 1) \
	ROW("rsa-sha2-256", 1, 1) \
	ROW("ssh-rsa", 0, 0)

#define SIGALG_TAKE_1(name)		"," name
#define SIGALG_TAKE_0(name)
#define SIGALG_TAKE(yes, name)		SIGALG_TAKE_##yes(name)
#define SIGALG_IN_ALL(name, dfl, ca)	SIGALG_TAKE_1(name)
#define SIGALG_IN_DFL(name, dfl, ca)	SIGALG_TAKE(dfl, name)
#define SIGALG_IN_CA(name, dfl, ca)	SIGALG_TAKE(ca, name)

static const char sigalgs_all[] = SIGALG_ROWS(SIGALG_IN_ALL);
static const char sigalgs_dfl[] = SIGALG_ROWS(SIGALG_IN_DFL);
static const char sigalgs_ca[] = SIGALG_ROWS(SIGALG_IN_CA);

const char *
cert_sigalg_all_names(void)
{
	return sigalgs_all + 1;
}

const char *
cert_sigalg_default_names(void)
{
	return sigalgs_dfl + 1;
}

const char *
cert_ca_sigalg_default_names(void)
{
	return sigalgs_ca + 1;
}

int
cert_check_reason(const struct key_cert *c, uint64_t now,
    const char *principal, int is_host, const char **reasonp)
{
	size_t i;

	*reasonp = "Certificate invalid";
	if (c == NULL)
		return ERR_INVALID_ARGUMENT;
	if (c->type != (is_host ? CERT_TYPE_HOST : CERT_TYPE_USER)) {
		*reasonp = is_host ? "Certificate invalid: not a host "
		    "certificate" : "Certificate invalid: not a user "
		    "certificate";
		return ERR_KEY_CERT_INVALID;
	}
	if (now < c->valid_after) {
		*reasonp = "Certificate invalid: not yet valid";
		return ERR_KEY_CERT_INVALID;
	}
	if (now >= c->valid_before) {
		*reasonp = "Certificate invalid: expired";
		return ERR_KEY_CERT_INVALID;
	}
	if (principal == NULL)
		return 0;
	if (c->nprincipals == 0) {
		if (is_host)
			return 0;	/* a host cert without names: any */
		*reasonp = "Certificate lacks principal list";
		return ERR_KEY_CERT_INVALID;
	}
	for (i = 0; i < c->nprincipals; i++)
		if (strcmp(c->principals[i], principal) == 0)
			return 0;
	*reasonp = "Certificate invalid: name is not a listed principal";
	return ERR_KEY_CERT_INVALID;
}
