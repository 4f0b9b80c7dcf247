/*
 * authinfo_rec.c: the monitor's record of what succeeded
 * (authinfo_rec.h). The checks that decide whether a method counts —
 * PermitRootLogin's per-method rule, whether the chains expected it —
 * are here so that the monitor's request handlers only parse, ask the
 * backend and report its answer.
 */
#include <string.h>

#include "authinfo.h"
#include "authinfo_rec.h"
#include "err.h"
#include "log.h"
#include "mem.h"
#include "servconf.h"

void
authrec_init(struct authrec *ar)
{
	memset(ar, 0, sizeof(*ar));
	ar->text = sbuf_new();
}

void
authrec_clear(struct authrec *ar)
{
	size_t i;

	authopts_free(ar->opts);
	x_free(ar->method);
	sbuf_free(ar->text);
	for (i = 0; i < ar->nkeys_used; i++)
		sbuf_free(ar->keys_used[i]);
	memset(ar, 0, sizeof(*ar));
}

int
authrec_key_used(struct authrec *ar, const unsigned char *blob, size_t len)
{
	struct sbuf *b = sbuf_from(blob, len), *copy;
	size_t i;
	int used = 0;

	for (i = 0; i < ar->nkeys_used && !used; i++)
		used = sbuf_equal(ar->keys_used[i], b);
	/*
	 * Kept as a copy: blob lies in the request's frame, which is wiped
	 * and refilled (or moved) by the next request.
	 */
	if (!used && ar->nkeys_used < AUTHREC_MAX_KEYS) {
		copy = sbuf_new();
		if (sbuf_put(copy, blob, len) == 0)
			ar->keys_used[ar->nkeys_used++] = copy;
		else
			sbuf_free(copy);
	}
	sbuf_free(b);
	return used;
}

int
authrec_add_key_opts(struct authrec *ar, const struct authopts *opts)
{
	struct authopts *joined;
	int r;

	if (ar->opts == NULL)
		r = authopts_dup(opts, &joined);
	else
		r = authopts_merge(ar->opts, opts, &joined);
	if (r != 0)
		return r;
	authopts_free(ar->opts);
	ar->opts = joined;
	ar->forced = joined->force_command != NULL;
	return 0;
}

/* As auth.c's root_allowed(): may root log in by method? */
static int
root_may(const struct authrec *ar, int permit_root, const char *method)
{
	switch (permit_root) {
	case PERMIT_ROOT_YES:
		return 1;
	case PERMIT_ROOT_NO_PASSWORD:
		return strcmp(method, "publickey") == 0 ||
		    strcmp(method, "hostbased") == 0;
	case PERMIT_ROOT_FORCED_ONLY:
		return strcmp(method, "publickey") == 0 && ar->forced;
	default:
		return 0;
	}
}

void
authrec_success(struct authrec *ar, const struct passwd *pw,
    int permit_root, struct auth_chains *chains, const char *method,
    const unsigned char *blob, size_t bloblen, const char *info)
{
	if (pw->pw_uid == 0 && !root_may(ar, permit_root, method))
		return;
	x_free(ar->method);
	ar->method = x_strdup(method);
	if (auth_chains_allowed(chains, method) &&
	    authinfo_add(ar->text, method, blob, bloblen, info) != 0)
		log_error("monitor: %s: no ExposeAuthInfo line", method);
	if (auth_chains_complete(chains, method))
		ar->chain_done = 1;
}

void
authrec_take(struct authrec *ar, struct auth_result *res)
{
	res->opts = ar->opts != NULL ? ar->opts : authopts_new();
	ar->opts = NULL;
	res->method = ar->method;
	ar->method = NULL;
	res->auth_info = x_strndup((const char *)sbuf_ptr(ar->text),
	    sbuf_len(ar->text));
}
