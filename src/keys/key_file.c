/*
 * key_file.c: private key files.
 *
 * The native format is openssh-key-v1 (PROTOCOL.key): between
 * "-----BEGIN OPENSSH PRIVATE KEY-----" and the END line, base64 (70
 * columns) of
 *	"openssh-key-v1\0", string cipher, string kdf, string kdfoptions,
 *	uint32 nkeys (1), string public blob, string encrypted section
 * where the section holds uint32 check, uint32 check (equal when the
 * passphrase was right), the private key body, string comment, and
 * padding bytes 1, 2, 3... up to the cipher's block size. With kdf
 * "bcrypt" (kdfoptions: string salt, uint32 rounds) the cipher's key and
 * IV come from bcrypt_pbkdf(passphrase, salt, rounds). The ciphers are
 * rows of filecipher[] over libcrypto EVP.
 *
 * Any other text goes to libcrypto's PEM reader (key_pem.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/rand.h>

#include "bcrypt_pbkdf.h"
#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

#define MARK_BEGIN	"-----BEGIN OPENSSH PRIVATE KEY-----"
#define MARK_END	"-----END OPENSSH PRIVATE KEY-----"
#define AUTH_MAGIC	"openssh-key-v1"	/* and its NUL */
#define KDF_SALT_LEN	16
#define KDF_ROUNDS	16
#define WRITE_CIPHER	"aes256-ctr"
#define KEYFILE_MAX	(1024 * 1024)

struct filecipher {
	const char *name;
	const EVP_CIPHER *(*evp)(void);	/* NULL for "none" */
	unsigned int key_len, iv_len, block_size;
};

static const struct filecipher filecipher[] = {
	{ "none", NULL, 0, 0, 8 },
	{ "aes256-ctr", EVP_aes_256_ctr, 32, 16, 16 },
	{ "aes192-ctr", EVP_aes_192_ctr, 24, 16, 16 },
	{ "aes128-ctr", EVP_aes_128_ctr, 16, 16, 16 },
	{ "aes256-cbc", EVP_aes_256_cbc, 32, 16, 16 },
	{ "aes192-cbc", EVP_aes_192_cbc, 24, 16, 16 },
	{ "aes128-cbc", EVP_aes_128_cbc, 16, 16, 16 },
};

static const struct filecipher *
filecipher_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(filecipher) / sizeof(filecipher[0]); i++)
		if (strcmp(filecipher[i].name, name) == 0)
			return &filecipher[i];
	return NULL;
}

/* En/decrypt len bytes in place with key||iv from the KDF. */
static int
file_crypt(const struct filecipher *fc, const unsigned char *keyiv,
    unsigned char *p, size_t len, int encrypt)
{
	EVP_CIPHER_CTX *ctx;
	int outl, r = ERR_LIBCRYPTO;

	if (fc->evp == NULL)
		return 0;
	if (len % fc->block_size != 0 || len > INT32_MAX)
		return ERR_INVALID_FORMAT;
	if ((ctx = EVP_CIPHER_CTX_new()) == NULL)
		return ERR_LIBCRYPTO;
	if (EVP_CipherInit_ex(ctx, fc->evp(), NULL, keyiv,
	    keyiv + fc->key_len, encrypt) == 1 &&
	    EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
	    EVP_CipherUpdate(ctx, p, &outl, p, (int)len) == 1 &&
	    (size_t)outl == len)
		r = 0;
	EVP_CIPHER_CTX_free(ctx);
	return r;
}

/* The base64 between the markers, decoded into blob. */
static int
dearmor(const struct sbuf *file, struct sbuf *blob)
{
	const char *t = (const char *)sbuf_ptr(file), *start, *end;
	size_t len = sbuf_len(file), blen = strlen(MARK_BEGIN);
	char *text;
	int r;

	if (len < blen || memcmp(t, MARK_BEGIN, blen) != 0)
		return ERR_INVALID_FORMAT;
	start = t + blen;
	end = memmem(start, len - blen, MARK_END, strlen(MARK_END));
	if (end == NULL)
		return ERR_INVALID_FORMAT;
	text = x_strndup(start, (size_t)(end - start));
	r = sbuf_b64_decode(blob, text);
	x_freezero(text, strlen(text));	/* shorter if a NUL came first */
	return r;
}

