/*
 * keygen_sshsig_check.c: ssh-keygen -Y verify, check-novalidate,
 * find-principals and match-principals: SSH signatures checked against
 * the message on standard input and an allowed signers file
 * (allowed_signers.h).
 *
 * What is printed where, and the exit statuses, are OpenSSH's, since git
 * and scripts read them: a verdict on standard output ("Good ..." or
 * "Could not verify signature."), reasons on standard error, 0 or 255.
 * match-principals exits with OpenSSH's internal error code as a byte,
 * which is how OpenSSH's does it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allowed_signers.h"
#include "err.h"
#include "keygen.h"
#include "krl.h"
#include "mem.h"
#include "sshsig.h"

/* OpenSSH's exit statuses for match-principals: 256 + its error code. */
#define EXIT_BAD_FORMAT		252	/* SSH_ERR_INVALID_FORMAT */
#define EXIT_BAD_ARGUMENT	246	/* SSH_ERR_INVALID_ARGUMENT */
#define EXIT_SYSTEM		232	/* SSH_ERR_SYSTEM_ERROR */
#define EXIT_NOT_FOUND		210	/* SSH_ERR_KEY_NOT_FOUND */

/*
 * The signature file at path, dearmored and parsed (key_only: the signer
 * only). who names the caller in OpenSSH's messages.
 */
static int
load_signature(const char *path, int key_only, const char *who,
    struct sshsig **sigp)
{
	struct sbuf *blob = sbuf_new();
	char *text = NULL, why[SSHSIG_WHY_MAX];
	size_t len;
	int r;

