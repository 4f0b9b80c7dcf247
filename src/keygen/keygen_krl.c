/*
 * keygen_krl.c: ssh-keygen -k (make or update a KRL) and -Q (test keys
 * against a KRL, -l to print it).
 *
 * -k reads each FILE line by line: blank lines and '#' comments are
 * skipped; "serial: N" or "serial: N-M" (decimal, 0x hex or 0 octal) and
 * "id: KEY_ID" revoke certificates issued by the -s CA ("-s none": any
 * CA); "hash: SHA256:..." revokes a key fingerprint; "key:", "sha1:" and
 * "sha256:" followed by a public key revoke it explicitly or by hash;
 * any other line is a public key or certificate, revoked as a key, or
 * by serial (key ID when the serial is 0) under its CA. Errors are fatal
 * (exit 255) with OpenSSH's messages, and the KRL is written only when
 * every file was read.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert.h"
#include "err.h"
#include "key.h"
#include "keygen.h"
#include "krl.h"
#include "mem.h"
#include "sbuf.h"

#define FATAL	255

struct krl_job {
	struct kg_opts *o;
	struct krl *krl;
	struct key *ca;		/* -s key */
	int wild_ca;		/* -s none */
	const char *path;
	unsigned long lnum;
};

static int
load_pub_any(const char *path, struct key **kp)
{
	char *pub;
	int r;

	if ((r = key_load_public(path, kp, NULL)) == 0)
		return 0;
	pub = x_asprintf("%s.pub", path);
	r = key_load_public(pub, kp, NULL);
	x_free(pub);
	return r;
}

static int
parse_serial(const char *cp, const char **epp, uint64_t *vp)
{
	unsigned long long v;
	char *ep;

	if (*cp == '\0' || *cp == '-' || *cp == '+' || isspace((unsigned char)*cp))
		return ERR_INVALID_FORMAT;
	errno = 0;
	v = strtoull(cp, &ep, 0);
	if (ep == cp)
		return ERR_INVALID_FORMAT;
	if (errno == ERANGE)
		return ERR_NUMBER_TOO_LARGE;
	*epp = ep;
	*vp = v;
	return 0;
}

static int
line_serial(struct krl_job *j, const char *cp)
{
	uint64_t lo, hi;
	const char *ep;
	int r;

	if ((r = parse_serial(cp, &ep, &lo)) != 0 ||
	    (*ep != '\0' && *ep != '-')) {
		fprintf(stderr, "%s:%lu: %s \"%s\"\n", j->path, j->lnum,
		    r == ERR_NUMBER_TOO_LARGE ? "serial out of range" :
		    "invalid serial", cp);
		return FATAL;
	}
	hi = lo;
	if (*ep == '-') {
		cp = ep + 1;
		if ((r = parse_serial(cp, &ep, &hi)) != 0 || *ep != '\0') {
			fprintf(stderr, "%s:%lu: invalid serial \"%s\"\n",
			    j->path, j->lnum, cp);
			return FATAL;
		}
		if (hi <= lo) {
			fprintf(stderr, "%s:%lu: invalid serial "
			    "range %llu:%llu\n", j->path, j->lnum,
			    (unsigned long long)lo, (unsigned long long)hi);
			return FATAL;
		}
	}
	if (krl_revoke_cert_serial(j->krl, j->ca, lo, hi) != 0) {
		fprintf(stderr, "revoke serial failed\n");
		return FATAL;
	}
	return 0;
}

static int
line_hash(struct krl_job *j, const char *cp)
{
	struct sbuf *b = sbuf_new();
	char *t;
	size_t n;
	int r = ERR_INVALID_FORMAT;

	if (strncmp(cp, "SHA256:", 7) == 0) {
		n = strlen(cp + 7);
		t = x_malloc(n + 4);
		memcpy(t, cp + 7, n);
		while (n % 4 != 0)
			t[n++] = '=';
		t[n] = '\0';
		r = sbuf_b64_decode(b, t);
		x_free(t);
		if (r == 0)
			r = krl_revoke_sha256(j->krl, sbuf_ptr(b), sbuf_len(b));
	}
	sbuf_free(b);
	if (r != 0) {
		fprintf(stderr, "%s:%lu: invalid hash: %s\n", j->path,
		    j->lnum, err_str(r));
		return FATAL;
	}
	return 0;
}

