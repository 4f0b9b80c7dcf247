/*
 * fuzz_userauth.c: the server's "ssh-userauth" service (auth_serve()):
 * SERVICE_REQUEST, then USERAUTH_REQUESTs of every method -- none,
 * password, publickey (queries, signatures, certificates),
 * keyboard-interactive with its INFO_RESPONSE rounds, hostbased -- under
 * the settings that steer them: AuthenticationMethods chains,
 * MaxAuthTries, PermitRootLogin, Match, AllowUsers/DenyUsers, UsePAM.
 *
 * fuzz-ldflags: -Wl,--wrap=loginrec_failed
 *
 * Input: one byte that picks the configuration (low bits, fz_variants)
 * and the PAM conversation (the rest, see the fake PAM below), then the
 * client's messages as records (fuzz_fake_tr.h: a stand-in transport
 * with a fixed session id, so the signed seeds mkseeds.c makes verify
 * and the fuzzer gets past signature checks from them, and with
 * fuzz_keys.h's host key as the exchange's, so hostbound requests that
 * name it get as far as their signature).
 *
 * The world the server sees:
 *  - user "fuzzuser" (getpwnam() is answered here) is the user the fuzzer
 *    runs as, under that name, with the scratch directory as home and the
 *    password "fuzzpass" (a DES hash in the passwd entry: the shadow file
 *    has no entry for it). Other names go to the system's database.
 *  - authorized_keys, TrustedUserCAKeys, principals, RevokedKeys, the
 *    banner, known_hosts and .shosts for hostbased are files in the
 *    scratch directory, made at start from fuzz_keys.h.
 *  - the fake hash computed for refused passwords uses a DES setting
 *    (crypt_gensalt_rn() is answered here): the system default, yescrypt,
 *    costs milliseconds an attempt and would set the pace of the fuzzer.
 *  - failed logins are not written to btmp (loginrec_failed() is
 *    wrapped at link time); no child process, no network (fuzz_sys.h).
 *
 * Checks on what the server sends: USERAUTH_SUCCESS at most once and
 * nothing after it; auth_serve() returns 0 exactly when it was sent, and
 * the transport was marked authenticated; a successful result names a
 * method and carries settings and options.
 */
#include <crypt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth.h"
#include "fuzz_fake_tr.h"
#include "fuzz_keys.h"
#include "fuzz_sys.h"
#include "key.h"
#include "log.h"
#include "loginrec.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_USER		"fuzzuser"
#define FZ_PASS		"fuzzpass"

/* Settings common to every variant; %S is the scratch directory. */
static const char *fz_base[] = {
	"AuthorizedKeysFile %S/authorized_keys",
	"TrustedUserCAKeys %S/ca.pub",
	"RevokedKeys %S/revoked",
	"Banner %S/banner",
	"StrictModes no",
	"LoginGraceTime 0",
	"UseDNS no",
	"PermitRootLogin yes",
	"PasswordAuthentication yes",
	"KbdInteractiveAuthentication yes",
	"HostbasedAuthentication yes",
	"HostbasedUsesNameFromPacketOnly yes",
	"IgnoreRhosts no",
	NULL,
};

static const char *fz_variants[][12] = {
	{ "MaxAuthTries 6", NULL },
	{ "UsePAM yes", "PermitEmptyPasswords yes",
	  "AuthenticationMethods publickey,keyboard-interactive:pam "
	  "password,publickey keyboard-interactive", NULL },
	{ "AuthenticationMethods publickey,publickey hostbased,password",
	  "PermitRootLogin prohibit-password", "MaxAuthTries 3",
	  "AuthorizedPrincipalsFile %S/principals",
	  "PubkeyAcceptedAlgorithms ssh-ed25519,ecdsa-sha2-nistp256,"
	  "ssh-ed25519-cert-v01@openssh.com",
	  "DenyUsers bad* root@10.*", NULL },
	{ "PermitRootLogin forced-commands-only",
	  "AllowUsers " FZ_USER "@127.0.0.1 other root",
	  "Match User " FZ_USER " Address 127.0.0.0/8",
	  "PasswordAuthentication no",
	  "AuthenticationMethods publickey,keyboard-interactive", NULL },
	{ "UsePAM yes", "PasswordAuthentication yes", "PubkeyAuthentication no",
	  "HostbasedAuthentication no", "MaxAuthTries 10", NULL },
};
#define FZ_NVARIANTS	(sizeof(fz_variants) / sizeof(fz_variants[0]))

