/*
 * keygen_hosts.c: ssh-keygen's known_hosts modes: -F (find a host's
 * entries, printed as written, hashed with -H or as fingerprints with
 * -l), -H (hash every plain host name; names with wildcards, hashed
 * names and marker lines stay as they are) and -R (remove a host's
 * entries, @cert-authority and @revoked lines kept). -H and -R keep the
 * previous file as FILE.old and write the new one in its place.
 *
 * Lines are judged as OpenSSH judges them without decoding the key:
 * blank and '#' lines are comments; an entry is an optional marker
 * ("@cert-authority" or "@revoked", ended by the line's first blank), a
 * host field (with -F and -R, a hashed one must hold a 20-byte salt),
 * and a key type OpenSSH knows followed by something. Anything else is
 * an invalid line: -F passes over it, while -H and -R name each one and
 * then refuse to replace the file (exit 1). Lines are written back byte
 * for byte, and a hashed entry keeps everything after its host field.
 */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "hostfile.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

#define KTYPE_MAX	128	/* OpenSSH's bound on a key type word */
#define SALT_LEN	20	/* HMAC-SHA1 */

static const char *const mark_names[] = { "", "CA", "REVOKED" };

/* The key type names OpenSSH 9.2 takes in known_hosts. */
static const char *const type_names[] = {
	"ssh-ed25519", "ssh-ed25519-cert-v01@openssh.com",
	"sk-ssh-ed25519@openssh.com", "sk-ssh-ed25519-cert-v01@openssh.com",
	"ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
	"ecdsa-sha2-nistp256-cert-v01@openssh.com",
	"ecdsa-sha2-nistp384-cert-v01@openssh.com",
	"ecdsa-sha2-nistp521-cert-v01@openssh.com",
	"sk-ecdsa-sha2-nistp256@openssh.com",
	"sk-ecdsa-sha2-nistp256-cert-v01@openssh.com",
	"webauthn-sk-ecdsa-sha2-nistp256@openssh.com",
	"ssh-rsa", "rsa-sha2-256", "rsa-sha2-512",
	"ssh-rsa-cert-v01@openssh.com", "rsa-sha2-256-cert-v01@openssh.com",
	"rsa-sha2-512-cert-v01@openssh.com",
	"ssh-dss", "ssh-dss-cert-v01@openssh.com",
};
/* ... and the short names of the plain types, in any case. */
static const char *const short_names[] = {
	"ED25519", "ED25519-SK", "ECDSA", "ECDSA-SK", "RSA", "DSA",
};

enum kh_status { KH_COMMENT, KH_INVALID, KH_ENTRY };

struct kh_line {
	enum kh_status status;
	enum hostfile_marker mark;
	char *hosts;		/* the host field (a copy) */
	const char *rawkey;	/* into the line: the key type onwards */
};

static char *
default_known_hosts(const struct kg_opts *o)
{
	struct passwd *pw = getpwuid(getuid());

	if (o->file != NULL)
		return x_strdup(o->file);
	return x_asprintf("%s/.ssh/known_hosts", pw != NULL ? pw->pw_dir :
	    ".");
}

