/*
 * testlib.h: a minimal harness for the unit tests.
 *
 * CHECK(cond) records a failure (with file:line) and goes on; CHECK_OK(r)
 * checks that a moat call returned 0 and prints err_str() otherwise.
 * TEST_DONE() prints "N passed, N failed" and is main's return value.
 */
#ifndef MOAT_TESTLIB_H
#define MOAT_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"

static int test_passed, test_failed;

#define CHECK(cond) do { \
	if (cond) { test_passed++; } else { test_failed++; \
		fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
		    __LINE__, #cond); } \
} while (0)

#define CHECK_OK(expr) do { \
	int check_r_ = (expr); \
	if (check_r_ == 0) { test_passed++; } else { test_failed++; \
		fprintf(stderr, "%s:%d: %s returned %d (%s)\n", __FILE__, \
		    __LINE__, #expr, check_r_, err_str(check_r_)); } \
} while (0)

#define CHECK_ERR(expr, want) do { \
	int check_r_ = (expr); \
	if (check_r_ == (want)) { test_passed++; } else { test_failed++; \
		fprintf(stderr, "%s:%d: %s returned %d (%s), wanted %s\n", \
		    __FILE__, __LINE__, #expr, check_r_, err_str(check_r_), \
		    #want); } \
} while (0)

#define CHECK_MEM(a, b, n) CHECK(memcmp((a), (b), (n)) == 0)
#define CHECK_STR(a, b) do { \
	const char *cs_a_ = (a), *cs_b_ = (b); \
	if (cs_a_ != NULL && cs_b_ != NULL && strcmp(cs_a_, cs_b_) == 0) { \
		test_passed++; } else { test_failed++; \
		fprintf(stderr, "%s:%d: \"%s\" != \"%s\"\n", __FILE__, \
		    __LINE__, cs_a_ ? cs_a_ : "(null)", \
		    cs_b_ ? cs_b_ : "(null)"); } \
} while (0)

/* Decode hex text into buf; returns the number of bytes. */
static inline size_t
test_unhex(const char *hex, unsigned char *buf, size_t max)
{
	size_t n = 0;

	while (hex[0] && hex[1] && n < max) {
		unsigned int v;

		if (hex[0] == ' ' || hex[0] == '\n') {
			hex++;
			continue;
		}
		if (sscanf(hex, "%2x", &v) != 1)
			break;
		buf[n++] = (unsigned char)v;
		hex += 2;
	}
	return n;
}

/*
 * Write text to path (created or truncated), then chmod it to mode unless
 * mode is 0; a failure is a failed check. Read a whole file back as a
 * string the caller frees with free(); "" when it is missing or unread.
 */
static inline void
test_write_file(const char *path, const char *text, unsigned int mode)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f == NULL)
		return;
	CHECK(fputs(text, f) >= 0);
	CHECK(fclose(f) == 0);
	if (mode != 0)
		CHECK(chmod(path, (mode_t)mode) == 0);
}

static inline char *
test_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (f != NULL) {
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
			char *nb = realloc(buf, len + n + 1);

			if (nb == NULL)
				break;
			buf = nb;
			memcpy(buf + len, chunk, n);
			len += n;
		}
		fclose(f);
	}
	if (buf == NULL && (buf = malloc(1)) == NULL)
		abort();
	buf[len] = '\0';
	return buf;
}

#define TEST_DONE() (printf("%d passed, %d failed\n", test_passed, \
	test_failed), test_failed == 0 ? 0 : 1)

#endif
