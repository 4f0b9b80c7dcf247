/*
 * authority_local.c: the in-process authority (authority.h), the part
 * about users: looking one up, the banner, passwords, PAM, btmp.
 *
 * It does today's work by calling the server's existing code with the
 * privileges of this process: getpwnam() and the Match blocks, the
 * account checks (auth_user.c), the shadow file (auth_passwd.c), PAM
 * (auth_pam.c), btmp (loginrec.c). The state of the connection (the
 * client's address, the user, the account, the settings with Match
 * applied, the PAM transaction) lives here, not with the caller: after
 * user_lookup, every request must name the same user and is answered
 * from this state. The key operations are in authority_keys.c.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "authority_local.h"
#include "err.h"
#include "log.h"
#include "loginrec.h"
#include "match.h"
#include "mem.h"

#define AUTH_MAX_BANNER	(64 * 1024)

int
authority_local_user_is(const struct authority_local *l, const char *user)
{
	if (l->user == NULL || l->sc == NULL) {
		log_error("authority: request before the user is known");
		return ERR_PERMISSION_DENIED;
	}
	if (user == NULL || strcmp(user, l->user) != 0) {
		log_error("authority: request for user %.100s, not %.100s",
		    user ? user : "(none)", l->user);
		return ERR_PERMISSION_DENIED;
	}
	return 0;
}

/* The passwd entry an unknown user is given. */
static struct passwd *
fake_pw(const char *user)
{
	struct passwd f;

	memset(&f, 0, sizeof(f));
	f.pw_name = (char *)user;
	f.pw_passwd = (char *)"*";
	f.pw_uid = (uid_t)-1;
	f.pw_gid = (gid_t)-1;
	f.pw_gecos = (char *)"";
	f.pw_dir = (char *)"/nonexistent";
	f.pw_shell = (char *)"/nonexistent";
	return auth_pw_dup(&f);
}

/* A failed login by l's user in btmp (root only; loginrec_failed()). */
static void
btmp_record(const struct authority_local *l)
{
	const struct auth_conn *c = &l->conn;

	if (geteuid() == 0)
		(void)loginrec_failed(loginrec_system_files(), l->user,
		    c->remote_host ? c->remote_host : c->remote_addr,
		    c->remote_addr);
}

/* The copy the caller gets: everything but the password hash. */
static struct passwd *
pw_for_caller(const struct passwd *pw)
{
	struct passwd *c = auth_pw_dup(pw);

	x_freezero(c->pw_passwd, strlen(c->pw_passwd));
	c->pw_passwd = x_strdup("*");
	return c;
}

static int
local_user_lookup(void *impl, const char *user, struct authority_user *out)
{
	struct authority_local *l = impl;
	const struct auth_conn *c = &l->conn;
	const char *rhost = c->remote_host ? c->remote_host : c->remote_addr;
	struct match_conn mc;
	struct passwd *pw;
	uint32_t *blocks = NULL;
	size_t nblocks = 0;
	int r;

	if (l->user != NULL) {
		log_error("authority: user already looked up");
		return ERR_PERMISSION_DENIED;
	}
	l->user = x_strdup(user);
	errno = 0;
	pw = getpwnam(user);
	memset(&mc, 0, sizeof(mc));
	mc.user = user;
	mc.host = rhost;
	mc.address = c->remote_addr;
	mc.laddress = c->local_addr;
	mc.lport = c->local_port;
	if ((r = servconf_match_blocks(l->gsc, &mc, &blocks, &nblocks)) != 0 ||
	    (r = servconf_apply_blocks(l->gsc, blocks, nblocks, &l->sc)) != 0) {
		log_error("cannot apply Match settings for user %.100s", user);
		x_free(blocks);
		return r;
	}
	/* servconf_apply_match() may look the user up again: copy now. */
	l->pw = pw != NULL ? auth_pw_dup(pw) : NULL;
	if (l->sc->use_pam && auth_pam_start(l->sc->pam_service_name, user,
	    rhost, &l->pam) != 0)
		log_error("PAM: cannot start for user %.100s; PAM methods will "
		    "fail", user);
	if (l->pw == NULL) {
		log_info("Invalid user %.100s from %s port %d", user,
		    c->remote_addr, c->remote_port);
		l->pw = fake_pw(user);
		l->valid = 0;
		btmp_record(l);
	} else
		l->valid = auth_user_allowed(l->sc, l->pw, c->remote_host,
		    c->remote_addr);
	/* The monitor ends the connection when it sees the setting. */
	if (l->sc->refuse_connection)
		log_info("administratively prohibited connection for %s%.100s "
		    "from %.128s port %d", l->valid ? "" : "invalid user ",
		    user, c->remote_addr, c->remote_port);
	out->pw = pw_for_caller(l->pw);
	out->valid = l->valid;
	out->pam = l->pam != NULL;
	out->sc = servconf_dup(l->sc);
	out->blocks = blocks;
	out->nblocks = nblocks;
	return 0;
}

