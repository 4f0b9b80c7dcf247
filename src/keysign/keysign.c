/*
 * keysign.c: ssh-keysign, the helper ssh(1) runs to sign hostbased
 * requests with the machine's host keys. It is installed setuid root
 * (the keys are readable by root only), so it is written to trust
 * nothing from its caller:
 *
 *   1. fds 0-2 are made to exist, every fd above 3 is closed and the
 *      environment is cleared;
 *   2. the host key files are opened (not read) while privileged;
 *   3. privileges are dropped for good (setresgid, setresuid to the real
 *      ids) and the process made undumpable, so the caller cannot trace
 *      it for the keys;
 *   4. only then: /etc/ssh/ssh_config must say EnableSSHKeysign yes, the
 *      keys are read from the open files, and one request is read from
 *      stdin (protocol in src/client/clienthostbased.h), checked by
 *      ks_check_request() against the caller's user name and the local
 *      name of the connection at fd 3, signed and answered on stdout.
 *
 * Errors go to stderr, which the client shows, and the exit status is 1.
 */
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "client.h"
#include "clienthostbased.h"
#include "err.h"
#include "fdio.h"
#include "installdirs.h"
#include "key.h"
#include "keysign.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"

#define KS_CONFIG	MOAT_SSHDIR "/ssh_config"

static const char *const host_keys[] = {
	MOAT_SSHDIR "/ssh_host_ecdsa_key",
	MOAT_SSHDIR "/ssh_host_ed25519_key",
	MOAT_SSHDIR "/ssh_host_rsa_key",
};
#define NKEYS (sizeof(host_keys) / sizeof(host_keys[0]))

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_LEVEL_FATAL, fmt, ap);
	va_end(ap);
	exit(1);
}

/* fds 0, 1 and 2 open (on /dev/null if need be), none above 3. */
static void
sanitise_fds(void)
{
	int fd;

	for (;;) {
		if ((fd = open("/dev/null", O_RDWR)) < 0)
			exit(1);
		if (fd > STDERR_FILENO) {
			close(fd);
			break;
		}
	}
	closefrom(HB_KEYSIGN_FD + 1);
}

/* For good: real ids everywhere, no way back, no tracing, no core. */
static void
drop_privileges(void)
{
	struct rlimit rl = { 0, 0 };
	uid_t uid = getuid(), ru, eu, su;
	gid_t gid = getgid(), rg, eg, sg;

	if (setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0)
		die("ssh-keysign: setresuid/setresgid: %s", strerror(errno));
	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0 ||
	    ru != uid || eu != uid || su != uid ||
	    rg != gid || eg != gid || sg != gid)
		die("ssh-keysign: privileges not dropped");
	if (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0))
		die("ssh-keysign: could regain privileges");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 ||
	    setrlimit(RLIMIT_CORE, &rl) != 0)
		die("ssh-keysign: cannot make the process undumpable");
}

/* A private key from an fd opened while privileged; the fd is closed. */
static int
load_key_fd(int fd, struct key **kp)
{
	struct sbuf *file = sbuf_new();
	struct stat st;
	unsigned char *p;
	int r;

	*kp = NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		r = ERR_SYSTEM;
		goto out;
	}
	if (st.st_size <= 0 || st.st_size > KS_MAX_KEYFILE) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if ((r = sbuf_reserve(file, (size_t)st.st_size, &p)) != 0 ||
	    (r = fd_read_full(fd, p, (size_t)st.st_size)) != 0)
		goto out;
	r = key_parse_private(file, NULL, kp, NULL);
 out:
	close(fd);
	sbuf_free(file);
	return r;
}

/* The request message from stdin (after its length prefix) into b. */
static int
read_request(struct sbuf *b)
{
	unsigned char lenb[4], *p;
	uint32_t len;
	int r;

	if ((r = fd_read_full(STDIN_FILENO, lenb, sizeof(lenb))) != 0)
		return r;
	len = (uint32_t)lenb[0] << 24 | (uint32_t)lenb[1] << 16 |
	    (uint32_t)lenb[2] << 8 | lenb[3];
	if (len == 0 || len > KS_MAX_REQUEST)
		return ERR_PACKET_TOO_LARGE;
	if ((r = sbuf_reserve(b, len, &p)) != 0)
		return r;
	return fd_read_full(STDIN_FILENO, p, len);
}

