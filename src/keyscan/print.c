/*
 * print.c: ssh-keyscan's output, in the forms of OpenSSH's.
 *
 * A key goes to stdout as a known_hosts line, "host keytype base64",
 * the host being "[host]:port" off port 22 and lower-cased, or hashed
 * with -H. A certificate (-c) is printed alone, "certtype base64": its
 * principals say which hosts it is for. With -D each key becomes SSHFP
 * resource records instead, "host IN SSHFP alg fptype hex", one per
 * fingerprint type, under the names as given.
 *
 * On port 22, unhashed, the name list is printed as one field
 * ("name1,name2 keytype ..."), as known_hosts allows; otherwise each
 * name gets lines of its own.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "hostfile.h"
#include "keyscan.h"
#include "mem.h"
#include "sbuf.h"

void
ks_print_banner(const struct ks_opts *o, const char *name,
    const char *banner)
{
	struct sbuf *b = sbuf_new();
	const unsigned char *p;

	/* The server chose these bytes: none of them reaches a terminal raw. */
	for (p = (const unsigned char *)banner; *p != '\0'; p++) {
		if (*p >= 0x20 && *p < 0x7f)
			sbuf_put_u8(b, *p);
		else
			sbuf_putf(b, "\\%03o", *p);
	}
	fprintf(stderr, "%c %s:%d %.*s\n", o->sshfp ? ';' : '#', name,
	    o->port, (int)sbuf_len(b), (const char *)sbuf_ptr(b));
	sbuf_free(b);
}

/* One SSHFP record per fingerprint type wanted. */
static void
print_sshfp(const struct ks_opts *o, const char *host, const char *type,
    const unsigned char *blob, size_t len)
{
	static const struct { unsigned int bit; int fptype; } fps[] = {
		{ KS_DIGEST_SHA1, 1 }, { KS_DIGEST_SHA256, 2 },
	};
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen, i;
	struct sbuf *b;
	char *hex;
	int alg = ks_sshfp_alg(type);

	if (alg == 0) {
		fprintf(stderr, "export_dns_rr: unsupported algorithm and/or "
		    "digest_type\n");
		return;
	}
	for (i = 0; i < sizeof(fps) / sizeof(fps[0]); i++) {
		if (!(o->digests & fps[i].bit))
			continue;
		if (EVP_Digest(blob, len, md, &mdlen, fps[i].fptype == 1 ?
		    EVP_sha1() : EVP_sha256(), NULL) != 1)
			continue;
		b = sbuf_from(md, mdlen);
		hex = sbuf_to_hex(b);
		printf("%s IN SSHFP %d %d %s\n", host, alg, fps[i].fptype, hex);
		x_free(hex);
		sbuf_free(b);
	}
}

/* The line(s) for host (one name, or the whole list on port 22). */
static void
print_one(const struct ks_opts *o, const char *host, const char *type,
    const char *b64, const unsigned char *blob, size_t len)
{
	char *name, *hashed = NULL, *p;

	if (o->sshfp) {
		print_sshfp(o, host, type, blob, len);
		return;
	}
	if (o->certs) {
		printf("%s %s\n", type, b64);
		return;
	}
	name = hostfile_host_name(host, o->port);
	for (p = name; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	if (o->hash && (hashed = hostfile_hash_name(name, NULL, 0)) == NULL) {
		fprintf(stderr, "ssh-keyscan: could not hash %s\n", name);
		x_free(name);
		return;
	}
	printf("%s %s %s\n", hashed != NULL ? hashed : name, type, b64);
	x_free(hashed);
	x_free(name);
}

void
ks_print_key(struct ks_opts *o, const char *names, const unsigned char *blob,
    size_t len)
{
	struct sbuf *b = sbuf_from(blob, len);
	char *type = ks_blob_type(blob, len), *b64 = sbuf_to_b64(b, 0);
	char *list, *p, *name;

	sbuf_free(b);
	if (type == NULL || b64 == NULL)
		goto out;
	o->found = 1;
	if (o->certs || (!o->hash && o->port == 22)) {
		print_one(o, names, type, b64, blob, len);
		goto out;
	}
	list = x_strdup(names);
	for (p = list; (name = strsep(&p, ",")) != NULL; )
		if (*name != '\0')
			print_one(o, name, type, b64, blob, len);
	x_free(list);
 out:
	x_free(type);
	x_free(b64);
}
