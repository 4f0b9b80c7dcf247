/*
 * authkeys.c: reading authorized_keys files for public key
 * authentication; see authkeys.h for the rules.
 *
 * authkeys_find() walks the configured templates; authkeys_check_file()
 * opens one file with the user's identity (seteuid/setegid/setgroups
 * around the open and the StrictModes walk, restored before returning),
 * checks its modes and hands the stream to authkeys_scan(), which reads
 * it line by line. A line is first tried as a bare key; failing that, as
 * options followed by a key.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "authkeys.h"
#include "cert.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"

#define AK_MAX_LINE	(16 * 1024)	/* longer lines are skipped */
#define AK_MAX_GROUPS	1024

int
authkeys_expand_path(const char *tmpl, const struct passwd *pw, char **outp)
{
	struct sbuf *b = sbuf_new();
	const char *p;
	int r = 0;

	*outp = NULL;
	for (p = tmpl; r == 0 && *p != '\0'; p++) {
		if (*p != '%') {
			r = sbuf_put_u8(b, (uint8_t)*p);
			continue;
		}
		switch (*++p) {
		case '%':
			r = sbuf_put_u8(b, '%');
			break;
		case 'h':
			r = sbuf_putf(b, "%s", pw->pw_dir);
			break;
		case 'u':
			r = sbuf_putf(b, "%s", pw->pw_name);
			break;
		case 'U':
			r = sbuf_putf(b, "%lu", (unsigned long)pw->pw_uid);
			break;
		default:	/* includes the end of the string */
			r = ERR_INVALID_FORMAT;
			goto out;
		}
	}
	if (r != 0)
		goto out;
	/* A template that expanded to a relative path is under home too. */
	if (sbuf_len(b) == 0 || sbuf_ptr(b)[0] != '/') {
		*outp = x_asprintf("%s/%.*s", pw->pw_dir, (int)sbuf_len(b),
		    (const char *)sbuf_ptr(b));
	} else
		*outp = x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
 out:
	sbuf_free(b);
	return r;
}

/* Owned by the user or root, and not writable by group or others. */
static int
mode_ok(const struct stat *st, const struct passwd *pw)
{
	return (st->st_uid == 0 || st->st_uid == pw->pw_uid) &&
	    (st->st_mode & 022) == 0;
}

int
authkeys_secure_file(int fd, const char *path, const struct passwd *pw,
    char *err, size_t errlen)
{
	char real[PATH_MAX], home[PATH_MAX], *slash;
	struct stat st;
	int have_home;

	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot stat file %s: %s", path,
		    strerror(errno));
		return ERR_KEY_BAD_PERMISSIONS;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file", path);
		return ERR_KEY_BAD_PERMISSIONS;
	}
	if (!mode_ok(&st, pw)) {
		snprintf(err, errlen, "bad ownership or modes for file %s",
		    path);
		return ERR_KEY_BAD_PERMISSIONS;
	}
	if (realpath(path, real) == NULL) {
		snprintf(err, errlen, "realpath %s failed: %s", path,
		    strerror(errno));
		return ERR_KEY_BAD_PERMISSIONS;
	}
	have_home = realpath(pw->pw_dir, home) != NULL;
	/* Each directory from the file's up to home, or to /. */
	for (;;) {
		if ((slash = strrchr(real, '/')) == NULL)
			break;
		if (slash == real)
			slash[1] = '\0';	/* keep "/" itself */
		else
			*slash = '\0';
		if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode) ||
		    !mode_ok(&st, pw)) {
			snprintf(err, errlen,
			    "bad ownership or modes for directory %s", real);
			return ERR_KEY_BAD_PERMISSIONS;
		}
		if ((have_home && strcmp(real, home) == 0) ||
		    strcmp(real, "/") == 0)
			break;
	}
	return 0;
}

/*
 * Whether a line whose key matched lets the key in from here, now.
 */
