/* mem.c: allocation helpers that abort on exhaustion; see mem.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "mem.h"

static void
oom(size_t n)
{
	fprintf(stderr, "out of memory allocating %zu bytes\n", n);
	abort();
}

void *
x_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
x_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
x_reallocarray(void *p, size_t n, size_t size)
{
	void *q;

	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	q = realloc(p, (n * size) != 0 ? n * size : 1);
	if (q == NULL)
		oom(n * size);
	return q;
}

char *
x_strdup(const char *s)
{
	return x_memdup(s, strlen(s) + 1);
}

char *
x_strndup(const char *s, size_t n)
{
	size_t len = n == 0 ? 0 : strnlen(s, n);	/* s may be NULL then */
	char *p = x_malloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void *
x_memdup(const void *p, size_t n)
{
	void *q = x_malloc(n);

	if (n)
		memcpy(q, p, n);
	return q;
}

char *
x_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *p = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (r < 0 || p == NULL)
		oom(0);
	return p;
}

void
x_free(void *p)
{
	free(p);
}

void
x_wipe(void *p, size_t n)
{
	if (p != NULL && n != 0)
		OPENSSL_cleanse(p, n);
}

void
x_freezero(void *p, size_t n)
{
	if (p == NULL)
		return;
	x_wipe(p, n);
	free(p);
}

int
x_ct_eq(const void *a, const void *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n) == 0;
}
