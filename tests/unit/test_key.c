/*
 * test_key.c: key types, blobs, signatures, text forms, fingerprints and
 * private key files.
 *
 * Generated keys of every type go through blob and text round trips and
 * sign/verify with every signature algorithm that suits them, and bad
 * input (tampered data or signatures, truncated blobs) must fail. Keys
 * made by OpenSSH's ssh-keygen (committed under data/keys) must load in
 * every format it writes, and their fingerprints and randomart must be
 * what ssh-keygen -lv printed for them (recorded below). When
 * /usr/bin/ssh-keygen exists it must read the private keys we write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "key.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"

#define DATA		"data/keys/"
#define SSH_KEYGEN	"/usr/bin/ssh-keygen"
#define PASS		"test passphrase"

struct fp_expect {
	const char *file;
	enum key_fp_hash hash;
	const char *fp;
	const char *art;
};

static const struct fp_expect fp_expect[] = {
	{ "ed25519.pub", KEY_FP_SHA256,
	    "SHA256:QMuRpE+4qwoJPF4WO1yfjTsWe7xHPIX4KnP4MS2Hras",
	    "+--[ED25519 256]--+\n"
	    "|     .+.         |\n"
	    "|     =.o         |\n"
	    "|   .o.=   . .    |\n"
	    "|. . ++..+. . .   |\n"
	    "|.o *. .=S.o .    |\n"
	    "|o.+ ..  = +=     |\n"
	    "|o.  .  =.Bo+.    |\n"
	    "|.  .  .+ooB.     |\n"
	    "|...    E*=o      |\n"
	    "+----[SHA256]-----+" },
	{ "ed25519.pub", KEY_FP_MD5,
	    "MD5:76:63:44:65:2e:2e:f0:e4:1b:3e:dd:83:a3:0f:4b:10",
	    "+--[ED25519 256]--+\n"
	    "|          ..o    |\n"
	    "|         . o     |\n"
	    "|      E . o .    |\n"
	    "|       * o .     |\n"
	    "|      . S =      |\n"
	    "|       + B +     |\n"
	    "|        * + o    |\n"
	    "|       . = . .   |\n"
	    "|        o..      |\n"
	    "+------[MD5]------+" },
	{ "ecdsa256.pub", KEY_FP_SHA256,
	    "SHA256:KtOLgCIsw+65bm9TFlK2pyomEA+eANa+gLoyhz9scsw",
	    "+---[ECDSA 256]---+\n"
	    "|  .              |\n"
	    "|.. . o           |\n"
	    "|+ . o .          |\n"
	    "|=. o o .         |\n"
	    "|++o o + S        |\n"
	    "|=+.. = .         |\n"
	    "|BO. * o          |\n"
	    "|%=E= + .         |\n"
	    "|B&*oo .          |\n"
	    "+----[SHA256]-----+" },
	{ "ecdsa256.pub", KEY_FP_MD5,
	    "MD5:53:b4:bc:21:30:74:f7:d6:6c:1c:ba:94:81:93:a9:64",
	    "+---[ECDSA 256]---+\n"
	    "|     .+ . o+. .  |\n"
	    "|       +E+=o B . |\n"
	    "|       o..=.* =  |\n"
	    "|        .o = o   |\n"
	    "|        S . .    |\n"
	    "|         .       |\n"
	    "|                 |\n"
	    "|                 |\n"
	    "|                 |\n"
	    "+------[MD5]------+" },
	{ "ecdsa384.pub", KEY_FP_SHA256,
	    "SHA256:5DjZpZVZUOnv0oIcHxYC6ry7hdU7GW57W2ygfRkwU9I",
	    "+---[ECDSA 384]---+\n"
	    "|          .o+o.  |\n"
	    "|        .  +.oE  |\n"
	    "|       ...=.+    |\n"
	    "|      .* =. o+   |\n"
	    "|     o+ S o..o.  |\n"
	    "|      o+ ..*oo.o |\n"
	    "|      ....B=.+*  |\n"
	    "|      .. .oo=+o  |\n"
	    "|      oo  ...+   |\n"
	    "+----[SHA256]-----+" },
	{ "ecdsa384.pub", KEY_FP_MD5,
	    "MD5:b7:b0:61:44:32:3b:75:42:a4:f2:b5:e1:72:cc:7c:56",
	    "+---[ECDSA 384]---+\n"
	    "|      oo* .      |\n"
	    "|       B o       |\n"
	    "|    . + +   E    |\n"
	    "|     o O o .     |\n"
	    "|      o S +      |\n"
	    "|       + B .     |\n"
	    "|        . .      |\n"
	    "|                 |\n"
	    "|                 |\n"
	    "+------[MD5]------+" },
	{ "ecdsa521.pub", KEY_FP_SHA256,
	    "SHA256:kEnpnVnlkcnGNI9ek7WX947NzyLvdtmu20vX5IldE5Y",
	    "+---[ECDSA 521]---+\n"
	    "|      ..   ==o  .|\n"
	    "|     ..o  ..*= o+|\n"
	    "|     .+. + .o =Eo|\n"
	    "|      ..+  . ...=|\n"
	    "|        S   .  .+|\n"
	    "|              oB=|\n"
	    "|             ..+X|\n"
	    "|            . ++=|\n"
	    "|             ==B*|\n"
	    "+----[SHA256]-----+" },
	{ "ecdsa521.pub", KEY_FP_MD5,
	    "MD5:fa:dd:5d:42:2e:f9:71:01:4f:1c:ef:90:44:5a:40:c2",
	    "+---[ECDSA 521]---+\n"
	    "|         ...oo+. |\n"
	    "|          E. +..o|\n"
	    "|            ..oo.|\n"
	    "|              +o |\n"
	    "|        S     .o.|\n"
	    "|       .     +  .|\n"
	    "|      .     o + o|\n"
	    "|       . . . + = |\n"
	    "|        . . . o  |\n"
	    "+------[MD5]------+" },
	{ "rsa2048.pub", KEY_FP_SHA256,
	    "SHA256:vOOFTlYo1neAjE3BgPdZhEv/+YdJmnG8SCDzmTTvdYA",
	    "+---[RSA 2048]----+\n"
	    "|     ..oo+.      |\n"
	    "|    . .=+..      |\n"
	    "|     ..o+=.  .   |\n"
	    "|       o*.=.E .  |\n"
	    "|      o S=oB.o . |\n"
	    "|     . . =+.* = .|\n"
	    "|        * .o X = |\n"
	    "|       = o  = = .|\n"
	    "|        o      . |\n"
	    "+----[SHA256]-----+" },
	{ "rsa2048.pub", KEY_FP_MD5,
	    "MD5:1e:9d:35:60:43:0f:55:cd:d3:fd:2f:fd:79:33:45:0f",
	    "+---[RSA 2048]----+\n"
	    "|         .*....oo|\n"
	    "|         . =   .=|\n"
	    "|            +   o|\n"
	    "|         . o .E o|\n"
	    "|        S o    +o|\n"
	    "|       . .    . =|\n"
	    "|        .      .+|\n"
	    "|               +o|\n"
	    "|                +|\n"
	    "+------[MD5]------+" },
};

static const char *const all_sigalgs[] = {
	"ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
	"ecdsa-sha2-nistp521", "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa",
};
#define NSIGALGS (sizeof(all_sigalgs) / sizeof(all_sigalgs[0]))

static void
test_sign_verify(const struct key *k, const struct key *pub,
    const char *alg)
{
	static const unsigned char data[] = "the data to be signed";
	struct sbuf *sig = sbuf_new();
	unsigned char *s;
	char *name = NULL;
	size_t slen, i;

	CHECK_OK(key_sign(k, alg, data, sizeof(data), sig));
	slen = sbuf_len(sig);
	s = x_memdup(sbuf_ptr(sig), slen);
	CHECK_OK(key_sig_alg(s, slen, &name));
	CHECK_STR(name, alg);
	x_free(name);
	CHECK_OK(key_verify(pub, s, slen, data, sizeof(data), NULL));
	CHECK_OK(key_verify(pub, s, slen, data, sizeof(data), alg));
	CHECK_OK(key_verify(k, s, slen, data, sizeof(data), alg));
	/* Data changed. */
	CHECK_ERR(key_verify(pub, s, slen, data, sizeof(data) - 1, NULL),
	    ERR_SIGNATURE_INVALID);
	/* Another expected algorithm. */
	CHECK(key_verify(pub, s, slen, data, sizeof(data),
	    strcmp(alg, "ssh-rsa") == 0 ? "rsa-sha2-256" : "ssh-rsa") != 0);
	/* Signature bytes changed, near the end (the signature proper). */
	for (i = 1; i <= 8; i++) {
		s[slen - i] ^= 0x40;
		CHECK(key_verify(pub, s, slen, data, sizeof(data), NULL) != 0);
		s[slen - i] ^= 0x40;
	}
	/* Truncated and trailing bytes. */
	for (i = 0; i < slen; i += (i < 40 ? 1 : 17))
		CHECK(key_verify(pub, s, i, data, sizeof(data), NULL) != 0);
	sbuf_put_u8(sig, 0);
	CHECK(key_verify(pub, sbuf_ptr(sig), sbuf_len(sig), data,
	    sizeof(data), NULL) != 0);
	x_free(s);
	sbuf_free(sig);
}

