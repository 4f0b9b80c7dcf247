/*
 * hostfile_edit.c: walking a known_hosts file line by line, and
 * rewriting the lines of one host (see hostfile.h).
 *
 * hostfile_foreach() hands every line to a callback, classified: a
 * comment or blank line, a line it cannot read (kept as it is by those
 * who rewrite), an entry for another host, or an entry whose host field
 * matches the host name or the address, plain or hashed.
 *
 * hostfile_replace_entries() is what ssh's UpdateHostKeys writes with.
 * It copies the file into a temporary one next to it, leaving out the
 * host's unmarked lines whose key is not wanted any more, appends the
 * wanted keys not seen on the way, and moves the result over the file
 * (the old one stays as FILE.old), as OpenSSH does; a file that needs
 * no change is not touched.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "hostfile.h"
#include "key_int.h"
#include "log.h"
#include "mem.h"

/* 1 if field (plain patterns, or one hashed name) names name. */
static int
field_matches(const char *field, const char *name, int *hashedp)
{
	*hashedp = field[0] == '|';
	return hostfile_match_hosts(field, name);
}

static void
classify(struct hostfile_line *l, const char *host, const char *ip)
{
	int hashed;

	l->status = HOSTFILE_LINE_OTHER;
	if (host == NULL)
		return;
	if (field_matches(l->hosts, host, &hashed)) {
		l->status = HOSTFILE_LINE_MATCHED;
		l->match |= HOSTFILE_MATCH_HOST |
		    (hashed ? HOSTFILE_MATCH_HOST_HASHED : 0);
	}
	if (ip != NULL && field_matches(l->hosts, ip, &hashed)) {
		l->status = HOSTFILE_LINE_MATCHED;
		l->match |= HOSTFILE_MATCH_IP |
		    (hashed ? HOSTFILE_MATCH_IP_HASHED : 0);
	}
}

int
hostfile_foreach(const char *path, const char *host, const char *ip,
    hostfile_line_fn fn, void *arg)
{
	struct hostfile_line l;
	FILE *f;
	char *raw = NULL, *work = NULL, *hosts, *comment;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int r = 0, pr;

	if ((f = fopen(path, "r")) == NULL)
		return errno == ENOENT ? ERR_NOT_FOUND : ERR_SYSTEM;
	log_debug3("hostkeys_foreach: reading file \"%s\"", path);
	while ((n = getline(&raw, &cap, f)) != -1) {
		lineno++;
		raw[strcspn(raw, "\n")] = '\0';
		x_free(work);
		work = x_strdup(raw);
		memset(&l, 0, sizeof(l));
		l.path = path;
		l.lineno = lineno;
		l.line = raw;
		pr = hostfile_parse_line(work, &l.marker, &hosts, &l.key,
		    &comment);
		if (pr == ERR_NOT_FOUND)
			l.status = HOSTFILE_LINE_COMMENT;
		else if (pr != 0) {
			l.status = HOSTFILE_LINE_INVALID;
			l.marker = HOSTFILE_MARK_NONE;
		} else {
			l.hosts = hosts;
			classify(&l, host, ip);
		}
		r = fn(&l, arg);
		key_free(l.key);
		if (r != 0)
			break;
	}
	if (r == 0 && ferror(f))
		r = ERR_SYSTEM;
	x_free(work);
	free(raw);
	fclose(f);
	return r;
}

/* "ED25519", "ECDSA", "RSA": OpenSSH's sshkey_type() in messages. */
static const char *
short_name(const struct key *k)
{
	const struct keytype *kt = keytype_of(k);

	return kt != NULL ? kt->shortname : "unknown";
}

struct replace_ctx {
	FILE *out;
	const char *host;
	int quiet;
	struct key *const *keys;
	size_t nkeys;
	unsigned int *match;	/* per key: HOSTFILE_MATCH_* seen */
	int modified;
	int werr;		/* a write failed */
};

