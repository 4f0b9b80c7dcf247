/*
 * clienthostbased.c: hostbased authentication, client side (RFC 4252
 * section 9), with the machine's host keys signing through the setuid
 * helper ssh-keysign (see clienthostbased.h for its protocol).
 *
 * The public host keys come from /etc/ssh/ssh_host_*_key.pub, read when
 * the method is first tried. Keys are offered in HostbasedAcceptedAlgorithms
 * order, one request each, signed at once (hostbased has no query step):
 *
 *   string user, "ssh-connection", "hostbased", string pkalg,
 *   string key blob, string client host (FQDN + "."), string local user,
 *   string signature over session id, byte 50 and all of the above
 *
 * A key the helper will not sign is skipped. A key that got a partial
 * success is not offered again.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <string.h>
#include <unistd.h>

#include "clientauth_int.h"
#include "clienthostbased.h"
#include "err.h"
#include "fdio.h"
#include "installdirs.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

static const char *const host_key_files[] = {
	MOAT_SSHDIR "/ssh_host_ecdsa_key.pub",
	MOAT_SSHDIR "/ssh_host_ed25519_key.pub",
	MOAT_SSHDIR "/ssh_host_rsa_key.pub",
};
#define NHBKEYS (sizeof(host_key_files) / sizeof(host_key_files[0]))

/*
 * Where the helper is looked for: ours first (the install prefix's
 * libexec, then beside the running ssh, as in a build tree), then the
 * system's OpenSSH.
 */
static const char *const keysign_paths[] = {
	MOAT_LIBEXECDIR "/ssh-keysign",	/* installdirs.h */
	"",			/* the running ssh's directory */
	"/usr/lib/openssh/ssh-keysign",
	"/usr/libexec/openssh/ssh-keysign",
	"/usr/libexec/ssh-keysign",
	"/usr/lib/ssh/ssh-keysign",
};

struct ca_hb {
	struct key *keys[NHBKEYS];
	const char *paths[NHBKEYS];
	int tried[NHBKEYS];		/* offered since the last step */
	int used[NHBKEYS];		/* gave a partial success */
	size_t nkeys;
	char *chost;
};

/* ---- the helper ---- */

int
hb_keysign_request(struct sbuf *out, const unsigned char *data, size_t dlen)
{
	int r;

	if (dlen > HB_KEYSIGN_MAX_REPLY)
		return ERR_INVALID_ARGUMENT;
	/* length covers version, fd and the string */
	if ((r = sbuf_put_u32(out, (uint32_t)(1 + 4 + 4 + dlen))) != 0 ||
	    (r = sbuf_put_u8(out, HB_KEYSIGN_VERSION)) != 0 ||
	    (r = sbuf_put_u32(out, HB_KEYSIGN_FD)) != 0 ||
	    (r = sbuf_put_string(out, data, dlen)) != 0)
		return r;
	return 0;
}

int
hb_keysign_reply(struct sbuf *body, struct sbuf *sig)
{
	const unsigned char *s;
	size_t slen;
	uint8_t v;
	int r;

	if ((r = sbuf_get_u8(body, &v)) != 0 ||
	    (r = sbuf_get_string_direct(body, &s, &slen)) != 0)
		return r;
	if (v != HB_KEYSIGN_VERSION || sbuf_len(body) != 0 || slen == 0)
		return ERR_PROTOCOL;
	return sbuf_put(sig, s, slen);
}

int
hb_local_name(int sock, char **namep)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char name[NI_MAXHOST];

	*namep = NULL;
	memset(&ss, 0, sizeof(ss));
	if (getsockname(sock, (struct sockaddr *)&ss, &sl) != 0 ||
	    (ss.ss_family != AF_INET && ss.ss_family != AF_INET6) ||
	    getnameinfo((struct sockaddr *)&ss, sl, name, sizeof(name),
	    NULL, 0, NI_NAMEREQD) != 0) {
		/* Not a socket, or no name: the machine's name. */
		if (gethostname(name, sizeof(name)) != 0)
			return ERR_SYSTEM;
		name[sizeof(name) - 1] = '\0';
	}
	*namep = x_asprintf("%s.", name);
	return 0;
}

/*
 * A helper that can read the host keys: setuid root, or any helper when
 * we are root ourselves (a build tree's copy is not setuid).
 */
static int
keysign_usable(const char *path)
{
	struct stat st;

	if (access(path, X_OK) != 0 || stat(path, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	return getuid() == 0 || ((st.st_mode & S_ISUID) && st.st_uid == 0);
}

char *
hb_keysign_path(void)
{
	char exe[PATH_MAX], *slash, *p;
	ssize_t n;
	size_t i;

	for (i = 0; i < sizeof(keysign_paths) / sizeof(keysign_paths[0]); i++) {
		if (keysign_paths[i][0] != '\0') {
			if (keysign_usable(keysign_paths[i]))
				return x_strdup(keysign_paths[i]);
			continue;
		}
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			continue;
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) == NULL)
			continue;
		*slash = '\0';
		p = x_asprintf("%s/ssh-keysign", exe);
		if (keysign_usable(p))
			return p;
		x_free(p);
	}
	return NULL;
}