/*
 * Damaged unencrypted private key files: every base64 character changed
 * in turn and the text cut short must give an error or the same key,
 * never a crash or a different key.
 */
static void
test_private_garbage(const struct key *k)
{
	struct sbuf *file = sbuf_new(), *bad;
	struct key *k2 = NULL;
	unsigned char *p;
	size_t i, len, start;

	CHECK_OK(key_serialize_private(k, NULL, "c", 0, file));
	len = sbuf_len(file);
	start = 36;	/* after the BEGIN line */
	for (i = start; i + 40 < len; i += (k->type == KEY_RSA ? 7 : 1)) {
		bad = sbuf_dup(file);
		p = sbuf_mutable_ptr(bad);
		if (p[i] == '\n')
			p[i] = 'A';
		else
			p[i] = p[i] == 'A' ? 'B' : 'A';
		if (key_parse_private(bad, NULL, &k2, NULL) == 0) {
			CHECK(key_equal_public(k, k2));
			key_free(k2);
		}
		k2 = NULL;
		sbuf_free(bad);
		bad = sbuf_from(sbuf_ptr(file), i);
		CHECK(key_parse_private(bad, NULL, &k2, NULL) != 0);
		sbuf_free(bad);
	}
	sbuf_free(file);
}

/* Every signature algorithm: usable ones work, others refused; the
 * default one; a public key cannot sign. */
