/*
 * authkeys_cmd.c: the programs sshd asks during publickey
 * authentication: AuthorizedKeysCommand, which prints authorized_keys
 * lines for a user, and AuthorizedPrincipalsCommand, which prints
 * AuthorizedPrincipalsFile lines for a certificate signed by a CA of
 * TrustedUserCAKeys.
 *
 * The command line is split into words; every word after the first has
 * its %-tokens expanded from a table of what the token stands for (the
 * user, the offered key or certificate, the certificate's CA...); each
 * command accepts only its own letters. With no arguments at all the
 * user name is the one argument. The program must be safe to run as
 * root and runs as the command's user within
 * AuthorizedKeysCommandTimeout with its output capped (auth_subproc.c
 * does both); its output, when it exits with status 0, is read exactly
 * as the corresponding file would be. Every failure is logged and counts
 * as "nothing listed", so the caller falls back to the other sources.
 */
#include <sys/types.h>

#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "auth_subproc.h"
#include "authkeys.h"
#include "err.h"
#include "log.h"
#include "mem.h"

#define AKC_MAX_OUTPUT	(1024 * 1024)
#define AKC_TAG		"AuthorizedKeysCommand"
#define APC_TAG		"AuthorizedPrincipalsCommand"
#define AKC_TOKENS	"%uUhtfk"
#define APC_TOKENS	"%uUhtfkTFKisCD"

static int
put_fp(struct sbuf *b, const struct key *k, int fp_hash)
{
	char *s;
	int r;

	if ((s = key_fingerprint(k, (enum key_fp_hash)fp_hash)) == NULL)
		return ERR_INTERNAL;
	r = sbuf_putf(b, "%s", s);
	x_free(s);
	return r;
}

/* The base64 of a key's blob, or of a certificate's when c is set. */
static int
put_b64(struct sbuf *b, const struct key *k, const struct key_cert *c)
{
	struct sbuf *blob = sbuf_new();
	char *s = NULL;
	int r;

	if ((r = c != NULL ? cert_to_blob(c, blob) : key_to_blob(k, blob)) != 0)
		goto out;
	if ((s = sbuf_to_b64(blob, 0)) == NULL) {
		r = ERR_INTERNAL;
		goto out;
	}
	r = sbuf_putf(b, "%s", s);
 out:
	x_free(s);
	sbuf_free(blob);
	return r;
}

/* One token's value appended to b. */
static int
put_token(struct sbuf *b, int t, const struct authcmd_tokens *tk)
{
	const struct key_cert *c = tk->cert;
	const struct key *k = c != NULL ? c->key : tk->key;

	switch (t) {
	case '%':
		return sbuf_put_u8(b, '%');
	case 'u':
		return sbuf_putf(b, "%s", tk->pw->pw_name);
	case 'U':
		return sbuf_putf(b, "%lu", (unsigned long)tk->pw->pw_uid);
	case 'h':
		return sbuf_putf(b, "%s", tk->pw->pw_dir);
	case 't':
		return sbuf_putf(b, "%s", c != NULL ? cert_type_name(k) :
		    key_type_name(k));
	case 'f':
		return put_fp(b, k, tk->fp_hash);
	case 'k':
		return put_b64(b, k, c);
	case 'C':
		return sbuf_putf(b, "%s", tk->conn_id != NULL ?
		    tk->conn_id : "UNKNOWN");
	case 'D':
		return 0;	/* no routing domains here */
	}
	if (c == NULL)
		return ERR_INVALID_FORMAT;
	switch (t) {
	case 'T':
		return sbuf_putf(b, "%s", key_type_name(c->ca_key));
	case 'F':
		return put_fp(b, c->ca_key, tk->fp_hash);
	case 'K':
		return put_b64(b, c->ca_key, NULL);
	case 'i':
		return sbuf_putf(b, "%s", c->key_id);
	case 's':
		return sbuf_putf(b, "%" PRIu64, c->serial);
	}
	return ERR_INVALID_FORMAT;
}