static int
send_reply(const struct sbuf *sig)
{
	struct sbuf *m = sbuf_new();
	int r;

	if ((r = sbuf_put_u32(m, (uint32_t)(1 + 4 + sbuf_len(sig)))) != 0 ||
	    (r = sbuf_put_u8(m, HB_KEYSIGN_VERSION)) != 0 ||
	    (r = sbuf_put_stringb(m, sig)) != 0 ||
	    (r = fd_write_full(STDOUT_FILENO, sbuf_ptr(m), sbuf_len(m))) != 0)
		goto out;
 out:
	sbuf_free(m);
	return r;
}

int
main(int argc, char **argv)
{
	int keyfd[NKEYS];
	struct key *keys[NKEYS];
	struct client_opts *o;
	struct passwd *pw;
	struct sbuf *req, *sig;
	const unsigned char *data;
	struct stat st;
	size_t i, nkeys = 0, dlen, idx;
	char *luser, *lhost = NULL, *alg = NULL, *fp;
	uint32_t fd;
	unsigned int ver;
	int r;

	(void)argc;
	(void)argv;
	/* Before anything else: the caller chose fds and environment. */
	sanitise_fds();
	if (clearenv() != 0)
		exit(1);
	log_init("ssh-keysign", LOG_LEVEL_ERROR, LOG_AUTH, 1);
	for (i = 0; i < NKEYS; i++)
		keyfd[i] = open(host_keys[i], O_RDONLY | O_NOCTTY | O_CLOEXEC);
	drop_privileges();

	/* The administrator must have turned it on. */
	o = client_opts_new();
	r = readconf_load(o, KS_CONFIG, 0);
	if (r != 0 && r != ERR_NOT_FOUND)
		die("ssh-keysign: cannot read %s: %s", KS_CONFIG, err_str(r));
	if (o->enable_ssh_keysign != 1)
		die("ssh-keysign not enabled in %s", KS_CONFIG);
	client_opts_free(o);

	for (i = 0; i < NKEYS; i++) {
		keys[i] = NULL;
		if (keyfd[i] < 0)
			continue;
		if ((r = load_key_fd(keyfd[i], &keys[i])) != 0)
			log_debug("ssh-keysign: %s: %s", host_keys[i],
			    err_str(r));
		else
			nkeys++;
	}
	if (nkeys == 0)
		die("ssh-keysign: no hostkey found");

	if ((pw = getpwuid(getuid())) == NULL)
		die("ssh-keysign: getpwuid failed");
	luser = x_strdup(pw->pw_name);

	req = sbuf_new();
	if ((r = read_request(req)) != 0)
		die("ssh-keysign: reading the request: %s", err_str(r));
	r = ks_parse_message(req, &ver, &fd, &data, &dlen);
	if (r == ERR_PROTOCOL)
		die("bad version: received %u, expected %d", ver,
		    HB_KEYSIGN_VERSION);
	if (r == ERR_INVALID_ARGUMENT)
		die("ssh-keysign: bad fd = %u", fd);
	if (r != 0)
		die("ssh-keysign: malformed request");
	if (fstat(HB_KEYSIGN_FD, &st) != 0 || !S_ISSOCK(st.st_mode))
		die("ssh-keysign: fd %d is not a socket", HB_KEYSIGN_FD);
	if (hb_local_name(HB_KEYSIGN_FD, &lhost) != 0)
		die("ssh-keysign: cannot get local name for fd");

	r = ks_check_request(data, dlen, luser, lhost, keys, NKEYS, &idx,
	    &alg);
	if (r == ERR_NOT_FOUND)
		die("ssh-keysign: no matching hostkey found");
	if (r != 0)
		die("ssh-keysign: not a valid request");

	sig = sbuf_new();
	if ((r = key_sign(keys[idx], alg, data, dlen, sig)) != 0) {
		fp = key_fingerprint(keys[idx], KEY_FP_SHA256);
		die("ssh-keysign: signing with %s %s failed: %s", alg,
		    fp != NULL ? fp : "", err_str(r));
	}
	if ((r = send_reply(sig)) != 0)
		die("ssh-keysign: writing the reply: %s", err_str(r));

	for (i = 0; i < NKEYS; i++)
		key_free(keys[i]);
	sbuf_free(sig);
	sbuf_free(req);
	x_free(alg);
	x_free(lhost);
	x_free(luser);
	return 0;
}
