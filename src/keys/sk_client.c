/*
 * sk_client.c: running ssh-sk-helper for one security key operation
 * (sk_client.h). The helper's reply is checked by sk_proto.c; a
 * signature is verified here against the key before anyone sends it,
 * so a broken or hostile middleware costs a failed operation, never a
 * wrong one.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "err.h"
#include "fdio.h"
#include "installdirs.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "sk_api.h"
#include "sk_client.h"
#include "spawn.h"

#define SK_CHALLENGE_LEN	32

static int
runnable(const char *path)
{
	struct stat st;

	return access(path, X_OK) == 0 && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode);
}

char *
skc_helper_path(void)
{
	char exe[PATH_MAX], *slash, *p;
	ssize_t n;

	if (runnable(MOAT_LIBEXECDIR "/ssh-sk-helper"))
		return x_strdup(MOAT_LIBEXECDIR "/ssh-sk-helper");
	/* A build tree: beside the running program. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) == NULL)
		return NULL;
	*slash = '\0';
	p = x_asprintf("%s/ssh-sk-helper", exe);
	if (runnable(p))
		return p;
	x_free(p);
	return NULL;
}

const char *
skc_strerror(int skerr)
{
	switch (skerr) {
	case SSH_SK_ERR_UNSUPPORTED:
		return "requested feature not supported";
	case SSH_SK_ERR_PIN_REQUIRED:
		return "incorrect passphrase supplied to decrypt private key";
	case SSH_SK_ERR_DEVICE_NOT_FOUND:
		return "device not found";
	case SSH_SK_ERR_CREDENTIAL_EXISTS:
		return "credential already exists";
	default:
		return "unexpected internal error";
	}
}

/*
 * Send q to a fresh helper; its reply's fields into body (status read).
 */
static int
transact(const struct skh_request *q, struct sbuf *body, int *skerrp)
{
	struct sbuf *req = sbuf_new();
	char *path = NULL, *argv[2] = { (char *)"ssh-sk-helper", NULL };
	int fd = -1, r, status, skerr = 0;
	pid_t pid = -1;

	if ((r = skh_request_put(q, req)) != 0)
		goto out;
	if ((path = skc_helper_path()) == NULL) {
		log_error("no ssh-sk-helper found");
		r = ERR_NOT_FOUND;
		goto out;
	}
	if ((r = spawn_socketpair(path, argv, &fd, &pid)) != 0)
		goto out;
	/* A helper that breaks off or says too much: a broken reply. */
	if (fd_write_full(fd, sbuf_ptr(req), sbuf_len(req)) != 0 ||
	    msg_read_framed(fd, SKH_MAX_MSG, body) != 0)
		r = ERR_PROTOCOL;
	if (r == 0)
		r = skh_reply_status(body, &skerr);
 out:
	if (fd != -1)
		close(fd);
	if (pid > 0 && spawn_reap(pid, &status) == 0 && r == 0 &&
	    (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		r = ERR_PROTOCOL;
	if (r == ERR_PROTOCOL)
		log_debug("ssh-sk-helper %s: broken reply", path);
	if (skerrp != NULL)
		*skerrp = skerr;
	x_free(path);
	sbuf_wipe(req);
	sbuf_free(req);
	return r;
}

static void
request_init(struct skh_request *q, uint8_t type, const struct sk_where *w)
{
	memset(q, 0, sizeof(*q));
	q->type = type;
	q->provider = (char *)w->provider;
	q->device = (char *)w->device;
	q->pin = (char *)w->pin;
}

int
skc_enroll(const struct sk_where *w, enum key_type type,
    const char *application, uint8_t flags, const char *user,
    const unsigned char *challenge, size_t chlen, struct key **keyp,
    struct sbuf *attest, int *skerrp)
{
	struct skh_request q;
	struct sbuf *body = sbuf_new();
	unsigned char rnd[SK_CHALLENGE_LEN];
	int r;

	*keyp = NULL;
	if (skerrp != NULL)
		*skerrp = 0;
	request_init(&q, SKH_ENROLL, w);
	if ((r = skh_alg_of(type, &q.alg)) != 0)
		goto out;
	if (challenge == NULL) {
		if (RAND_bytes(rnd, sizeof(rnd)) != 1) {
			r = ERR_LIBCRYPTO;
			goto out;
		}
		challenge = rnd;
		chlen = sizeof(rnd);
	}
	q.application = (char *)application;
	q.flags = flags;
	q.user = (char *)user;
	q.data = (unsigned char *)challenge;
	q.datalen = chlen;
	if ((r = transact(&q, body, skerrp)) != 0)
		goto out;
	r = skh_parse_enroll(body, q.alg, application, keyp, attest);
 out:
	sbuf_free(body);
	return r;
}

int
skc_sign(const struct sk_where *w, const struct key *k,
    const unsigned char *data, size_t dlen, struct sbuf *sig, int *skerrp)
{
	struct skh_request q;
	struct sbuf *body = sbuf_new(), *s = sbuf_new();
	int r;

	if (skerrp != NULL)
		*skerrp = 0;
	request_init(&q, SKH_SIGN, w);
	if (!key_is_sk(k) || k->sk_key_handle == NULL) {
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	if ((r = skh_alg_of(k->type, &q.alg)) != 0)
		goto out;
	q.application = k->sk_application;
	q.flags = k->sk_flags;
	q.key_handle = k->sk_key_handle;
	q.khlen = k->sk_key_handle_len;
	q.data = (unsigned char *)data;
	q.datalen = dlen;
	if ((r = transact(&q, body, skerrp)) != 0 ||
	    (r = skh_parse_sign(body, k, s)) != 0)
		goto out;
	if ((r = key_verify(k, sbuf_ptr(s), sbuf_len(s), data, dlen,
	    NULL)) != 0) {
		log_debug("ssh-sk-helper: signature does not verify: %s",
		    err_str(r));
		r = ERR_SIGNATURE_INVALID;
		goto out;
	}
	r = sbuf_putb(sig, s);
 out:
	sbuf_free(body);
	sbuf_free(s);
	return r;
}

/*
 * Of the resident keys, those of SSH applications, as OpenSSH keeps
 * them: they need a touch, and user verification when made with it.
 */
static void
keep_ssh_keys(struct skh_resident *keys, size_t *np)
{
	size_t i, j = 0;
	struct key *k;

	for (i = 0; i < *np; i++) {
		k = keys[i].key;
		if (strncmp(k->sk_application, "ssh:", 4) != 0) {
			key_free(k);
			x_free(keys[i].user_id);
			continue;
		}
		k->sk_flags = SSH_SK_USER_PRESENCE_REQD | SSH_SK_RESIDENT_KEY |
		    (k->sk_flags & SSH_SK_USER_VERIFICATION_REQD);
		keys[j++] = keys[i];
	}
	*np = j;
}

int
skc_load_resident(const struct sk_where *w, struct skh_resident **keysp,
    size_t *nkeysp, int *skerrp)
{
	struct skh_request q;
	struct sbuf *body = sbuf_new();
	int r;

	*keysp = NULL;
	*nkeysp = 0;
	request_init(&q, SKH_LOAD_RESIDENT, w);
	if ((r = transact(&q, body, skerrp)) == 0)
		r = skh_parse_resident(body, keysp, nkeysp);
	sbuf_free(body);
	if (r == 0)
		keep_ssh_keys(*keysp, nkeysp);
	return r;
}
