/*
 * auth_hostbased.c: the "hostbased" userauth method (RFC 4252 section
 * 9), with OpenSSH sshd's rules.
 *
 * The request carries the client host's public key, its host name (an
 * FQDN with a trailing dot), the user's name on that host and a
 * signature by the host key over session id, 50, user, service,
 * "hostbased", algorithm, key blob, host name and client user. We check
 * the algorithm against HostbasedAcceptedAlgorithms and verify the
 * signature. The client's host name is not trusted: unless
 * HostbasedUsesNameFromPacketOnly, the name used is the connection's
 * canonical one (the forward-confirmed reverse name with UseDNS, else
 * the address); a different name in the packet is logged. That name and
 * the client user must then be allowed by the rhosts-style files, and
 * the key must be that host's key in known_hosts (auth_rhosts.c).
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <ctype.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "auth_hostbased.h"
#include "auth_int.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"

#define HB_RSA_MIN_BITS	1024

char *
hostbased_clean_name(const char *chost)
{
	size_t len = strlen(chost);

	if (len > 0 && chost[len - 1] == '.')
		len--;
	return x_strndup(chost, len);
}

char *
hostbased_canonical_name(const char *addr, int use_dns)
{
	struct addrinfo hints, *ai = NULL, *a;
	char name[NI_MAXHOST], back[NI_MAXHOST], *p;
	int ok = 0;

	if (!use_dns)
		return x_strdup(addr);
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(addr, NULL, &hints, &ai) != 0)
		return x_strdup(addr);
	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, name, sizeof(name),
	    NULL, 0, NI_NAMEREQD) != 0) {
		freeaddrinfo(ai);
		return x_strdup(addr);
	}
	freeaddrinfo(ai);
	ai = NULL;
	/* A PTR record that looks like an address is a lie. */
	if (getaddrinfo(name, NULL, &hints, &ai) == 0) {
		log_error("Nasty PTR record \"%s\" is set up for %s, ignoring",
		    name, addr);
		freeaddrinfo(ai);
		return x_strdup(addr);
	}
	for (p = name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	/* The name must lead back to the address. */
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	ai = NULL;
	if (getaddrinfo(name, NULL, &hints, &ai) == 0) {
		for (a = ai; a != NULL && !ok; a = a->ai_next)
			ok = getnameinfo(a->ai_addr, a->ai_addrlen, back,
			    sizeof(back), NULL, 0, NI_NUMERICHOST) == 0 &&
			    strcmp(back, addr) == 0;
		freeaddrinfo(ai);
	}
	if (!ok) {
		log_info("Address %s maps to %s, but this does not map back "
		    "to the address.", addr, name);
		return x_strdup(addr);
	}
	return x_strdup(name);
}

/* The bytes the client host signed. */
static int
hb_signed_data(struct authctxt *ac, const char *alg,
    const unsigned char *blob, size_t blen, const char *chost,
    const char *cuser, struct sbuf *d)
{
	const unsigned char *sid;
	size_t sidlen;
	int r;

	if ((sid = tr_session_id(ac->t, &sidlen)) == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_put_string(d, sid, sidlen)) != 0 ||
	    (r = sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST)) != 0 ||
	    (r = sbuf_put_cstring(d, ac->user)) != 0 ||
	    (r = sbuf_put_cstring(d, ac->service)) != 0 ||
	    (r = sbuf_put_cstring(d, "hostbased")) != 0 ||
	    (r = sbuf_put_cstring(d, alg)) != 0 ||
	    (r = sbuf_put_string(d, blob, blen)) != 0 ||
	    (r = sbuf_put_cstring(d, chost)) != 0 ||
	    (r = sbuf_put_cstring(d, cuser)) != 0)
		return r;
	return 0;
}

/*
 * Whether the client host and user may log in as ac->pw with key
 * (OpenSSH's hostbased_key_allowed). chost has no trailing dot.
 */