/* A key line; how: 0 plain, 1 explicit, 2 SHA-1, 3 SHA-256. */
static int
line_key(struct krl_job *j, const char *cp, int how)
{
	struct key_cert *cert = NULL;
	struct key *k = NULL;
	const char *p = cp;
	int r;

	if ((r = key_read_public_text(&p, &k)) != 0) {
		p = cp;
		if (cert_read_public_text(&p, &cert) != 0) {
			fprintf(stderr, "%s:%lu: invalid key: %s\n", j->path,
			    j->lnum, err_str(r));
			return FATAL;
		}
	}
	if (cert != NULL && how == 0) {
		if (cert->serial == 0)
			r = krl_revoke_cert_keyid(j->krl, cert->ca_key,
			    cert->key_id);
		else
			r = krl_revoke_cert_serial(j->krl, cert->ca_key,
			    cert->serial, cert->serial);
	} else {
		const struct key *key = cert != NULL ? cert->key : k;

		if (how == 2)
			r = krl_revoke_key_sha1(j->krl, key);
		else if (how == 3)
			r = krl_revoke_key_sha256(j->krl, key);
		else
			r = krl_revoke_key(j->krl, key);
	}
	key_free(k);
	cert_free(cert);
	if (r != 0) {
		fprintf(stderr, "revoke key failed: %s\n", err_str(r));
		return FATAL;
	}
	return 0;
}

