/*
 * fido.h: the built-in security key provider, on libfido2, for USB
 * authenticators: what SecurityKeyProvider "internal" selects. Its
 * three functions have the types of a middleware's (sk_api.h) and the
 * same meaning. Present only when the build found libfido2
 * (MOAT_HAVE_FIDO2).
 */
#ifndef MOAT_SK_FIDO_H
#define MOAT_SK_FIDO_H

#include "sk_api.h"

sk_enroll_fn skf_enroll;
sk_sign_fn skf_sign;
sk_load_resident_keys_fn skf_load_resident;

#endif
