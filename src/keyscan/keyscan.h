/*
 * keyscan.h: what the files of the ssh-keyscan program share.
 *
 * main.c reads the command line and the -f files and feeds each target
 * to the scanner once per key type asked for; targets.c turns one input
 * item ("host", "addrlist namelist" or a CIDR range) into targets;
 * scan.c runs every connection in one poll loop, through the
 * transport's client role as far as the server's host key; types.c
 * knows the key types; print.c writes what was found, in OpenSSH's
 * formats.
 */
#ifndef MOAT_KEYSCAN_H
#define MOAT_KEYSCAN_H

#include <stddef.h>

/* Key types -t names, in the order a host's connections are started. */
enum ks_type {
	KS_DSA = 0,
	KS_RSA,
	KS_ECDSA,
	KS_ED25519,
	KS_ECDSA_SK,
	KS_ED25519_SK,
	KS_NTYPES
};

#define KS_TYPE_BIT(t)	(1u << (t))
/* With no -t: every type but DSA. */
#define KS_DEFAULT_TYPES	(KS_TYPE_BIT(KS_RSA) | KS_TYPE_BIT(KS_ECDSA) | \
	KS_TYPE_BIT(KS_ED25519) | KS_TYPE_BIT(KS_ECDSA_SK) | \
	KS_TYPE_BIT(KS_ED25519_SK))

/* SSHFP fingerprint types wanted (-O hashalg). */
#define KS_DIGEST_SHA1		0x1
#define KS_DIGEST_SHA256	0x2

struct ks_opts {
	int family;		/* -4, -6: AF_INET, AF_INET6; or AF_UNSPEC */
	int port;		/* -p */
	int timeout;		/* -T, seconds */
	unsigned int types;	/* -t: KS_TYPE_BIT()s */
	int certs;		/* -c */
	int sshfp;		/* -D */
	int hash;		/* -H */
	unsigned int digests;	/* -O hashalg: KS_DIGEST_* */
	int found;		/* something was reported: exit status 0 */
};

/* types.c */
/* The type a -t name stands for ("rsa", "ssh-ed25519"...); -1: none. */
int ks_type_from_name(const char *name);
/* The host key algorithms one connection for type offers. */
const char *ks_type_algs(enum ks_type type, int certs);
/*
 * Whether the transport can verify a server's signature with alg; the
 * other algorithms' keys are taken from the blob as it came.
 */
int ks_alg_verifiable(const char *alg);
/* 0 if blob is a well-formed key (or certificate) of algorithm alg. */
int ks_blob_check(const char *alg, const unsigned char *blob, size_t len);
/* The key type name at the start of a blob (caller frees); NULL: bad. */
char *ks_blob_type(const unsigned char *blob, size_t len);
/* SSHFP algorithm number of a key type name (RFC 4255 etc.); 0: none. */
int ks_sshfp_alg(const char *keytype);

/* print.c */
/* "# host:port banner" (";" with -D) on stderr, once the banner is in. */
void ks_print_banner(const struct ks_opts *o, const char *name,
    const char *banner);
/* The lines for one host key (blob, K_S as sent) under names. */
void ks_print_key(struct ks_opts *o, const char *names,
    const unsigned char *blob, size_t len);

/* targets.c */
/*
 * Call fn once per target the item stands for: a CIDR range (or one
 * address) is each of its addresses, named by itself; anything else is
 * "addrlist [namelist]", the names defaulting to the addresses. fn may
 * block (it waits for room among the connections).
 */
typedef void (*ks_target_fn)(const char *addrs, const char *names,
    void *arg);
void ks_item(const char *item, ks_target_fn fn, void *arg);
/*
 * One line of a -f file made an item in place: a '#' and all after it
 * dropped, and the white space around what is left; NULL for nothing.
 */
char *ks_file_line(char *line);

/* scan.c */
struct ks_scan;

struct ks_scan *ks_scan_new(struct ks_opts *o, int maxconn);
void ks_scan_free(struct ks_scan *s);
/* Connections open or being opened. */
size_t ks_scan_active(const struct ks_scan *s);
int ks_scan_full(const struct ks_scan *s);
/* Start scanning addrs (tried in turn) for a key of type, under names. */
void ks_scan_start(struct ks_scan *s, const char *addrs, const char *names,
    enum ks_type type);
/* Wait for the next events (or timeout) and handle them. */
void ks_scan_step(struct ks_scan *s);

#endif