static int
hb_allowed(struct authctxt *ac, const struct key *key, const char *chost,
    const char *cuser)
{
	const struct auth_conn *c = ac->conn;
	struct rhosts_query q;
	char *resolved = NULL, *fp;
	const char *lookup;
	int ok = 0;

	if (ac->sc->use_dns && c->remote_host != NULL &&
	    strcmp(c->remote_host, c->remote_addr) != 0)
		resolved = x_strdup(c->remote_host);	/* already resolved */
	else
		resolved = hostbased_canonical_name(c->remote_addr,
		    ac->sc->use_dns);
	log_debug2("hostbased_key_allowed: chost %s resolvedname %s ipaddr "
	    "%s", chost, resolved, c->remote_addr);
	memset(&q, 0, sizeof(q));
	q.client_user = cuser;
	q.server_user = ac->pw->pw_name;
	if (ac->sc->hostbased_uses_name_from_packet_only) {
		q.host = q.addr = lookup = chost;
		if (!hostbased_rhosts_ok(ac->sc, ac->pw, &q,
		    &hostbased_system_paths)) {
			log_debug2("hostbased_key_allowed: auth_rhosts2 refused "
			    "user \"%s\" host \"%s\" (from packet)", cuser,
			    chost);
			goto out;
		}
	} else {
		if (strcasecmp(resolved, chost) != 0)
			log_info("userauth_hostbased mismatch: client sends "
			    "%s, but we resolve %s to %s", chost,
			    c->remote_addr, resolved);
		q.host = lookup = resolved;
		q.addr = c->remote_addr;
		if (!hostbased_rhosts_ok(ac->sc, ac->pw, &q,
		    &hostbased_system_paths)) {
			log_debug2("hostbased_key_allowed: auth_rhosts2 refused "
			    "user \"%s\" host \"%s\" addr \"%s\"", cuser,
			    resolved, c->remote_addr);
			goto out;
		}
	}
	log_debug2("hostbased_key_allowed: access allowed by auth_rhosts2");
	if (!hostbased_key_known(ac->sc, ac->pw, key, lookup,
	    &hostbased_system_paths))
		goto out;
	fp = key_fingerprint(key, KEY_FP_SHA256);
	log_verbose("Accepted %s public key %s from %s@%s", auth_key_short_name(key),
	    fp ? fp : "?", cuser, lookup);
	x_free(fp);
	ok = 1;
 out:
	x_free(resolved);
	return ok;
}

int
auth_m_hostbased(struct authctxt *ac, struct sbuf *req,
    enum auth_outcome *outp, char **infop)
{
	const unsigned char *blob, *sig;
	size_t blen, siglen;
	struct key *key = NULL;
	struct sbuf *data = NULL;
	char *alg = NULL, *chost = NULL, *cuser = NULL, *host = NULL;
	char *desc = NULL;
	enum key_type kt;
	int r, nid;

	*outp = AUTH_FAIL;
	if ((r = sbuf_get_cstring(req, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(req, &blob, &blen)) != 0 ||
	    (r = sbuf_get_cstring(req, &chost, NULL)) != 0 ||
	    (r = sbuf_get_cstring(req, &cuser, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(req, &sig, &siglen)) != 0 ||
	    sbuf_len(req) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	r = 0;
	log_debug("userauth_hostbased: cuser %s chost %s pkalg %s slen %zu",
	    cuser, chost, alg, siglen);
	if (key_type_from_name(alg, &kt, &nid) != 0) {
		log_info("userauth_hostbased: unsupported public key "
		    "algorithm: %s", alg);
		goto out;
	}
	if ((r = key_from_blob(blob, blen, &key)) != 0) {
		log_error("userauth_hostbased: cannot decode key: %s: %s", alg,
		    err_str(r));
		r = 0;
		goto out;
	}
	desc = auth_key_desc(key);
	host = hostbased_clean_name(chost);
	*infop = x_asprintf(": %s, client user \"%s\", client host \"%s\"",
	    desc, cuser, host);
	if (key_sigalg_matches(key, alg) != 1) {
		log_error("userauth_hostbased: type mismatch for decoded key "
		    "(received %s, expected %s)", alg, key_type_name(key));
		goto out;
	}
	if (ac->sc->hostbased_accepted_algorithms == NULL ||
	    match_pattern_list(alg, ac->sc->hostbased_accepted_algorithms,
	    0) != 1) {
		log_info("userauth_hostbased: signature algorithm %s not in "
		    "HostbasedAcceptedAlgorithms", alg);
		goto out;
	}
	if (key->type == KEY_RSA && key_bits(key) < HB_RSA_MIN_BITS) {
		log_verbose("userauth_hostbased: refusing RSA key: Invalid "
		    "key length (%u bits)", key_bits(key));
		goto out;
	}
	if (!ac->valid) {
		log_debug2("userauth_hostbased: disabled because of invalid "
		    "user");
		goto out;
	}
	data = sbuf_new();
	if ((r = hb_signed_data(ac, alg, blob, blen, chost, cuser,
	    data)) != 0)
		goto out;
	if (key_verify(key, sig, siglen, sbuf_ptr(data), sbuf_len(data),
	    alg) != 0) {
		log_debug("userauth_hostbased: signature did not verify");
		goto out;
	}
	if (!hb_allowed(ac, key, host, cuser))
		goto out;
	/* Accepted: OpenSSH logs the key alone. */
	x_free(*infop);
	*infop = x_asprintf(": %s", desc);
	*outp = AUTH_SUCCESS;
 out:
	log_debug2("userauth_hostbased: authenticated %d",
	    *outp == AUTH_SUCCESS);
	sbuf_free(data);
	key_free(key);
	x_free(alg);
	x_free(chost);
	x_free(cuser);
	x_free(host);
	x_free(desc);
	return r;
}