static int
options_allow(const struct authopts *o, const char *loc,
    const struct passwd *pw, const struct authkeys_query *q)
{
	const char *host = q->remote_host ? q->remote_host : q->remote_ip;

	if (o->cert_authority && q->cert == NULL) {
		log_debug("%s: key is a certificate authority, not a user key",
		    loc);
		return 0;
	}
	if (o->required_from_host_keys != NULL &&
	    match_host_and_ip(host, q->remote_ip,
	    o->required_from_host_keys) != 1) {
		log_info("Authentication tried for %s with correct key but "
		    "not from a permitted host (host=%s, ip=%s).",
		    pw->pw_name, host, q->remote_ip);
		return 0;
	}
	if (o->valid_before != 0 && q->now > o->valid_before) {
		log_info("%s: key has expired", loc);
		return 0;
	}
	return 1;
}

/* 1 if one of the certificate's principals is in the list "a,b,c". */
static int
cert_principal_listed(const struct key_cert *c, const char *list)
{
	size_t i;

	for (i = 0; i < c->nprincipals; i++)
		if (match_list_contains(list, c->principals[i]) == 1)
			return 1;
	return 0;
}

/*
 * A line for a certificate: it must be a cert-authority line for the
 * certificate's CA; the principals are those of principals="..." or the
 * user's name.
 */
static int
cert_line_allows(const struct authopts *o, const struct key *k,
    const char *loc, const struct passwd *pw, const struct authkeys_query *q)
{
	const char *reason = NULL, *why;
	char *fp;

	if (!o->cert_authority || !key_equal_public(k, q->cert->ca_key))
		return 0;
	fp = key_fingerprint(k, (enum key_fp_hash)q->fp_hash);
	log_debug("%s: matching CA found: %s %s", loc, key_type_name(k),
	    fp ? fp : "?");
	x_free(fp);
	if (o->cert_principals != NULL &&
	    !cert_principal_listed(q->cert, o->cert_principals))
		reason = "Certificate does not contain an authorized principal";
	else if (cert_check_reason(q->cert, q->now,
	    o->cert_principals == NULL ? pw->pw_name : NULL, 0, &why) != 0)
		reason = why;
	if (reason != NULL) {
		log_error("%s", reason);
		return 0;
	}
	return options_allow(o, loc, pw, q);
}

/* 1 with *optsp when the line lets q->key in, 0 otherwise. */
static int
check_line(const char *line, const char *loc, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp)
{
	struct authopts *o = NULL;
	struct key *k = NULL;
	const char *cp = line, *err = NULL;
	char *fp = NULL;
	int r, ok = 0;

	if ((r = key_read_public_text(&cp, &k)) != 0) {
		if (authopts_parse(line, &o, &cp, &err) != 0) {
			log_verbose("%s: bad key options: %s", loc, err);
			goto out;
		}
		if ((r = key_read_public_text(&cp, &k)) != 0) {
			log_debug("%s: cannot read key: %s", loc,
			    err_str(r));
			goto out;
		}
	} else
		o = authopts_new();
	if (q->cert != NULL) {
		ok = cert_line_allows(o, k, loc, pw, q);
		goto done;
	}
	if (!key_equal_public(k, q->key))
		goto out;
	fp = key_fingerprint(k, (enum key_fp_hash)q->fp_hash);
	log_debug("%s: matching key found: %s %s", loc, key_type_name(k),
	    fp ? fp : "?");
	ok = options_allow(o, loc, pw, q);
	if (ok)
		log_verbose("Accepted key %s %s found at %s", key_short_name(k),
		    fp ? fp : "?", loc);
 done:
	if (ok) {
		*optsp = o;
		o = NULL;
	}
 out:
	x_free(fp);
	key_free(k);
	authopts_free(o);
	return ok;
}

int
authkeys_scan(FILE *f, const char *name, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp)
{
	char *line = NULL, *loc, *p;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int found = 0;

	*optsp = NULL;
	while (!found && (n = getline(&line, &cap, f)) != -1) {
		lineno++;
		if (n > AK_MAX_LINE) {
			log_verbose("%s:%lu: line too long", name, lineno);
			continue;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '#')
			continue;
		loc = x_asprintf("%s:%lu", name, lineno);
		found = check_line(p, loc, pw, q, optsp);
		x_free(loc);
	}
	x_free(line);
	return found ? 0 : ERR_NOT_FOUND;
}

/* Saved identity while acting as the user. */
struct ident {
	int changed;
	uid_t euid;
	gid_t egid;
	gid_t *groups;
	int ngroups;
};