/* In the child: stdin and stdout the socketpair end, fd 3 the socket. */
static void
exec_helper(const char *path, int end, int sock)
{
	long max = sysconf(_SC_OPEN_MAX);
	int e, s, fd;

	if ((e = fcntl(end, F_DUPFD_CLOEXEC, 10)) < 0 ||
	    (s = fcntl(sock, F_DUPFD_CLOEXEC, 10)) < 0 ||
	    dup2(e, STDIN_FILENO) < 0 || dup2(e, STDOUT_FILENO) < 0 ||
	    dup2(s, HB_KEYSIGN_FD) < 0)
		_exit(127);
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = HB_KEYSIGN_FD + 1; fd < max; fd++)
		close(fd);
	execl(path, "ssh-keysign", (char *)NULL);
	_exit(127);
}

int
hb_keysign(const char *path, int sock, const unsigned char *data,
    size_t dlen, struct sbuf *sig)
{
	struct sbuf *req = sbuf_new(), *body = NULL;
	unsigned char lenb[4], *bp;
	uint32_t blen;
	int sp[2] = { -1, -1 }, r, status;
	pid_t pid = -1;

	if ((r = hb_keysign_request(req, data, dlen)) != 0)
		goto out;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp) != 0) {
		r = ERR_SYSTEM;
		goto out;
	}
	if ((pid = fork()) < 0) {
		r = ERR_SYSTEM;
		goto out;
	}
	if (pid == 0)
		exec_helper(path, sp[1], sock);
	close(sp[1]);
	sp[1] = -1;
	if ((r = fd_write_full(sp[0], sbuf_ptr(req), sbuf_len(req))) != 0 ||
	    (r = fd_read_full(sp[0], lenb, sizeof(lenb))) != 0)
		goto out;
	blen = (uint32_t)lenb[0] << 24 | (uint32_t)lenb[1] << 16 |
	    (uint32_t)lenb[2] << 8 | lenb[3];
	if (blen == 0 || blen > HB_KEYSIGN_MAX_REPLY) {
		r = ERR_PROTOCOL;
		goto out;
	}
	body = sbuf_new();
	if ((r = sbuf_reserve(body, blen, &bp)) != 0 ||
	    (r = fd_read_full(sp[0], bp, blen)) != 0 ||
	    (r = hb_keysign_reply(body, sig)) != 0)
		goto out;
 out:
	if (sp[0] != -1)
		close(sp[0]);
	if (sp[1] != -1)
		close(sp[1]);
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (r == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
			r = ERR_PROTOCOL;
	}
	if (r != 0)
		log_debug("ssh-keysign %s: %s", path, err_str(r));
	sbuf_free(req);
	sbuf_free(body);
	return r;
}

/* ---- the method ---- */

static int
hb_load(struct ca_ctx *c)
{
	struct ca_hb *hb = x_calloc(1, sizeof(*hb));
	struct key *k;
	size_t i;
	int r;

	c->hb = hb;
	for (i = 0; i < NHBKEYS; i++) {
		if (key_load_public(host_key_files[i], &k, NULL) != 0)
			continue;
		hb->paths[hb->nkeys] = host_key_files[i];
		hb->keys[hb->nkeys++] = k;
	}
	if ((r = hb_local_name(tr_fd_in(c->t), &hb->chost)) != 0)
		return r;
	log_debug("hostbased: %zu host keys, client host %s", hb->nkeys,
	    hb->chost);
	return 0;
}

void
ca_hostbased_free(struct ca_ctx *c)
{
	size_t i;

	if (c->hb == NULL)
		return;
	for (i = 0; i < c->hb->nkeys; i++)
		key_free(c->hb->keys[i]);
	x_free(c->hb->chost);
	x_free(c->hb);
	c->hb = NULL;
}

void
ca_hostbased_reset(struct ca_ctx *c)
{
	size_t i;

	if (c->hb == NULL)
		return;
	for (i = 0; i < c->hb->nkeys; i++) {
		if (c->hb_cur == (int)i)
			c->hb->used[i] = 1;
		c->hb->tried[i] = 0;
	}
	c->hb_cur = -1;
}

/*
 * The next key to offer: walk the accepted algorithms in order, the
 * first untried key whose signature algorithm is the one named. Its
 * index in hb->keys with *algp set, or -1 when none is left (an index,
 * not an error code).
 */