static void
type_signatures(const struct key *k, const struct key *pub,
    enum key_type type, const char *name)
{
	size_t i;
	int matched = 0;

	for (i = 0; i < NSIGALGS; i++) {
		if (key_sigalg_matches(k, all_sigalgs[i])) {
			matched++;
			test_sign_verify(k, pub, all_sigalgs[i]);
		} else {
			struct sbuf *sig = sbuf_new();

			CHECK_ERR(key_sign(k, all_sigalgs[i],
			    (const unsigned char *)"x", 1, sig),
			    ERR_KEY_TYPE_MISMATCH);
			sbuf_free(sig);
		}
	}
	CHECK(matched == (type == KEY_RSA ? 3 : 1));
	/* Default algorithm. */
	{
		struct sbuf *sig = sbuf_new();
		char *alg = NULL;

		CHECK_OK(key_sign(k, NULL, (const unsigned char *)"x", 1, sig));
		CHECK_OK(key_sig_alg(sbuf_ptr(sig), sbuf_len(sig), &alg));
		CHECK_STR(alg, type == KEY_RSA ? "rsa-sha2-512" : name);
		x_free(alg);
		sbuf_free(sig);
	}
	/* A public key cannot sign. */
	{
		struct sbuf *sig = sbuf_new();

		CHECK(key_sign(pub, NULL, (const unsigned char *)"x", 1,
		    sig) != 0);
		sbuf_free(sig);
	}
}