static int
local_banner(void *impl, struct sbuf *text)
{
	struct authority_local *l = impl;
	unsigned char buf[4096];
	size_t start = sbuf_len(text);
	ssize_t n;
	int fd, r;

	if ((r = authority_local_user_is(l, l->user)) != 0)
		return r;
	if (l->sc->banner == NULL || strcasecmp(l->sc->banner, "none") == 0)
		return 0;
	if ((fd = open(l->sc->banner, O_RDONLY | O_NOCTTY)) == -1) {
		log_error("cannot open banner %s: %s", l->sc->banner,
		    strerror(errno));
		return 0;
	}
	while (sbuf_len(text) - start < AUTH_MAX_BANNER &&
	    (n = read(fd, buf, sizeof(buf))) > 0)
		if ((r = sbuf_put(text, buf, (size_t)n)) != 0)
			break;
	close(fd);
	if (sbuf_len(text) - start > AUTH_MAX_BANNER)
		sbuf_consume_end(text, sbuf_len(text) - start - AUTH_MAX_BANNER);
	return r;
}

static int
local_passwd_check(void *impl, const char *user, const char *password,
    int *okp)
{
	struct authority_local *l = impl;
	int r, ok;

	if ((r = authority_local_user_is(l, user)) != 0)
		return r;
	if (l->sc->use_pam)
		ok = l->pam != NULL && auth_pam_password(l->pam,
		    l->sc->permit_empty_passwords, password) == 0;
	else
		ok = auth_passwd_check(l->pw, l->valid, password,
		    l->sc->permit_empty_passwords) == 0;
	*okp = ok && l->valid;
	return 0;
}

static int
local_kbdint(void *impl, const char *user, auth_pam_ask_fn ask, void *arg,
    int *okp)
{
	struct authority_local *l = impl;
	int r;

	if ((r = authority_local_user_is(l, user)) != 0)
		return r;
	if (!l->sc->use_pam || l->pam == NULL)
		return ERR_FEATURE_UNSUPPORTED;
	r = auth_pam_kbdint(l->pam, l->sc->permit_empty_passwords, ask, arg);
	if (r == ERR_PERMISSION_DENIED)
		return 0;
	if (r != 0)
		return r;
	/* PAM's verdict; the caller refuses a user that is not valid. */
	*okp = 1;
	return 0;
}

static int
local_account_check(void *impl, const char *user, int *okp)
{
	struct authority_local *l = impl;
	int r;

	if ((r = authority_local_user_is(l, user)) != 0)
		return r;
	if (!l->sc->use_pam)
		*okp = 1;
	else
		*okp = l->pam != NULL && auth_pam_account(l->pam) == 0;
	return 0;
}