static int
ident_restore(struct ident *s)
{
	int r = 0;

	if (!s->changed)
		return 0;
	if (seteuid(s->euid) != 0 || setegid(s->egid) != 0 ||
	    setgroups((size_t)s->ngroups, s->groups) != 0) {
		log_error("cannot restore privileges: %s", strerror(errno));
		r = ERR_SYSTEM;
	}
	x_free(s->groups);
	s->groups = NULL;
	s->changed = 0;
	return r;
}

/* Become pw (effective ids and groups) when running as root. */
static int
ident_become(const struct passwd *pw, struct ident *s)
{
	gid_t *ug = NULL;
	int nug = AK_MAX_GROUPS, r = ERR_SYSTEM;

	memset(s, 0, sizeof(*s));
	if (geteuid() != 0 || pw->pw_uid == 0)
		return 0;
	s->euid = geteuid();
	s->egid = getegid();
	if ((s->ngroups = getgroups(0, NULL)) < 0)
		return ERR_SYSTEM;
	s->groups = x_calloc((size_t)s->ngroups + 1, sizeof(gid_t));
	if ((s->ngroups = getgroups(s->ngroups, s->groups)) < 0)
		goto fail;
	ug = x_calloc((size_t)nug, sizeof(gid_t));
	if (getgrouplist(pw->pw_name, pw->pw_gid, ug, &nug) < 0)
		nug = 1, ug[0] = pw->pw_gid;	/* too many: primary only */
	s->changed = 1;
	if (setgroups((size_t)nug, ug) != 0 || setegid(pw->pw_gid) != 0 ||
	    seteuid(pw->pw_uid) != 0) {
		log_error("cannot act as user %s: %s", pw->pw_name,
		    strerror(errno));
		ident_restore(s);
		goto fail;
	}
	x_free(ug);
	return 0;
 fail:
	x_free(ug);
	x_free(s->groups);
	s->groups = NULL;
	s->changed = 0;
	return r;
}

typedef int (*scan_fn)(FILE *, const char *, const struct passwd *,
    const struct authkeys_query *, struct authopts **);

/* Open path as the user, check its modes, hand it to scan. */
static int
open_and_scan(const char *path, const struct passwd *pw,
    const struct authkeys_query *q, scan_fn scan, struct authopts **optsp)
{
	struct ident id;
	char err[PATH_MAX + 128];
	FILE *f = NULL;
	int fd = -1, r, r2;

	*optsp = NULL;
	if ((r = ident_become(pw, &id)) != 0)
		return r;
	log_debug("trying public key file %s", path);
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) == -1) {
		log_debug("Could not open user '%s' authorized keys '%s': %s",
		    pw->pw_name, path, strerror(errno));
		r = ERR_NOT_FOUND;
		goto out;
	}
	if (q->strict_modes &&
	    authkeys_secure_file(fd, path, pw, err, sizeof(err)) != 0) {
		log_info("Authentication refused: %s", err);
		r = ERR_KEY_BAD_PERMISSIONS;
		goto out;
	}
	if (fcntl(fd, F_SETFL, 0) == -1 || (f = fdopen(fd, "r")) == NULL) {
		r = ERR_SYSTEM;
		goto out;
	}
	fd = -1;
	r = scan(f, path, pw, q, optsp);
 out:
	if (f != NULL)
		fclose(f);
	if (fd != -1)
		close(fd);
	if ((r2 = ident_restore(&id)) != 0) {
		authopts_free(*optsp);
		*optsp = NULL;
		r = r2;
	}
	return r;
}

int
authkeys_check_file(const char *path, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp)
{
	return open_and_scan(path, pw, q, authkeys_scan, optsp);
}

/* Every AuthorizedKeysFile for q in turn. */
static int
find_in_files(const struct servconf *sc, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp)
{
	char *path;
	size_t i;
	int r;

	for (i = 0; i < sc->nauthorized_keys_files; i++) {
		if (strcasecmp(sc->authorized_keys_files[i], "none") == 0)
			continue;
		if (authkeys_expand_path(sc->authorized_keys_files[i], pw,
		    &path) != 0) {
			log_error("bad AuthorizedKeysFile \"%s\"",
			    sc->authorized_keys_files[i]);
			continue;
		}
		r = authkeys_check_file(path, pw, q, optsp);
		x_free(path);
		if (r == 0 || r == ERR_SYSTEM)
			return r;
	}
	return ERR_NOT_FOUND;
}

