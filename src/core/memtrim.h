/*
 * memtrim.h: give back the pages an idle process does not need.
 *
 * A per-connection server process touches a few MiB of library code and
 * read-only data while it negotiates keys and authenticates (libcrypto
 * alone is most of it, and the kernel maps file pages in 64 KiB runs
 * around each one touched). Those pages are clean and shared with every
 * other process, but they count in the process's RSS and page tables
 * until it exits. mem_trim_idle() drops the process's mappings of them
 * and returns free heap to the system; anything needed again is faulted
 * back from the page cache on first use, at the cost of a few minor
 * faults.
 *
 * Only segments that were never written are dropped: loadable segments
 * without write permission, of objects without text relocations, and
 * never the vDSO. Writable data, RELRO and the heap's live chunks are
 * untouched, so this changes no program state.
 */
#ifndef MOAT_MEMTRIM_H
#define MOAT_MEMTRIM_H

#include <stddef.h>

/* Returns the bytes of mappings dropped (before any refault). */
size_t mem_trim_idle(void);

#endif