static int
krl_line(struct krl_job *j, char *line)
{
	static const struct {
		const char *prefix;
		int how;
	} keyp[] = {
		{ "key:", 1 }, { "sha1:", 2 }, { "sha256:", 3 },
	};
	char *cp, *end;
	size_t i, n;

	cp = line + strspn(line, " \t");
	end = cp + strlen(cp);
	while (end > cp && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (*cp == '\0' || *cp == '#')
		return 0;
	if (strncasecmp(cp, "serial:", 7) == 0 ||
	    strncasecmp(cp, "id:", 3) == 0) {
		int is_id = (cp[0] | 0x20) == 'i';

		if (j->ca == NULL && !j->wild_ca) {
			fprintf(stderr, "revoking certificates by %s requires "
			    "specification of a CA key\n",
			    is_id ? "key ID" : "serial number");
			return FATAL;
		}
		cp += is_id ? 3 : 7;
		cp += strspn(cp, " \t");
		if (!is_id)
			return line_serial(j, cp);
		if (krl_revoke_cert_keyid(j->krl, j->ca, cp) != 0) {
			fprintf(stderr, "revoke key ID failed\n");
			return FATAL;
		}
		return 0;
	}
	if (strncasecmp(cp, "hash:", 5) == 0) {
		cp += 5;
		return line_hash(j, cp + strspn(cp, " \t"));
	}
	for (i = 0; i < sizeof(keyp) / sizeof(keyp[0]); i++) {
		n = strlen(keyp[i].prefix);
		if (strncasecmp(cp, keyp[i].prefix, n) == 0) {
			cp += n;
			return line_key(j, cp + strspn(cp, " \t"),
			    keyp[i].how);
		}
	}
	return line_key(j, cp, 0);
}

static int
krl_from_file(struct krl_job *j, const char *path)
{
	char *text = NULL, *line, *next;
	int r;

	if (kg_read_file(path, &text, NULL) != 0) {
		fprintf(stderr, "open %s: %s\n", path, strerror(errno));
		return FATAL;
	}
	if (!j->o->quiet)
		fprintf(stderr, "Revoking from %s\n", path);
	j->path = path;
	j->lnum = 0;
	r = 0;
	for (line = text; r == 0 && line != NULL && *line != '\0';
	    line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		j->lnum++;
		r = krl_line(j, line);
	}
	x_free(text);
	return r;
}

static int
load_krl(const char *path, struct krl **krlp)
{
	struct sbuf *b;
	char *text = NULL;
	size_t len;
	int r;

	if ((r = kg_read_file(path, &text, &len)) != 0) {
		fprintf(stderr, "Unable to load KRL %s: %s\n", path,
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		return FATAL;
	}
	b = sbuf_from(text, len);
	r = krl_parse(b, krlp);
	sbuf_free(b);
	x_free(text);
	if (r != 0) {
		fprintf(stderr, "Invalid KRL file: %s\n", err_str(r));
		return FATAL;
	}
	return 0;
}

int
kg_gen_krl(struct kg_opts *o)
{
	struct krl_job j;
	struct sbuf *out = NULL;
	unsigned long long v;
	char *ep;
	int i, ret = FATAL;

	memset(&j, 0, sizeof(j));
	j.o = o;
	if (o->file == NULL) {
		fprintf(stderr, "KRL generation requires an output file\n");
		return 1;
	}
	if (o->ca_key != NULL) {
		if (strcasecmp(o->ca_key, "none") == 0)
			j.wild_ca = 1;
		else if (load_pub_any(o->ca_key, &j.ca) != 0) {
			fprintf(stderr, "Cannot load CA public key %s\n",
			    o->ca_key);
			return FATAL;
		}
	}
	if (o->update_krl) {
		if (load_krl(o->file, &j.krl) != 0)
			goto out;
	} else
		j.krl = krl_new();
	if (o->have_serial) {
		errno = 0;
		v = strtoull(o->serial, &ep, 10);
		if (*o->serial == '\0' || *ep != '\0' || errno == ERANGE) {
			fprintf(stderr, "Invalid serial number \"%s\"\n",
			    o->serial);
			goto out;
		}
		krl_set_version(j.krl, v);
	}
	if (o->comment != NULL)
		krl_set_comment(j.krl, o->comment);
	for (i = 0; i < o->nargs; i++)
		if (krl_from_file(&j, o->args[i]) != 0)
			goto out;
	out = sbuf_new();
	if (krl_serialize(j.krl, out) != 0) {
		fprintf(stderr, "Couldn't generate KRL\n");
		goto out;
	}
	if (kg_write_file(o->file, sbuf_ptr(out), sbuf_len(out), 0644) != 0) {
		fprintf(stderr, "write %s: %s\n", o->file, strerror(errno));
		goto out;
	}
	ret = 0;
 out:
	sbuf_free(out);
	krl_free(j.krl);
	key_free(j.ca);
	return ret;
}

/*
 * A key or certificate file: the first line holding a public key or
 * certificate (other lines are skipped), else an unencrypted private key.
 */
static int
load_query_key(struct kg_opts *o, const char *path, struct key **kp,
    struct key_cert **certp, char **commentp)
{
	char *text = NULL, *line, *next, *end;
	const char *cp;

	*kp = NULL;
	*certp = NULL;
	*commentp = NULL;
	if (kg_read_file(path, &text, NULL) != 0)
		return ERR_SYSTEM;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		cp = line + strspn(line, " \t");
		if (*cp == '#' || *cp == '\0')
			continue;
		if (cert_read_public_text(&cp, certp) != 0) {
			cp = line + strspn(line, " \t");
			if (key_read_public_text(&cp, kp) != 0)
				continue;
		}
		cp += strspn(cp, " \t");
		*commentp = x_strdup(cp);
		end = *commentp + strlen(*commentp);
		while (end > *commentp && isspace((unsigned char)end[-1]))
			*--end = '\0';
		x_free(text);
		return 0;
	}
	x_free(text);
	return kg_load_private(path, o->old_pass, kp, commentp, 0);
}

int
kg_query_krl(struct kg_opts *o)
{
	struct krl *krl = NULL;
	struct key_cert *cert;
	struct sbuf *d;
	struct key *k;
	char *comment;
	int i, r, ret = 0;

	if (o->file == NULL) {
		fprintf(stderr, "KRL checking requires an input file\n");
		return 1;
	}
	if (load_krl(o->file, &krl) != 0)
		return FATAL;
	if (o->list) {
		d = sbuf_new();
		if (krl_dump(krl, d) != 0) {
			fprintf(stderr, "Couldn't print KRL\n");
			sbuf_free(d);
			krl_free(krl);
			return FATAL;
		}
		fwrite(sbuf_ptr(d), 1, sbuf_len(d), stdout);
		sbuf_free(d);
	}
	for (i = 0; i < o->nargs; i++) {
		if (load_query_key(o, o->args[i], &k, &cert, &comment) != 0) {
			fflush(stdout);
			fprintf(stderr, "Cannot load public key %s: "
			    "invalid format\n", o->args[i]);
			ret = FATAL;
			break;
		}
		r = krl_check_key(krl, cert != NULL ? cert->key : k, cert);
		if (comment == NULL)
			comment = x_strdup("");
		printf("%s%s%s%s: %s\n", o->args[i], *comment ? " (" : "",
		    comment, *comment ? ")" : "", r == 0 ? "ok" : "REVOKED");
		if (r != 0)
			ret = 1;
		key_free(k);
		cert_free(cert);
		x_free(comment);
	}
	krl_free(krl);
	return ret;
}
