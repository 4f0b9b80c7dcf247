/*
 * mlkem.h: ML-KEM-768, the module-lattice key-encapsulation mechanism of
 * FIPS 203, for post-quantum key exchange.
 *
 * One side makes a key pair (ek, dk) and sends ek; the other encapsulates
 * to ek, getting a ciphertext to send back and a 32-byte shared secret;
 * the first decapsulates the ciphertext with dk to the same secret. A
 * ciphertext that was tampered with does not fail: it decapsulates to a
 * pseudo-random secret (implicit rejection), so the exchange fails later,
 * when the two sides' keys disagree.
 *
 * The _derand forms take the randomness as arguments (for test vectors);
 * the others draw it from RAND_bytes. Every function returns 0 or an
 * ERR_* code; on failure the shared-secret output is zeroed. Inputs that
 * come from the peer carry their length and are checked as FIPS 203
 * section 7 says: the encapsulation key's length and that every
 * coefficient is below q (ERR_INVALID_FORMAT, ERR_KEY_INVALID); the
 * ciphertext's length (ERR_INVALID_FORMAT). The decapsulation key is
 * checked against the hash of ek it holds (ERR_KEY_INVALID).
 * Decapsulation runs in time independent of the secret key and of
 * whether the ciphertext was valid.
 */
#ifndef MOAT_MLKEM_H
#define MOAT_MLKEM_H

#include <stddef.h>
#include <stdint.h>

#define MLKEM768_EK_LEN		1184	/* encapsulation (public) key */
#define MLKEM768_DK_LEN		2400	/* decapsulation (private) key */
#define MLKEM768_CT_LEN		1088	/* ciphertext */
#define MLKEM768_SS_LEN		32	/* shared secret */
#define MLKEM_SEED_LEN		32	/* d, z and m of the _derand forms */

int mlkem768_keypair(uint8_t ek[MLKEM768_EK_LEN],
    uint8_t dk[MLKEM768_DK_LEN]);
/* ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16). */
int mlkem768_keypair_derand(uint8_t ek[MLKEM768_EK_LEN],
    uint8_t dk[MLKEM768_DK_LEN], const uint8_t d[MLKEM_SEED_LEN],
    const uint8_t z[MLKEM_SEED_LEN]);

int mlkem768_encaps(uint8_t ct[MLKEM768_CT_LEN],
    uint8_t ss[MLKEM768_SS_LEN], const uint8_t *ek, size_t eklen);
/* ML-KEM.Encaps_internal (Algorithm 17) after the checks of ek. */
int mlkem768_encaps_derand(uint8_t ct[MLKEM768_CT_LEN],
    uint8_t ss[MLKEM768_SS_LEN], const uint8_t *ek, size_t eklen,
    const uint8_t m[MLKEM_SEED_LEN]);

/* ML-KEM.Decaps_internal (Algorithm 18) after the checks of ct and dk. */
int mlkem768_decaps(uint8_t ss[MLKEM768_SS_LEN], const uint8_t *ct,
    size_t ctlen, const uint8_t *dk, size_t dklen);

/* The checks alone: section 7.2 for ek, section 7.3 (length, hash) for dk. */
int mlkem768_check_ek(const uint8_t *ek, size_t eklen);
int mlkem768_check_dk(const uint8_t *dk, size_t dklen);

#endif
