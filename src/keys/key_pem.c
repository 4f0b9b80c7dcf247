/*
 * key_pem.c: private keys in the PEM forms libcrypto reads: PKCS#1
 * "RSA PRIVATE KEY", SEC 1 "EC PRIVATE KEY", PKCS#8 "PRIVATE KEY" and
 * "ENCRYPTED PRIVATE KEY", and the legacy encrypted PEM headers
 * (Proc-Type: 4,ENCRYPTED). The passphrase goes to libcrypto through
 * its password callback; a key that is encrypted and does not open
 * gives ERR_KEY_WRONG_PASSPHRASE.
 *
 * Writing (ssh-keygen -m PEM / -m PKCS8): RSA and ECDSA keys as PKCS#1
 * or SEC 1 with the legacy headers, or as PKCS#8; a passphrase encrypts
 * them with AES-128-CBC, as OpenSSH does, and must then have five
 * characters or more (libcrypto's own minimum is four; OpenSSH asks for
 * five). Ed25519 keys have no PEM form here: the caller writes those in
 * the openssh-key-v1 format.
 */
#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include "err.h"
#include "key_int.h"
#include "mem.h"
#include "sbuf.h"

static int
pem_pass_cb(char *buf, int size, int rwflag, void *u)
{
	const char *pass = u;
	size_t len;

	if (pass == NULL || size <= 0)
		return 0;
	len = strlen(pass);
	if (len > (size_t)size)
		return 0;
	memcpy(buf, pass, len);
	return (int)len;
}

int
key_parse_pem(const struct sbuf *file, const char *passphrase,
    struct key **keyp)
{
	BIO *bio;
	EVP_PKEY *pkey;
	int r;

	*keyp = NULL;
	if (sbuf_len(file) > INT32_MAX)
		return ERR_INVALID_FORMAT;
	if ((bio = BIO_new_mem_buf(sbuf_ptr(file), (int)sbuf_len(file))) ==
	    NULL)
		return ERR_ALLOC;
	pkey = PEM_read_bio_PrivateKey(bio, NULL, pem_pass_cb,
	    (void *)passphrase);
	BIO_free(bio);
	ERR_clear_error();
	if (pkey == NULL) {
		if (memmem(sbuf_ptr(file), sbuf_len(file), "ENCRYPTED", 9) !=
		    NULL)
			return ERR_KEY_WRONG_PASSPHRASE;
		return ERR_INVALID_FORMAT;
	}
	if ((r = key_from_pkey(pkey, 1, keyp)) != 0)
		EVP_PKEY_free(pkey);
	return r;
}

int
key_serialize_pem(const struct key *k, const char *passphrase, int pkcs8,
    struct sbuf *out)
{
	const EVP_CIPHER *cipher = NULL;
	size_t plen = passphrase != NULL ? strlen(passphrase) : 0;
	BIO *bio;
	char *p;
	long n;
	int ok;

	if (k == NULL || !k->has_private || k->type == KEY_ED25519)
		return ERR_INVALID_ARGUMENT;
	if (plen > 0 && plen < 5)
		return ERR_PASSPHRASE_TOO_SHORT;
	if (plen > INT32_MAX)
		return ERR_INVALID_ARGUMENT;
	if (plen > 0)
		cipher = EVP_aes_128_cbc();
	/* secmem: the buffer is cleared when freed */
	if ((bio = BIO_new(BIO_s_secmem())) == NULL)
		return ERR_ALLOC;
	if (pkcs8)
		ok = PEM_write_bio_PKCS8PrivateKey(bio, k->pkey, cipher,
		    (const char *)passphrase, (int)plen, NULL, NULL);
	else
		ok = PEM_write_bio_PrivateKey_traditional(bio, k->pkey,
		    cipher, (const unsigned char *)passphrase, (int)plen,
		    NULL, NULL);
	ERR_clear_error();
	if (ok != 1 || (n = BIO_get_mem_data(bio, &p)) <= 0) {
		BIO_free(bio);
		return ERR_LIBCRYPTO;
	}
	ok = sbuf_put(out, p, (size_t)n);
	BIO_free(bio);
	return ok;
}