/* Text round trip. */
static void
type_text(const struct key *k, enum key_type type, const char *name)
{
	struct key *k2 = NULL;
	const char *cp;
	char *text;

	text = key_public_text(k);
	CHECK(text != NULL && strncmp(text, name, strlen(name)) == 0);
	if (text != NULL) {
		char *line = x_asprintf("  %s my comment", text);

		cp = line;
		CHECK_OK(key_read_public_text(&cp, &k2));
		CHECK(k2 != NULL && key_equal_public(k, k2));
		CHECK_STR(cp, "my comment");
		key_free(k2);
		k2 = NULL;
		x_free(line);
		/* Wrong type word in front. */
		line = x_asprintf("%s %s", type == KEY_ED25519 ?
		    "ssh-rsa" : "ssh-ed25519", strchr(text, ' ') + 1);
		cp = line;
		CHECK_ERR(key_read_public_text(&cp, &k2),
		    ERR_KEY_TYPE_MISMATCH);
		x_free(line);
	}
	x_free(text);
}

/* Private key file, unencrypted and encrypted, round trip. */
static void
type_private_file(const struct key *k, const struct key *pub,
    enum key_type type, const char *name)
{
	struct key *k2 = NULL;
	struct sbuf *file;
	char *comment = NULL;

	file = sbuf_new();
	CHECK_OK(key_serialize_private(k, NULL, "a comment", 0, file));
	CHECK_OK(key_parse_private(file, NULL, &k2, &comment));
	CHECK(k2 != NULL && k2->has_private && key_equal_public(k, k2));
	CHECK_STR(comment, "a comment");
	if (k2 != NULL)
		test_sign_verify(k2, pub, type == KEY_RSA ? "rsa-sha2-256" :
		    name);
	key_free(k2);
	k2 = NULL;
	x_free(comment);
	comment = NULL;
	sbuf_reset(file);
	CHECK_OK(key_serialize_private(k, PASS, "enc", 2, file));
	CHECK_ERR(key_parse_private(file, "wrong", &k2, NULL),
	    ERR_KEY_WRONG_PASSPHRASE);
	CHECK_ERR(key_parse_private(file, NULL, &k2, NULL),
	    ERR_KEY_WRONG_PASSPHRASE);
	CHECK_OK(key_parse_private(file, PASS, &k2, &comment));
	CHECK(k2 != NULL && key_equal_public(k, k2));
	CHECK_STR(comment, "enc");
	key_free(k2);
	k2 = NULL;
	x_free(comment);
	comment = NULL;
	test_private_garbage(k);
	sbuf_free(file);
}