/* Key and IV for the cipher from the kdf options. */
static int
kdf_derive(const char *kdf, const unsigned char *opts, size_t optslen,
    const char *pass, unsigned char *keyiv, size_t len)
{
	struct sbuf *b;
	const unsigned char *salt;
	size_t saltlen;
	uint32_t rounds;
	int r;

	if (strcmp(kdf, "bcrypt") != 0)
		return ERR_KEY_UNKNOWN_CIPHER;
	if ((b = sbuf_from(opts, optslen)) == NULL)
		return ERR_ALLOC;
	if ((r = sbuf_get_string_direct(b, &salt, &saltlen)) != 0 ||
	    (r = sbuf_get_u32(b, &rounds)) != 0)
		goto out;
	if (sbuf_len(b) != 0 || rounds == 0 || saltlen == 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if (bcrypt_pbkdf(pass, strlen(pass), salt, saltlen, keyiv, len,
	    rounds) != 0)
		r = ERR_INVALID_ARGUMENT;
 out:
	sbuf_free(b);
	return r;
}

/* What precedes the encrypted section of an openssh-key-v1 file. */
struct openssh_header {
	char *cipher, *kdf;
	const unsigned char *kdfopts, *pub, *enc;	/* into the blob */
	size_t kdfoptslen, publen, enclen;
};

static void
header_clear(struct openssh_header *h)
{
	x_free(h->cipher);
	x_free(h->kdf);
	memset(h, 0, sizeof(*h));
}

/* Dearmor file into blob and read its header (pointers into blob). */
static int
parse_header(const struct sbuf *file, struct sbuf *blob,
    struct openssh_header *h)
{
	unsigned char magic[sizeof(AUTH_MAGIC)];
	uint32_t nkeys;
	int r;

	memset(h, 0, sizeof(*h));
	if ((r = dearmor(file, blob)) != 0 ||
	    (r = sbuf_get(blob, magic, sizeof(magic))) != 0)
		return r;
	if (memcmp(magic, AUTH_MAGIC, sizeof(magic)) != 0)
		return ERR_INVALID_FORMAT;
	if ((r = sbuf_get_cstring(blob, &h->cipher, NULL)) != 0 ||
	    (r = sbuf_get_cstring(blob, &h->kdf, NULL)) != 0 ||
	    (r = sbuf_get_string_direct(blob, &h->kdfopts,
	    &h->kdfoptslen)) != 0 ||
	    (r = sbuf_get_u32(blob, &nkeys)) != 0 ||
	    (r = sbuf_get_string_direct(blob, &h->pub, &h->publen)) != 0 ||
	    (r = sbuf_get_string_direct(blob, &h->enc, &h->enclen)) != 0)
		return r;
	if (nkeys != 1 || sbuf_len(blob) != 0)
		return ERR_INVALID_FORMAT;
	return 0;
}

static int
parse_openssh(const struct sbuf *file, const char *pass, struct key **keyp,
    char **commentp)
{
	struct sbuf *blob = sbuf_new(), *sect = sbuf_new();
	struct openssh_header h;
	const struct filecipher *fc;
	size_t i;
	char *comment = NULL;
	unsigned char keyiv[64];
	uint32_t check1, check2;
	uint8_t pad;
	struct key *k = NULL, *outer = NULL;
	int r;

	if ((r = parse_header(file, blob, &h)) != 0)
		goto out;
	if ((fc = filecipher_by_name(h.cipher)) == NULL) {
		r = ERR_KEY_UNKNOWN_CIPHER;
		goto out;
	}
	if ((fc->evp == NULL) != (strcmp(h.kdf, "none") == 0) ||
	    (fc->evp == NULL && h.kdfoptslen != 0)) {
		r = strcmp(h.kdf, "none") == 0 || strcmp(h.kdf, "bcrypt") == 0 ?
		    ERR_INVALID_FORMAT : ERR_KEY_UNKNOWN_CIPHER;
		goto out;
	}
	if (h.enclen == 0 || h.enclen % fc->block_size != 0) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	if ((r = key_from_blob(h.pub, h.publen, &outer)) != 0)
		goto out;
	if (fc->evp != NULL) {
		if (pass == NULL || *pass == '\0') {
			r = ERR_KEY_WRONG_PASSPHRASE;
			goto out;
		}
		if ((r = kdf_derive(h.kdf, h.kdfopts, h.kdfoptslen, pass, keyiv,
		    fc->key_len + fc->iv_len)) != 0)
			goto out;
	}
	if ((r = sbuf_put(sect, h.enc, h.enclen)) != 0 ||
	    (r = file_crypt(fc, keyiv, sbuf_mutable_ptr(sect), h.enclen,
	    0)) != 0)
		goto out;
	if ((r = sbuf_get_u32(sect, &check1)) != 0 ||
	    (r = sbuf_get_u32(sect, &check2)) != 0)
		goto out;
	if (check1 != check2) {
		r = ERR_KEY_WRONG_PASSPHRASE;
		goto out;
	}
	if ((r = key_private_from_sbuf(sect, &k)) != 0 ||
	    (r = sbuf_get_cstring(sect, &comment, NULL)) != 0)
		goto out;
	for (i = 1; sbuf_len(sect) > 0; i++) {
		if ((r = sbuf_get_u8(sect, &pad)) != 0)
			goto out;
		if (pad != (i & 0xff)) {
			r = ERR_INVALID_FORMAT;
			goto out;
		}
	}
	if (!key_equal_public(k, outer)) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	*keyp = k;
	k = NULL;
	if (commentp != NULL) {
		*commentp = comment;
		comment = NULL;
	}
 out:
	x_wipe(keyiv, sizeof(keyiv));
	key_free(k);
	key_free(outer);
	header_clear(&h);
	x_free(comment);
	sbuf_free(blob);
	sbuf_free(sect);
	return r;
}

int
key_parse_private(const struct sbuf *file, const char *passphrase,
    struct key **keyp, char **commentp)
{
	size_t blen = strlen(MARK_BEGIN);

	*keyp = NULL;
	if (commentp != NULL)
		*commentp = NULL;
	if (sbuf_len(file) >= blen &&
	    memcmp(sbuf_ptr(file), MARK_BEGIN, blen) == 0)
		return parse_openssh(file, passphrase, keyp, commentp);
	return key_parse_pem(file, passphrase, keyp);
}

/* The whole file at path (regular, not over KEYFILE_MAX) into *filep. */
static int
read_keyfile(const char *path, int check_perms, struct sbuf **filep)
{
	struct sbuf *file = NULL;
	struct stat st;
	unsigned char *p;
	ssize_t n;
	int fd, r;

	*filep = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return ERR_SYSTEM;
	if (fstat(fd, &st) != 0) {
		r = ERR_SYSTEM;
		goto out;
	}
	/* Like OpenSSH: only files we own must be private to us. */
	if (check_perms && st.st_uid == getuid() && (st.st_mode & 077) != 0) {
		r = ERR_KEY_BAD_PERMISSIONS;
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > KEYFILE_MAX) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	file = sbuf_new();
	for (;;) {
		if ((r = sbuf_reserve(file, 4096, &p)) != 0)
			goto out;
		n = read(fd, p, 4096);
		if (n < 0) {
			int saved = errno;

			(void)sbuf_consume_end(file, 4096);
			if (saved == EINTR)
				continue;
			r = ERR_SYSTEM;
			goto out;
		}
		if ((r = sbuf_consume_end(file, 4096 - (size_t)n)) != 0)
			goto out;
		if (n == 0)
			break;
		if (sbuf_len(file) > KEYFILE_MAX) {
			r = ERR_INVALID_FORMAT;
			goto out;
		}
	}
	*filep = file;
	file = NULL;
	r = 0;
 out:
	close(fd);
	sbuf_free(file);
	return r;
}

int
key_load_private(const char *path, const char *passphrase, int check_perms,
    struct key **keyp, char **commentp)
{
	struct sbuf *file;
	int r;

	*keyp = NULL;
	if (commentp != NULL)
		*commentp = NULL;
	if ((r = read_keyfile(path, check_perms, &file)) != 0)
		return r;
	r = key_parse_private(file, passphrase, keyp, commentp);
	sbuf_free(file);
	return r;
}

int
key_load_private_public(const char *path, struct key **keyp)
{
	struct sbuf *file, *blob;
	struct openssh_header h;
	int r;

	*keyp = NULL;
	if ((r = read_keyfile(path, 0, &file)) != 0)
		return r;
	blob = sbuf_new();
	if ((r = parse_header(file, blob, &h)) == 0)
		r = key_from_blob(h.pub, h.publen, keyp);
	header_clear(&h);
	sbuf_free(blob);
	sbuf_free(file);
	return r;
}

int
key_serialize_private(const struct key *k, const char *passphrase,
    const char *comment, unsigned int rounds, struct sbuf *out)
{
	struct sbuf *blob = sbuf_new(), *sect = sbuf_new(),
	    *kdfopts = sbuf_new(), *pub = sbuf_new();
	const struct filecipher *fc;
	unsigned char salt[KDF_SALT_LEN], keyiv[64];
	uint32_t check;
	size_t i;
	char *b64 = NULL;
	int r, enc = passphrase != NULL && *passphrase != '\0';

	if (k == NULL || !k->has_private) {
		r = ERR_INVALID_ARGUMENT;
		goto out;
	}
	fc = filecipher_by_name(enc ? WRITE_CIPHER : "none");
	if (rounds == 0)
		rounds = KDF_ROUNDS;
	if (RAND_bytes((unsigned char *)&check, sizeof(check)) != 1 ||
	    (enc && RAND_bytes(salt, sizeof(salt)) != 1)) {
		r = ERR_LIBCRYPTO;
		goto out;
	}
	if (enc) {
		if ((r = sbuf_put_string(kdfopts, salt, sizeof(salt))) != 0 ||
		    (r = sbuf_put_u32(kdfopts, rounds)) != 0)
			goto out;
		if (bcrypt_pbkdf(passphrase, strlen(passphrase), salt,
		    sizeof(salt), keyiv, fc->key_len + fc->iv_len,
		    rounds) != 0) {
			r = ERR_INVALID_ARGUMENT;
			goto out;
		}
	}
	if ((r = key_to_blob(k, pub)) != 0 ||
	    (r = sbuf_put_u32(sect, check)) != 0 ||
	    (r = sbuf_put_u32(sect, check)) != 0 ||
	    (r = key_private_to_sbuf(k, sect)) != 0 ||
	    (r = sbuf_put_cstring(sect, comment == NULL ? "" : comment)) != 0)
		goto out;
	for (i = 1; sbuf_len(sect) % fc->block_size != 0; i++)
		if ((r = sbuf_put_u8(sect, (uint8_t)i)) != 0)
			goto out;
	if ((r = file_crypt(fc, keyiv, sbuf_mutable_ptr(sect),
	    sbuf_len(sect), 1)) != 0)
		goto out;
	if ((r = sbuf_put(blob, AUTH_MAGIC, sizeof(AUTH_MAGIC))) != 0 ||
	    (r = sbuf_put_cstring(blob, fc->name)) != 0 ||
	    (r = sbuf_put_cstring(blob, enc ? "bcrypt" : "none")) != 0 ||
	    (r = sbuf_put_stringb(blob, kdfopts)) != 0 ||
	    (r = sbuf_put_u32(blob, 1)) != 0 ||
	    (r = sbuf_put_stringb(blob, pub)) != 0 ||
	    (r = sbuf_put_stringb(blob, sect)) != 0)
		goto out;
	if ((b64 = sbuf_to_b64(blob, 1)) == NULL) {
		r = ERR_ALLOC;
		goto out;
	}
	r = sbuf_putf(out, "%s\n%s\n%s\n", MARK_BEGIN, b64, MARK_END);
 out:
	x_wipe(keyiv, sizeof(keyiv));
	if (b64 != NULL)
		x_freezero(b64, strlen(b64));
	sbuf_free(blob);
	sbuf_free(sect);
	sbuf_free(kdfopts);
	sbuf_free(pub);
	return r;
}

int
key_save_private(const struct key *k, const char *path,
    const char *passphrase, const char *comment, unsigned int rounds)
{
	return key_save_private_as(k, path, passphrase, comment, rounds,
	    KEY_FILE_OPENSSH);
}

int
key_save_private_as(const struct key *k, const char *path,
    const char *passphrase, const char *comment, unsigned int rounds,
    enum key_file_format fmt)
{
	struct sbuf *out = sbuf_new();
	const unsigned char *p;
	size_t left;
	ssize_t n;
	int fd = -1, r;

	if (fmt == KEY_FILE_OPENSSH || (k != NULL &&
	    (k->type == KEY_ED25519 || key_is_sk(k))))
		r = key_serialize_private(k, passphrase, comment, rounds, out);
	else
		r = key_serialize_pem(k, passphrase, fmt == KEY_FILE_PKCS8,
		    out);
	if (r != 0)
		goto out;
	if (unlink(path) != 0 && errno != ENOENT) {
		r = ERR_SYSTEM;
		goto out;
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) < 0) {
		r = ERR_SYSTEM;
		goto out;
	}
	for (p = sbuf_ptr(out), left = sbuf_len(out); left > 0; ) {
		if ((n = write(fd, p, left)) < 0) {
			if (errno == EINTR)
				continue;
			r = ERR_SYSTEM;
			goto out;
		}
		p += n;
		left -= (size_t)n;
	}
	if (close(fd) != 0) {
		fd = -1;
		r = ERR_SYSTEM;
		goto out;
	}
	fd = -1;
 out:
	if (fd != -1)
		close(fd);
	sbuf_free(out);
	return r;
}
