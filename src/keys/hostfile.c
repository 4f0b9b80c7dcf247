/*
 * hostfile.c: known_hosts files (see hostfile.h).
 *
 * A line is "[marker] hosts keytype base64 [comment]". The hosts field
 * is either a comma-separated pattern list (with '*', '?' and '!'
 * negation, matched by match_pattern_list on the lower-cased name) or
 * one hashed name "|1|base64(salt)|base64(HMAC-SHA1(salt, name))",
 * compared in constant time. A host on a port other than 22 is named
 * "[host]:port" in both forms.
 *
 * Lookup reads every file in order and remembers the first entry with
 * the key (OK), the first with another key of the same type (CHANGED),
 * and any @revoked entry for the key, which wins over everything.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "err.h"
#include "hostfile.h"
#include "match.h"
#include "mem.h"
#include "sbuf.h"

#define HASH_MAGIC	"|1|"
#define SHA1_LEN	20
#define HOSTFILE_MAX	(64u * 1024 * 1024)

char *
hostfile_host_name(const char *host, int port)
{
	if (port == 0 || port == 22)
		return x_strdup(host);
	return x_asprintf("[%s]:%d", host, port);
}

static int
hmac_sha1(const unsigned char *salt, size_t saltlen, const char *name,
    unsigned char out[SHA1_LEN])
{
	unsigned int len = SHA1_LEN;

	if (HMAC(EVP_sha1(), salt, (int)saltlen, (const unsigned char *)name,
	    strlen(name), out, &len) == NULL || len != SHA1_LEN)
		return ERR_LIBCRYPTO;
	return 0;
}

char *
hostfile_hash_name(const char *name, const unsigned char *salt,
    size_t saltlen)
{
	unsigned char rnd[SHA1_LEN], mac[SHA1_LEN];
	struct sbuf *bs, *bm;
	char *s1 = NULL, *s2 = NULL, *ret = NULL;

	if (salt == NULL) {
		if (RAND_bytes(rnd, sizeof(rnd)) != 1)
			return NULL;
		salt = rnd;
		saltlen = sizeof(rnd);
	}
	if (hmac_sha1(salt, saltlen, name, mac) != 0)
		return NULL;
	bs = sbuf_from(salt, saltlen);
	bm = sbuf_from(mac, sizeof(mac));
	if (bs != NULL && bm != NULL && (s1 = sbuf_to_b64(bs, 0)) != NULL &&
	    (s2 = sbuf_to_b64(bm, 0)) != NULL)
		ret = x_asprintf("%s%s|%s", HASH_MAGIC, s1, s2);
	x_free(s1);
	x_free(s2);
	sbuf_free(bs);
	sbuf_free(bm);
	return ret;
}

static int
match_hashed(const char *field, const char *name)
{
	struct sbuf *salt = sbuf_new(), *mac = sbuf_new();
	unsigned char want[SHA1_LEN];
	const char *bar;
	char *s = NULL;
	int ok = 0;

	field += strlen(HASH_MAGIC);
	if ((bar = strchr(field, '|')) == NULL)
		goto out;
	s = x_strndup(field, (size_t)(bar - field));
	if (sbuf_b64_decode(salt, s) != 0 || sbuf_b64_decode(mac, bar + 1) != 0)
		goto out;
	if (sbuf_len(mac) != SHA1_LEN || sbuf_len(salt) == 0)
		goto out;
	if (hmac_sha1(sbuf_ptr(salt), sbuf_len(salt), name, want) != 0)
		goto out;
	ok = x_ct_eq(want, sbuf_ptr(mac), SHA1_LEN);
 out:
	x_free(s);
	sbuf_free(salt);
	sbuf_free(mac);
	return ok;
}

int
hostfile_match_hosts(const char *field, const char *name)
{
	if (field == NULL || name == NULL)
		return 0;
	if (strncmp(field, HASH_MAGIC, strlen(HASH_MAGIC)) == 0)
		return match_hashed(field, name);
	return match_pattern_list(name, field, 1) == 1;
}

static char *
next_word(char **cpp)
{
	char *cp = *cpp, *w;

	cp += strspn(cp, " \t");
	if (*cp == '\0')
		return NULL;
	w = cp;
	cp += strcspn(cp, " \t");
	if (*cp != '\0')
		*cp++ = '\0';
	*cpp = cp;
	return w;
}

int
hostfile_parse_line(char *line, enum hostfile_marker *markp,
    char **hostsp, struct key **keyp, char **commentp)
{
	char *cp = line, *w, *end;
	const char *kp;
	int r;

	*markp = HOSTFILE_MARK_NONE;
	*hostsp = NULL;
	*keyp = NULL;
	*commentp = NULL;
	end = line + strlen(line);
	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	cp += strspn(cp, " \t");
	if (*cp == '\0' || *cp == '#')
		return ERR_NOT_FOUND;
	if ((w = next_word(&cp)) == NULL)
		return ERR_NOT_FOUND;
	if (*w == '@') {
		if (strcmp(w, "@cert-authority") == 0)
			*markp = HOSTFILE_MARK_CA;
		else if (strcmp(w, "@revoked") == 0)
			*markp = HOSTFILE_MARK_REVOKED;
		else
			return ERR_INVALID_FORMAT;
		if ((w = next_word(&cp)) == NULL)
			return ERR_INVALID_FORMAT;
	}
	*hostsp = w;
	kp = cp;
	if ((r = key_read_public_text(&kp, keyp)) != 0) {
		*hostsp = NULL;
		return r;
	}
	*commentp = (char *)kp;
	return 0;
}

/*
 * Calls fn for each well-formed entry whose host field matches name (or
 * addr when not NULL). Missing files are skipped.
 */
