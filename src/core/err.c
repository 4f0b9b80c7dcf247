/* err.c: messages for the error codes in err.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

const char *
err_str(int err)
{
	switch (err) {
	case ERR_OK: return "success";
	case ERR_INTERNAL: return "unexpected internal error";
	case ERR_ALLOC: return "memory allocation failed";
	case ERR_MESSAGE_INCOMPLETE: return "incomplete message";
	case ERR_INVALID_FORMAT: return "invalid format";
	case ERR_BIGNUM_NEGATIVE: return "bignum is negative";
	case ERR_STRING_TOO_LARGE: return "string is too large";
	case ERR_BIGNUM_TOO_LARGE: return "bignum is too large";
	case ERR_NO_BUFFER_SPACE: return "no buffer space";
	case ERR_INVALID_ARGUMENT: return "invalid argument";
	case ERR_KEY_TYPE_UNKNOWN: return "unknown or unsupported key type";
	case ERR_KEY_TYPE_MISMATCH: return "key type does not match";
	case ERR_KEY_INVALID: return "invalid key";
	case ERR_SIGNATURE_INVALID: return "incorrect signature";
	case ERR_LIBCRYPTO: return "error in libcrypto";
	case ERR_MAC_INVALID: return "message authentication code incorrect";
	case ERR_NO_CIPHER_MATCH: return "no matching cipher found";
	case ERR_NO_MAC_MATCH: return "no matching MAC found";
	case ERR_NO_KEX_MATCH: return "no matching key exchange method found";
	case ERR_NO_HOSTKEY_MATCH: return "no matching host key type found";
	case ERR_NO_COMPRESS_MATCH: return "no matching compression method found";
	case ERR_PROTOCOL_VERSION: return "protocol version mismatch";
	case ERR_PACKET_TOO_LARGE: return "packet too large";
	case ERR_CONN_CLOSED: return "connection closed";
	case ERR_CONN_TIMEOUT: return "connection timed out";
	case ERR_SYSTEM: return strerror(errno);
	case ERR_KEY_WRONG_PASSPHRASE:
		return "incorrect passphrase supplied to decrypt private key";
	case ERR_KEY_BAD_PERMISSIONS: return "bad permissions";
	case ERR_DISCONNECTED: return "disconnected by peer";
	case ERR_PROTOCOL: return "protocol error";
	case ERR_NOT_FOUND: return "not found";
	case ERR_KEY_UNKNOWN_CIPHER: return "key encrypted using unsupported cipher";
	case ERR_AGAIN: return "operation would block";
	case ERR_KEY_REVOKED: return "key is revoked";
	case ERR_KEY_CERT_INVALID: return "invalid certificate";
	case ERR_CONFIG: return "bad configuration";
	case ERR_FEATURE_UNSUPPORTED: return "feature not supported";
	case ERR_KEY_LENGTH: return "invalid key length";
	case ERR_NUMBER_TOO_LARGE: return "number is too large";
	case ERR_HOSTKEY_MISMATCH: return "host key does not match";
	case ERR_PERMISSION_DENIED: return "permission denied";
	case ERR_KRL_BAD_MAGIC: return "KRL file has invalid magic number";
	case ERR_EOF: return "end of input";
	case ERR_PASSPHRASE_TOO_SHORT:
		return "passphrase is too short (minimum five characters)";
	default: return "unknown error";
	}
}

void
err_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why == NULL || whylen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}
