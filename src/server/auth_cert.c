/*
 * auth_cert.c: user certificates in publickey authentication
 * (PROTOCOL.certkeys; sshd_config TrustedUserCAKeys,
 * AuthorizedPrincipalsFile, AuthorizedPrincipalsCommand; cert-authority
 * lines of authorized_keys and of AuthorizedKeysCommand).
 *
 * The certificate arrives already parsed and its CA signature checked
 * (cert_from_blob()). auth_cert_allowed(), the in-process authority's
 * (authority_keys.c; it reads files as the user), decides whether its CA is
 * trusted for this user, in OpenSSH's order: the cert-authority lines
 * of the authorized_keys files, then TrustedUserCAKeys (with the
 * principals from AuthorizedPrincipalsFile and AuthorizedPrincipalsCommand
 * when either is set, else the user's name), then the cert-authority
 * lines printed by AuthorizedKeysCommand. The restrictions of the line
 * that matched are then narrowed by the certificate's own critical
 * options and extensions, and its source-address list is matched against
 * the client's address. Refusals are logged with OpenSSH's wording.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "auth_int.h"
#include "authkeys.h"
#include "authority_local.h"
#include "cert.h"
#include "err.h"
#include "krl.h"
#include "log.h"
#include "match.h"
#include "mem.h"

#define CA_MAX_LINE	(16 * 1024)

/* Short key type names as OpenSSH logs them. */
static const struct {
	enum key_type type;
	const char *name;
} key_log_names[] = {
	{ KEY_ED25519, "ED25519" },
	{ KEY_ECDSA, "ECDSA" },
	{ KEY_RSA, "RSA" },
	{ KEY_ED25519_SK, "ED25519-SK" },
	{ KEY_ECDSA_SK, "ECDSA-SK" },
};

const char *
auth_key_short_name(const struct key *k)
{
	size_t i;

	for (i = 0; i < sizeof(key_log_names) / sizeof(key_log_names[0]); i++)
		if (key_log_names[i].type == k->type)
			return key_log_names[i].name;
	return key_type_name(k);
}

char *
auth_key_desc(const struct key *k, int fp_hash)
{
	char *fp = key_fingerprint(k, (enum key_fp_hash)fp_hash), *s;

	s = x_asprintf("%s %s", auth_key_short_name(k), fp ? fp : "?");
	x_free(fp);
	return s;
}

char *
auth_cert_info(const struct key_cert *c, int fp_hash)
{
	char *fp = key_fingerprint(c->key, (enum key_fp_hash)fp_hash);
	char *cafp = key_fingerprint(c->ca_key, (enum key_fp_hash)fp_hash);
	char *s;

	s = x_asprintf(": %s-CERT %s ID %s (serial %" PRIu64 ") CA %s %s",
	    auth_key_short_name(c->key), fp ? fp : "?", c->key_id, c->serial,
	    auth_key_short_name(c->ca_key), cafp ? cafp : "?");
	x_free(fp);
	x_free(cafp);
	return s;
}

/* 1 if the CA key is one of the keys in the file (one per line). */
static int
ca_listed(const char *path, const struct key *ca)
{
	FILE *f;
	char *line = NULL;
	const char *cp;
	size_t cap = 0;
	ssize_t n;
	struct key *k;
	int found = 0;

	if ((f = fopen(path, "r")) == NULL) {
		log_error("cannot open TrustedUserCAKeys %s: %s", path,
		    strerror(errno));
		return 0;
	}
	while (!found && (n = getline(&line, &cap, f)) != -1) {
		if (n > CA_MAX_LINE)
			continue;
		for (cp = line; *cp == ' ' || *cp == '\t'; cp++)
			;
		if (*cp == '#' || *cp == '\n' || *cp == '\0')
			continue;
		if (key_read_public_text(&cp, &k) != 0)
			continue;
		found = key_equal_public(k, ca);
		key_free(k);
	}
	x_free(line);
	fclose(f);
	return found;
}

/*
 * AuthorizedPrincipalsFile, then AuthorizedPrincipalsCommand: 0 and
 * *optsp when one lists a principal of the certificate.
 */
static int
listed_principal(const struct servconf *sc, const struct passwd *pw,
    const struct auth_conn *conn, const struct key_cert *c,
    struct authopts **optsp)
{
	char *conn_id;
	int r;

	*optsp = NULL;
	if (sc->authorized_principals_file != NULL &&
	    authkeys_principals(sc, pw, c, conn->remote_host,
	    conn->remote_addr, optsp) == 0)
		return 0;
	if (sc->authorized_principals_command == NULL)
		return ERR_NOT_FOUND;
	conn_id = x_asprintf("%s %d %s %d", conn->remote_addr,
	    conn->remote_port, conn->local_addr != NULL ? conn->local_addr :
	    "UNKNOWN", conn->local_port);
	r = authkeys_principals_command(sc, pw, c, conn_id,
	    conn->remote_host, conn->remote_addr, optsp);
	x_free(conn_id);
	return r;
}