static int
local_record_failed_login(void *impl, const char *user)
{
	struct authority_local *l = impl;
	int r;

	if ((r = authority_local_user_is(l, user)) != 0)
		return r;
	btmp_record(l);
	return 0;
}

static int
local_session_open(void *impl, const char *tty)
{
	struct authority_local *l = impl;

	return auth_pam_open_session(l->pam, tty);
}

static char *
local_login_text(void *impl)
{
	struct authority_local *l = impl;

	return auth_pam_login_text(l->pam);
}

static int
local_session_close(void *impl)
{
	struct authority_local *l = impl;

	return auth_pam_close_session(l->pam);
}

static void
local_free(void *impl)
{
	struct authority_local *l = impl;

	if (l == NULL)
		return;
	auth_pam_end(l->pam);
	auth_pw_free(l->pw);
	if (l->sc != NULL)
		servconf_free(l->sc);
	x_free(l->user);
	x_free(l->remote_host);
	x_free(l->remote_addr);
	x_free(l->local_addr);
	x_free(l);
}

static const struct authority_ops local_ops = {
	.hostkey_sign = authority_local_hostkey_sign,
	.user_lookup = local_user_lookup,
	.banner = local_banner,
	.pubkey_check = authority_local_pubkey_check,
	.hostbased_check = authority_local_hostbased_check,
	.passwd_check = local_passwd_check,
	.kbdint = local_kbdint,
	.account_check = local_account_check,
	.record_failed_login = local_record_failed_login,
	.session_open = local_session_open,
	.session_close = local_session_close,
	.free = local_free,
	.login_text = local_login_text,
};

static char *
dup_or_null(const char *s)
{
	return s != NULL ? x_strdup(s) : NULL;
}

struct authority *
authority_local_new(const struct authority_local_config *cfg)
{
	struct authority_local *l = x_calloc(1, sizeof(*l));

	l->gsc = cfg->sc;
	l->remote_host = dup_or_null(cfg->conn->remote_host);
	l->remote_addr = dup_or_null(cfg->conn->remote_addr);
	l->local_addr = dup_or_null(cfg->conn->local_addr);
	l->conn.remote_host = l->remote_host;
	l->conn.remote_addr = l->remote_addr;
	l->conn.remote_port = cfg->conn->remote_port;
	l->conn.local_addr = l->local_addr;
	l->conn.local_port = cfg->conn->local_port;
	l->hostkeys = cfg->hostkeys;
	l->nhostkeys = cfg->nhostkeys;
	l->t = cfg->t;
	return authority_new(&local_ops, l);
}

void
authority_local_set_transport(struct authority *a, const struct transport *t)
{
	struct authority_local *l;

	if (a == NULL || a->ops != &local_ops)
		return;
	l = a->impl;
	l->t = t;
}

void
authority_local_set_session_id(struct authority *a, const unsigned char *sid,
    size_t len)
{
	struct authority_local *l;

	if (a == NULL || a->ops != &local_ops || len > sizeof(l->sid))
		return;
	l = a->impl;
	memcpy(l->sid, sid, len);
	l->sidlen = len;
}

void
authority_local_set_session_hostkey(struct authority *a, size_t idx)
{
	struct authority_local *l;

	if (a == NULL || a->ops != &local_ops)
		return;
	l = a->impl;
	if (idx >= l->nhostkeys)
		return;
	l->sid_hostkey = idx;
	l->sid_hostkey_set = 1;
}

/* auth.h: ssh-userauth with an authority of its own. */
int
auth_serve(struct transport *t, const struct servconf *sc,
    const struct auth_conn *conn, struct auth_result *res)
{
	struct authority_local_config cfg;
	struct authority *a;
	int r;

	memset(&cfg, 0, sizeof(cfg));
	cfg.sc = sc;
	cfg.conn = conn;
	cfg.t = t;
	a = authority_local_new(&cfg);
	r = auth_serve_authority(t, a, conn, res);
	authority_free(a);
	return r;
}
