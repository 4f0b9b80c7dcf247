/*
 * fuzz_monitor.c: the privileged monitor (src/server/monitor.c) reading
 * a hostile child's frames.
 *
 * The input is what the child writes on its socket: frames (monitor.h),
 * requests and answers to prompts, in any order and shape. The monitor
 * serves them one by one until it ends the connection or the input runs
 * out. Behind it is a stand-in authority with canned answers (the real
 * one would look users up and write btmp), so what is fuzzed is the
 * monitor's own parsing and bookkeeping. Checked besides the sanitizers:
 *   - the monitor never agrees the user is authenticated unless the
 *     stand-in said yes to a login (a signed publickey request, a
 *     password, a PAM conversation or a hostbased request);
 *   - the stand-in is never asked for anything post-auth before that,
 *     nor for anything pre-auth after it;
 *   - every frame the monitor writes back parses as a frame.
 * After a login the input may go on as the post-auth process would:
 * DH group requests, the transport state, login records of ptys (the
 * record writers are stand-ins here: a fuzzer run as root must not
 * write the machine's utmp and wtmp), and log lines anywhere.
 * Seeds: tests/fuzz/mkseeds_monitor.py.
 *
 * fuzz-ldflags: -Wl,--wrap=loginrec_login -Wl,--wrap=loginrec_logout
 */
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "authopts.h"
#include "err.h"
#include "log.h"
#include "loginrec.h"
#include "mem.h"
#include "monitor.h"
#include "servconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define REQUIRE(c)	do { if (!(c)) abort(); } while (0)

int __wrap_loginrec_login(const struct loginrec_files *f, const char *tty,
    pid_t pid, const char *user, uid_t uid, const char *host,
    const char *addr);
int __wrap_loginrec_logout(const struct loginrec_files *f, const char *tty);

int
__wrap_loginrec_login(const struct loginrec_files *f, const char *tty,
    pid_t pid, const char *user, uid_t uid, const char *host,
    const char *addr)
{
	if (f == NULL || tty == NULL || user == NULL || host == NULL ||
	    addr == NULL)
		abort();
	return 0;
}

int
__wrap_loginrec_logout(const struct loginrec_files *f, const char *tty)
{
	if (f == NULL || tty == NULL)
		abort();
	return 0;
}

static struct servconf *fz_sc;
static int fz_said_yes;		/* the stand-in said yes to a login */
static int fz_phase_post;	/* a post-auth operation was asked */

static int
st_sign(void *impl, size_t idx, const char *alg, const unsigned char *data,
    size_t dlen, struct sbuf *sig)
{
	if (idx > 0)
		return ERR_NOT_FOUND;
	if (dlen != 32 && dlen != 64)
		return ERR_PERMISSION_DENIED;
	return sbuf_put(sig, "signature", 9);
}

static int
st_lookup(void *impl, const char *user, struct authority_user *out)
{
	struct passwd pw;

	if (user[0] == 'x')
		return ERR_CONFIG;
	memset(&pw, 0, sizeof(pw));
	pw.pw_name = (char *)user;
	pw.pw_passwd = (char *)"*";
	pw.pw_uid = user[0] == 'r' ? 0 : 1000;
	pw.pw_gid = 1000;
	pw.pw_gecos = (char *)"";
	pw.pw_dir = (char *)"/nonexistent";
	pw.pw_shell = (char *)"/bin/sh";
	out->pw = auth_pw_dup(&pw);
	out->valid = user[0] != 'i';
	out->pam = 0;
	out->sc = servconf_dup(fz_sc);
	out->blocks = x_calloc(2, sizeof(*out->blocks));
	out->nblocks = 1;
	return 0;
}

static int
st_banner(void *impl, struct sbuf *text)
{
	return sbuf_put(text, "banner\n", 7);
}

static int
st_pubkey(void *impl, const struct authority_pubkey_req *q, int *okp,
    struct authopts **optsp)
{
	if (q->bloblen == 0 || (q->blob[0] & 1) == 0)
		return 0;
	*okp = 1;
	*optsp = authopts_new();
	if (q->bloblen > 1 && q->blob[1] == 'c')
		(*optsp)->force_command = x_strdup("forced");
	if (q->has_sig)
		fz_said_yes = 1;
	return 0;
}

