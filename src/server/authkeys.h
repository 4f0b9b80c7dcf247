/*
 * authkeys.h: the server's authorized_keys files: finding the line that
 * lets a public key in, and the restrictions that line carries.
 *
 * Files are named by AuthorizedKeysFile templates (%h home, %u user,
 * %% a percent; a relative path is relative to the home directory).
 * When the server runs as root, files are opened and checked with the
 * effective uid, gid and groups of the user, as OpenSSH does. With
 * StrictModes, a file, and every directory from it up to the home
 * directory (or to / for a file outside home), must be owned by the user
 * or root and not be writable by group or others; a file that fails is
 * refused whole and logged with OpenSSH's wording.
 *
 * Within a file: blank lines and '#' comments are skipped; a line is
 * "[options] keytype base64 [comment]"; lines with bad options or keys we
 * cannot read are skipped (logged with file:line). The first line whose
 * key equals the offered key and whose options let it in here and now
 * (from=, expiry-time) wins. Lines marked cert-authority never match a
 * plain key.
 */
#ifndef MOAT_AUTHKEYS_H
#define MOAT_AUTHKEYS_H

#include <pwd.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "authopts.h"
#include "cert.h"
#include "key.h"
#include "servconf.h"

/* What a key is being checked against. */
struct authkeys_query {
	const struct key *key;		/* the offered public key */
	const char *remote_host;	/* name, or the address (no UseDNS) */
	const char *remote_ip;
	uint64_t now;			/* seconds since the epoch */
	int strict_modes;
	/*
	 * A user certificate (key is its subject key): only cert-authority
	 * lines for its CA match, and the certificate must hold a principal
	 * from the line's principals="..." or else the user's name, and be
	 * valid now. NULL for a plain key.
	 */
	const struct key_cert *cert;
	int fp_hash;			/* FingerprintHash, for the log lines */
};

/*
 * Expand one AuthorizedKeysFile template for pw (caller frees *outp).
 * ERR_INVALID_FORMAT on an unknown %-token or a lone % at the end.
 */
int authkeys_expand_path(const char *tmpl, const struct passwd *pw,
    char **outp);

/*
 * StrictModes check of the file open as fd at path, for user pw.
 * 0 if safe; ERR_KEY_BAD_PERMISSIONS otherwise, with the reason
 * ("bad ownership or modes for directory /x" ...) in err.
 */
int authkeys_secure_file(int fd, const char *path, const struct passwd *pw,
    char *err, size_t errlen);

/*
 * Scan an open authorized_keys stream (name is for log messages).
 * 0 and *optsp (caller frees) for the first line that lets q->key in;
 * ERR_NOT_FOUND if none does.
 */
int authkeys_scan(FILE *f, const char *name, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp);

/*
 * One file by path: open it (as the user when running as root), check
 * its modes when q->strict_modes, scan it. ERR_NOT_FOUND when the file
 * is missing or no line matches; ERR_KEY_BAD_PERMISSIONS when refused.
 */
int authkeys_check_file(const char *path, const struct passwd *pw,
    const struct authkeys_query *q, struct authopts **optsp);

/*
 * All of sc's AuthorizedKeysFile entries in turn (none when the list is
 * empty; a "none" entry is skipped), then AuthorizedKeysCommand:
 * 0 and *optsp (caller frees) when one lets key in, ERR_NOT_FOUND
 * otherwise. now is taken from the clock.
 */
int authkeys_find(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *remote_host, const char *remote_ip,
    struct authopts **optsp);

/*
 * A user certificate against the cert-authority lines of sc's
 * AuthorizedKeysFile entries (AuthorizedKeysCommand is
 * authkeys_command_cert(), which OpenSSH asks after TrustedUserCAKeys):
 * 0 and *optsp
 * (the line's options; caller frees) or ERR_NOT_FOUND. The
 * certificate's own options are the caller's to apply.
 */
int authkeys_find_cert(const struct servconf *sc, const struct passwd *pw,
    const struct key_cert *cert, const char *remote_host,
    const char *remote_ip, struct authopts **optsp);