typedef void (*entry_fn)(void *ctx, const char *path, unsigned long line,
    enum hostfile_marker mark, struct key *key);

static int
walk_file(const char *path, const char *name, const char *addr,
    entry_fn fn, void *ctx)
{
	FILE *f;
	char *line = NULL, *hosts, *comment;
	size_t cap = 0;
	unsigned long n = 0;
	enum hostfile_marker mark;
	struct key *k;

	if ((f = fopen(path, "r")) == NULL)
		return errno == ENOENT ? 0 : ERR_SYSTEM;
	while (getline(&line, &cap, f) != -1) {
		n++;
		if (hostfile_parse_line(line, &mark, &hosts, &k,
		    &comment) != 0)
			continue;
		if (hostfile_match_hosts(hosts, name) ||
		    (addr != NULL && hostfile_match_hosts(hosts, addr)))
			fn(ctx, path, n, mark, k);
		key_free(k);
	}
	free(line);
	fclose(f);
	return 0;
}

struct lookup_ctx {
	const struct key *key;
	struct hostfile_result ok, changed, revoked;
};

static void
set_match(struct hostfile_result *res, enum hostfile_status st,
    const char *path, unsigned long line, const struct key *k)
{
	if (res->match.path != NULL)
		return;
	res->status = st;
	res->match.path = x_strdup(path);
	res->match.line = line;
	if (key_demote(k, &res->match.key) != 0)
		res->match.key = NULL;
}

static void
lookup_entry(void *vctx, const char *path, unsigned long line,
    enum hostfile_marker mark, struct key *k)
{
	struct lookup_ctx *c = vctx;

	if (mark == HOSTFILE_MARK_CA)
		return;
	if (key_equal_public(k, c->key)) {
		set_match(mark == HOSTFILE_MARK_REVOKED ? &c->revoked : &c->ok,
		    mark == HOSTFILE_MARK_REVOKED ? HOST_REVOKED : HOST_OK,
		    path, line, k);
	} else if (mark == HOSTFILE_MARK_NONE &&
	    strcmp(key_type_name(k), key_type_name(c->key)) == 0)
		set_match(&c->changed, HOST_CHANGED, path, line, k);
}

int
hostfile_lookup(const char *const *paths, size_t npaths,
    const char *host, int port, const struct key *key,
    struct hostfile_result *res)
{
	struct lookup_ctx c;
	char *name = NULL;
	size_t i;
	int r = 0;

