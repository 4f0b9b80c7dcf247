/*
 * auth_hostbased.c: the "hostbased" userauth method (RFC 4252 section
 * 9), with OpenSSH sshd's rules.
 *
 * The request carries the client host's public key, its host name (an
 * FQDN with a trailing dot), the user's name on that host and a
 * signature by the host key over session id, 50, user, service,
 * "hostbased", algorithm, key blob, host name and client user. Here the
 * request is parsed and the key decoded; the authority
 * (authority_hostbased_check()) checks the algorithm against
 * HostbasedAcceptedAlgorithms and verifies the signature. The client's
 * host name is not trusted: unless HostbasedUsesNameFromPacketOnly, the
 * name used is the connection's canonical one (the forward-confirmed
 * reverse name with UseDNS, else the address); a different name in the
 * packet is logged. That name and the client user must then be allowed
 * by the rhosts-style files, and the key must be that host's key in
 * known_hosts (auth_rhosts.c).
 */
#include <string.h>

#include "auth_hostbased.h"
#include "auth_int.h"
#include "err.h"
#include "log.h"
#include "mem.h"

char *
hostbased_clean_name(const char *chost)
{
	size_t len = strlen(chost);

	if (len > 0 && chost[len - 1] == '.')
		len--;
	return x_strndup(chost, len);
}

int
auth_m_hostbased(struct authctxt *ac, struct sbuf *req,
    enum auth_outcome *outp, char **infop)
{
	struct authority_hostbased_req q;
	struct key *key = NULL;
	char *alg = NULL, *chost = NULL, *cuser = NULL, *host = NULL;
	char *desc = NULL;
	enum key_type kt;
	int r, nid, ok;

	*outp = AUTH_FAIL;
	memset(&q, 0, sizeof(q));
	if ((r = sbuf_get_cstring(req, &alg, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(req, &q.blob, &q.bloblen)) != 0 ||
	    (r = sbuf_get_cstring(req, &chost, NULL)) != 0 ||
	    (r = sbuf_get_cstring(req, &cuser, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(req, &q.sig, &q.siglen)) != 0 ||
	    sbuf_len(req) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	r = 0;
	log_debug("userauth_hostbased: cuser %s chost %s pkalg %s slen %zu",
	    cuser, chost, alg, q.siglen);
	if (key_type_from_name(alg, &kt, &nid) != 0) {
		log_info("userauth_hostbased: unsupported public key "
		    "algorithm: %s", alg);
		goto out;
	}
	if ((r = key_from_blob(q.blob, q.bloblen, &key)) != 0) {
		log_error("userauth_hostbased: cannot decode key: %s: %s", alg,
		    err_str(r));
		r = 0;
		goto out;
	}
	desc = auth_key_desc(key, ac->sc != NULL ? ac->sc->fingerprint_hash :
	    KEY_FP_SHA256);
	host = hostbased_clean_name(chost);
	*infop = x_asprintf(": %s, client user \"%s\", client host \"%s\"",
	    desc, cuser, host);
	if (key_sigalg_matches(key, alg) != 1) {
		log_error("userauth_hostbased: type mismatch for decoded key "
		    "(received %s, expected %s)", alg, key_type_name(key));
		goto out;
	}
	q.user = ac->user;
	q.service = ac->service;
	q.alg = alg;
	q.chost = chost;
	q.cuser = cuser;
	if (authority_hostbased_check(ac->auth, &q, &ok) != 0 || !ok)
		goto out;
	/* Accepted: OpenSSH logs the key alone. */
	x_free(*infop);
	*infop = x_asprintf(": %s", desc);
	*outp = AUTH_SUCCESS;
 out:
	log_debug2("userauth_hostbased: authenticated %d",
	    *outp == AUTH_SUCCESS);
	key_free(key);
	x_free(alg);
	x_free(chost);
	x_free(cuser);
	x_free(host);
	x_free(desc);
	return r;
}