static int
pick_key(struct ca_ctx *c, const char **algp)
{
	const char *acc = c->o->hostbased_accepted_algorithms;
	const char *p, *e, *alg;
	struct ca_hb *hb = c->hb;
	size_t i, len;

	if (acc == NULL)
		acc = key_sigalg_all_names();
	for (p = acc; *p != '\0'; p = *e ? e + 1 : e) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		len = (size_t)(e - p);
		for (i = 0; i < hb->nkeys; i++) {
			if (hb->tried[i] || hb->used[i])
				continue;
			alg = ca_pick_sigalg(hb->keys[i],
			    tr_peer_sig_algs(c->t), acc);
			if (alg != NULL && strlen(alg) == len &&
			    strncmp(alg, p, len) == 0) {
				*algp = alg;
				return (int)i;
			}
		}
	}
	return -1;
}

/* The signed part: session id, byte 50, then the request's fields. */
static int
put_fields(struct ca_ctx *c, struct sbuf *b, const char *alg,
    const struct sbuf *blob, const char *luser)
{
	int r;

	if ((r = sbuf_put_cstring(b, c->user)) != 0 ||
	    (r = sbuf_put_cstring(b, "ssh-connection")) != 0 ||
	    (r = sbuf_put_cstring(b, "hostbased")) != 0 ||
	    (r = sbuf_put_cstring(b, alg)) != 0 ||
	    (r = sbuf_put_stringb(b, blob)) != 0 ||
	    (r = sbuf_put_cstring(b, c->hb->chost)) != 0 ||
	    (r = sbuf_put_cstring(b, luser)) != 0)
		return r;
	return 0;
}

int
ca_hostbased_next(struct ca_ctx *c)
{
	struct sbuf *blob = NULL, *data = NULL, *sig = NULL, *m;
	const unsigned char *sid;
	const char *alg = NULL, *luser;
	char *helper;
	size_t sidlen;
	char *fp;
	int i, r;

	c->hb_cur = -1;
	if (c->hb == NULL && (r = hb_load(c)) != 0)
		return r;
	if ((helper = hb_keysign_path()) == NULL) {
		log_debug("hostbased: no ssh-keysign found");
		return 0;
	}
	log_debug("hostbased: using ssh-keysign %s", helper);
	luser = readconf_local_user(c->o);
	while ((i = pick_key(c, &alg)) >= 0) {
		c->hb->tried[i] = 1;
		sbuf_free(blob);
		sbuf_free(data);
		sbuf_free(sig);
		blob = sbuf_new();
		data = sbuf_new();
		sig = sbuf_new();
		sid = tr_session_id(c->t, &sidlen);
		if ((r = key_to_blob(c->hb->keys[i], blob)) != 0 ||
		    (r = sbuf_put_string(data, sid, sidlen)) != 0 ||
		    (r = sbuf_put_u8(data, SSH2_MSG_USERAUTH_REQUEST)) != 0 ||
		    (r = put_fields(c, data, alg, blob, luser)) != 0)
			goto out;
		fp = key_fingerprint(c->hb->keys[i], KEY_FP_SHA256);
		log_debug("Offering hostbased key %s %s %s", c->hb->paths[i],
		    alg, fp != NULL ? fp : "");
		x_free(fp);
		if (hb_keysign(helper, tr_fd_in(c->t), sbuf_ptr(data),
		    sbuf_len(data), sig) != 0 ||
		    key_verify(c->hb->keys[i], sbuf_ptr(sig), sbuf_len(sig),
		    sbuf_ptr(data), sbuf_len(data), alg) != 0) {
			log_debug("hostbased: no signature for %s",
			    c->hb->paths[i]);
			continue;
		}
		if ((m = ca_request_start(c, "hostbased")) == NULL) {
			r = ERR_INTERNAL;
			goto out;
		}
		/* put_fields starts with the header ca_request_start wrote */
		if ((r = sbuf_put_cstring(m, alg)) != 0 ||
		    (r = sbuf_put_stringb(m, blob)) != 0 ||
		    (r = sbuf_put_cstring(m, c->hb->chost)) != 0 ||
		    (r = sbuf_put_cstring(m, luser)) != 0 ||
		    (r = sbuf_put_stringb(m, sig)) != 0 ||
		    (r = tr_msg_send(c->t)) != 0)
			goto out;
		c->hb_cur = i;
		c->signed_sent = 1;
		r = 1;
		goto out;
	}
	r = 0;
 out:
	x_free(helper);
	sbuf_free(blob);
	sbuf_free(data);
	sbuf_free(sig);
	return r;
}

/* Hostbased has no message 60. */
int
ca_hostbased_msg60(struct ca_ctx *c, struct sbuf *p)
{
	(void)c;
	(void)p;
	return ERR_PROTOCOL;
}