	if ((r = kg_read_file(path, &text, &len)) != 0) {
		kg_error("Couldn't read signature file: %s",
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		goto out;
	}
	if ((r = sshsig_dearmor((unsigned char *)text, len, blob, why,
	    sizeof(why))) != 0) {
		kg_error("%s", why);
		kg_error("%s: sshsig_armor: %s", who, err_str(r));
		goto out;
	}
	if ((r = sshsig_parse(sbuf_ptr(blob), sbuf_len(blob), key_only, sigp,
	    why, sizeof(why))) != 0) {
		if (*why != '\0')
			kg_error("%s", why);
		if (key_only)
			kg_error("%s: sshsig_get_pubkey: %s", who,
			    err_str(r == ERR_FEATURE_UNSUPPORTED ?
			    ERR_INVALID_FORMAT : r));
	}
 out:
	x_free(text);
	sbuf_free(blob);
	return r;
}

/* The message on standard input against the signature. */
static int
check_message(const struct sshsig *s, const char *ns)
{
	struct sbuf *h;
	char why[SSHSIG_WHY_MAX];
	int r;

	if (!sshsig_hashalg_ok(s->hashalg)) {
		kg_error("sshsig_check_hashalg: unsupported hash "
		    "algorithm \"%.100s\"", s->hashalg);
		kg_error("sshsig_verify_fd: hash_file: signature "
		    "algorithm not supported");
		return ERR_INVALID_ARGUMENT;
	}
	h = sbuf_new();
	if ((r = kg_sig_hash(s->hashalg, STDIN_FILENO, "sshsig_verify_fd",
	    h)) == 0 &&
	    (r = sshsig_verify(s, ns, sbuf_ptr(h), sbuf_len(h), why,
	    sizeof(why))) != 0)
		kg_error("%s", why);
	sbuf_free(h);
	return r;
}

/* Not revoked by the KRL or key list at path (unreadable: revoked). */
static int
not_revoked(const char *path, const struct sshsig *s)
{
	struct krl *krl = NULL;
	int r;

	if ((r = krl_load_file(path, &krl)) == 0)
		r = krl_check_key(krl, s->key, s->cert);
	krl_free(krl);
	return r;
}

/*
 * The allowed signers file: the first line that lets the signer sign as
 * principal (NULL: as anyone; *principalsp then says who) in namespace ns
 * (NULL: any). Lines that do not parse or refuse are reported and passed
 * over. ERR_NOT_FOUND when none allows; ERR_SYSTEM when the file does not
 * open (reported).
 */
static int
scan_allowed(const char *path, const struct sshsig *s, const char *principal,
    const char *ns, uint64_t now, char **principalsp)
{
	struct allowed_signer as;
	const char *why;
	char *line = NULL, reason[SSHSIG_WHY_MAX];
	size_t cap = 0;
	unsigned long n = 0;
	int r = ERR_NOT_FOUND;
	FILE *f;
	int saved;

	if ((f = fopen(path, "r")) == NULL) {
		saved = errno;
		kg_error("Unable to open allowed keys file \"%s\": %s",
		    path, strerror(saved));
		errno = saved;
		return ERR_SYSTEM;
	}
	while (r != 0 && getline(&line, &cap, f) != -1) {
		n++;
		if ((r = allowed_signer_parse(line, principal, &as,
		    &why)) != 0) {
			if (r != ERR_NOT_FOUND)
				kg_error("%s:%lu: %s", path, n, why);
			r = ERR_NOT_FOUND;
			continue;
		}
		r = allowed_signer_check(&as, s->key, s->cert, principal, ns,
		    now, principalsp, reason, sizeof(reason));
		if (r == ERR_PERMISSION_DENIED)
			kg_error("%s:%lu: %s", path, n, reason);
		allowed_signer_clear(&as);
	}
	free(line);
	fclose(f);
	return r == 0 ? 0 : ERR_NOT_FOUND;
}

static void
print_key(const struct sshsig *s)
{
	char *text = s->cert != NULL ? cert_public_text(s->cert) :
	    key_public_text(s->key);

	printf("%s\n", text);
	x_free(text);
}

int
kg_sig_verify(struct kg_opts *o, int novalidate)
{
	const char *ns = o->principals;
	const char *principal = novalidate ? NULL : o->key_id;
	struct sshsig *s = NULL;
	uint64_t now;
	char *fp;
	int print_pubkey, ok = 0;

	if (kg_sig_opts(o, NULL, &now, &print_pubkey) != 0 ||
	    load_signature(o->ca_key, 0, "sig_verify", &s) != 0 ||
	    check_message(s, ns) != 0)
		goto out;
	if (!novalidate && o->revoked != NULL &&
	    not_revoked(o->revoked, s) != 0)
		goto out;
	if (!novalidate && scan_allowed(o->file, s, principal, ns, now,
	    NULL) != 0)
		goto out;
	ok = 1;
 out:
	if (!o->quiet && ok) {
		fp = key_fingerprint(s->key, o->fp_hash);
		if (principal == NULL)
			printf("Good \"%s\" signature with %s key %s\n", ns,
			    sshsig_key_label(s), fp);
		else
			printf("Good \"%s\" signature for %s with %s key %s\n",
			    ns, principal, sshsig_key_label(s), fp);
		x_free(fp);
	} else if (!o->quiet)
		printf("Could not verify signature.\n");
	if (ok && print_pubkey)
		print_key(s);
	sshsig_free(s);
	return ok ? 0 : 255;
}

/* Each principal on a line of its own, up to an empty one. */
static void
print_principals(const char *list)
{
	const char *p = list, *e;

	while (*p != '\0' && *p != ',') {
		e = p + strcspn(p, ",");
		printf("%.*s\n", (int)(e - p), p);
		p = *e == ',' ? e + 1 : e;
	}
}

int
kg_sig_find_principals(struct kg_opts *o)
{
	struct sshsig *s = NULL;
	char *principals = NULL;
	uint64_t now;
	int r, ok = 0;

	if (kg_sig_opts(o, NULL, &now, NULL) != 0 ||
	    load_signature(o->ca_key, 1, "sig_find_principals", &s) != 0)
		goto out;
	r = scan_allowed(o->file, s, NULL, NULL, now, &principals);
	if (r == ERR_SYSTEM)
		kg_error("sig_find_principals: sshsig_find_principal: "
		    "%s", strerror(errno));
	ok = r == 0;
 out:
	if (ok)
		print_principals(principals);
	else
		fprintf(stderr, "No principal matched.\n");
	x_free(principals);
	sshsig_free(s);
	return ok ? 0 : 255;
}

int
kg_sig_match_principals(struct kg_opts *o)
{
	struct allowed_signer as;
	struct sbuf *found = sbuf_new();
	const char *why;
	char *line = NULL;
	size_t cap = 0;
	unsigned long n = 0;
	int r = 0, ret;
	FILE *f = NULL;

	if (kg_sig_opts(o, NULL, NULL, NULL) != 0) {
		ret = EXIT_BAD_ARGUMENT;
		goto out;
	}
	if ((f = fopen(o->file, "r")) == NULL) {
		kg_error("Unable to open allowed keys file \"%s\": %s",
		    o->file, strerror(errno));
		r = ERR_SYSTEM;
	}
	while (r == 0 && f != NULL && getline(&line, &cap, f) != -1) {
		n++;
		r = allowed_signer_parse(line, o->key_id, &as, &why);
		if (r == 0)
			sbuf_putf(found, "%s\n", as.principals);
		else if (r != ERR_NOT_FOUND)
			kg_error("%s:%lu: %s", o->file, n, why);
		else
			r = 0;
		allowed_signer_clear(&as);
	}
	if (r == 0 && sbuf_len(found) == 0)
		r = ERR_NOT_FOUND;
	if (r == 0) {
		fwrite(sbuf_ptr(found), 1, sbuf_len(found), stdout);
		ret = 0;
	} else {
		fprintf(stderr, "No principal matched.\n");
		ret = r == ERR_SYSTEM ? EXIT_SYSTEM : r == ERR_NOT_FOUND ?
		    EXIT_NOT_FOUND : EXIT_BAD_FORMAT;
	}
 out:
	free(line);
	if (f != NULL)
		fclose(f);
	sbuf_free(found);
	return ret;
}
