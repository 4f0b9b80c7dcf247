/*
 * clienthostbound.c: publickey bound to the server's host key
 * (publickey-hostbound-v00@openssh.com, OpenSSH's PROTOCOL 3.1).
 *
 * When the server's EXT_INFO offers "publickey-hostbound@openssh.com"
 * version "0", a signed publickey request goes under that method name
 * and carries the server's host key blob after the key, as the first
 * key exchange sent it (K_S, the key session-bind@openssh.com also
 * hands the agent). The signed data is the request itself, so the
 * signer (an agent with destination constraints) sees which host the
 * signature is for. Queries without a signature stay plain
 * "publickey", as OpenSSH's ssh sends them.
 */
#include <stddef.h>

#include "clientauth_int.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "transport.h"

#define HOSTBOUND_METHOD	"publickey-hostbound-v00@openssh.com"

const char *
ca_pubkey_method(const struct ca_ctx *c, const struct key *k,
    const unsigned char **hkp, size_t *hklenp)
{
	const unsigned char *sig;
	size_t siglen;
	char *fp;

	*hkp = NULL;
	*hklenp = 0;
	if (c->o->pubkey_authentication == PUBKEY_AUTH_UNBOUND ||
	    !tr_peer_hostbound(c->t) ||
	    tr_first_kex(c->t, hkp, hklenp, &sig, &siglen) != 0) {
		*hkp = NULL;
		*hklenp = 0;
		return "publickey";
	}
	if (k != NULL && (fp = key_fingerprint(k, KEY_FP_SHA256)) != NULL) {
		log_debug3("sign_and_send_pubkey: using %s with %s %s",
		    HOSTBOUND_METHOD, key_short_name(k), fp);
		x_free(fp);
	}
	return HOSTBOUND_METHOD;
}