static char *
lower_dup(const char *s)
{
	char *r = x_strdup(s), *p;

	for (p = r; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

/* Each line of text in turn: *linep NUL-terminated, without '\n'. */
static char *
next_line(char **cpp)
{
	char *line = *cpp, *nl;

	if (line == NULL || *line == '\0')
		return NULL;
	if ((nl = strchr(line, '\n')) != NULL) {
		*nl = '\0';
		*cpp = nl + 1;
	} else
		*cpp = line + strlen(line);
	return line;
}

static int
known_type(const char *word, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (strlen(type_names[i]) == len &&
		    strncmp(word, type_names[i], len) == 0)
			return 1;
	for (i = 0; i < sizeof(short_names) / sizeof(short_names[0]); i++)
		if (strlen(short_names[i]) == len &&
		    strncasecmp(word, short_names[i], len) == 0)
			return 1;
	return 0;
}

/* 1 when a host field starting with '|' is not "|1|SALT|..." (20 bytes). */
static int
bad_hashed(const char *hosts)
{
	const char *salt = hosts + 3, *end;
	struct sbuf *b;
	char *text;
	int bad;

	if (strncmp(hosts, "|1|", 3) != 0 ||
	    (end = strchr(salt, '|')) == NULL || end == salt ||
	    end - salt > 1024)
		return 1;
	b = sbuf_new();
	text = x_strndup(salt, (size_t)(end - salt));
	bad = sbuf_b64_decode(b, text) != 0 || sbuf_len(b) != SALT_LEN;
	x_free(text);
	sbuf_free(b);
	return bad;
}

/*
 * The marker at *cpp: it ends at the line's first space (else its first
 * tab), as in OpenSSH, so "@revoked\thost key comment" is no marker.
 */
static int
read_marker(const char **cpp, enum hostfile_marker *markp)
{
	const char *cp = *cpp, *sp;
	size_t len;

	if ((sp = strchr(cp, ' ')) == NULL && (sp = strchr(cp, '\t')) == NULL)
		return -1;
	len = (size_t)(sp - cp);
	if (len == strlen("@cert-authority") &&
	    strncmp(cp, "@cert-authority", len) == 0)
		*markp = HOSTFILE_MARK_CA;
	else if (len == strlen("@revoked") &&
	    strncmp(cp, "@revoked", len) == 0)
		*markp = HOSTFILE_MARK_REVOKED;
	else
		return -1;
	*cpp = sp + strspn(sp, " \t");
	return **cpp == '@' ? -1 : 0;	/* one marker at most */
}

/*
 * Judge line n of path (see the top); check_hash: with -F and -R. -v
 * tells of a bad marker, in OpenSSH's words.
 */
static void
classify(const struct kg_opts *o, const char *path, unsigned long n,
    const char *line, int check_hash, struct kh_line *l)
{
	const char *cp = line + strspn(line, " \t"), *end;
	size_t len;

	memset(l, 0, sizeof(*l));
	l->status = KH_COMMENT;
	if (*cp == '\0' || *cp == '#')
		return;
	l->status = KH_INVALID;
	if (*cp == '@' && read_marker(&cp, &l->mark) != 0) {
		if (o->verbose)
			kg_error("hostkeys_foreach_file: invalid marker at "
			    "%s:%lu", path, n);
		return;
	}
	end = cp + strcspn(cp, " \t");
	l->hosts = x_strndup(cp, (size_t)(end - cp));
	if (check_hash && *l->hosts == '|' && bad_hashed(l->hosts))
		return;
	cp = end + strspn(end, " \t");
	if (*cp == '\0' || *cp == '#')
		return;		/* no key type */
	l->rawkey = cp;
	len = strcspn(cp, " \t");
	if (len <= 1 || len >= KTYPE_MAX || cp[len] == '\0' ||
	    !known_type(cp, len))
		return;
	cp += len + strspn(cp + len, " \t");
	if (*cp == '\0' || *cp == '#')
		return;		/* nothing after the type */
	l->status = KH_ENTRY;
}

static void
kh_line_clear(struct kh_line *l)
{
	x_free(l->hosts);
	memset(l, 0, sizeof(*l));
}

static int
wild(const char *hosts)
{
	return strpbrk(hosts, "*?!") != NULL;
}

static int
load(const char *path, char **textp)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		kg_error("Cannot stat %s: %s", path, strerror(errno));
		return 255;
	}
	/* A directory reads as an empty file, as through stdio. */
	if (kg_read_file(path, textp, NULL) != 0 && errno != EISDIR) {
		kg_error("%s: %s", path, strerror(errno));
		return 255;
	}
	if (*textp == NULL)
		*textp = x_strdup("");
	return 0;
}

static int
replace_file(const char *path, const struct sbuf *out)
{
	char *old = x_asprintf("%s.old", path), *tmp;
	struct stat st;
	int fd, r = 255, mode = 0644;

	if (stat(path, &st) == 0)
		mode = st.st_mode & 0777;
	tmp = x_asprintf("%s.XXXXXXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		kg_error("mkstemp: %s", strerror(errno));
		goto out;
	}
	close(fd);
	if (kg_write_file(tmp, sbuf_ptr(out), sbuf_len(out), mode) != 0 ||
	    chmod(tmp, (mode_t)mode) != 0) {
		kg_error("write %s: %s", tmp, strerror(errno));
		goto out_unlink;
	}
	if (unlink(old) != 0 && errno != ENOENT) {
		kg_error("unlink %.100s: %s", old, strerror(errno));
		goto out_unlink;
	}
	if (link(path, old) != 0) {
		kg_error("link %.100s to %.100s: %s", path, old,
		    strerror(errno));
		goto out_unlink;
	}
	if (rename(tmp, path) != 0) {
		kg_error("rename\"%s\" to \"%s\": %s", tmp, path,
		    strerror(errno));
		unlink(old);
		r = 1;
		goto out_unlink;
	}
	printf("%s updated.\nOriginal contents retained as %s\n", path, old);
	r = 0;
	goto out;
 out_unlink:
	unlink(tmp);
 out:
	x_free(old);
	x_free(tmp);
	return r;
}

/* After -H or -R met invalid lines: OpenSSH's refusal. */
static int
refuse_invalid(const char *path)
{
	kg_error("%s is not a valid known_hosts file.", path);
	kg_error("Not replacing existing known_hosts file because of errors");
	return 1;
}

/* One hashed line per name of the entry's host field. */
static void
put_hashed(struct sbuf *out, const struct kh_line *l)
{
	char *names = x_strdup(l->hosts), *one, *save, *lo, *h;

	for (one = strtok_r(names, ",", &save); one != NULL;
	    one = strtok_r(NULL, ",", &save)) {
		lo = lower_dup(one);
		h = hostfile_hash_name(lo, NULL, 0);
		sbuf_putf(out, "%s %s\n", h, l->rawkey);
		x_free(h);
		x_free(lo);
	}
	x_free(names);
}

