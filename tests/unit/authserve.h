/*
 * authserve.h: the server's ssh-userauth service driven in-process for
 * the unit tests of the authority seam (test_authority*.c).
 *
 * authserve_setup() makes a scratch directory with a log file, the
 * server's host key, two user keys and an authorized_keys file listing
 * the first (command="echo hi") for the user running the test. The
 * client's side of a connection is a script run in a forked child
 * (trpair.h): its CHECK failures become the child's exit status.
 * authserve_run() serves one connection with an authority the test
 * makes for it once the transport exists.
 */
#ifndef MOAT_AUTHSERVE_H
#define MOAT_AUTHSERVE_H

#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "authclient.h"
#include "authority.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"
#include "trpair.h"

static char tmp[256];
static struct trp_host host;
static struct key *ukey, *ukey2;
static const char *user;

/* --- the client side --- */

static inline struct sbuf *
c_start(struct transport *t, const char *method)
{
	struct sbuf *m = tr_msg_start(t, SSH2_MSG_USERAUTH_REQUEST);

	sbuf_put_cstring(m, user);
	sbuf_put_cstring(m, "ssh-connection");
	sbuf_put_cstring(m, method);
	return m;
}

static inline void
c_service(struct transport *t)
{
	struct sbuf *m, *p;

	m = tr_msg_start(t, SSH2_MSG_SERVICE_REQUEST);
	sbuf_put_cstring(m, "ssh-userauth");
	CHECK_OK(tr_msg_send(t));
	CHECK_OK(c_expect(t, SSH2_MSG_SERVICE_ACCEPT, &p));
}

/* The data a publickey signature covers (RFC 4252 section 7). */
static inline void
pk_data(const unsigned char *sid, size_t sidlen, const char *service,
    const struct sbuf *blob, struct sbuf *d)
{
	sbuf_put_string(d, sid, sidlen);
	sbuf_put_u8(d, SSH2_MSG_USERAUTH_REQUEST);
	sbuf_put_cstring(d, user);
	sbuf_put_cstring(d, service);
	sbuf_put_cstring(d, "publickey");
	sbuf_put_u8(d, 1);
	sbuf_put_cstring(d, "ssh-ed25519");
	sbuf_put_stringb(d, blob);
}

/* publickey with ukey: a query, or a request with a good signature. */
static inline void
c_pubkey(struct transport *t, int sign)
{
	struct sbuf *blob = sbuf_new(), *d = sbuf_new(), *sig = sbuf_new();
	const unsigned char *sid;
	size_t sidlen;
	struct sbuf *m;

	key_to_blob(ukey, blob);
	if (sign) {
		sid = tr_session_id(t, &sidlen);
		pk_data(sid, sidlen, "ssh-connection", blob, d);
		CHECK_OK(key_sign(ukey, NULL, sbuf_ptr(d), sbuf_len(d), sig));
	}
	m = c_start(t, "publickey");
	sbuf_put_u8(m, sign ? 1 : 0);
	sbuf_put_cstring(m, "ssh-ed25519");
	sbuf_put_stringb(m, blob);
	if (sign)
		sbuf_put_stringb(m, sig);
	CHECK_OK(tr_msg_send(t));
	sbuf_free(blob);
	sbuf_free(d);
	sbuf_free(sig);
}

static inline void
c_success(struct transport *t)
{
	struct sbuf *p;

	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_SUCCESS, &p));
}

static inline void
c_failure(struct transport *t)
{
	struct sbuf *p;

	CHECK_OK(c_expect(t, SSH2_MSG_USERAUTH_FAILURE, &p));
}

struct script {
	void (*fn)(struct transport *);
};

static inline int
client_child(struct transport *t, void *arg)
{
	const struct script *s = arg;

	s->fn(t);
	tr_flush(t);
	return test_failed > 100 ? 100 : test_failed;
}

static const struct auth_conn conn = {
	"127.0.0.1", "127.0.0.1", 1234, "127.0.0.1", 22,
};

static inline struct authority *
local_authority(const struct servconf *sc, struct transport *t)
{
	struct authority_local_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.sc = sc;
	cfg.conn = &conn;
	cfg.t = t;
	cfg.hostkeys = &host.key;
	cfg.nhostkeys = 1;
	return authority_local_new(&cfg);
}

