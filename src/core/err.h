/*
 * err.h: the one error space of moat.
 *
 * Every library function that can fail returns an int: 0 (ERR_OK) on
 * success or one of the negative codes below. err_str() gives the message.
 * ERR_SYSTEM means "look at errno", which the caller should save at once.
 */
#ifndef MOAT_ERR_H
#define MOAT_ERR_H

#include <stddef.h>

enum {
	ERR_OK = 0,
	ERR_INTERNAL = -1,		/* a bug: an invariant did not hold */
	ERR_ALLOC = -2,			/* memory allocation failed */
	ERR_MESSAGE_INCOMPLETE = -3,	/* read past the end of a buffer */
	ERR_INVALID_FORMAT = -4,	/* bytes do not parse */
	ERR_BIGNUM_NEGATIVE = -5,
	ERR_STRING_TOO_LARGE = -6,
	ERR_BIGNUM_TOO_LARGE = -7,
	ERR_NO_BUFFER_SPACE = -8,	/* buffer would exceed its maximum */
	ERR_INVALID_ARGUMENT = -9,
	ERR_KEY_TYPE_UNKNOWN = -10,
	ERR_KEY_TYPE_MISMATCH = -11,
	ERR_KEY_INVALID = -12,
	ERR_SIGNATURE_INVALID = -13,
	ERR_LIBCRYPTO = -14,		/* a libcrypto call failed */
	ERR_MAC_INVALID = -15,
	ERR_NO_CIPHER_MATCH = -16,
	ERR_NO_MAC_MATCH = -17,
	ERR_NO_KEX_MATCH = -18,
	ERR_NO_HOSTKEY_MATCH = -19,
	ERR_NO_COMPRESS_MATCH = -20,
	ERR_PROTOCOL_VERSION = -21,	/* bad or unsupported banner */
	ERR_PACKET_TOO_LARGE = -22,
	ERR_CONN_CLOSED = -23,		/* peer closed the connection */
	ERR_CONN_TIMEOUT = -24,
	ERR_SYSTEM = -25,		/* see errno */
	ERR_KEY_WRONG_PASSPHRASE = -26,
	ERR_KEY_BAD_PERMISSIONS = -27,
	ERR_DISCONNECTED = -28,		/* peer sent SSH_MSG_DISCONNECT */
	ERR_PROTOCOL = -29,		/* peer broke the protocol */
	ERR_NOT_FOUND = -30,
	ERR_KEY_UNKNOWN_CIPHER = -31,
	ERR_AGAIN = -32,		/* nothing to do yet; call again */
	ERR_KEY_REVOKED = -33,
	ERR_KEY_CERT_INVALID = -34,
	ERR_CONFIG = -35,		/* bad configuration */
	ERR_FEATURE_UNSUPPORTED = -36,
	ERR_KEY_LENGTH = -37,		/* key too small or too large */
	ERR_NUMBER_TOO_LARGE = -38,
	ERR_HOSTKEY_MISMATCH = -39,
	ERR_PERMISSION_DENIED = -40,
	ERR_KRL_BAD_MAGIC = -41,
	ERR_EOF = -42,			/* clean end of input */
	ERR_PASSPHRASE_TOO_SHORT = -43,	/* PEM keys want five or more */
};

/* Human-readable message for an error code; never NULL. */
const char *err_str(int err);
/*
 * For functions that explain a refusal in words as well as a code: print
 * the reason into the caller's buffer why[whylen], truncated to fit;
 * nothing when why is NULL or whylen 0.
 */
void err_why(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
