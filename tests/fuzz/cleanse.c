/*
 * cleanse.c: linked into every fuzz target in place of libcrypto's
 * OPENSSL_cleanse(), which x_wipe() uses. libcrypto is not built with
 * AddressSanitizer, so a wipe that runs past its buffer would go unseen;
 * this one is compiled with the targets and is checked: memset() is
 * intercepted by AddressSanitizer and checked against the bounds of the
 * allocation. The empty asm that takes the pointer keeps the compiler
 * from dropping the store as dead.
 *
 * Speed. This used to be a byte loop: compiled with the fuzzer's
 * coverage instrumentation, each byte cost a comparison callback, and
 * wiping the transport's 256 KiB read buffer on every tr_free() took
 * most of each fuzz_packet run. With memset() the cost moved to the
 * kernel: that buffer is a fresh mapping each time (the sanitizer's
 * allocator maps large blocks anew), and writing it faults in 64 pages
 * that were never touched. A page that was never touched reads as
 * zeros already, so for a large wipe only the pages the process has in
 * memory are written (mincore() says which); the rest is checked for
 * bounds and left as it is. The fuzz targets run without swap in
 * practice; a page swapped out would be left unwiped, which changes
 * nothing a fuzz target can observe.
 */
#include <sys/mman.h>

#include <sanitizer/asan_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#define CLEANSE_BIG	(64 * 1024)	/* below this, just memset() */
#define CLEANSE_PAGES	512		/* residency bytes looked at once */

static void
wipe(void *p, size_t len)
{
	memset(p, 0, len);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

void
OPENSSL_cleanse(void *ptr, size_t len)
{
	unsigned char vec[CLEANSE_PAGES];
	uintptr_t start, end, a;
	size_t pg, n, i;

	if (len == 0)
		return;		/* libcrypto passes (NULL, 0) at times */
	pg = (size_t)sysconf(_SC_PAGESIZE);
	start = ((uintptr_t)ptr + pg - 1) & ~(uintptr_t)(pg - 1);
	end = ((uintptr_t)ptr + len) & ~(uintptr_t)(pg - 1);
	if (len < CLEANSE_BIG || end <= start ||
	    __asan_region_is_poisoned(ptr, len) != NULL) {
		wipe(ptr, len);	/* a bad range is reported by memset() */
		return;
	}
	wipe(ptr, start - (uintptr_t)ptr);
	for (a = start; a < end; a += n * pg) {
		n = (end - a) / pg;
		if (n > CLEANSE_PAGES)
			n = CLEANSE_PAGES;
		if (mincore((void *)a, n * pg, vec) != 0) {
			wipe((void *)a, n * pg);
			continue;
		}
		for (i = 0; i < n; i++)
			if (vec[i] & 1)
				wipe((void *)(a + i * pg), pg);
	}
	wipe((void *)end, (uintptr_t)ptr + len - end);
}