/* Expand one word's %-tokens; ERR_INVALID_FORMAT on an unknown one. */
static int
expand_word(const char *w, const struct authcmd_tokens *tk, char **outp)
{
	struct sbuf *b = sbuf_new();
	int r = 0;

	*outp = NULL;
	for (; r == 0 && *w != '\0'; w++) {
		if (*w != '%') {
			r = sbuf_put_u8(b, (uint8_t)*w);
			continue;
		}
		w++;
		if (*w == '\0' || strchr(tk->allowed, *w) == NULL) {
			r = ERR_INVALID_FORMAT;
			break;
		}
		r = put_token(b, *w, tk);
	}
	if (r == 0)
		*outp = sbuf_len(b) == 0 ? x_strdup("") :
		    x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	return r;
}

int
authcmd_argv(const char *cmd, const struct authcmd_tokens *tk,
    char ***argvp)
{
	char **argv = NULL, *w;
	size_t i;
	int r;

	*argvp = NULL;
	if ((r = subproc_split(cmd, &argv)) != 0)
		return r;
	for (i = 1; argv[i] != NULL; i++) {
		if ((r = expand_word(argv[i], tk, &w)) != 0) {
			subproc_argv_free(argv);
			return r;
		}
		x_free(argv[i]);
		argv[i] = w;
	}
	if (i == 1) {
		argv[1] = x_strdup(tk->pw->pw_name);
		argv[2] = NULL;
	}
	*argvp = argv;
	return 0;
}

int
authkeys_command_argv(const char *cmd, const struct passwd *pw,
    const struct key *key, char ***argvp)
{
	struct authcmd_tokens tk;

	memset(&tk, 0, sizeof(tk));
	tk.pw = pw;
	tk.key = key;
	tk.allowed = AKC_TOKENS;
	return authcmd_argv(cmd, &tk, argvp);
}

/*
 * Run cmd (the setting named tag) as user for tk: 0 and *outp (caller
 * frees) with what it printed, ERR_NOT_FOUND after any failure (logged).
 */
static int
run_command(const char *tag, const char *cmd, const char *user, int timeout,
    const struct authcmd_tokens *tk, struct sbuf **outp)
{
	struct passwd *runas;
	char **argv = NULL, err[PATH_MAX + 128], *ruser = NULL;
	int r = ERR_NOT_FOUND;

	*outp = NULL;
	if (user == NULL) {
		log_error("No user for %s specified, skipping", tag);
		return ERR_NOT_FOUND;
	}
	if ((runas = getpwnam(user)) == NULL) {
		log_error("%sUser \"%s\" not found", tag, user);
		return ERR_NOT_FOUND;
	}
	ruser = x_strdup(runas->pw_name);
	if (authcmd_argv(cmd, tk, &argv) != 0) {
		log_error("%s \"%s\": bad command line or unknown %%-token",
		    tag, cmd);
		goto out;
	}
	if (subproc_safe_path(argv[0], err, sizeof(err)) != 0) {
		log_error("Unsafe %s \"%s\": %s", tag, argv[0], err);
		goto out;
	}
	/* getpwnam's buffer may have been reused: look the user up again. */
	if ((runas = getpwnam(ruser)) == NULL)
		goto out;
	if (subproc_run(tag, argv, runas, timeout, AKC_MAX_OUTPUT, outp) == 0)
		r = 0;
 out:
	x_free(ruser);
	subproc_argv_free(argv);
	return r;
}

typedef int (*scan_fn)(FILE *, const char *, const struct passwd *,
    const struct authkeys_query *, struct authopts **);

/* Scan a command's output as the file it stands for. */
static int
scan_output(struct sbuf *out, const char *tag, scan_fn scan,
    const struct passwd *pw, const struct authkeys_query *q,
    struct authopts **optsp)
{
	FILE *f;
	int r;