static void
test_type(enum key_type type, unsigned int bits, const char *name,
    unsigned int want_bits)
{
	struct key *k = NULL, *pub = NULL, *k2 = NULL;
	struct sbuf *blob = sbuf_new(), *blob2 = sbuf_new();
	unsigned char *b;
	size_t i, len;

	CHECK_OK(key_generate(type, bits, &k));
	if (k == NULL)
		return;
	CHECK_STR(key_type_name(k), name);
	CHECK(key_bits(k) == want_bits);
	CHECK(k->has_private);

	/* Blob round trip. */
	CHECK_OK(key_to_blob(k, blob));
	CHECK_OK(key_from_blob(sbuf_ptr(blob), sbuf_len(blob), &pub));
	if (pub == NULL)
		goto out;
	CHECK(!pub->has_private);
	CHECK(key_equal_public(k, pub));
	CHECK_OK(key_to_blob(pub, blob2));
	CHECK(sbuf_equal(blob, blob2));
	CHECK_OK(key_demote(k, &k2));
	CHECK(k2 != NULL && !k2->has_private && key_equal_public(k, k2));
	key_free(k2);
	k2 = NULL;

	/* Truncated blobs, trailing bytes, flipped bytes: refuse, no crash. */
	len = sbuf_len(blob);
	b = x_memdup(sbuf_ptr(blob), len + 1);
	for (i = 0; i < len; i++)
		CHECK(key_from_blob(b, i, &k2) != 0 && k2 == NULL);
	CHECK_ERR(key_from_blob(b, len + 1, &k2), ERR_INVALID_FORMAT);
	for (i = 0; i < len; i++) {
		b[i] ^= 0x81;
		if (key_from_blob(b, len, &k2) == 0) {
			CHECK(!key_equal_public(k, k2));
			key_free(k2);
			k2 = NULL;
		}
		b[i] ^= 0x81;
	}
	x_free(b);

	type_signatures(k, pub, type, name);
	type_text(k, type, name);
	type_private_file(k, pub, type, name);
 out:
	key_free(k);
	key_free(pub);
	sbuf_free(blob);
	sbuf_free(blob2);
}

static void
test_fingerprints(void)
{
	struct key *k;
	char *fp, *art, path[256];
	size_t i;

	for (i = 0; i < sizeof(fp_expect) / sizeof(fp_expect[0]); i++) {
		snprintf(path, sizeof(path), DATA "%s", fp_expect[i].file);
		CHECK_OK(key_load_public(path, &k, NULL));
		if (k == NULL)
			continue;
		fp = key_fingerprint(k, fp_expect[i].hash);
		art = key_randomart(k, fp_expect[i].hash);
		CHECK_STR(fp, fp_expect[i].fp);
		CHECK_STR(art, fp_expect[i].art);
		x_free(fp);
		x_free(art);
		key_free(k);
	}
}

struct privfile {
	const char *name;
	const char *pass;
	const char *comment;	/* NULL: do not check */
};

static const struct privfile privfiles[] = {
	{ "ed25519", NULL, "ed25519 test key" },
	{ "ecdsa256", NULL, "ecdsa256 test key" },
	{ "ecdsa384", NULL, "ecdsa384 test key" },
	{ "ecdsa521", NULL, "ecdsa521 test key" },
	{ "rsa2048", NULL, "rsa2048 test key" },
	{ "ed25519_enc", PASS, "encrypted" },
	{ "rsa_enc_a4", PASS, "encrypted a4" },
	{ "ecdsa384_enc_a4", PASS, "encrypted a4" },
	{ "rsa_pem", NULL, NULL },
	{ "ecdsa_pem", NULL, NULL },
	{ "rsa_pkcs8", NULL, NULL },
	{ "ecdsa_pkcs8", NULL, NULL },
	{ "rsa_pem_enc", PASS, NULL },
	{ "ecdsa_pkcs8_enc", PASS, NULL },
};

static void
test_load_private(void)
{
	struct key *k, *pub;
	char path[256], *comment;
	size_t i;
	struct sbuf *sig;

	for (i = 0; i < sizeof(privfiles) / sizeof(privfiles[0]); i++) {
		const struct privfile *pf = &privfiles[i];

		snprintf(path, sizeof(path), DATA "%s.pub", pf->name);
		pub = k = NULL;
		CHECK_OK(key_load_public(path, &pub, NULL));
		snprintf(path, sizeof(path), DATA "%s", pf->name);
		comment = NULL;
		CHECK_OK(key_load_private(path, pf->pass, 0, &k, &comment));
		if (k == NULL || pub == NULL) {
			fprintf(stderr, "failed to load %s\n", path);
			key_free(pub);
			key_free(k);
			continue;
		}
		CHECK(k->has_private);
		CHECK(key_equal_public(k, pub));
		if (pf->comment != NULL)
			CHECK_STR(comment, pf->comment);
		x_free(comment);
		sig = sbuf_new();
		CHECK_OK(key_sign(k, NULL, (const unsigned char *)"abc", 3,
		    sig));
		CHECK_OK(key_verify(pub, sbuf_ptr(sig), sbuf_len(sig),
		    (const unsigned char *)"abc", 3, NULL));
		sbuf_free(sig);
		key_free(k);
		k = NULL;
		if (pf->pass != NULL) {
			CHECK_ERR(key_load_private(path, "not it", 0, &k,
			    NULL), ERR_KEY_WRONG_PASSPHRASE);
			CHECK_ERR(key_load_private(path, NULL, 0, &k, NULL),
			    ERR_KEY_WRONG_PASSPHRASE);
			CHECK(k == NULL);
		}
		key_free(pub);
	}
}

