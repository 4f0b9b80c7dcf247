/*
 * key_pem.c: private keys in the PEM forms libcrypto reads: PKCS#1
 * "RSA PRIVATE KEY", SEC 1 "EC PRIVATE KEY", PKCS#8 "PRIVATE KEY" and
 * "ENCRYPTED PRIVATE KEY", and the legacy encrypted PEM headers
 * (Proc-Type: 4,ENCRYPTED). The passphrase goes to libcrypto through
 * its password callback; a key that is encrypted and does not open
 * gives ERR_KEY_WRONG_PASSPHRASE.
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
