/*
 * p11_client.c: starting ssh-pkcs11-helper and talking to it (the
 * protocol is in p11_client.h). The caller blocks on each answer: a
 * token that takes its time makes ssh wait, as it waits for a
 * passphrase. A helper that dies or talks nonsense costs its keys, and
 * nothing else: writes do not raise SIGPIPE, and every answer goes
 * through the parsers below.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fdio.h"
#include "installdirs.h"
#include "log.h"
#include "mem.h"
#include "p11_client.h"
#include "spawn.h"

#define HELPER_NAME	"ssh-pkcs11-helper"

static int
usable(const char *path)
{
	struct stat st;

	return access(path, X_OK) == 0 && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode);
}

char *
p11_helper_path(void)
{
	const char *env = getenv("SSH_PKCS11_HELPER");
	char exe[PATH_MAX], *slash, *p;
	ssize_t n;

	if (env != NULL && *env != '\0')
		return x_strdup(env);
	if (usable(MOAT_LIBEXECDIR "/" HELPER_NAME))
		return x_strdup(MOAT_LIBEXECDIR "/" HELPER_NAME);
	/* A build tree: the helper sits beside the program. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return NULL;
	*slash = '\0';
	p = x_asprintf("%s/%s", exe, HELPER_NAME);
	if (usable(p))
		return p;
	x_free(p);
	return NULL;
}

int
p11_helper_start(const char *provider, struct p11_helper **hp)
{
	struct p11_helper *h;
	char *path, *argv[3] = { (char *)HELPER_NAME, NULL, NULL };
	int fd, r;
	pid_t pid;

	*hp = NULL;
	if ((path = p11_helper_path()) == NULL) {
		log_error("no %s found", HELPER_NAME);
		return ERR_NOT_FOUND;
	}
	if (log_level() >= LOG_LEVEL_DEBUG1)
		argv[1] = (char *)"-v";
	if ((r = spawn_socketpair(path, argv, &fd, &pid)) != 0) {
		x_free(path);
		return r;
	}
	log_debug3("started %s for %s, pid %ld", path, provider, (long)pid);
	x_free(path);
	h = x_calloc(1, sizeof(*h));
	h->pid = pid;
	h->fd = fd;
	h->provider = x_strdup(provider);
	*hp = h;
	return 0;
}

void
p11_helper_stop(struct p11_helper *h)
{
	if (h == NULL)
		return;
	if (h->fd != -1)
		close(h->fd);
	if (h->pid > 0)
		(void)spawn_reap(h->pid, NULL);
	x_free(h->provider);
	x_free(h);
}

void
p11_keys_free(struct p11_key *keys, size_t n)
{
	size_t i;

	if (keys == NULL)
		return;
	for (i = 0; i < n; i++) {
		key_free(keys[i].key);
		x_free(keys[i].label);
	}
	x_free(keys);
}

/* One request out (framed here) and one answer back into m. */
static int
transact(struct p11_helper *h, const struct sbuf *req, struct sbuf *m)
{
	int r;

	if (h->fd == -1)
		return ERR_CONN_CLOSED;
	sbuf_reset(m);
	if ((r = msg_write_framed(h->fd, req)) == 0 &&
	    (r = msg_read_framed(h->fd, P11_MAX_MSG, m)) == 0)
		return 0;
	if (r == ERR_PROTOCOL)
		log_error("%s: bad answer length", HELPER_NAME);
	/* Nothing more will make sense on this pipe. */
	log_debug("%s for %s: gone", HELPER_NAME, h->provider);
	close(h->fd);
	h->fd = -1;
	return ERR_CONN_CLOSED;
}

/* A label fit for a terminal: control bytes become '?', length capped. */
static char *
clean_label(const unsigned char *s, size_t len)
{
	char *out;
	size_t i;

	if (len > P11_MAX_LABEL)
		len = P11_MAX_LABEL;
	out = x_malloc(len + 1);
	for (i = 0; i < len; i++)
		out[i] = (s[i] < 0x20 || s[i] == 0x7f) ? '?' : (char)s[i];
	out[len] = '\0';
	return out;
}

/* P11_FAIL's contents: the reason as an error, the text into *whyp. */
static int
parse_fail(struct sbuf *m, char **whyp)
{
	const unsigned char *s;
	size_t slen;
	uint32_t reason;
	int r;

	if ((r = sbuf_get_u32(m, &reason)) != 0 ||
	    (r = sbuf_get_string_direct(m, &s, &slen)) != 0)
		return ERR_PROTOCOL;
	if (sbuf_len(m) != 0)
		return ERR_PROTOCOL;
	if (whyp != NULL)
		*whyp = clean_label(s, slen);
	return reason == P11_FAIL_PIN ? ERR_KEY_WRONG_PASSPHRASE :
	    ERR_NOT_FOUND;
}

static int
already_listed(const struct p11_key *keys, size_t n, const struct key *k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (key_equal_public(keys[i].key, k))
			return 1;
	return 0;
}