/* Run ssh-keygen -y on a file and compare with our public text. */
static void
keygen_reads(const char *path, const char *pass, const struct key *k)
{
	char cmd[512], line[4096], *want;
	FILE *p;

	snprintf(cmd, sizeof(cmd), SSH_KEYGEN " -y -P '%s' -f %s 2>&1",
	    pass == NULL ? "" : pass, path);
	if ((p = popen(cmd, "r")) == NULL) {
		CHECK(0);
		return;
	}
	if (fgets(line, sizeof(line), p) == NULL)
		line[0] = '\0';
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	want = key_public_text(k);
	/* ssh-keygen -y appends the comment after a space. */
	CHECK(want != NULL && strncmp(line, want, strlen(want)) == 0);
	if (want == NULL || strncmp(line, want, strlen(want)) != 0)
		fprintf(stderr, "ssh-keygen -y said: %s\n", line);
	x_free(want);
}

static void
test_save_and_perms(void)
{
	static const enum key_type types[] = { KEY_ED25519, KEY_ECDSA,
	    KEY_RSA };
	char dir[] = "/tmp/moat-test-key.XXXXXX", path[256], pubpath[256];
	struct key *k, *k2;
	char *comment;
	int have_keygen = access(SSH_KEYGEN, X_OK) == 0;
	size_t i;

	if (mkdtemp(dir) == NULL) {
		CHECK(0);
		return;
	}
	if (!have_keygen)
		printf("skipping ssh-keygen checks: %s not found\n",
		    SSH_KEYGEN);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		k = k2 = NULL;
		CHECK_OK(key_generate(types[i], types[i] == KEY_RSA ? 2048 :
		    0, &k));
		if (k == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/k%zu", dir, i);
		snprintf(pubpath, sizeof(pubpath), "%s/k%zu.pub", dir, i);
		CHECK_OK(key_save_private(k, path, NULL, "saved", 0));
		CHECK_OK(key_save_public(k, pubpath, "saved"));
		CHECK_OK(key_load_private(path, NULL, 1, &k2, &comment));
		CHECK(k2 != NULL && key_equal_public(k, k2));
		CHECK_STR(comment, "saved");
		x_free(comment);
		key_free(k2);
		CHECK_OK(key_load_public(pubpath, &k2, &comment));
		CHECK(k2 != NULL && key_equal_public(k, k2));
		CHECK_STR(comment, "saved");
		x_free(comment);
		key_free(k2);
		if (have_keygen)
			keygen_reads(path, NULL, k);
		/* Group/other bits refused when asked. */
		chmod(path, 0644);
		CHECK_ERR(key_load_private(path, NULL, 1, &k2, NULL),
		    ERR_KEY_BAD_PERMISSIONS);
		CHECK_OK(key_load_private(path, NULL, 0, &k2, NULL));
		key_free(k2);
		unlink(path);
		/* Encrypted. */
		CHECK_OK(key_save_private(k, path, PASS, "saved", 4));
		CHECK_OK(key_load_private(path, PASS, 1, &k2, NULL));
		CHECK(k2 != NULL && key_equal_public(k, k2));
		key_free(k2);
		if (have_keygen)
			keygen_reads(path, PASS, k);
		unlink(path);
		unlink(pubpath);
		key_free(k);
	}
	rmdir(dir);
}

