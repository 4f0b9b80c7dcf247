/*
 * keygen_sshfp.c: ssh-keygen -r HOST, the SSHFP resource records (RFC
 * 4255) of a public key for a DNS zone file: "HOST IN SSHFP ALG TYPE
 * HEX", or with -g the generic form of RFC 3597 that any DNS server
 * takes, "HOST IN TYPE44 \# LEN ALG TYPE HEX". ALG is the key's
 * algorithm number (1 RSA, 3 ECDSA per RFC 6594, 4 Ed25519 per RFC
 * 7479) and TYPE the digest's (1 SHA-1, 2 SHA-256), both printed; the
 * digest is over the public key blob.
 *
 * With -f FILE the key is found as OpenSSH finds a public key: the first
 * line of FILE that holds one (text before a "-----BEGIN" line), else
 * FILE.pub, else the public half an openssh-key-v1 FILE carries in the
 * clear. Without -f every default host key in /etc/ssh that exists is
 * printed. A certificate has no SSHFP form: OpenSSH's message, nothing
 * printed, and success all the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "installdirs.h"
#include "keygen.h"
#include "mem.h"

#define DNS_TYPE_SSHFP	44

static const struct {
	enum key_type type;
	int alg;
} sshfp_algs[] = {
	{ KEY_RSA, 1 },
	{ KEY_ECDSA, 3 },
	{ KEY_ED25519, 4 },
};

static const struct {
	enum key_fp_hash hash;
	int type;
} sshfp_digests[] = {
	{ KEY_FP_SHA1, 1 },
	{ KEY_FP_SHA256, 2 },
};

/* OpenSSH's list, less the DSA and XMSS keys we do not have. */
static const char *const default_keys[] = {
	MOAT_SSHDIR "/ssh_host_rsa_key",
	MOAT_SSHDIR "/ssh_host_ecdsa_key",
	MOAT_SSHDIR "/ssh_host_ed25519_key",
};

static int
sshfp_alg(const struct key *k)
{
	size_t i;

	for (i = 0; i < sizeof(sshfp_algs) / sizeof(sshfp_algs[0]); i++)
		if (sshfp_algs[i].type == k->type)
			return sshfp_algs[i].alg;
	return 0;
}

static void
print_records(const struct kg_opts *o, const struct key *k, int alg)
{
	unsigned char dgst[EVP_MAX_MD_SIZE];
	unsigned int dlen, j;
	size_t i;

	for (i = 0; i < sizeof(sshfp_digests) / sizeof(sshfp_digests[0]);
	    i++) {
		if (key_fingerprint_raw(k, sshfp_digests[i].hash, dgst,
		    &dlen) != 0)
			continue;
		if (o->generic)
			printf("%s IN TYPE%d \\# %u %02x %02x ", o->rr_host,
			    DNS_TYPE_SSHFP, 2 + dlen, alg,
			    sshfp_digests[i].type);
		else
			printf("%s IN SSHFP %d %d ", o->rr_host, alg,
			    sshfp_digests[i].type);
		for (j = 0; j < dlen; j++)
			printf("%02x", dgst[j]);
		printf("\n");
	}
}

/*
 * The records of the key at path: 1 when printed (or refused as a
 * certificate), 0 when path does not exist, -1 after a fatal message.
 */
static int
print_key(const struct kg_opts *o, const char *path)
{
	struct key *k = NULL;
	struct stat st;
	int is_cert, alg;

	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		kg_error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (kg_load_public_any(path, &k, &is_cert, NULL) != 0) {
		kg_error("Failed to read v2 public key from \"%s\": %s", path,
		    strerror(ENOENT));
		return -1;
	}
	if (is_cert || (alg = sshfp_alg(k)) == 0)
		kg_error("export_dns_rr: unsupported algorithm and/or "
		    "digest_type");
	else
		print_records(o, k, alg);
	key_free(k);
	return 1;
}

int
kg_print_sshfp(struct kg_opts *o)
{
	int n = 0, r;
	size_t i;

	if (o->file != NULL) {
		if ((r = print_key(o, o->file)) < 0)
			return 255;
		if (r == 0) {
			kg_error("%s: %s", o->file, strerror(ENOENT));
			return 255;
		}
		return 0;
	}
	for (i = 0; i < sizeof(default_keys) / sizeof(default_keys[0]); i++) {
		if ((r = print_key(o, default_keys[i])) < 0)
			return 255;
		n += r;
	}
	if (n == 0) {
		kg_error("no keys found.");
		return 255;
	}
	return 0;
}
