/*
 * p11_hostile.c: a PKCS#11 module that misbehaves, for pkcs11.sh. One
 * token, no login, one ECDSA P-256 public key (the curve's generator
 * as the point: a valid key nobody holds) whose private half signs
 * badly, as P11_HOSTILE says:
 *
 *   crash    C_Sign aborts the process
 *   garbage  C_Sign returns r||s that is no signature
 *   huge     C_Sign claims a signature longer than its buffer
 *   badkey   the public point is off the curve (the key is skipped)
 *   bigattr  every attribute claims a length of 2^40 bytes
 *
 * Built by the test with cc -shared; declares only what it uses.
 */
#include <stdlib.h>
#include <string.h>

#include "p11_defs.h"

CK_RV C_GetFunctionList(CK_FUNCTION_LIST **list);

static const unsigned char p256_oid[] = {
	0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07,
};
/* DER OCTET STRING around the uncompressed generator of P-256. */
static unsigned char point[] = {
	0x04, 0x41, 0x04,
	0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5,
	0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0,
	0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
	0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a,
	0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce,
	0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
};
static CK_ULONG find_class;
static int find_done;

static int
mode(const char *m)
{
	const char *v = getenv("P11_HOSTILE");

	return v != NULL && strcmp(v, m) == 0;
}

static CK_RV
init(void *a)
{
	(void)a;
	if (mode("badkey"))
		point[sizeof(point) - 1] ^= 1;
	return CKR_OK;
}

static CK_RV
fin(void *a)
{
	(void)a;
	return CKR_OK;
}

static CK_RV
slots(CK_BBOOL present, CK_SLOT_ID *list, CK_ULONG *n)
{
	(void)present;
	if (list != NULL && *n >= 1)
		list[0] = 1;
	*n = 1;
	return CKR_OK;
}

static CK_RV
token(CK_SLOT_ID s, CK_TOKEN_INFO *ti)
{
	(void)s;
	memset(ti, ' ', sizeof(ti->label) * 2);
	memcpy(ti->label, "hostile", 7);
	ti->flags = CKF_TOKEN_INITIALIZED;
	return CKR_OK;
}

static CK_RV
open_sess(CK_SLOT_ID s, CK_FLAGS f, void *a, void *n, CK_SESSION_HANDLE *h)
{
	(void)s, (void)f, (void)a, (void)n;
	*h = 7;
	return CKR_OK;
}

static CK_RV
close_sess(CK_SESSION_HANDLE h)
{
	(void)h;
	return CKR_OK;
}

static CK_RV
set_attr(CK_ATTRIBUTE *a, const void *v, CK_ULONG len)
{
	if (mode("bigattr")) {
		a->ulValueLen = 1UL << 40;
		return CKR_OK;
	}
	if (a->pValue != NULL) {
		if (a->ulValueLen < len)
			return CKR_BUFFER_TOO_SMALL;
		memcpy(a->pValue, v, len);
	}
	a->ulValueLen = len;
	return CKR_OK;
}

static CK_RV
get_attr(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE o, CK_ATTRIBUTE *t,
    CK_ULONG n)
{
	static const CK_ULONG ec = CKK_EC;
	CK_ULONG i;
	CK_RV rv = CKR_OK;

	(void)h, (void)o;
	for (i = 0; i < n && rv == CKR_OK; i++) {
		switch (t[i].type) {
		case CKA_KEY_TYPE: rv = set_attr(&t[i], &ec, sizeof(ec)); break;
		case CKA_ID: rv = set_attr(&t[i], "\x09", 1); break;
		case CKA_LABEL: rv = set_attr(&t[i], "bad-ec", 6); break;
		case CKA_EC_PARAMS:
			rv = set_attr(&t[i], p256_oid, sizeof(p256_oid));
			break;
		case CKA_EC_POINT:
			rv = set_attr(&t[i], point, sizeof(point));
			break;
		default:
			t[i].ulValueLen = CK_UNAVAILABLE_INFORMATION;
			rv = 0x12;	/* CKR_ATTRIBUTE_TYPE_INVALID */
		}
	}
	return rv;
}

static CK_RV
find_init(CK_SESSION_HANDLE h, CK_ATTRIBUTE *t, CK_ULONG n)
{
	(void)h, (void)n;
	memcpy(&find_class, t[0].pValue, sizeof(find_class));
	find_done = 0;
	return CKR_OK;
}

static CK_RV
find(CK_SESSION_HANDLE h, CK_OBJECT_HANDLE *objs, CK_ULONG max,
    CK_ULONG *count)
{
	(void)h;
	*count = 0;
	if (!find_done && max > 0 && (find_class == CKO_PUBLIC_KEY ||
	    find_class == CKO_PRIVATE_KEY)) {
		objs[0] = find_class == CKO_PUBLIC_KEY ? 100 : 200;
		*count = 1;
	}
	find_done = 1;
	return CKR_OK;
}

static CK_RV
find_final(CK_SESSION_HANDLE h)
{
	(void)h;
	return CKR_OK;
}

static CK_RV
sign_init(CK_SESSION_HANDLE h, CK_MECHANISM *m, CK_OBJECT_HANDLE k)
{
	(void)h, (void)m, (void)k;
	return CKR_OK;
}

static CK_RV
sign(CK_SESSION_HANDLE h, CK_BYTE *d, CK_ULONG dl, CK_BYTE *sig,
    CK_ULONG *sl)
{
	(void)h, (void)d, (void)dl;
	if (mode("crash"))
		abort();
	if (mode("huge")) {
		*sl = 1UL << 20;
		return CKR_OK;
	}
	if (*sl < 64)
		return CKR_BUFFER_TOO_SMALL;
	memset(sig, 0x5a, 64);
	*sl = 64;
	return CKR_OK;
}

static CK_FUNCTION_LIST table;

CK_RV
C_GetFunctionList(CK_FUNCTION_LIST **list)
{
	table.version.major = 2;
	table.version.minor = 40;
	table.C_Initialize = init;
	table.C_Finalize = fin;
	table.C_GetSlotList = slots;
	table.C_GetTokenInfo = token;
	table.C_OpenSession = open_sess;
	table.C_CloseSession = close_sess;
	table.C_GetAttributeValue = get_attr;
	table.C_FindObjectsInit = find_init;
	table.C_FindObjects = find;
	table.C_FindObjectsFinal = find_final;
	table.C_SignInit = sign_init;
	table.C_Sign = sign;
	*list = &table;
	return CKR_OK;
}
