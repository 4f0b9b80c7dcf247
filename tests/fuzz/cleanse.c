/*
 * cleanse.c: linked into every fuzz target in place of libcrypto's
 * OPENSSL_cleanse(), which x_wipe() uses. libcrypto is not built with
 * AddressSanitizer, so a wipe that runs past its buffer would go unseen;
 * this one is compiled with the targets and is checked.
 */
#include <stddef.h>

#include <openssl/crypto.h>

void
OPENSSL_cleanse(void *ptr, size_t len)
{
	volatile unsigned char *p = ptr;

	while (len-- > 0)
		*p++ = 0;
}
