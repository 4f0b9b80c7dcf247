/*
 * fakehash.c: a stand-in hash setting with the method and cost of the
 * system's accounts, for password checks that have nothing real to
 * compare against.
 *
 * If such a check hashed with some fixed method, the time an answer
 * takes would tell an attacker whether the user exists whenever the
 * accounts use another method (a SHA-512 check takes a few ms, a
 * yescrypt one tens). So the fake check hashes like a real account:
 *
 *   - Every hash field of the shadow file (or of the passwd file when
 *     the shadow file cannot be read) is reduced to its form: the part
 *     before the salt, which names the method and its cost ("$6$",
 *     "$6$rounds=65536$", "$y$j9T$", "$2b$05$"; "" for traditional DES).
 *   - The form most usable hashes share wins; a tie goes to the form
 *     that appears first in the file. Locked hashes ("!$6$...") are
 *     counted only when no account has a usable hash: they still say
 *     which method the system uses.
 *   - The setting is that form with a fresh salt made by libxcrypt's
 *     crypt_gensalt_rn() for the same method, so it is well-formed for
 *     it (yescrypt and bcrypt salts have a strict encoding). A method
 *     whose layout the table below does not know (scrypt "$7$", Sun MD5,
 *     NT) is imitated with the stored hash itself as the setting: the
 *     same cost, its own salt; the result is thrown away.
 *   - With no usable or locked hash anywhere, libxcrypt's default
 *     method (crypt_gensalt_rn with a NULL prefix).
 *
 * The files are read on every check, before the user is looked at, so
 * the choosing costs the same whoever the user is, and an account added
 * or changed is seen at the next attempt. Hashes read are wiped.
 */
#include <crypt.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "fakehash.h"
#include "mem.h"

enum layout {
	L_FIELDS,	/* $id$[params$]salt$hash: the form ends at the salt */
	L_BCRYPT,	/* $2?$NN$ + 22 salt characters + 31 hash ones */
	L_DES,		/* 2 salt characters + 11 hash ones, no params */
	L_STORED,	/* not taken apart: the stored hash is the setting */
};

static const struct hash_method {
	const char *id;		/* how its hashes begin */
	enum layout layout;
	const char *gensalt;	/* crypt_gensalt_rn prefix for a fresh salt */
} methods[] = {
	{ "$y$",	L_FIELDS,	"$y$" },
	{ "$gy$",	L_FIELDS,	"$gy$" },
	{ "$6$",	L_FIELDS,	"$6$" },
	{ "$5$",	L_FIELDS,	"$5$" },
	{ "$1$",	L_FIELDS,	"$1$" },
	{ "$sha1$",	L_FIELDS,	"$sha1" },
	{ "$2b$",	L_BCRYPT,	"$2b$" },
	{ "$2a$",	L_BCRYPT,	"$2b$" },
	{ "$2y$",	L_BCRYPT,	"$2b$" },
	{ "$2x$",	L_BCRYPT,	"$2b$" },
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))
#define BCRYPT_FORM 7		/* "$2b$05$" */
#define BCRYPT_SALT 22
#define DES_LEN 13

static const struct hash_method des_method = { "", L_DES, "" };
static const struct hash_method stored_method = { "$", L_STORED, NULL };

int
fakehash_usable(const char *stored)
{
	if (stored == NULL || *stored == '\0' || *stored == '!' ||
	    *stored == '*' || strcmp(stored, "x") == 0)
		return 0;
	return stored[0] == '$' || strlen(stored) == DES_LEN;
}

/*
 * The method of a usable hash, and in *formlen how many of its leading
 * characters name method and cost (the whole hash for L_STORED).
 */
static const struct hash_method *
method_of(const char *stored, size_t *formlen)
{
	const struct hash_method *m = &stored_method;
	const char *last, *salt;
	size_t i, len = strlen(stored);

	if (stored[0] != '$') {
		*formlen = 0;
		return &des_method;
	}
	for (i = 0; i < NMETHODS; i++)
		if (strncmp(stored, methods[i].id, strlen(methods[i].id)) == 0)
			m = &methods[i];
	switch (m->layout) {
	case L_FIELDS:
		/* The salt is the field before the last '$'. */
		last = strrchr(stored, '$');
		for (salt = last; salt > stored && salt[-1] != '$'; salt--)
			;
		if (salt > stored && salt - 1 >= stored + strlen(m->id) - 1 &&
		    salt < last) {
			*formlen = (size_t)(salt - stored);
			return m;
		}
		break;
	case L_BCRYPT:
		if (len >= BCRYPT_FORM + BCRYPT_SALT &&
		    stored[BCRYPT_FORM - 1] == '$') {
			*formlen = BCRYPT_FORM;
			return m;
		}
		break;
	default:
		break;
	}
	*formlen = len;
	return &stored_method;
}

/* The salt of a crypt_gensalt_rn() result: its last non-empty field. */
static int
fresh_salt(const struct hash_method *m, char *buf, size_t buflen,
    const char **saltp, size_t *saltlenp)
{
	char *end, *p;

	if (crypt_gensalt_rn(m->gensalt, 0, NULL, 0, buf, (int)buflen) ==
	    NULL || buf[0] == '*')
		return ERR_INVALID_ARGUMENT;
	if (m->layout == L_BCRYPT) {
		if (strlen(buf) != BCRYPT_FORM + BCRYPT_SALT)
			return ERR_INVALID_FORMAT;
		*saltp = buf + BCRYPT_FORM;
		*saltlenp = BCRYPT_SALT;
		return 0;
	}
	end = buf + strlen(buf);
	while (end > buf && end[-1] == '$')
		end--;
	for (p = end; p > buf && p[-1] != '$'; p--)
		;
	if (p == end)
		return ERR_INVALID_FORMAT;
	*saltp = p;
	*saltlenp = (size_t)(end - p);
	return 0;
}

