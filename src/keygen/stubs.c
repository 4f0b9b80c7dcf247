/* stubs.c: modes not written yet. */
#include <stdio.h>
#include "keygen.h"
#define STUB(f) int f(struct kg_opts *o) { (void)o; \
	fprintf(stderr, "not implemented\n"); return 255; }
STUB(kg_export)
STUB(kg_import)