static void
test_small_rsa(void)
{
	struct key k;
	struct sbuf *b = sbuf_new();
	struct key *out = NULL;

	memset(&k, 0, sizeof(k));
	k.type = KEY_RSA;
	k.has_private = 1;
	k.pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)768);
	CHECK(k.pkey != NULL);
	if (k.pkey == NULL)
		goto out;
	CHECK_ERR(key_sign(&k, "rsa-sha2-256", (const unsigned char *)"x", 1,
	    b), ERR_KEY_LENGTH);
	/* A well-formed signature blob must still be refused. */
	sbuf_put_cstring(b, "rsa-sha2-256");
	sbuf_put_string(b, "0123456789abcdef0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef0123456789abcdef", 96);
	CHECK_ERR(key_verify(&k, sbuf_ptr(b), sbuf_len(b),
	    (const unsigned char *)"x", 1, NULL), ERR_KEY_LENGTH);
	sbuf_reset(b);
	CHECK_OK(key_to_blob(&k, b));
	CHECK_ERR(key_from_blob(sbuf_ptr(b), sbuf_len(b), &out),
	    ERR_KEY_LENGTH);
	EVP_PKEY_free(k.pkey);
 out:
	sbuf_free(b);
}

static void
test_names(void)
{
	enum key_type t;
	int nid;

	CHECK_STR(key_sigalg_all_names(), "ssh-ed25519,"
	    "sk-ssh-ed25519@openssh.com,ecdsa-sha2-nistp256,"
	    "ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,"
	    "sk-ecdsa-sha2-nistp256@openssh.com,"
	    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com,rsa-sha2-512,"
	    "rsa-sha2-256,ssh-rsa");
	CHECK_OK(key_type_from_name("rsa-sha2-256", &t, &nid));
	CHECK(t == KEY_RSA);
	CHECK_OK(key_type_from_name("ecdsa-sha2-nistp384", &t, &nid));
	CHECK(t == KEY_ECDSA && nid == NID_secp384r1);
	CHECK_ERR(key_type_from_name("ssh-dss", &t, &nid),
	    ERR_KEY_TYPE_UNKNOWN);
}

/* The examples of the bubble babble description, and -E's names. */
static void
test_bubblebabble(void)
{
	static const struct {
		const char *in, *out;
	} v[] = {
		{ "", "xexax" },
		{ "1234567890", "xesef-disof-gytuf-katof-movif-baxux" },
		{ "Pineapple", "xigak-nyryk-humil-bosek-sonax" },
	};
	enum key_fp_hash h;
	char *s;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		s = bubblebabble((const unsigned char *)v[i].in,
		    strlen(v[i].in));
		CHECK_STR(s, v[i].out);
		x_free(s);
	}
	CHECK_OK(key_fp_hash_from_name("sha1", &h));
	CHECK(h == KEY_FP_SHA1);
	CHECK_OK(key_fp_hash_from_name("SHA512", &h));
	CHECK(h == KEY_FP_SHA512);
	CHECK_STR(key_fp_hash_name(KEY_FP_MD5), "MD5");
	CHECK_ERR(key_fp_hash_from_name("sha3", &h), ERR_INVALID_ARGUMENT);
}

int
main(void)
{
	test_names();
	test_bubblebabble();
	test_type(KEY_ED25519, 0, "ssh-ed25519", 256);
	test_type(KEY_ECDSA, 0, "ecdsa-sha2-nistp256", 256);
	test_type(KEY_ECDSA, 384, "ecdsa-sha2-nistp384", 384);
	test_type(KEY_ECDSA, 521, "ecdsa-sha2-nistp521", 521);
	test_type(KEY_RSA, 2048, "ssh-rsa", 2048);
	test_type(KEY_RSA, 3072, "ssh-rsa", 3072);
	test_small_rsa();
	test_fingerprints();
	test_load_private();
	test_save_and_perms();
	return TEST_DONE();
}
