/*
 * sk_api.h: the binary interface of a FIDO security key middleware
 * library, as OpenSSH's SecurityKeyProvider libraries export it
 * (PROTOCOL.u2f, "OpenSSH integration"). A provider is a shared object
 * with four functions: its interface version, enrollment (make a key),
 * signing, and the listing of resident (discoverable) keys. Every
 * number and every structure layout below must stay as the providers
 * were built against, or they cannot be loaded.
 *
 * Only ssh-sk-helper loads a provider (dlopen); the rest of the suite
 * uses the numbers: key flags, algorithm numbers and error codes.
 */
#ifndef MOAT_SK_API_H
#define MOAT_SK_API_H

#include <stddef.h>
#include <stdint.h>

/* Key flags: kept in the private key file, passed to enroll and sign. */
#define SSH_SK_USER_PRESENCE_REQD	0x01
#define SSH_SK_USER_VERIFICATION_REQD	0x04
#define SSH_SK_FORCE_OPERATION		0x10
#define SSH_SK_RESIDENT_KEY		0x20

/* Algorithm numbers. */
#define SSH_SK_ECDSA			0x00	/* P-256 */
#define SSH_SK_ED25519			0x01

/* What a provider's functions return besides 0. */
#define SSH_SK_ERR_GENERAL		-1
#define SSH_SK_ERR_UNSUPPORTED		-2
#define SSH_SK_ERR_PIN_REQUIRED		-3
#define SSH_SK_ERR_DEVICE_NOT_FOUND	-4
#define SSH_SK_ERR_CREDENTIAL_EXISTS	-5

/*
 * A new credential. public_key: the raw Ed25519 key (32 bytes) or the
 * uncompressed P-256 point (65 bytes). The attestation fields may be
 * empty.
 */
struct sk_enroll_response {
	uint8_t flags;
	uint8_t *public_key;
	size_t public_key_len;
	uint8_t *key_handle;
	size_t key_handle_len;
	uint8_t *signature;
	size_t signature_len;
	uint8_t *attestation_cert;
	size_t attestation_cert_len;
	uint8_t *authdata;
	size_t authdata_len;
};

/*
 * A signature: Ed25519's 64 bytes in sig_r (sig_s unused), or ECDSA's
 * r and s as unsigned big-endian numbers.
 */
struct sk_sign_response {
	uint8_t flags;
	uint32_t counter;
	uint8_t *sig_r;
	size_t sig_r_len;
	uint8_t *sig_s;
	size_t sig_s_len;
};

/* One key kept on the authenticator. */
struct sk_resident_key {
	uint32_t alg;
	size_t slot;
	char *application;
	struct sk_enroll_response key;
	uint8_t flags;
	uint8_t *user_id;
	size_t user_id_len;
};

/*
 * A named option ("device", "user"); the array passed is terminated by
 * a NULL pointer. A provider may ignore an option unless required.
 */
struct sk_option {
	char *name;
	char *value;
	uint8_t required;
};

/*
 * The interface version: providers whose sk_api_version() differs in
 * the high 16 bits are refused.
 */
#define SSH_SK_VERSION_MAJOR		0x000a0000
#define SSH_SK_VERSION_MAJOR_MASK	0xffff0000

/*
 * The functions a provider exports, by these names. The challenge and
 * the data to sign are passed as they are: the provider hashes them.
 * Responses are allocated by the provider with malloc and freed by the
 * caller with free.
 */
typedef uint32_t sk_api_version_fn(void);
typedef int sk_enroll_fn(uint32_t alg, const uint8_t *challenge,
    size_t challenge_len, const char *application, uint8_t flags,
    const char *pin, struct sk_option **options,
    struct sk_enroll_response **enroll_response);
typedef int sk_sign_fn(uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle,
    size_t key_handle_len, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_sign_response **sign_response);
typedef int sk_load_resident_keys_fn(const char *pin,
    struct sk_option **options, struct sk_resident_key ***rks,
    size_t *nrks);

#endif