static void
query_init(struct authkeys_query *q, const struct servconf *sc,
    const struct key *key, const char *remote_host, const char *remote_ip)
{
	memset(q, 0, sizeof(*q));
	q->key = key;
	q->remote_host = remote_host;
	q->remote_ip = remote_ip;
	q->now = (uint64_t)time(NULL);
	q->strict_modes = sc->strict_modes;
	q->fp_hash = sc->fingerprint_hash;
}

int
authkeys_find(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *remote_host, const char *remote_ip,
    struct authopts **optsp)
{
	struct authkeys_query q;
	int r;

	*optsp = NULL;
	query_init(&q, sc, key, remote_host, remote_ip);
	if ((r = find_in_files(sc, pw, &q, optsp)) != ERR_NOT_FOUND)
		return r;
	return authkeys_command(sc, pw, key, remote_host, remote_ip, optsp);
}

int
authkeys_find_cert(const struct servconf *sc, const struct passwd *pw,
    const struct key_cert *cert, const char *remote_host,
    const char *remote_ip, struct authopts **optsp)
{
	struct authkeys_query q;

	*optsp = NULL;
	query_init(&q, sc, cert->key, remote_host, remote_ip);
	q.cert = cert;
	return find_in_files(sc, pw, &q, optsp);
}

/*
 * A line with a blank inside carries options; cert-authority is ignored
 * on principals lines.
 */
int
authkeys_principals_scan(FILE *f, const char *name, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp)
{
	struct authopts *o = NULL;
	char *line = NULL, *loc, *p, *e;
	const char *cp, *err;
	size_t cap = 0, i;
	ssize_t n;
	unsigned long lineno = 0;
	int found = 0;

	*optsp = NULL;
	while (!found && (n = getline(&line, &cap, f)) != -1) {
		lineno++;
		if (n > AK_MAX_LINE)
			continue;
		while (n > 0 && strchr("\r\n \t", line[n - 1]) != NULL)
			line[--n] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p == '\0' || *p == '#')
			continue;
		loc = x_asprintf("%s:%lu", name, lineno);
		cp = p;
		if (strpbrk(p, " \t") != NULL) {
			if (authopts_parse(p, &o, &cp, &err) != 0) {
				log_verbose("%s: bad principals options: %s",
				    loc, err);
				x_free(loc);
				continue;
			}
		} else
			o = authopts_new();
		for (e = p + (cp - p); *e != '\0' && *e != ' ' && *e != '\t'; e++)
			;
		*e = '\0';
		for (i = 0; i < q->cert->nprincipals; i++) {
			if (strcmp(q->cert->principals[i], cp) != 0)
				continue;
			log_debug("%s: matched principal \"%s\"", loc, cp);
			if (o->cert_authority)
				log_debug("%s: cert-authority ignored", loc);
			o->cert_authority = 0;
			found = options_allow(o, loc, pw, q);
			break;
		}
		if (found) {
			*optsp = o;
			o = NULL;
		}
		authopts_free(o);
		o = NULL;
		x_free(loc);
	}
	x_free(line);
	return found ? 0 : ERR_NOT_FOUND;
}

int
authkeys_principals(const struct servconf *sc, const struct passwd *pw,
    const struct key_cert *cert, const char *remote_host,
    const char *remote_ip, struct authopts **optsp)
{
	struct authkeys_query q;
	char *path;
	int r;

	*optsp = NULL;
	if (authkeys_expand_path(sc->authorized_principals_file, pw,
	    &path) != 0) {
		log_error("bad AuthorizedPrincipalsFile \"%s\"",
		    sc->authorized_principals_file);
		return ERR_NOT_FOUND;
	}
	query_init(&q, sc, cert->key, remote_host, remote_ip);
	q.cert = cert;
	r = open_and_scan(path, pw, &q, authkeys_principals_scan,
	    optsp);
	x_free(path);
	return r;
}