static struct servconf *fz_sc[FZ_NVARIANTS];
static struct passwd fz_pw;
static char fz_hash[64];
static unsigned int fz_pam_shape;	/* the PAM conversation of this input */

/* ---- the world ---- */

struct passwd *
getpwnam(const char *name)
{
	struct passwd *(*real)(const char *);

	if (strcmp(name, FZ_USER) == 0)
		return &fz_pw;
	real = (struct passwd *(*)(const char *))dlsym(RTLD_NEXT,
	    "getpwnam");
	return real != NULL ? real(name) : NULL;
}

char *
crypt_gensalt_rn(const char *prefix, unsigned long count, const char *rbytes,
    int nrbytes, char *output, int output_size)
{
	if (output_size < 3)
		return NULL;
	strcpy(output, "fz");
	return output;
}

int __wrap_loginrec_failed(const struct loginrec_files *f, const char *user,
    const char *host, const char *addr);

int
__wrap_loginrec_failed(const struct loginrec_files *f, const char *user,
    const char *host, const char *addr)
{
	if (f == NULL || user == NULL || host == NULL || addr == NULL)
		abort();
	return 0;
}

#ifdef HAVE_PAM
#include <security/pam_appl.h>

/*
 * A PAM stack of three shapes (fz_pam_shape): 0 asks "Password:" once;
 * 1 tells something, asks the password, then asks a one-time code
 * ("123456", echoed) with an error message beside it; 2 asks the
 * password and then finds it expired: pam_chauthtok() asks the new one
 * twice. The password is "fuzzpass"; an empty answer passes when the
 * caller allows empty passwords (PermitEmptyPasswords). The
 * transaction's user must be "fuzzuser".
 */
struct pam_handle {
	struct pam_conv conv;
	char *user;
	int expired;
};

static int
fz_pam_ask(pam_handle_t *h, int n, const int *styles, const char **texts,
    char **answers)
{
	struct pam_message m[4];
	const struct pam_message *mp[4];
	struct pam_response *rep = NULL;
	int i, k = 0, rv;

	for (i = 0; i < n; i++) {
		m[i].msg_style = styles[i];
		m[i].msg = texts[i];
		mp[i] = &m[i];
		answers[i] = NULL;
	}
	rv = h->conv.conv(n, mp, &rep, h->conv.appdata_ptr);
	if (rv != PAM_SUCCESS)
		return PAM_CONV_ERR;
	if (rep == NULL)
		return PAM_CONV_ERR;
	for (i = 0; i < n; i++) {
		if (styles[i] == PAM_PROMPT_ECHO_OFF ||
		    styles[i] == PAM_PROMPT_ECHO_ON) {
			answers[k++] = rep[i].resp;
			rep[i].resp = NULL;
		}
		free(rep[i].resp);
	}
	free(rep);
	return PAM_SUCCESS;
}

static int
fz_pam_check(char *given, const char *want, int flags)
{
	int ok = given != NULL && (strcmp(given, want) == 0 ||
	    (*given == '\0' && !(flags & PAM_DISALLOW_NULL_AUTHTOK)));

	free(given);
	return ok;
}

int
pam_start(const char *service, const char *user,
    const struct pam_conv *conv, pam_handle_t **hp)
{
	pam_handle_t *h = calloc(1, sizeof(*h));

	if (h == NULL)
		return PAM_BUF_ERR;
	h->conv = *conv;
	h->user = strdup(user);
	*hp = h;
	return PAM_SUCCESS;
}

int
pam_end(pam_handle_t *h, int status)
{
	free(h->user);
	free(h);
	return PAM_SUCCESS;
}

int
pam_set_item(pam_handle_t *h, int type, const void *item)
{
	return item != NULL ? PAM_SUCCESS : PAM_BAD_ITEM;
}

const char *
pam_strerror(pam_handle_t *h, int err)
{
	return err == PAM_SUCCESS ? "Success" : "Authentication failure";
}