	memset(res, 0, sizeof(*res));
	memset(&c, 0, sizeof(c));
	c.key = key;
	if (host == NULL || key == NULL)
		return ERR_INVALID_ARGUMENT;
	name = hostfile_host_name(host, port);
	for (i = 0; i < npaths; i++) {
		char *lower = x_strdup(name), *p;

		for (p = lower; *p != '\0'; p++)
			*p = (char)tolower((unsigned char)*p);
		r = walk_file(paths[i], lower, NULL, lookup_entry, &c);
		x_free(lower);
		if (r != 0)
			break;
	}
	if (r == 0) {
		if (c.revoked.match.path != NULL) {
			*res = c.revoked;
			memset(&c.revoked, 0, sizeof(c.revoked));
		} else if (c.ok.match.path != NULL) {
			*res = c.ok;
			memset(&c.ok, 0, sizeof(c.ok));
		} else if (c.changed.match.path != NULL) {
			*res = c.changed;
			memset(&c.changed, 0, sizeof(c.changed));
		} else
			res->status = HOST_NEW;
	}
	hostfile_result_clear(&c.ok);
	hostfile_result_clear(&c.changed);
	hostfile_result_clear(&c.revoked);
	x_free(name);
	return r;
}

void
hostfile_result_clear(struct hostfile_result *res)
{
	if (res == NULL)
		return;
	x_free(res->match.path);
	key_free(res->match.key);
	memset(res, 0, sizeof(*res));
}

struct ca_ctx {
	struct key **cas;
	size_t ncas;
	struct key **revoked;
	size_t nrevoked;
};

static void
push_key(struct key ***arr, size_t *n, const struct key *k)
{
	struct key *copy;

	if (key_demote(k, &copy) != 0)
		return;
	*arr = x_reallocarray(*arr, *n + 1, sizeof(**arr));
	(*arr)[(*n)++] = copy;
}

static void
ca_entry(void *vctx, const char *path, unsigned long line,
    enum hostfile_marker mark, struct key *k)
{
	struct ca_ctx *c = vctx;

	if (mark == HOSTFILE_MARK_CA)
		push_key(&c->cas, &c->ncas, k);
	else if (mark == HOSTFILE_MARK_REVOKED)
		push_key(&c->revoked, &c->nrevoked, k);
}

int
hostfile_lookup_ca(const char *const *paths, size_t npaths,
    const char *host, int port, struct key ***casp, size_t *ncasp)
{
	struct ca_ctx c;
	char *name, *p;
	size_t i, j, n = 0;
	int r = 0;

	*casp = NULL;
	*ncasp = 0;
	memset(&c, 0, sizeof(c));
	name = hostfile_host_name(host, port);
	for (p = name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	for (i = 0; i < npaths && r == 0; i++)
		r = walk_file(paths[i], name, NULL, ca_entry, &c);
	/* Drop revoked CAs, compacting in place. */
	for (i = 0; i < c.ncas; i++) {
		for (j = 0; j < c.nrevoked; j++)
			if (key_equal_public(c.cas[i], c.revoked[j]))
				break;
		if (j < c.nrevoked)
			key_free(c.cas[i]);
		else
			c.cas[n++] = c.cas[i];
	}
	hostfile_keys_free(c.revoked, c.nrevoked);
	x_free(name);
	if (r != 0) {
		hostfile_keys_free(c.cas, n);
		return r;
	}
	*casp = c.cas;
	*ncasp = n;
	return 0;
}

void
hostfile_keys_free(struct key **keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		key_free(keys[i]);
	x_free(keys);
}

int
hostfile_add(const char *path, const char *host, int port,
    const struct key *key, int hash)
{
	char *name, *field, *text = NULL, *p;
	FILE *f;
	int r = 0;

	name = hostfile_host_name(host, port);
	for (p = name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	field = hash ? hostfile_hash_name(name, NULL, 0) : x_strdup(name);
	if (field == NULL || (text = key_public_text(key)) == NULL) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	if ((f = fopen(path, "a")) == NULL) {
		r = ERR_SYSTEM;
		goto out;
	}
	fprintf(f, "%s %s\n", field, text);
	if (ferror(f))
		r = ERR_SYSTEM;
	if (fclose(f) != 0)
		r = ERR_SYSTEM;
 out:
	x_free(name);
	x_free(field);
	x_free(text);
	return r;
}
