/*
 * test_memtrim.c: mem_trim_idle() lowers the file-backed RSS, and
 * everything works the same afterwards (code and read-only data fault
 * back in; writable data and the heap keep their contents).
 */
#include <openssl/evp.h>

#include "memtrim.h"
#include "testlib.h"

static const char table[] = "read-only data that must survive a trim";
static int counter = 41;

/* kB of file-backed resident memory, from /proc/self/status. */
static long
rss_file_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "RssFile: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Touch a spread of libcrypto; out gets a digest of all the results. */
static int
crypto_work(EVP_PKEY *pk, unsigned char out[64])
{
	static const unsigned char key[32] = { 1, 2, 3 }, iv[12] = { 4 };
	unsigned char msg[1000], ct[1000 + 16], sig[64], acc[200];
	size_t siglen = sizeof(sig);
	unsigned int mdlen = 0;
	EVP_CIPHER_CTX *cc = EVP_CIPHER_CTX_new();
	EVP_MD_CTX *mc = EVP_MD_CTX_new();
	int len = 0, ok;

	memset(msg, 'm', sizeof(msg));
	ok = cc != NULL && mc != NULL &&
	    EVP_EncryptInit_ex(cc, EVP_aes_128_gcm(), NULL, key, iv) == 1 &&
	    EVP_EncryptUpdate(cc, ct, &len, msg, (int)sizeof(msg)) == 1 &&
	    EVP_EncryptFinal_ex(cc, ct + len, &len) == 1 &&
	    EVP_CIPHER_CTX_ctrl(cc, EVP_CTRL_GCM_GET_TAG, 16, acc) == 1 &&
	    EVP_EncryptInit_ex(cc, EVP_chacha20_poly1305(), NULL, key,
	    iv) == 1 &&
	    EVP_EncryptUpdate(cc, ct, &len, msg, (int)sizeof(msg)) == 1 &&
	    EVP_EncryptFinal_ex(cc, ct + len, &len) == 1 &&
	    EVP_CIPHER_CTX_ctrl(cc, EVP_CTRL_AEAD_GET_TAG, 16, acc + 16) == 1 &&
	    EVP_Digest(msg, sizeof(msg), acc + 32, NULL, EVP_sha512(),
	    NULL) == 1 &&
	    EVP_DigestSignInit(mc, NULL, NULL, NULL, pk) == 1 &&
	    EVP_DigestSign(mc, sig, &siglen, msg, sizeof(msg)) == 1 &&
	    siglen == 64;
	if (ok) {
		memcpy(acc + 96, sig, 64);
		memcpy(acc + 160, ct, 40);
		ok = EVP_Digest(acc, sizeof(acc), out, &mdlen, EVP_sha512(),
		    NULL) == 1 && mdlen == 64;
	}
	EVP_CIPHER_CTX_free(cc);
	EVP_MD_CTX_free(mc);
	return ok ? 0 : ERR_LIBCRYPTO;
}

int
main(void)
{
	EVP_PKEY *pk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	unsigned char first[64], again[64];
	char *heap = malloc(100000);
	long before, after;
	size_t dropped;

	CHECK(pk != NULL && heap != NULL);
	if (pk == NULL || heap == NULL)
		return TEST_DONE();
	memset(heap, 'h', 100000);
	CHECK_OK(crypto_work(pk, first));
	counter++;

	before = rss_file_kb();
	dropped = mem_trim_idle();
	after = rss_file_kb();
	fprintf(stderr, "RssFile %ld kB -> %ld kB (%zu kB of mappings "
	    "dropped)\n", before, after, dropped / 1024);
	CHECK(before > 0 && after >= 0);
	CHECK(dropped > 0);
	/* libcrypto's pages alone are well over 256 kB here. */
	CHECK(after + 256 < before);

	/* The same results from code faulted back in. */
	CHECK_OK(crypto_work(pk, again));
	CHECK_MEM(first, again, 64);
	/* Read-only data, writable data and the heap are intact. */
	CHECK(strcmp(table, "read-only data that must survive a trim") == 0);
	CHECK(counter == 42);
	CHECK(heap[0] == 'h' && heap[99999] == 'h');
	free(heap);
	EVP_PKEY_free(pk);
	/* A second trim is as harmless. */
	(void)mem_trim_idle();
	CHECK_OK(crypto_work(pk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519"),
	    again));
	EVP_PKEY_free(pk);
	return TEST_DONE();
}