int
pam_authenticate(pam_handle_t *h, int flags)
{
	static const int s1[] = { PAM_TEXT_INFO, PAM_PROMPT_ECHO_OFF };
	static const char *t1[] = { "Welcome to the fuzz.", "Password: " };
	static const int s2[] = { PAM_ERROR_MSG, PAM_PROMPT_ECHO_ON };
	static const char *t2[] = { "Codes expire.", "Code: " };
	char *ans[2];
	int ok;

	if (fz_pam_shape == 1) {
		if (fz_pam_ask(h, 2, s1, t1, ans) != PAM_SUCCESS)
			return PAM_AUTH_ERR;
	} else if (fz_pam_ask(h, 1, s1 + 1, t1 + 1, ans) != PAM_SUCCESS)
		return PAM_AUTH_ERR;
	ok = fz_pam_check(ans[0], FZ_PASS, flags);
	if (fz_pam_shape == 1) {
		if (fz_pam_ask(h, 2, s2, t2, ans) != PAM_SUCCESS)
			return PAM_AUTH_ERR;
		ok = fz_pam_check(ans[0], "123456", flags) && ok;
	}
	if (!ok || strcmp(h->user, FZ_USER) != 0)
		return PAM_AUTH_ERR;
	h->expired = fz_pam_shape == 2;
	return PAM_SUCCESS;
}

int
pam_acct_mgmt(pam_handle_t *h, int flags)
{
	if (strcmp(h->user, FZ_USER) != 0)
		return PAM_USER_UNKNOWN;
	return h->expired ? PAM_NEW_AUTHTOK_REQD : PAM_SUCCESS;
}

int
pam_chauthtok(pam_handle_t *h, int flags)
{
	static const int s[] = { PAM_PROMPT_ECHO_OFF, PAM_PROMPT_ECHO_OFF };
	static const char *t[] = { "New password: ", "Retype new password: " };
	char *ans[2];
	int same;

	if (fz_pam_ask(h, 2, s, t, ans) != PAM_SUCCESS)
		return PAM_AUTHTOK_ERR;
	same = ans[0] != NULL && ans[1] != NULL && *ans[0] != '\0' &&
	    strcmp(ans[0], ans[1]) == 0;
	free(ans[0]);
	free(ans[1]);
	if (!same)
		return PAM_AUTHTOK_ERR;
	h->expired = 0;
	return PAM_SUCCESS;
}

int pam_open_session(pam_handle_t *h, int flags) { return PAM_SUCCESS; }
int pam_close_session(pam_handle_t *h, int flags) { return PAM_SUCCESS; }
int pam_setcred(pam_handle_t *h, int flags) { return PAM_SUCCESS; }

char **
pam_getenvlist(pam_handle_t *h)
{
	char **e = calloc(2, sizeof(*e));

	if (e != NULL)
		e[0] = strdup("PAM_FUZZ=1");
	return e;
}
#endif /* HAVE_PAM */

/* ---- set-up ---- */

static struct key *
fz_public(const char *text)
{
	const char *cp = text;
	struct key *k = NULL;

	if (key_read_public_text(&cp, &k) != 0)
		abort();
	return k;
}

static void fz_write(const char *name, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
fz_write(const char *name, const char *fmt, ...)
{
	char path[400];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fz_sys_scratch, name);
	if ((f = fopen(path, "w")) == NULL)
		abort();
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	if (fclose(f) != 0)
		abort();
}

/* A config line with %S replaced by the scratch directory. */
static void
fz_line(struct servconf *sc, const char *line, int n)
{
	char buf[1024], *p;

	if ((p = strstr(line, "%S")) != NULL)
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(p - line), line,
		    fz_sys_scratch, p + 2);
	else
		snprintf(buf, sizeof(buf), "%s", line);
	if (servconf_parse_line(sc, buf, "fuzz", n) != 0) {
		fprintf(stderr, "fuzz: bad line %s\n", buf);
		abort();
	}
}