int
p11_parse_keys(struct sbuf *m, struct p11_key **keysp, size_t *np,
    char **whyp)
{
	const unsigned char *blob, *label;
	size_t bloblen, labellen, n = 0;
	struct p11_key *keys = NULL;
	struct key *k = NULL;
	uint32_t count, i;
	uint8_t type;
	int r;

	*keysp = NULL;
	*np = 0;
	if (whyp != NULL)
		*whyp = NULL;
	if ((r = sbuf_get_u8(m, &type)) != 0)
		return ERR_PROTOCOL;
	if (type == P11_FAIL)
		return parse_fail(m, whyp);
	if (type != P11_KEYS || sbuf_get_u32(m, &count) != 0 ||
	    count > P11_MAX_KEYS)
		return ERR_PROTOCOL;
	keys = x_calloc(count + 1, sizeof(*keys));
	for (i = 0; i < count; i++) {
		if (sbuf_get_string_direct(m, &blob, &bloblen) != 0 ||
		    sbuf_get_string_direct(m, &label, &labellen) != 0) {
			r = ERR_PROTOCOL;
			goto fail;
		}
		if ((r = key_from_blob(blob, bloblen, &k)) != 0 ||
		    (k->type != KEY_RSA && k->type != KEY_ECDSA)) {
			log_debug("%s: skipping a key that does not parse",
			    HELPER_NAME);
			key_free(k);
			k = NULL;
			continue;
		}
		if (already_listed(keys, n, k)) {
			key_free(k);
			k = NULL;
			continue;
		}
		keys[n].key = k;
		keys[n++].label = clean_label(label, labellen);
		k = NULL;
	}
	if (sbuf_len(m) != 0) {
		r = ERR_PROTOCOL;
		goto fail;
	}
	*keysp = keys;
	*np = n;
	return 0;
 fail:
	p11_keys_free(keys, n);
	return r;
}

uint32_t
p11_sign_flags(const char *sigalg)
{
	if (sigalg == NULL || strcmp(sigalg, "rsa-sha2-512") == 0)
		return P11_RSA_SHA2_512;
	if (strcmp(sigalg, "rsa-sha2-256") == 0)
		return P11_RSA_SHA2_256;
	return 0;
}

/* The algorithm a good answer must carry. */
static const char *
expected_alg(const struct key *k, const char *sigalg)
{
	if (k->type != KEY_RSA)
		return key_type_name(k);
	switch (p11_sign_flags(sigalg)) {
	case P11_RSA_SHA2_512: return "rsa-sha2-512";
	case P11_RSA_SHA2_256: return "rsa-sha2-256";
	default: return "ssh-rsa";
	}
}

int
p11_parse_sign(struct sbuf *m, const struct key *k, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *sig,
    char **labelp)
{
	const unsigned char *s;
	size_t slen;
	uint8_t type;
	int r;

	if (labelp != NULL)
		*labelp = NULL;
	if (sbuf_get_u8(m, &type) != 0)
		return ERR_PROTOCOL;
	if (type == P11_FAIL)
		return parse_fail(m, NULL);
	if (type != P11_SIG && type != P11_NEED_PIN)
		return ERR_PROTOCOL;
	if (sbuf_get_string_direct(m, &s, &slen) != 0 || sbuf_len(m) != 0)
		return ERR_PROTOCOL;
	if (type == P11_NEED_PIN) {
		if (labelp != NULL)
			*labelp = clean_label(s, slen);
		return ERR_PERMISSION_DENIED;
	}
	if ((r = key_verify(k, s, slen, data, dlen,
	    expected_alg(k, sigalg))) != 0) {
		log_error("%s: the token's signature does not verify: %s",
		    HELPER_NAME, err_str(r));
		return ERR_SIGNATURE_INVALID;
	}
	return sbuf_put(sig, s, slen);
}

int
p11_helper_open(struct p11_helper *h, const char *pin,
    struct p11_key **keysp, size_t *np, char **whyp)
{
	struct sbuf *req = sbuf_new(), *m = sbuf_new();
	int r;

	*keysp = NULL;
	*np = 0;
	if (whyp != NULL)
		*whyp = NULL;
	if ((r = sbuf_put_u8(req, P11_OPEN)) != 0 ||
	    (r = sbuf_put_cstring(req, h->provider)) != 0 ||
	    (r = sbuf_put_cstring(req, pin != NULL ? pin : "")) != 0 ||
	    (r = transact(h, req, m)) != 0)
		goto out;
	r = p11_parse_keys(m, keysp, np, whyp);
 out:
	sbuf_wipe(req);
	sbuf_free(req);
	sbuf_free(m);
	return r;
}

int
p11_helper_sign(struct p11_helper *h, const struct key *k,
    const char *sigalg, const unsigned char *data, size_t dlen,
    const char *pin, struct sbuf *sig, char **labelp)
{
	struct sbuf *req = sbuf_new(), *m = sbuf_new(), *blob = sbuf_new();
	uint32_t flags = k->type == KEY_RSA ? p11_sign_flags(sigalg) : 0;
	int r;

	if (labelp != NULL)
		*labelp = NULL;
	if ((r = key_to_blob(k, blob)) != 0 ||
	    (r = sbuf_put_u8(req, P11_SIGN)) != 0 ||
	    (r = sbuf_put_stringb(req, blob)) != 0 ||
	    (r = sbuf_put_string(req, data, dlen)) != 0 ||
	    (r = sbuf_put_u32(req, flags)) != 0 ||
	    (r = sbuf_put_cstring(req, pin != NULL ? pin : "")) != 0 ||
	    (r = transact(h, req, m)) != 0)
		goto out;
	r = p11_parse_sign(m, k, sigalg, data, dlen, sig, labelp);
 out:
	sbuf_wipe(req);
	sbuf_free(req);
	sbuf_free(m);
	sbuf_free(blob);
	return r;
}
