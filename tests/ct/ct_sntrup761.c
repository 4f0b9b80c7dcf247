/*
 * ct_sntrup761.c: sntrup761 runs in time independent of its secrets, as
 * far as Valgrind's memcheck can see.
 *
 * Run under valgrind (CMake registers it so). Secret bytes are marked
 * "undefined" with memcheck's client requests: the generator's output
 * (g, f, rho, r) and the secret key's f, 1/g and rho. Memcheck then
 * reports every conditional jump and every memory address computed
 * from them; VALGRIND_COUNT_ERRORS before and after each operation says
 * how many there were. Expected: none in encapsulation (valid or not),
 * decapsulation (valid or tampered ciphertext), the reciprocals, the
 * products and the sort; exactly one in key generation, the designed
 * one: the test that throws away a g with no reciprocal in R3 (which
 * tells nothing about the g kept). Results are marked defined again
 * before they are compared. Outside valgrind it exits 77 (skipped).
 */
#include <stdio.h>
#include <string.h>

#include <openssl/rand.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "sntrup761.h"
#include "sntrup761_int.h"

static int failed;

static int
rng_secret(void *arg, unsigned char *buf, size_t len)
{
	(void)arg;
	if (RAND_bytes(buf, (int)len) != 1)
		return -1;
	VALGRIND_MAKE_MEM_UNDEFINED(buf, len);
	return 0;
}

static void
expect(const char *what, unsigned long before, unsigned long want)
{
	unsigned long got = VALGRIND_COUNT_ERRORS - before;

	printf("%s: %lu secret-dependent branches or addresses (want %lu)\n",
	    what, got, want);
	if (got != want)
		failed = 1;
}

static void
check_arith(void)
{
	int8_t g[SNTRUP_P], gi[SNTRUP_P], h3[SNTRUP_P];
	int16_t a[SNTRUP_P], ai[SNTRUP_P];
	uint32_t x[SNTRUP_P];
	unsigned long n;
	int i, r1, r2;

	RAND_bytes((unsigned char *)x, sizeof(x));
	for (i = 0; i < SNTRUP_P; i++) {
		g[i] = (int8_t)(x[i] % 3) - 1;
		a[i] = (int16_t)(x[i] % SNTRUP_Q) - SNTRUP_Q12;
	}
	VALGRIND_MAKE_MEM_UNDEFINED(g, sizeof(g));
	VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof(a));
	VALGRIND_MAKE_MEM_UNDEFINED(x, sizeof(x));
	n = VALGRIND_COUNT_ERRORS;
	r1 = sntrup_r3_recip(gi, g);
	r2 = sntrup_rq_recip(ai, a);
	sntrup_r3_mult(h3, g, gi);
	sntrup_rq_mult_small(ai, a, g);
	sntrup_sort_uint32(x);
	expect("reciprocals, products, sort", n, 0);
	VALGRIND_MAKE_MEM_DEFINED(&r1, sizeof(r1));
	VALGRIND_MAKE_MEM_DEFINED(&r2, sizeof(r2));
}

int
main(void)
{
	static unsigned char pk[SNTRUP761_PUBLICKEY_SIZE];
	static unsigned char sk[SNTRUP761_SECRETKEY_SIZE];
	static unsigned char ct[SNTRUP761_CIPHERTEXT_SIZE];
	static unsigned char ss1[SNTRUP761_SHARED_SIZE];
	static unsigned char ss2[SNTRUP761_SHARED_SIZE];
	unsigned long n;
	int r, tamper;

	if (!RUNNING_ON_VALGRIND) {
		printf("ct_sntrup761: SKIP: not running under valgrind\n");
		return 77;
	}
	check_arith();

	n = VALGRIND_COUNT_ERRORS;
	r = sntrup761_keypair_rng(pk, sk, rng_secret, NULL);
	VALGRIND_MAKE_MEM_DEFINED(&r, sizeof(r));
	expect("keypair", n, 1);
	VALGRIND_MAKE_MEM_DEFINED(pk, sizeof(pk));
	failed |= r != 0;

	n = VALGRIND_COUNT_ERRORS;
	r = sntrup761_enc_rng(ct, ss1, pk, sizeof(pk), rng_secret, NULL);
	VALGRIND_MAKE_MEM_DEFINED(&r, sizeof(r));
	expect("enc", n, 0);
	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof(ct));
	VALGRIND_MAKE_MEM_DEFINED(ss1, sizeof(ss1));
	failed |= r != 0;

	for (tamper = 0; tamper < 2; tamper++) {
		ct[100] ^= (unsigned char)tamper;
		VALGRIND_MAKE_MEM_UNDEFINED(sk, 2 * 191);	/* f, 1/g */
		VALGRIND_MAKE_MEM_UNDEFINED(sk + 382 + SNTRUP761_PUBLICKEY_SIZE,
		    191);					/* rho */
		n = VALGRIND_COUNT_ERRORS;
		r = sntrup761_dec(ss2, ct, sizeof(ct), sk);
		VALGRIND_MAKE_MEM_DEFINED(&r, sizeof(r));
		expect(tamper ? "dec, tampered ciphertext" : "dec", n, 0);
		VALGRIND_MAKE_MEM_DEFINED(ss2, sizeof(ss2));
		failed |= r != 0;
		failed |= (memcmp(ss1, ss2, sizeof(ss1)) == 0) != !tamper;
	}
	printf("ct_sntrup761: %s\n", failed ? "FAILED" : "ok");
	return failed;
}
