/*
 * agentd_sk.c: FIDO security keys in the agent. ssh-add sends such a
 * key (its key handle, no secret) with the constraint extension
 * "sk-provider@openssh.com" naming the middleware library; the agent
 * keeps the library's path with the key and signs through
 * ssh-sk-helper (sk_client.h), which loads it. Since any client of
 * the socket may name a library, only those matching -P's list (by
 * their real path) are taken, as in OpenSSH.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "agentd_int.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "sk_client.h"


int
agentd_sk_provider(const struct agentd *a, struct sbuf *m, char **providerp)
{
	const char *allowed = a->cfg.allowed_providers != NULL ?
	    a->cfg.allowed_providers : AGENTD_DEFAULT_PROVIDERS;
	char *name = NULL, real[PATH_MAX];
	int r;

	*providerp = NULL;
	if ((r = sbuf_get_cstring(m, &name, NULL)) != 0)
		return r;
	if (strcasecmp(name, "internal") == 0) {
		*providerp = name;
		return 0;
	}
	if (realpath(name, real) == NULL) {
		log_verbose("failed provider \"%.100s\": realpath: %s", name,
		    strerror(errno));
		x_free(name);
		return ERR_PERMISSION_DENIED;
	}
	if (match_pattern_list(real, allowed, 0) != 1) {
		log_error("Refusing add key: provider %.100s not allowed",
		    real);
		x_free(name);
		return ERR_PERMISSION_DENIED;
	}
	x_free(name);
	*providerp = x_strdup(real);
	return 0;
}

int
agentd_sk_sign(const struct agentd_id *id, const unsigned char *data,
    size_t dlen, struct sbuf *sig)
{
	struct sk_where w = { id->sk_provider, NULL, NULL };
	int r, skerr = 0;

	if (id->sk_provider == NULL)
		return ERR_INVALID_ARGUMENT;
	if ((r = skc_sign(&w, id->key, data, dlen, sig, &skerr)) != 0)
		log_error("security key signature: %s", skerr != 0 ?
		    skc_strerror(skerr) : err_str(r));
	return r;
}