	if (sbuf_len(out) == 0)
		return ERR_NOT_FOUND;
	if ((f = fmemopen(sbuf_mutable_ptr(out), sbuf_len(out), "r")) == NULL)
		return ERR_SYSTEM;
	r = scan(f, tag, pw, q, optsp);
	fclose(f);
	return r;
}

/* AuthorizedKeysCommand for a plain key or (cert set) a certificate. */
static int
keys_command(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const struct key_cert *cert,
    const char *remote_host, const char *remote_ip, struct authopts **optsp)
{
	struct authcmd_tokens tk;
	struct authkeys_query q;
	struct sbuf *out = NULL;
	int r;

	*optsp = NULL;
	if (sc->authorized_keys_command == NULL)
		return ERR_NOT_FOUND;
	memset(&tk, 0, sizeof(tk));
	tk.pw = pw;
	tk.key = key;
	tk.cert = cert;
	tk.allowed = AKC_TOKENS;
	tk.fp_hash = sc->fingerprint_hash;
	if ((r = run_command(AKC_TAG, sc->authorized_keys_command,
	    sc->authorized_keys_command_user,
	    sc->authorized_keys_command_timeout, &tk, &out)) != 0)
		return ERR_NOT_FOUND;
	memset(&q, 0, sizeof(q));
	q.key = key;
	q.cert = cert;
	q.fp_hash = sc->fingerprint_hash;
	q.remote_host = remote_host;
	q.remote_ip = remote_ip;
	q.now = (uint64_t)time(NULL);
	r = scan_output(out, AKC_TAG, authkeys_scan, pw, &q, optsp);
	sbuf_free(out);
	return r == 0 ? 0 : ERR_NOT_FOUND;
}

int
authkeys_command(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *remote_host, const char *remote_ip,
    struct authopts **optsp)
{
	return keys_command(sc, pw, key, NULL, remote_host, remote_ip, optsp);
}

int
authkeys_command_cert(const struct servconf *sc, const struct passwd *pw,
    const struct key_cert *cert, const char *remote_host,
    const char *remote_ip, struct authopts **optsp)
{
	return keys_command(sc, pw, cert->key, cert, remote_host, remote_ip,
	    optsp);
}

int
authkeys_principals_command_argv(const char *cmd, const struct passwd *pw,
    const struct key_cert *cert, const char *conn_id, char ***argvp)
{
	struct authcmd_tokens tk;

	memset(&tk, 0, sizeof(tk));
	tk.pw = pw;
	tk.key = cert->key;
	tk.cert = cert;
	tk.conn_id = conn_id;
	tk.allowed = APC_TOKENS;
	return authcmd_argv(cmd, &tk, argvp);
}

int
authkeys_principals_command(const struct servconf *sc,
    const struct passwd *pw, const struct key_cert *cert, const char *conn_id,
    const char *remote_host, const char *remote_ip, struct authopts **optsp)
{
	struct authcmd_tokens tk;
	struct authkeys_query q;
	struct sbuf *out = NULL;
	int r;

	*optsp = NULL;
	if (sc->authorized_principals_command == NULL)
		return ERR_NOT_FOUND;
	memset(&tk, 0, sizeof(tk));
	tk.pw = pw;
	tk.key = cert->key;
	tk.cert = cert;
	tk.conn_id = conn_id;
	tk.allowed = APC_TOKENS;
	tk.fp_hash = sc->fingerprint_hash;
	if ((r = run_command(APC_TAG, sc->authorized_principals_command,
	    sc->authorized_principals_command_user,
	    sc->authorized_keys_command_timeout, &tk, &out)) != 0)
		return ERR_NOT_FOUND;
	memset(&q, 0, sizeof(q));
	q.key = cert->key;
	q.cert = cert;
	q.fp_hash = sc->fingerprint_hash;
	q.remote_host = remote_host;
	q.remote_ip = remote_ip;
	q.now = (uint64_t)time(NULL);
	r = scan_output(out, APC_TAG, authkeys_principals_scan, pw, &q, optsp);
	sbuf_free(out);
	return r == 0 ? 0 : ERR_NOT_FOUND;
}