/* authserve_make_fn for the in-process authority alone. */
static inline struct authority *
make_local(struct transport *t, const struct servconf *sc, void *arg)
{
	return local_authority(sc, t);
}

static inline struct servconf *
make_sc(const char *extra)
{
	struct servconf *sc = servconf_new();
	char line[600];

	snprintf(line, sizeof(line), "AuthorizedKeysFile %s/ak_%%u", tmp);
	CHECK_OK(servconf_parse_line(sc, line, "test", 1));
	CHECK_OK(servconf_parse_line(sc, "StrictModes no", "test", 2));
	CHECK_OK(servconf_parse_line(sc, "PermitRootLogin yes", "test", 3));
	if (extra != NULL)
		CHECK_OK(servconf_parse_line(sc, extra, "test", 4));
	CHECK_OK(servconf_parse_line(sc, "KbdInteractiveAuthentication no",
	    "test", 5));
	CHECK_OK(servconf_finish(sc));
	return sc;
}

/* Makes the authority for a connection once its transport t exists. */
typedef struct authority *(*authserve_make_fn)(struct transport *t,
    const struct servconf *sc, void *arg);

/*
 * Run script as the client against ssh-userauth served with the
 * authority make() returns for the server's end (*ap; the caller frees
 * it). With keep, the server's end is left open there for the caller
 * to finish (trp_finish()); otherwise the client is reaped and its
 * failures counted. The result of auth_serve_authority().
 */
static inline int
run(void (*script)(struct transport *), const struct servconf *sc,
    authserve_make_fn make, void *arg, struct authority **ap,
    struct auth_result *res, struct trp_peer *keep)
{
	struct script s = { script };
	struct trp_peer p;
	int r, status;

	memset(res, 0, sizeof(*res));
	*ap = NULL;
	if ((r = trp_start(&p, &host, 0, client_child, &s)) != 0)
		return r;
	*ap = make(p.t, sc, arg);
	r = auth_serve_authority(p.t, *ap, &conn, res);
	if (keep != NULL) {
		*keep = p;
		return r;
	}
	status = trp_finish(&p);
	CHECK(status == 0);
	if (status > 0)
		test_failed += status;
	return r;
}

/* The scratch directory, keys and authorized_keys; 0 or -1. */
static inline int
authserve_setup(const char *name)
{
	struct passwd *me = getpwuid(geteuid());
	char line[600], *text;
	FILE *f;

	signal(SIGPIPE, SIG_IGN);
	if (me == NULL)
		return -1;
	user = x_strdup(me->pw_name);
	snprintf(tmp, sizeof(tmp), "/tmp/moat-%s-XXXXXX", name);
	if (mkdtemp(tmp) == NULL)
		return -1;
	snprintf(logpath, sizeof(logpath), "%s/log", tmp);
	log_init(name, LOG_LEVEL_DEBUG1, 0, 1);
	CHECK_OK(log_to_file(logpath));
	CHECK_OK(key_generate(KEY_ED25519, 0, &host.key));
	CHECK_OK(key_demote(host.key, &host.pub));
	CHECK_OK(key_generate(KEY_ED25519, 0, &ukey));
	CHECK_OK(key_generate(KEY_ED25519, 0, &ukey2));
	if (ukey == NULL || ukey2 == NULL || host.pub == NULL)
		return -1;
	snprintf(line, sizeof(line), "%s/ak_%s", tmp, user);
	if ((f = fopen(line, "w")) == NULL)
		return -1;
	text = key_public_text(ukey);
	fprintf(f, "command=\"echo hi\" %s me\n", text);
	fclose(f);
	x_free(text);
	return 0;
}

static inline void
authserve_teardown(void)
{
	char line[300];

	key_free(host.key);
	key_free(host.pub);
	key_free(ukey);
	key_free(ukey2);
	snprintf(line, sizeof(line), "rm -rf %s", tmp);
	if (getenv("MOAT_TEST_KEEP") == NULL && system(line) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
}

#endif
