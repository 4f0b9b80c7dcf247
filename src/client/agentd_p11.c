/*
 * agentd_p11.c: the agent's PKCS#11 requests, ADD_SMARTCARD_KEY (and
 * its _CONSTRAINED form) and REMOVE_SMARTCARD_KEY (PROTOCOL.agent).
 *
 * The module named must resolve (realpath) to a path that the allowlist
 * (ssh-agent -P; by default, as OpenSSH's, files under /usr/lib* and
 * /usr/local/lib*)
 * matches. The agent never loads it: it starts an ssh-pkcs11-helper for
 * it, which logs in with the PIN sent and lists the keys. Each key the
 * agent does not hold yet becomes an identity whose signatures the
 * helper makes; the helper lives until the provider is removed or the
 * agent ends. Log lines are in OpenSSH's words.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "agentd_int.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "p11_client.h"


static struct agentd_p11 *
find_provider(struct agentd *a, const char *path)
{
	size_t i;

	for (i = 0; i < a->np11; i++)
		if (strcmp(a->p11s[i].provider, path) == 0)
			return &a->p11s[i];
	return NULL;
}

/* The keys of a freshly opened helper into the store; how many. */
static size_t
add_keys(struct agentd *a, struct p11_helper *h, const char *path,
    struct p11_key *keys, size_t n, uint32_t life, int confirm)
{
	struct sbuf *blob = sbuf_new();
	struct agentd_id *id;
	size_t i, count = 0;
	char *comment;

	for (i = 0; i < n; i++) {
		sbuf_reset(blob);
		if (key_to_blob(keys[i].key, blob) != 0 ||
		    agentd_find(a, sbuf_ptr(blob), sbuf_len(blob)) != NULL)
			continue;
		comment = x_strdup(*keys[i].label != '\0' ? keys[i].label :
		    path);
		if (agentd_put(a, keys[i].key, NULL, comment, life,
		    confirm) != 0) {
			x_free(comment);
			continue;
		}
		keys[i].key = NULL;		/* the store's now */
		if ((id = agentd_find(a, sbuf_ptr(blob),
		    sbuf_len(blob))) != NULL)
			id->p11 = h;
		count++;
	}
	sbuf_free(blob);
	return count;
}

static void
stop_provider(struct agentd *a, struct agentd_p11 *p)
{
	size_t i = 0;

	while (i < a->nids) {
		if (a->ids[i].p11 == p->h)
			agentd_remove_at(a, i);
		else
			i++;
	}
	p11_helper_stop(p->h);
	x_free(p->provider);
	*p = a->p11s[--a->np11];
}

/* Open path with pin; 1 when its keys were added. */
static int
open_provider(struct agentd *a, const char *path, const char *pin,
    uint32_t life, int confirm)
{
	struct p11_helper *h = NULL;
	struct p11_key *keys = NULL;
	char *why = NULL;
	size_t n = 0, count = 0;
	int r;

	if (find_provider(a, path) != NULL) {
		log_debug("pkcs11_add_provider: provider already registered: "
		    "%s", path);
		return 0;
	}
	if ((r = p11_helper_start(path, &h)) == 0 &&
	    (r = p11_helper_open(h, pin, &keys, &n, &why)) == 0)
		count = add_keys(a, h, path, keys, n, life, confirm);
	p11_keys_free(keys, n);
	if (r != 0)
		log_error("pkcs11_add_provider: %s: %s", path,
		    why != NULL ? why : err_str(r));
	x_free(why);
	if (count == 0) {
		p11_helper_stop(h);
		return 0;
	}
	a->p11s = x_reallocarray(a->p11s, a->np11 + 1, sizeof(*a->p11s));
	a->p11s[a->np11].provider = x_strdup(path);
	a->p11s[a->np11++].h = h;
	return 1;
}

int
agentd_add_card(struct agentd *a, struct sbuf *m, int constrained, int *okp)
{
	char *provider = NULL, *pin = NULL, canon[PATH_MAX];
	const char *allow = a->cfg.allowed_providers != NULL ?
	    a->cfg.allowed_providers : AGENTD_DEFAULT_PROVIDERS;
	size_t pinlen = 0;
	uint32_t life = 0;
	int r, confirm = 0;

	*okp = 0;
	/* As OpenSSH: a request that does not parse is only refused. */
	if (sbuf_get_cstring(m, &provider, NULL) != 0 ||
	    sbuf_get_cstring(m, &pin, &pinlen) != 0) {
		log_error("%s: parse", __func__);
		r = 0;
		goto out;
	}
	if (constrained) {
		if ((r = agentd_constraints(m, &life, &confirm)) != 0) {
			if (!agentd_malformed(r))
				r = 0;
			goto out;
		}
	} else if ((r = sbuf_len(m) != 0 ? ERR_INVALID_FORMAT : 0) != 0)
		goto out;
	if (realpath(provider, canon) == NULL) {
		log_verbose("failed PKCS#11 add of \"%.100s\": realpath: %s",
		    provider, strerror(errno));
		goto out;
	}
	if (match_pattern_list(canon, allow, 0) != 1) {
		log_verbose("refusing PKCS#11 add of \"%.100s\": provider "
		    "not allowed", canon);
		goto out;
	}
	log_debug("process_add_smartcard_key: add %.100s", canon);
	if (a->locked) {
		log_verbose("process_add_smartcard_key: agent is locked");
		goto out;
	}
	*okp = open_provider(a, canon, pin, life, confirm);
 out:
	x_free(provider);
	if (pin != NULL)
		x_freezero(pin, pinlen);
	return r;
}

int
agentd_remove_card(struct agentd *a, struct sbuf *m, int *okp)
{
	char *provider = NULL, *pin = NULL, canon[PATH_MAX];
	struct agentd_p11 *p;
	size_t pinlen = 0;
	int r;

	*okp = 0;
	/* As OpenSSH: a request that does not parse is only refused. */
	if (sbuf_get_cstring(m, &provider, NULL) != 0 ||
	    sbuf_get_cstring(m, &pin, &pinlen) != 0) {
		log_error("%s: parse", __func__);
		r = 0;
		goto out;
	}
	if ((r = sbuf_len(m) != 0 ? ERR_INVALID_FORMAT : 0) != 0)
		goto out;
	if (realpath(provider, canon) == NULL) {
		log_verbose("failed PKCS#11 remove of \"%.100s\": realpath: "
		    "%s", provider, strerror(errno));
		goto out;
	}
	log_debug("process_remove_smartcard_key: remove %.100s", canon);
	if ((p = find_provider(a, canon)) == NULL) {
		log_error("process_remove_smartcard_key: pkcs11_del_provider "
		    "failed");
		goto out;
	}
	stop_provider(a, p);
	*okp = 1;
 out:
	x_free(provider);
	if (pin != NULL)
		x_freezero(pin, pinlen);
	return r;
}

void
agentd_p11_free(struct agentd *a)
{
	while (a->np11 > 0)
		stop_provider(a, &a->p11s[a->np11 - 1]);
	x_free(a->p11s);
	a->p11s = NULL;
}