/* TrustedUserCAKeys: 0 and *optsp when the CA is trusted for the user. */
static int
trusted_ca(const struct servconf *sc, const struct passwd *pw,
    const struct auth_conn *conn, const struct key_cert *c, uint64_t now,
    struct authopts **optsp)
{
	const char *reason = NULL;
	char *cafp;
	int r;

	*optsp = NULL;
	if (sc->trusted_user_ca_keys == NULL)
		return ERR_NOT_FOUND;
	cafp = key_fingerprint(c->ca_key,
	    (enum key_fp_hash)sc->fingerprint_hash);
	if (!ca_listed(sc->trusted_user_ca_keys, c->ca_key)) {
		log_debug("CA %s %s is not listed in %s",
		    key_type_name(c->ca_key), cafp ? cafp : "?",
		    sc->trusted_user_ca_keys);
		x_free(cafp);
		return ERR_NOT_FOUND;
	}
	if (sc->authorized_principals_file != NULL ||
	    sc->authorized_principals_command != NULL) {
		if (cert_check_reason(c, now, NULL, 0, &reason) == 0) {
			reason = NULL;
			if (listed_principal(sc, pw, conn, c, optsp) != 0)
				reason = "Certificate does not contain an "
				    "authorized principal";
		}
	} else if (cert_check_reason(c, now, pw->pw_name, 0,
	    &reason) == 0) {
		reason = NULL;
		*optsp = authopts_new();
		/* Only the certificate speaks: its extension decides. */
		(*optsp)->no_touch_required = 1;
	}
	if (reason != NULL) {
		log_error("%s", reason);
		r = ERR_NOT_FOUND;
	} else {
		log_verbose("Accepted certificate ID \"%s\" (serial %" PRIu64
		    ") signed by %s CA %s via %s", c->key_id, c->serial,
		    key_type_name(c->ca_key), cafp ? cafp : "?",
		    sc->trusted_user_ca_keys);
		r = 0;
	}
	x_free(cafp);
	return r;
}

int
auth_cert_allowed(const struct servconf *sc, const struct passwd *pw,
    const struct auth_conn *conn, const struct key_cert *c,
    struct authopts **optsp)
{
	struct authopts *o = NULL;
	const char *err = NULL;
	char *src = NULL;
	uint64_t now = (uint64_t)time(NULL);
	int r = ERR_NOT_FOUND, m;

	*optsp = NULL;
	if (authkeys_find_cert(sc, pw, c, conn->remote_host,
	    conn->remote_addr, &o) != 0 &&
	    trusted_ca(sc, pw, conn, c, now, &o) != 0 &&
	    authkeys_command_cert(sc, pw, c, conn->remote_host,
	    conn->remote_addr, &o) != 0)
		goto out;
	if (authopts_apply_cert(o, c, &src, &err) != 0) {
		log_error("Refused by certificate options: %s", err);
		goto out;
	}
	if (src != NULL) {
		m = match_addr_list(conn->remote_addr, src);
		if (m == -2) {
			log_error("Certificate source-address contents "
			    "invalid");
			goto out;
		}
		if (m != 1) {
			log_error("Authentication tried for %s with valid "
			    "certificate but not from a permitted source "
			    "address (%s).", pw->pw_name,
			    conn->remote_addr);
			goto out;
		}
	}
	*optsp = o;
	o = NULL;
	r = 0;
 out:
	x_free(src);
	authopts_free(o);
	return r;
}

/*
 * RevokedKeys: the file is read at each check (as OpenSSH does), so an
 * updated KRL takes effect without a restart. A file that cannot be read
 * or parsed refuses every key (fail closed).
 */
int
auth_key_revoked(const struct servconf *sc, const struct key *key,
    const struct key_cert *cert)
{
	struct krl *krl = NULL;
	char *fp, *type;
	int r, revoked = 1;

	if (sc->revoked_keys == NULL)
		return 0;
	fp = key_fingerprint(key, (enum key_fp_hash)sc->fingerprint_hash);
	/* OpenSSH's sshkey_type(): "ED25519", "RSA-CERT"... */
	type = x_asprintf("%s%s", auth_key_short_name(key),
	    cert != NULL ? "-CERT" : "");
	if ((r = krl_load_file(sc->revoked_keys, &krl)) != 0) {
		log_error("Error checking authentication key %s %s in revoked "
		    "keys file %s: %s", type, fp ? fp : "?",
		    sc->revoked_keys, err_str(r));
	} else if ((r = krl_check_key(krl, key, cert)) == ERR_KEY_REVOKED) {
		log_error("Authentication key %s %s revoked by file %s",
		    type, fp ? fp : "?", sc->revoked_keys);
	} else if (r != 0) {
		log_error("Error checking authentication key %s %s in revoked "
		    "keys file %s: %s", type, fp ? fp : "?",
		    sc->revoked_keys, err_str(r));
	} else
		revoked = 0;
	krl_free(krl);
	x_free(fp);
	x_free(type);
	return revoked;
}