static int
copy_out(char *out, size_t outlen, const char *s, size_t n)
{
	if (n >= outlen)
		return ERR_NO_BUFFER_SPACE;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

int
fakehash_setting(const char *stored, char *out, size_t outlen)
{
	const struct hash_method *m;
	char gen[CRYPT_GENSALT_OUTPUT_SIZE];
	const char *salt;
	size_t formlen, saltlen;

	if (!fakehash_usable(stored))
		return ERR_INVALID_FORMAT;
	m = method_of(stored, &formlen);
	if (m->layout == L_STORED ||
	    fresh_salt(m, gen, sizeof(gen), &salt, &saltlen) != 0)
		return copy_out(out, outlen, stored, strlen(stored));
	if (m->layout == L_DES)
		return copy_out(out, outlen, gen, strlen(gen));
	if (formlen + saltlen >= outlen)
		return ERR_NO_BUFFER_SPACE;
	memcpy(out, stored, formlen);
	memcpy(out + formlen, salt, saltlen);
	out[formlen + saltlen] = '\0';
	return 0;
}

/* One form seen in the file; per tier (0 usable, 1 locked) a count. */
struct form {
	char *key;		/* the leading formlen characters */
	size_t keylen;
	size_t count[2];
	size_t first[2];	/* line of its first hash in that tier */
	char *example[2];	/* that hash */
};

static void
count_hash(struct form **formsp, size_t *nformsp, const char *hash,
    int tier, size_t line)
{
	struct form *f = NULL;
	size_t i, keylen;

	(void)method_of(hash, &keylen);
	for (i = 0; i < *nformsp; i++)
		if ((*formsp)[i].keylen == keylen &&
		    memcmp((*formsp)[i].key, hash, keylen) == 0)
			f = &(*formsp)[i];
	if (f == NULL) {
		*formsp = x_reallocarray(*formsp, *nformsp + 1,
		    sizeof(**formsp));
		f = &(*formsp)[(*nformsp)++];
		memset(f, 0, sizeof(*f));
		f->key = x_strndup(hash, keylen);
		f->keylen = keylen;
	}
	if (f->count[tier]++ == 0) {
		f->first[tier] = line;
		f->example[tier] = x_strdup(hash);
	}
}

/* The hash field of a shadow or passwd line (cut in place), or NULL. */
static char *
hash_field(char *line)
{
	char *p, *end;

	if (line[0] == '+' || line[0] == '-')	/* NIS compat entries */
		return NULL;
	if ((p = strchr(line, ':')) == NULL)
		return NULL;
	p++;
	end = p + strcspn(p, ":\n");
	*end = '\0';
	return p;
}

static void
forms_free(struct form *forms, size_t nforms)
{
	size_t i;
	int t;

	for (i = 0; i < nforms; i++) {
		x_freezero(forms[i].key, forms[i].keylen + 1);
		for (t = 0; t < 2; t++)
			if (forms[i].example[t] != NULL)
				x_freezero(forms[i].example[t],
				    strlen(forms[i].example[t]) + 1);
	}
	x_free(forms);
}

int
fakehash_pick(FILE *f, char **outp)
{
	struct form *forms = NULL, *best = NULL;
	size_t nforms = 0, i, line = 0, cap = 0;
	char *buf = NULL, *h;
	int tier, r = 0;

	*outp = NULL;
	errno = 0;
	while (getline(&buf, &cap, f) != -1) {
		if ((h = hash_field(buf)) == NULL)
			continue;
		tier = 0;
		if (*h == '!') {
			while (*h == '!')
				h++;
			tier = 1;
		}
		if (fakehash_usable(h))
			count_hash(&forms, &nforms, h, tier, line++);
	}
	if (ferror(f))
		r = ERR_SYSTEM;
	if (buf != NULL)
		x_freezero(buf, cap);
	for (tier = 0; r == 0 && tier < 2 && best == NULL; tier++) {
		for (i = 0; i < nforms; i++) {
			if (forms[i].count[tier] == 0)
				continue;
			if (best == NULL ||
			    forms[i].count[tier] > best->count[tier] ||
			    (forms[i].count[tier] == best->count[tier] &&
			    forms[i].first[tier] < best->first[tier]))
				best = &forms[i];
		}
		if (best != NULL)
			*outp = x_strdup(best->example[tier]);
	}
	forms_free(forms, nforms);
	return r;
}

void
fakehash_system(const char *shadow_path, const char *passwd_path,
    char *out, size_t outlen)
{
	FILE *f;
	char *stored = NULL;
	int r = ERR_NOT_FOUND;

	if ((f = fopen(shadow_path, "re")) == NULL)
		f = fopen(passwd_path, "re");
	if (f != NULL) {
		if (fakehash_pick(f, &stored) == 0 && stored != NULL)
			r = fakehash_setting(stored, out, outlen);
		fclose(f);
	}
	if (stored != NULL)
		x_freezero(stored, strlen(stored) + 1);
	if (r == 0)
		return;
	if (crypt_gensalt_rn(NULL, 0, NULL, 0, out, (int)outlen) == NULL ||
	    out[0] == '*')
		snprintf(out, outlen, "$6$moatmoatmoatmoat$");
}
