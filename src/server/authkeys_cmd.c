/*
 * authkeys_cmd.c: AuthorizedKeysCommand, a program that prints
 * authorized_keys lines for a user.
 *
 * The command line is split into words; every word has its %-tokens
 * expanded (%u user, %U uid, %h home, %t key type, %f fingerprint,
 * %k the key in base64, %% a percent); with no arguments at all the
 * user name is the one argument. The program must be safe to run as
 * root (auth_subproc.c checks it) and runs as AuthorizedKeysCommandUser
 * within AuthorizedKeysCommandTimeout; its output, when it exits with
 * status 0, is read exactly as an authorized_keys file would be.
 */
#include <sys/types.h>

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

/* Expand one word's %-tokens; ERR_INVALID_FORMAT on an unknown one. */
static int
expand_word(const char *w, const struct passwd *pw, const struct key *key,
    char **outp)
{
	struct sbuf *b = sbuf_new(), *blob = NULL;
	char *s;
	int r = 0;

	*outp = NULL;
	for (; r == 0 && *w != '\0'; w++) {
		if (*w != '%') {
			r = sbuf_put_u8(b, (uint8_t)*w);
			continue;
		}
		switch (*++w) {
		case '%':
			r = sbuf_put_u8(b, '%');
			break;
		case 'u':
			r = sbuf_putf(b, "%s", pw->pw_name);
			break;
		case 'U':
			r = sbuf_putf(b, "%lu", (unsigned long)pw->pw_uid);
			break;
		case 'h':
			r = sbuf_putf(b, "%s", pw->pw_dir);
			break;
		case 't':
			r = sbuf_putf(b, "%s", key_type_name(key));
			break;
		case 'f':
			if ((s = key_fingerprint(key, KEY_FP_SHA256)) == NULL) {
				r = ERR_INTERNAL;
				break;
			}
			r = sbuf_putf(b, "%s", s);
			x_free(s);
			break;
		case 'k':
			blob = sbuf_new();
			if ((r = key_to_blob(key, blob)) != 0)
				break;
			if ((s = sbuf_to_b64(blob, 0)) == NULL) {
				r = ERR_INTERNAL;
				break;
			}
			r = sbuf_putf(b, "%s", s);
			x_free(s);
			sbuf_free(blob);
			blob = NULL;
			break;
		default:
			r = ERR_INVALID_FORMAT;
			goto out;
		}
	}
	if (r == 0)
		*outp = sbuf_len(b) == 0 ? x_strdup("") :
		    x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
 out:
	sbuf_free(blob);
	sbuf_free(b);
	return r;
}

int
authkeys_command_argv(const char *cmd, const struct passwd *pw,
    const struct key *key, char ***argvp)
{
	char **argv = NULL, *w;
	size_t i;
	int r;

	*argvp = NULL;
	if ((r = subproc_split(cmd, &argv)) != 0)
		return r;
	for (i = 1; argv[i] != NULL; i++) {
		if ((r = expand_word(argv[i], pw, key, &w)) != 0) {
			subproc_argv_free(argv);
			return r;
		}
		x_free(argv[i]);
		argv[i] = w;
	}
	if (i == 1) {
		argv[1] = x_strdup(pw->pw_name);
		argv[2] = NULL;
	}
	*argvp = argv;
	return 0;
}

int
authkeys_command(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *remote_host, const char *remote_ip,
    struct authopts **optsp)
{
	struct authkeys_query q;
	struct passwd *runas;
	struct sbuf *out = NULL;
	char **argv = NULL, err[PATH_MAX + 128], *ruser = NULL;
	FILE *f;
	int r = ERR_NOT_FOUND;

	*optsp = NULL;
	if (sc->authorized_keys_command == NULL)
		return ERR_NOT_FOUND;
	if (sc->authorized_keys_command_user == NULL) {
		log_error("No user for AuthorizedKeysCommand specified, "
		    "skipping");
		return ERR_NOT_FOUND;
	}
	if ((runas = getpwnam(sc->authorized_keys_command_user)) == NULL) {
		log_error("AuthorizedKeysCommandUser \"%s\" not found",
		    sc->authorized_keys_command_user);
		return ERR_NOT_FOUND;
	}
	ruser = x_strdup(runas->pw_name);
	if (authkeys_command_argv(sc->authorized_keys_command, pw, key,
	    &argv) != 0) {
		log_error("AuthorizedKeysCommand \"%s\": bad command line or "
		    "unknown %%-token", sc->authorized_keys_command);
		goto out;
	}
	if (subproc_safe_path(argv[0], err, sizeof(err)) != 0) {
		log_error("Unsafe AuthorizedKeysCommand \"%s\": %s", argv[0],
		    err);
		goto out;
	}
	/* getpwnam's buffer may have been reused: look the user up again. */
	if ((runas = getpwnam(ruser)) == NULL)
		goto out;
	if (subproc_run(AKC_TAG, argv, runas,
	    sc->authorized_keys_command_timeout, AKC_MAX_OUTPUT, &out) != 0)
		goto out;
	if (sbuf_len(out) == 0)
		goto out;
	if ((f = fmemopen(sbuf_mutable_ptr(out), sbuf_len(out), "r")) ==
	    NULL) {
		r = ERR_SYSTEM;
		goto out;
	}
	memset(&q, 0, sizeof(q));
	q.key = key;
	q.remote_host = remote_host;
	q.remote_ip = remote_ip;
	q.now = (uint64_t)time(NULL);
	r = authkeys_scan(f, AKC_TAG, pw, &q, optsp);
	fclose(f);
 out:
	x_free(ruser);
	subproc_argv_free(argv);
	sbuf_free(out);
	return r == 0 ? 0 : ERR_NOT_FOUND;
}