static void say(int quiet, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* VERBOSE, or DEBUG1 prefixed with the function's name when quiet. */
static void
say(int quiet, const char *fn, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (quiet)
		log_debug("%s: %s", fn, msg);
	else
		log_verbose("%s", msg);
}

static int
put_line(struct replace_ctx *c, const char *line)
{
	if (fprintf(c->out, "%s\n", line) < 0)
		c->werr = 1;
	return 0;
}

/* Keep every line but the host's unmarked ones with unwanted keys. */
static int
replace_line(struct hostfile_line *l, void *arg)
{
	struct replace_ctx *c = arg;
	size_t i;

	if (l->status == HOSTFILE_LINE_MATCHED &&
	    l->marker == HOSTFILE_MARK_NONE) {
		for (i = 0; i < c->nkeys; i++) {
			if (c->keys[i] == NULL ||
			    !key_equal_public(c->keys[i], l->key))
				continue;
			c->match[i] |= l->match;
			log_debug3("host_delete: %s key already at %s:%lu",
			    short_name(l->key), l->path, l->lineno);
			return put_line(c, l->line);
		}
		say(c->quiet, "host_delete",
		    "%s:%lu: Removed %s key for host %s",
		    l->path, l->lineno, short_name(l->key), c->host);
		c->modified = 1;
		return 0;
	}
	if (l->status == HOSTFILE_LINE_INVALID)
		say(c->quiet, "host_delete", "%s:%lu: invalid known_hosts "
		    "entry", l->path, l->lineno);
	return put_line(c, l->line);
}

/* "name key" lines: host and ip together, or apart when hashed. */
static int
write_entry(FILE *f, const char *host, const char *ip, const struct key *k,
    int hash)
{
	char *lower = x_strdup(host), *field = NULL, *text, *p;
	int r = 0;

	for (p = lower; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	if ((text = key_public_text(k)) == NULL) {
		x_free(lower);
		return ERR_LIBCRYPTO;
	}
	if (hash)
		field = hostfile_hash_name(lower, NULL, 0);
	else if (ip != NULL)
		field = x_asprintf("%s,%s", lower, ip);
	else
		field = x_strdup(lower);
	if (field == NULL)
		r = ERR_LIBCRYPTO;
	else if (fprintf(f, "%s %s\n", field, text) < 0)
		r = ERR_SYSTEM;
	x_free(field);
	x_free(text);
	x_free(lower);
	if (r == 0 && hash && ip != NULL)
		r = write_entry(f, ip, NULL, k, 1);
	return r;
}

/* Append the wanted keys the walk did not find (fully). */
static int
add_missing(struct replace_ctx *c, const char *path, const char *host,
    const char *ip, int hash)
{
	unsigned int want = HOSTFILE_MATCH_HOST | (ip ? HOSTFILE_MATCH_IP : 0);
	const char *what;
	char *fp, *where;
	size_t i;
	int r;

	for (i = 0; i < c->nkeys; i++) {
		if (c->keys[i] == NULL || (c->match[i] & want) == want)
			continue;
		if (c->match[i] == 0) {
			what = "Adding new key";
			r = write_entry(c->out, host, ip, c->keys[i], hash);
		} else if ((want & ~c->match[i]) == HOSTFILE_MATCH_HOST) {
			what = "Fixing match (hostname)";
			r = write_entry(c->out, host, NULL, c->keys[i], hash);
		} else {
			what = "Fixing match (address)";
			r = write_entry(c->out, ip, NULL, c->keys[i], hash);
		}
		if (r != 0)
			return r;
		fp = key_fingerprint(c->keys[i], KEY_FP_SHA256);
		where = x_asprintf("%s%s%s", host, ip ? "," : "",
		    ip ? ip : "");
		say(c->quiet, "hostfile_replace_entries", "%s for %s to %s: "
		    "%s %s", what, where, path, key_type_name(c->keys[i]),
		    fp ? fp : "?");
		x_free(fp);
		x_free(where);
		c->modified = 1;
	}
	return 0;
}

/* Keep the old file as path.old and move tmp over path. */
static int
swap_in(const char *path, const char *tmp)
{
	char *back = x_asprintf("%s.old", path);
	int r = ERR_SYSTEM;

	if (unlink(back) == -1 && errno != ENOENT)
		log_error("hostfile_replace_entries: unlink %.100s: %s", back,
		    strerror(errno));
	else if (link(path, back) == -1)
		log_error("hostfile_replace_entries: link %.100s to %.100s: "
		    "%s", path, back, strerror(errno));
	else if (rename(tmp, path) == -1)
		log_error("hostfile_replace_entries: rename \"%s\" to \"%s\": "
		    "%s", tmp, path, strerror(errno));
	else
		r = 0;
	x_free(back);
	return r;
}

int
hostfile_replace_entries(const char *path, const char *host,
    const char *ip, struct key *const *keys, size_t nkeys, int hash,
    int quiet)
{
	struct replace_ctx c;
	char *tmp = NULL;
	mode_t omask;
	int fd, r;

	if (path == NULL || host == NULL || (nkeys > 0 && keys == NULL))
		return ERR_INVALID_ARGUMENT;
	memset(&c, 0, sizeof(c));
	c.host = host;
	c.quiet = quiet;
	c.keys = keys;
	c.nkeys = nkeys;
	c.match = x_calloc(nkeys ? nkeys : 1, sizeof(*c.match));
	tmp = x_asprintf("%s.XXXXXXXXXXX", path);
	omask = umask(077);
	fd = mkstemp(tmp);
	umask(omask);
	if (fd == -1) {
		log_error("hostfile_replace_entries: mkstemp: %s",
		    strerror(errno));
		r = ERR_SYSTEM;
		x_free(tmp);
		tmp = NULL;
		goto out;
	}
	if ((c.out = fdopen(fd, "w")) == NULL) {
		log_error("hostfile_replace_entries: fdopen: %s",
		    strerror(errno));
		close(fd);
		r = ERR_SYSTEM;
		goto out;
	}
	if ((r = hostfile_foreach(path, host, ip, replace_line, &c)) != 0) {
		log_error("hostfile_replace_entries: hostkeys_foreach: %s",
		    err_str(r));
		goto out;
	}
	if ((r = add_missing(&c, path, host, ip, hash)) != 0)
		goto out;
	if (c.werr || fflush(c.out) != 0 || ferror(c.out)) {
		log_error("hostfile_replace_entries: write %s: %s", tmp,
		    strerror(errno));
		r = ERR_SYSTEM;
		goto out;
	}
	r = fclose(c.out) == 0 ? 0 : ERR_SYSTEM;
	c.out = NULL;
	if (r == 0 && c.modified)
		r = swap_in(path, tmp);
	else if (r == 0 && unlink(tmp) != 0)
		log_error("hostfile_replace_entries: unlink \"%s\": %s", tmp,
		    strerror(errno));
 out:
	if (c.out != NULL)
		fclose(c.out);
	if (tmp != NULL && r != 0)
		(void)unlink(tmp);
	x_free(tmp);
	x_free(c.match);
	return r;
}
