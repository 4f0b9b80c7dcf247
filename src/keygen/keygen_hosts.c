/*
 * keygen_hosts.c: ssh-keygen's known_hosts modes: -F (find a host's
 * entries, printed raw, hashed with -H or as fingerprints with -l), -H
 * (hash every plain host name; names with wildcards stay as they are)
 * and -R (remove a host's entries). -H and -R keep the previous file as
 * FILE.old and write the new one in its place.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "hostfile.h"
#include "keygen.h"
#include "mem.h"
#include "sbuf.h"

static const char *const mark_names[] = { "", "CA", "REVOKED" };

static char *
default_known_hosts(const struct kg_opts *o)
{
	const char *home = getenv("HOME");

	if (o->file != NULL)
		return x_strdup(o->file);
	return x_asprintf("%s/.ssh/known_hosts", home ? home : ".");
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
load(const char *path, char **textp)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "Cannot stat %s: %s\n", path, strerror(errno));
		return 255;
	}
	if (kg_read_file(path, textp, NULL) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 255;
	}
	return 0;
}

static int
replace_file(const char *path, const struct sbuf *out)
{
	char *old = x_asprintf("%s.old", path), *tmp;
	struct stat st;
	int r, mode = 0644;

	if (stat(path, &st) == 0)
		mode = st.st_mode & 0777;
	tmp = x_asprintf("%s.XXXXXXXXXX", path);
	{
		int fd = mkstemp(tmp);

		if (fd < 0) {
			fprintf(stderr, "mkstemp: %s\n", strerror(errno));
			r = 255;
			goto out;
		}
		close(fd);
	}
	if (kg_write_file(tmp, sbuf_ptr(out), sbuf_len(out), mode) != 0 ||
	    chmod(tmp, (mode_t)mode) != 0) {
		fprintf(stderr, "write %s: %s\n", tmp, strerror(errno));
		unlink(tmp);
		r = 255;
		goto out;
	}
	(void)unlink(old);
	if (link(path, old) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "rename %s: %s\n", path, strerror(errno));
		unlink(tmp);
		r = 255;
		goto out;
	}
	printf("%s updated.\nOriginal contents retained as %s.old\n", path,
	    path);
	r = 0;
 out:
	x_free(old);
	x_free(tmp);
	return r;
}

int
kg_find_host(struct kg_opts *o)
{
	char *path = default_known_hosts(o), *text = NULL, *cp, *line, *copy;
	char *name = lower_dup(o->host), *hosts, *comment, *fp, *kt, *h;
	enum hostfile_marker mark;
	unsigned long n = 0;
	struct key *k;
	int found = 0, ret;

	if ((ret = load(path, &text)) != 0)
		goto out;
	for (cp = text; (line = next_line(&cp)) != NULL; ) {
		n++;
		copy = x_strdup(line);
		if (hostfile_parse_line(copy, &mark, &hosts, &k,
		    &comment) != 0 || !hostfile_match_hosts(hosts, name)) {
			key_free(k);
			x_free(copy);
			continue;
		}
		found = 1;
		if (!o->quiet)
			printf("# Host %s found: line %lu %s\n", o->host, n,
			    mark_names[mark]);
		if (o->list) {
			fp = key_fingerprint(k, o->fp_hash);
			kt = key_type_name(k) ? x_strdup(strstr(key_type_name(k),
			    "ed25519") ? "ED25519" : strstr(key_type_name(k),
			    "ecdsa") ? "ECDSA" : "RSA") : NULL;
			printf("%s %s %s%s%s\n", o->host, kt, fp,
			    *comment ? " " : "", comment);
			if (o->verbose) {
				char *art = key_randomart(k, o->fp_hash);

				printf("%s\n", art);
				x_free(art);
			}
			x_free(fp);
			x_free(kt);
		} else if (o->hash && mark == HOSTFILE_MARK_NONE &&
		    strncmp(hosts, "|1|", 3) != 0) {
			h = hostfile_hash_name(name, NULL, 0);
			kt = key_public_text(k);
			printf("%s %s%s%s\n", h, kt, *comment ? " " : "",
			    comment);
			x_free(h);
			x_free(kt);
		} else {
			while (*line == ' ' || *line == '\t')
				line++;
			h = line + strlen(line);
			while (h > line && isspace((unsigned char)h[-1]))
				*--h = '\0';
			printf("%s\n", line);
		}
		key_free(k);
		x_free(copy);
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
	char *path = default_known_hosts(o), *text = NULL, *cp, *line, *copy;
	char *hosts, *comment, *h, *one, *save, *rest;
	enum hostfile_marker mark;
	unsigned long n = 0;
	struct sbuf *out = sbuf_new();
	struct key *k;
	int hashed = 0, ret;

	if ((ret = load(path, &text)) != 0)
		goto out;
	for (cp = text; (line = next_line(&cp)) != NULL; ) {
		n++;
		copy = x_strdup(line);
		if (hostfile_parse_line(copy, &mark, &hosts, &k,
		    &comment) != 0 || mark != HOSTFILE_MARK_NONE ||
		    strncmp(hosts, "|1|", 3) == 0) {
			if (k != NULL)
				key_free(k);
			sbuf_putf(out, "%s\n", line);
			x_free(copy);
			continue;
		}
		if (strpbrk(hosts, "*?!") != NULL) {
			fprintf(stderr, "%s:%lu: ignoring host name with "
			    "wildcard: %s\n", path, n, hosts);
			sbuf_putf(out, "%s\n", line);
			key_free(k);
			x_free(copy);
			continue;
		}
		rest = key_public_text(k);
		for (one = strtok_r(hosts, ",", &save); one != NULL;
		    one = strtok_r(NULL, ",", &save)) {
			char *lo = lower_dup(one);

			h = hostfile_hash_name(lo, NULL, 0);
			sbuf_putf(out, "%s %s%s%s\n", h, rest,
			    *comment ? " " : "", comment);
			x_free(h);
			x_free(lo);
		}
		hashed = 1;
		x_free(rest);
		key_free(k);
		x_free(copy);
	}
	if ((ret = replace_file(path, out)) == 0 && hashed)
		fprintf(stderr, "WARNING: %s.old contains unhashed entries\n"
		    "Delete this file to ensure privacy of hostnames\n", path);
 out:
	sbuf_free(out);
	x_free(text);
	x_free(path);
	return ret;
}

int
kg_remove_host(struct kg_opts *o)
{
	char *path = default_known_hosts(o), *text = NULL, *cp, *line, *copy;
	char *name = lower_dup(o->host), *hosts, *comment;
	enum hostfile_marker mark;
	unsigned long n = 0;
	struct sbuf *out = sbuf_new();
	struct key *k;
	int removed = 0, ret;

	if ((ret = load(path, &text)) != 0)
		goto out;
	for (cp = text; (line = next_line(&cp)) != NULL; ) {
		n++;
		copy = x_strdup(line);
		if (hostfile_parse_line(copy, &mark, &hosts, &k,
		    &comment) == 0 && mark == HOSTFILE_MARK_NONE &&
		    hostfile_match_hosts(hosts, name)) {
			if (!o->quiet)
				printf("# Host %s found: line %lu\n", o->host,
				    n);
			removed = 1;
		} else
			sbuf_putf(out, "%s\n", line);
		key_free(k);
		x_free(copy);
	}
	if (!removed) {
		fprintf(stderr, "Host %s not found in %s\n", o->host, path);
		ret = 0;
		goto out;
	}
	ret = replace_file(path, out);
 out:
	sbuf_free(out);
	x_free(text);
	x_free(path);
	x_free(name);
	return ret;
}