/* -F -l: "host TYPE fingerprint comment" of the entry's key k. */
static void
print_entry_fp(const struct kg_opts *o, const struct key *k,
    const char *comment)
{
	char *fp = key_fingerprint(k, o->fp_hash), *art;

	while (isspace((unsigned char)*comment))
		comment++;
	printf("%s %s %s%s%s\n", o->host, key_short_name(k), fp,
	    *comment ? " " : "", comment);
	if (o->verbose && (art = key_randomart(k, o->fp_hash)) != NULL) {
		printf("%s\n", art);
		x_free(art);
	}
	x_free(fp);
}

/* -F: print one matching entry as -l, -H or nothing else asks. */
static void
print_found(const struct kg_opts *o, const char *line, unsigned long n,
    const struct kh_line *l)
{
	struct sbuf *b;

	if (!o->quiet)
		printf("# Host %s found: line %lu %s\n", o->host, n,
		    mark_names[l->mark]);
	if (o->hash && l->mark == HOSTFILE_MARK_NONE && *l->hosts != '|' &&
	    !wild(l->hosts)) {
		b = sbuf_new();
		put_hashed(b, l);
		fwrite(sbuf_ptr(b), 1, sbuf_len(b), stdout);
		sbuf_free(b);
	} else
		printf("%s\n", line);
}

int
kg_find_host(struct kg_opts *o)
{
	char *path = default_known_hosts(o), *text = NULL, *cp, *line;
	char *name = lower_dup(o->host);
	struct kh_line l;
	unsigned long n = 0;
	int found = 0, ret;

	if ((ret = load(path, &text)) != 0)
		goto out;
	for (cp = text; (line = next_line(&cp)) != NULL; kh_line_clear(&l)) {
		n++;
		classify(o, path, n, line, 1, &l);
		if (l.status != KH_ENTRY ||
		    !hostfile_match_hosts(l.hosts, name))
			continue;
		if (o->list) {
			const char *kp = l.rawkey;
			struct key *k;

			/* A key that does not decode makes no entry here. */
			if (key_read_public_text(&kp, &k) != 0)
				continue;
			if (!o->quiet)
				printf("# Host %s found: line %lu %s\n",
				    o->host, n, mark_names[l.mark]);
			print_entry_fp(o, k, kp);
			key_free(k);
		} else
			print_found(o, line, n, &l);
		found = 1;
	}
	ret = found ? 0 : 1;
 out:
	x_free(text);
	x_free(path);
	x_free(name);
	return ret;
}

int
kg_hash_hosts(struct kg_opts *o)
{
	char *path = default_known_hosts(o), *text = NULL, *cp, *line;
	unsigned long n = 0;
	struct sbuf *out = sbuf_new();
	struct kh_line l;
	int hashed = 0, invalid = 0, ret;

	if ((ret = load(path, &text)) != 0)
		goto out;
	for (cp = text; (line = next_line(&cp)) != NULL; kh_line_clear(&l)) {
		n++;
		classify(o, path, n, line, 0, &l);
		if (l.status == KH_INVALID) {
			kg_error("%s:%lu: invalid line", path, n);
			invalid = 1;
		}
		if (l.status != KH_ENTRY || l.mark != HOSTFILE_MARK_NONE ||
		    *l.hosts == '|' || wild(l.hosts)) {
			if (l.status == KH_ENTRY && wild(l.hosts))
				kg_error("%s:%lu: ignoring host name with "
				    "wildcard: %.64s", path, n, l.hosts);
			sbuf_putf(out, "%s\n", line);
			continue;
		}
		put_hashed(out, &l);
		hashed = 1;
	}
	if (invalid)
		ret = refuse_invalid(path);
	else if ((ret = replace_file(path, out)) == 0 && hashed) {
		kg_error("WARNING: %s.old contains unhashed entries", path);
		kg_error("Delete this file to ensure privacy of hostnames");
	}
 out:
	sbuf_free(out);
	x_free(text);
	x_free(path);
	return ret;
}

int
kg_remove_host(struct kg_opts *o)
{
	char *path = default_known_hosts(o), *text = NULL, *cp, *line;
	char *name = lower_dup(o->host);
	unsigned long n = 0;
	struct sbuf *out = sbuf_new();
	struct kh_line l;
	int removed = 0, invalid = 0, ret;

	if ((ret = load(path, &text)) != 0)
		goto out;
	for (cp = text; (line = next_line(&cp)) != NULL; kh_line_clear(&l)) {
		n++;
		classify(o, path, n, line, 1, &l);
		if (l.status == KH_INVALID) {
			kg_error("%s:%lu: invalid line", path, n);
			invalid = 1;
		} else if (l.status == KH_ENTRY &&
		    l.mark == HOSTFILE_MARK_NONE &&
		    hostfile_match_hosts(l.hosts, name)) {
			if (!o->quiet)
				printf("# Host %s found: line %lu\n", o->host,
				    n);
			removed = 1;
			continue;
		}
		sbuf_putf(out, "%s\n", line);
	}
	if (invalid)
		ret = refuse_invalid(path);
	else if (!removed) {
		kg_error("Host %s not found in %s", o->host, path);
		ret = 0;
	} else
		ret = replace_file(path, out);
 out:
	sbuf_free(out);
	x_free(text);
	x_free(path);
	x_free(name);
	return ret;
}