static int
st_hostbased(void *impl, const struct authority_hostbased_req *q, int *okp)
{
	*okp = q->bloblen > 0 && q->blob[0] == 'h';
	fz_said_yes |= *okp;
	return 0;
}

static int
st_passwd(void *impl, const char *user, const char *password, int *okp)
{
	*okp = strcmp(password, "right") == 0;
	fz_said_yes |= *okp;
	return 0;
}

static int
st_kbdint(void *impl, const char *user, auth_pam_ask_fn ask, void *arg,
    int *okp)
{
	const char *prompts[2] = { "Password: ", "Code: " };
	int echo[2] = { 0, 1 };
	char **ans = NULL;
	size_t i;
	int r;

	if ((r = ask(arg, "instruction", 2, prompts, echo, &ans)) != 0)
		return r;
	*okp = strcmp(ans[0], "right") == 0;
	fz_said_yes |= *okp;
	for (i = 0; i < 2; i++)
		x_free(ans[i]);
	x_free(ans);
	if (*okp)
		return 0;
	/* A second round, text only. */
	if ((r = ask(arg, "try again", 0, NULL, NULL, &ans)) != 0)
		return r;
	x_free(ans);
	return 0;
}

static int
st_account(void *impl, const char *user, int *okp)
{
	*okp = 1;
	return 0;
}

static int
st_failed(void *impl, const char *user)
{
	return 0;
}

static int
st_session_open(void *impl, const char *tty)
{
	fz_phase_post = 1;
	return 0;
}

static int
st_session_close(void *impl)
{
	fz_phase_post = 1;
	return 0;
}

static void
st_free(void *impl)
{
}

static const struct authority_ops st_ops = {
	st_sign, st_lookup, st_banner, st_pubkey, st_hostbased, st_passwd,
	st_kbdint, st_account, st_failed, st_session_open, st_session_close,
	st_free, NULL, NULL,
};

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file(getenv("FUZZ_LOG") ? "/dev/stderr" : "/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	fz_sc = servconf_new();
	REQUIRE(servconf_parse_line(fz_sc, "AuthenticationMethods "
	    "publickey,password keyboard-interactive hostbased", "fuzz",
	    1) == 0);
	REQUIRE(servconf_parse_line(fz_sc, "PermitRootLogin "
	    "forced-commands-only", "fuzz", 2) == 0);
	REQUIRE(servconf_parse_line(fz_sc, "HostbasedAuthentication yes",
	    "fuzz", 2) == 0);
	REQUIRE(servconf_parse_line(fz_sc, "Match User nobody", "fuzz",
	    3) == 0);
	REQUIRE(servconf_parse_line(fz_sc, "PermitRootLogin yes", "fuzz",
	    4) == 0);
	REQUIRE(servconf_finish(fz_sc) == 0);
	return 0;
}

/* Read back what the monitor wrote: whole frames only. */
static void
drain(int fd)
{
	struct sbuf *b = sbuf_new();
	uint8_t type;
	int fl = fcntl(fd, F_GETFL);
	char c;

	for (;;) {
		(void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
		if (recv(fd, &c, 1, MSG_PEEK) != 1)
			break;
		(void)fcntl(fd, F_SETFL, fl);
		REQUIRE(mon_recv(fd, &type, b) == 0);
		REQUIRE(type == MON_ANSWER || type == MON_PROMPT ||
		    type == MON_LOGGED);
	}
	(void)fcntl(fd, F_SETFL, fl);
	sbuf_free(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct monitor *m;
	int sv[2], r, before;

	/* Larger inputs would fill the socket before the monitor reads. */
	if (size > 100000)
		return 0;
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	{
		int sz = 262144;

		(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		(void)setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	}
	if (size > 0)
		REQUIRE(write(sv[0], data, size) == (ssize_t)size);
	shutdown(sv[0], SHUT_WR);
	fz_said_yes = 0;
	fz_phase_post = 0;
	m = monitor_new(authority_new(&st_ops, NULL), sv[1]);
	do {
		before = monitor_authenticated(m);
		r = monitor_serve_one(m);
		/* Post-auth operations only once authenticated. */
		REQUIRE(!fz_phase_post || before || monitor_authenticated(m));
		drain(sv[0]);
	} while (r == 0);
	REQUIRE(!monitor_authenticated(m) || fz_said_yes);
	monitor_free(m);
	close(sv[0]);
	close(sv[1]);
	return 0;
}
