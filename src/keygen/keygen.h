/*
 * keygen.h: what the files of the ssh-keygen program share: the parsed
 * command line and one entry point per mode. Each mode returns the exit
 * status for main().
 */
#ifndef MOAT_KEYGEN_H
#define MOAT_KEYGEN_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"

#define KG_MAX_OPTS	64

struct kg_opts {
	const char *prog;
	const char *file;		/* -f */
	const char *type;		/* -t */
	unsigned int bits;		/* -b */
	const char *new_pass;		/* -N */
	const char *old_pass;		/* -P */
	const char *comment;		/* -C */
	unsigned int rounds;		/* -a */
	enum key_fp_hash fp_hash;	/* -E */
	int bubble;			/* -B */
	int verbose;			/* -v */
	int quiet;			/* -q */
	const char *format;		/* -m (checked by kg_format) */
	const char *host;		/* -F / -R */
	int hash;			/* -H */
	const char *ca_key;		/* -s */
	const char *key_id;		/* -I */
	int host_cert;			/* -h */
	const char *principals;		/* -n */
	const char *validity;		/* -V */
	const char *serial;		/* -z */
	int have_serial;
	const char *certopts[KG_MAX_OPTS];	/* -O */
	size_t ncertopts;
	int update_krl;			/* -u */
	int list;			/* -l (with -Q) */
	const char *sign_op;		/* -Y */
	const char *revoked;		/* -r: KRL with -Y verify, else */
	const char *rr_host;		/* the host of SSHFP records */
	int generic;			/* -g */
	int gen_all;			/* -A */
	int require_agent;		/* -U (with -Y sign or -s) */
	const char *moduli_op;		/* -M generate | screen */
	const char *pkcs11;		/* -D provider */
	const char *sk_provider;	/* -w */
	char **args;			/* operands */
	int nargs;
};

int kg_generate(struct kg_opts *o);
int kg_print_public(struct kg_opts *o);
int kg_fingerprint(struct kg_opts *o);
int kg_change_pass(struct kg_opts *o);
int kg_change_comment(struct kg_opts *o);
int kg_find_host(struct kg_opts *o);
int kg_hash_hosts(struct kg_opts *o);
int kg_remove_host(struct kg_opts *o);
int kg_sign_certs(struct kg_opts *o);
int kg_show_cert(struct kg_opts *o);
int kg_gen_krl(struct kg_opts *o);
int kg_query_krl(struct kg_opts *o);
int kg_export(struct kg_opts *o);
int kg_import(struct kg_opts *o);
/* -i of ssh.com's private key blob: a PEM key on stdout; exit status. */
int kg_import_sshcom(const struct sbuf *blob);
int kg_gen_host_keys(struct kg_opts *o);	/* -A */
int kg_download(struct kg_opts *o);		/* -D (keygen_p11.c) */
int kg_print_sshfp(struct kg_opts *o);		/* -r */
/* -Y: SSH signatures (keygen_sshsig.c, keygen_sshsig_check.c). */
int kg_sshsig(struct kg_opts *o);
int kg_sig_verify(struct kg_opts *o, int novalidate);
int kg_sig_find_principals(struct kg_opts *o);
int kg_sig_match_principals(struct kg_opts *o);
/*
 * The -O options of a -Y operation; NULL out-pointers are options that
 * operation does not take ("Invalid option"). 0 or -1 (reported).
 */
int kg_sig_opts(const struct kg_opts *o, const char **hashalgp,
    uint64_t *verify_timep, int *print_pubkeyp);
/* Digest what fd holds; a failure reported as OpenSSH's, naming who. */
int kg_sig_hash(const char *hashalg, int fd, const char *who,
    struct sbuf *h);

/* FIDO security keys (keygen_sk.c). */
/* 0 and *typep for "ed25519-sk", "ecdsa-sk" or their full names. */
int kg_sk_type(const char *name, enum key_type *typep);
/* -t ed25519-sk | ecdsa-sk: the key made by the authenticator, saved. */
int kg_generate_sk(struct kg_opts *o, enum key_type type);
int kg_download_sk(struct kg_opts *o);		/* -K */
/*
 * A signature by private security key k over data (PIN asked for when
 * the authenticator wants one), appended to sig; 0 or an ERR_* code.
 */
int kg_sk_sign(const struct kg_opts *o, const struct key *k,
    const unsigned char *data, size_t dlen, struct sbuf *sig);

/* -M: DH group generation and screening (keygen_moduli.c). */
int kg_moduli(struct kg_opts *o);
/* 0 when op is a -M operation, else -1 (reported). */
int kg_moduli_op(const char *op);

/* -m names (any case): a kg_fmt, or -1 for a name OpenSSH refuses. */
enum kg_fmt { KG_FMT_RFC4716, KG_FMT_PKCS8, KG_FMT_PEM };
int kg_format(const char *name);
/* The private key file format -m asks for (RFC4716: OpenSSH's own). */
enum key_file_format kg_private_format(const struct kg_opts *o);

/* Passphrases (keygen_pass.c): asked as OpenSSH asks (caller frees). */
char *kg_read_passphrase(const char *prompt);
void kg_free_passphrase(char *p);
/* A new key's passphrase: -P's, -N's or asked for twice until equal. */
char *kg_new_passphrase(const struct kg_opts *o);
/* OpenSSH's warning about a private key others may read. */
void kg_warn_perms(const char *path);

/* Helpers (keygen_util.c). */
/*
 * -f's file, or the one the user names when asked (prompt, and the
 * default ~/.ssh/id_TYPE): exits with 1 at the end of input.
 */
const char *kg_need_file(struct kg_opts *o, const char *prompt);
/*
 * A public key found as OpenSSH finds one: the first key (or, with
 * *is_cert set, certificate) line of path before any "-----BEGIN",
 * else path.pub's, else what an openssh-key-v1 file holds in the clear.
 * *commentp (may be NULL): the rest of the key's line, the name of its
 * file when there is none, or NULL for the last case. ERR_NOT_FOUND
 * when none.
 */
int kg_load_public_any(const char *path, struct key **kp, int *is_cert,
    char **commentp);
/* 0 when path exists, else -1 and OpenSSH's "ssh-keygen: path: error". */
int kg_stat_file(const struct kg_opts *o, const char *path);
/* Make ~/.ssh when path is in it and it is missing (said when notify). */
void kg_make_ssh_dir(const char *path, int notify);
/* "user@host", the comment of a new key (caller frees). */
char *kg_default_comment(void);
/*
 * Load a private key: without a passphrase, else with -P's or one asked
 * for. report: OpenSSH's messages on failure.
 */
int kg_load_private(const char *path, const char *pass, struct key **kp,
    char **commentp, int report);
/* Read a whole file (any size up to cap) into a NUL-terminated string. */
int kg_read_file(const char *path, char **textp, size_t *lenp);
int kg_write_file(const char *path, const void *p, size_t len, int mode);
/* 1 when path does not exist or the user answers y to overwriting it. */
int kg_confirm_overwrite(const char *path);
void kg_err(const struct kg_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * An error as OpenSSH's log writes it to stderr, the line ending in
 * "\r\n" (its -Y messages come that way; plain fprintf ones do not).
 */
void kg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 when the agent on fd holds the key (or certificate) blob. */
struct sbuf;
int kg_agent_holds(int fd, const struct sbuf *blob);

#endif