static void
fz_world(void)
{
	struct passwd *me = getpwuid(geteuid());
	struct crypt_data cd;
	const char *h;
	char path[400];
	size_t i, j;

	if (me == NULL)
		abort();
	fz_sys_make_scratch();
	snprintf(path, sizeof(path), "%s/.ssh", fz_sys_scratch);
	(void)mkdir(path, 0700);
	memset(&cd, 0, sizeof(cd));
	if ((h = crypt_r(FZ_PASS, "fz", &cd)) == NULL || strlen(h) != 13)
		abort();
	snprintf(fz_hash, sizeof(fz_hash), "%s", h);
	fz_pw = *me;
	fz_pw.pw_name = (char *)FZ_USER;
	fz_pw.pw_passwd = fz_hash;
	fz_pw.pw_gecos = (char *)"fuzz";
	fz_pw.pw_dir = fz_sys_scratch;
	fz_pw.pw_shell = (char *)"/bin/sh";

	fz_write("authorized_keys", "# fuzz keys\n%s"
	    "restrict,pty,command=\"echo hi\",from=\"127.0.0.1,::1\","
	    "environment=\"X=1\" %s"
	    "expiry-time=\"20991231\" %s"
	    "cert-authority,principals=\"" FZ_USER ",other\" %s",
	    fz_pub_user1, fz_pub_user2, fz_pub_user3, fz_pub_ca);
	fz_write("ca.pub", "%s", fz_pub_ca);
	fz_write("principals", FZ_USER "\nother\n");
	fz_write("revoked", "%s", fz_pub_user3);
	fz_write("banner", "Welcome to the fuzz.\n");
	fz_write(".ssh/known_hosts", "fuzzhost,127.0.0.1 %s", fz_pub_host);
	fz_write(".shosts", "fuzzhost " FZ_USER "\n+ other\n");
	/* The keys must load: a typo here would void the signed seeds. */
	key_free(fz_public(fz_pub_user1));
	key_free(fz_public(fz_pub_host));

	for (i = 0; i < FZ_NVARIANTS; i++) {
		fz_sc[i] = servconf_new();
		for (j = 0; fz_base[j] != NULL; j++)
			fz_line(fz_sc[i], fz_base[j], (int)j + 1);
		for (j = 0; fz_variants[i][j] != NULL; j++)
			fz_line(fz_sc[i], fz_variants[i][j], (int)j + 100);
		if (servconf_finish(fz_sc[i]) != 0)
			abort();
	}
}

/* ---- checks on the output ---- */

static int fz_success_sent;

static void
fz_auth_out(struct transport *t, const struct sbuf *m)
{
	if (fz_success_sent) {
		fprintf(stderr, "fuzz: message %u after USERAUTH_SUCCESS\n",
		    sbuf_ptr(m)[0]);
		abort();
	}
	if (sbuf_ptr(m)[0] == SSH2_MSG_USERAUTH_SUCCESS)
		fz_success_sent = 1;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct transport *t;

	/* Formatted at every level, shown with FUZZ_LOG set. */
	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file(getenv("FUZZ_LOG") ? "/dev/stderr" : "/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	fz_world();
	/* The exchange's host key, for publickey-hostbound-v00. */
	fz_tr_add_hostkey(fz_key_host);
	t = fz_tr_new(NULL, 0);		/* its eventfd, before any input */
	tr_free(t);
	fz_out = fz_auth_out;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct auth_conn conn;
	struct auth_result res;
	struct transport *t;
	int r;

	if (size == 0)
		return 0;
	memset(&conn, 0, sizeof(conn));
	conn.remote_host = "127.0.0.1";
	conn.remote_addr = "127.0.0.1";
	conn.remote_port = 40000;
	conn.local_addr = "127.0.0.1";
	conn.local_port = 22;
	fz_pam_shape = (data[0] / FZ_NVARIANTS) % 3;
	fz_success_sent = 0;
	fz_sys_begin_input();
	t = fz_tr_new(data + 1, size - 1);
	r = auth_serve(t, fz_sc[data[0] % FZ_NVARIANTS], &conn, &res);
	if ((r == 0) != fz_success_sent || (r == 0) != t->authenticated) {
		fprintf(stderr, "fuzz: auth_serve %d, success %ssent\n", r,
		    fz_success_sent ? "" : "not ");
		abort();
	}
	if (r == 0) {
		if (res.pw == NULL || res.method == NULL || res.sc == NULL ||
		    res.opts == NULL)
			abort();
		auth_result_clear(&res);
	}
	tr_free(t);
	fz_sys_end_input();
	return 0;
}
