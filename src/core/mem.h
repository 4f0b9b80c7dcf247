/*
 * mem.h: allocation helpers.
 *
 * x_malloc() and friends never return NULL: running out of memory aborts
 * the process with a message (the one failure that library code does not
 * hand back to its caller, since there is no sound way to go on).
 * x_free(NULL) is a no-op. x_freezero() wipes before freeing: use it for
 * anything that held a secret.
 */
#ifndef MOAT_MEM_H
#define MOAT_MEM_H

#include <stddef.h>

void *x_malloc(size_t n);
void *x_calloc(size_t n, size_t size);
void *x_reallocarray(void *p, size_t n, size_t size);
char *x_strdup(const char *s);
char *x_strndup(const char *s, size_t n);
void *x_memdup(const void *p, size_t n);
char *x_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void x_free(void *p);
void x_freezero(void *p, size_t n);
/* Wipe memory in a way the compiler may not remove. */
void x_wipe(void *p, size_t n);
/* Constant-time comparison: 1 when equal, 0 otherwise. */
int x_ct_eq(const void *a, const void *b, size_t n);

#endif
