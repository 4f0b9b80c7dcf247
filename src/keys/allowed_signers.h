/*
 * allowed_signers.h: the lines of an allowed signers file, which say
 * whose SSH signatures (sshsig.h) to trust, as "ssh-keygen -Y verify",
 * "-Y find-principals" and git's gpg.ssh.allowedSignersFile read them
 * (ssh-keygen(1), ALLOWED SIGNERS). A line is
 *
 *	principals [options] key
 *
 * principals: a comma-separated pattern list ('*', '?', '!' negation),
 * the whole field optionally in double quotes. options: comma-separated,
 * names in any case: cert-authority (the key is a CA: trust certificates
 * it signed, for the principals the certificate names), namespaces="list"
 * (patterns of namespaces the key may sign in), valid-after="time",
 * valid-before="time" (YYYYMMDD[HHMM[SS]], local time, or UTC with a Z
 * or UTC suffix). key: "type base64", then anything (a comment).
 *
 * The parser follows OpenSSH's in its quirks too (a line that is only
 * whitespace is a "missing key" error; a principal is looked for before
 * the rest of the line is), so that the same files give the same
 * answers and messages.
 */
#ifndef MOAT_ALLOWED_SIGNERS_H
#define MOAT_ALLOWED_SIGNERS_H

#include <stddef.h>
#include <stdint.h>

#include "cert.h"
#include "key.h"

struct allowed_signer {
	char *principals;		/* the pattern list as written */
	int cert_authority;
	char *namespaces;		/* pattern list; NULL: any */
	uint64_t valid_after;		/* 0: not set */
	uint64_t valid_before;		/* 0: not set */
	struct key *key;		/* the line's key, or NULL when ... */
	struct key_cert *cert;		/* ... the line holds a certificate */
};

/*
 * Parse one line as read from the file (its newline, if any, included).
 * principal: when not NULL, a line whose pattern list does not match it
 * is passed over before the rest of it is read.
 * 0: *as is filled (free with allowed_signer_clear()).
 * ERR_NOT_FOUND: a comment or blank line, or not the principal's line.
 * ERR_INVALID_FORMAT: *whyp says what is wrong, in OpenSSH's words
 * ("missing key", "bad options: unknown key option"...).
 */
int allowed_signer_parse(const char *line, const char *principal,
    struct allowed_signer *as, const char **whyp);
void allowed_signer_clear(struct allowed_signer *as);

/*
 * Does this line let key sign -- certificate cert, when the signature
 * carried one (else NULL) -- as principal (NULL: any; the line then says
 * which) in namespace ns (NULL: any) at time now?
 * 0: yes; *principalsp, when principalsp is not NULL, the principals the
 * line grants (caller frees): its own list, or for a certificate under a
 * cert-authority line the certificate's principals its patterns match.
 * ERR_NOT_FOUND: the line is about some other key.
 * ERR_PERMISSION_DENIED: the line's key, but not allowed here; why says
 * why, in OpenSSH's words.
 */
int allowed_signer_check(const struct allowed_signer *as,
    const struct key *key, const struct key_cert *cert,
    const char *principal, const char *ns, uint64_t now,
    char **principalsp, char *why, size_t whylen);

/*
 * A time as these files and "-O verify-time=" write it: YYYYMMDD,
 * YYYYMMDDHHMM or YYYYMMDDHHMMSS, local time unless it ends in "Z" or
 * "UTC". ERR_INVALID_FORMAT when it is not one.
 */
int allowed_signer_parse_time(const char *s, uint64_t *tp);
/* "2024-01-31T23:59:59" in local time. */
void allowed_signer_format_time(uint64_t t, char *buf, size_t len);

#endif