/*
 * sc's AuthorizedPrincipalsFile (%h %u %%, relative to home; opened and
 * checked like an authorized_keys file) for a certificate: lines are
 * "[options] principal". 0 and *optsp (that line's options) when one of
 * the certificate's principals is listed; ERR_NOT_FOUND otherwise.
 */
int authkeys_principals(const struct servconf *sc, const struct passwd *pw,
    const struct key_cert *cert, const char *remote_host,
    const char *remote_ip, struct authopts **optsp);

/*
 * An AuthorizedPrincipalsFile stream (name is for log messages):
 * "[options] principal" lines for q->cert. 0 and *optsp (caller frees)
 * for the first line naming one of the certificate's principals whose
 * options let it in; ERR_NOT_FOUND otherwise.
 */
int authkeys_principals_scan(FILE *f, const char *name,
    const struct passwd *pw, const struct authkeys_query *q,
    struct authopts **optsp);

/*
 * AuthorizedKeysCommand (authkeys_cmd.c): run sc's command for pw and
 * key (as AuthorizedKeysCommandUser, within
 * AuthorizedKeysCommandTimeout, output capped at 1 MiB) and scan its
 * output like a file. 0 and *optsp (caller frees) when a line lets key
 * in; ERR_NOT_FOUND otherwise, including every failure of the command
 * (logged).
 */
int authkeys_command(const struct servconf *sc, const struct passwd *pw,
    const struct key *key, const char *remote_host, const char *remote_ip,
    struct authopts **optsp);
/*
 * The argv for cmd: split into words, %-tokens expanded in the
 * arguments (%u %U %h %t %f %k %%), the user name as the one argument
 * when there is none. Caller frees with subproc_argv_free().
 * ERR_INVALID_FORMAT on a bad line or an unknown token.
 */
int authkeys_command_argv(const char *cmd, const struct passwd *pw,
    const struct key *key, char ***argvp);

/*
 * AuthorizedKeysCommand for a user certificate: the tokens describe the
 * certificate (%t its type, %k its blob, %f its key's fingerprint) and
 * its output is scanned for cert-authority lines as
 * authkeys_find_cert() scans files. 0 and *optsp or ERR_NOT_FOUND.
 */
int authkeys_command_cert(const struct servconf *sc, const struct passwd *pw,
    const struct key_cert *cert, const char *remote_host,
    const char *remote_ip, struct authopts **optsp);

/*
 * AuthorizedPrincipalsCommand for a certificate whose CA is in
 * TrustedUserCAKeys: run as AuthorizedPrincipalsCommandUser with the
 * bounds of AuthorizedKeysCommand (timeout, 1 MiB), its output read as
 * an AuthorizedPrincipalsFile. conn_id is "client-addr client-port
 * server-addr server-port" for %C. 0 and *optsp (caller frees) when it
 * lists one of the certificate's principals; ERR_NOT_FOUND otherwise,
 * including every failure of the command (logged).
 */
int authkeys_principals_command(const struct servconf *sc,
    const struct passwd *pw, const struct key_cert *cert, const char *conn_id,
    const char *remote_host, const char *remote_ip, struct authopts **optsp);
/*
 * Its argv: %u %U %h, %t %f %k (the certificate), %T %F %K (its CA),
 * %i key id, %s serial, %C conn_id, %D (empty: no routing domains), %%.
 */
int authkeys_principals_command_argv(const char *cmd,
    const struct passwd *pw, const struct key_cert *cert, const char *conn_id,
    char ***argvp);

/* What the %-tokens of an authentication command stand for. */
struct authcmd_tokens {
	const struct passwd *pw;
	const struct key *key;		/* the offered key (plain) */
	const struct key_cert *cert;	/* the offered certificate or NULL */
	const char *conn_id;		/* %C; NULL: "UNKNOWN" */
	const char *allowed;		/* the token letters accepted */
	int fp_hash;			/* FingerprintHash, for %f and %F */
};
/* Split cmd and expand the arguments' tokens (see above). */
int authcmd_argv(const char *cmd, const struct authcmd_tokens *tk,
    char ***argvp);

#endif
