/*
 * p11_defs.h: the part of the PKCS#11 (Cryptoki) v2.40 interface that
 * ssh-pkcs11-helper uses, declared from the specification's published
 * types and values: the basic integer types, the few structures passed
 * to the module, the constants looked at, and the module's function
 * table, whose layout (a version, then one pointer per function in the
 * standard's order) is fixed by the standard. Functions the helper never
 * calls are kept as untyped slots so the offsets stay right.
 *
 * Linux modules use the platform's natural alignment (no packing) and
 * "unsigned long" for CK_ULONG.
 */
#ifndef MOAT_P11_DEFS_H
#define MOAT_P11_DEFS_H

typedef unsigned char CK_BYTE;
typedef unsigned char CK_BBOOL;
typedef unsigned char CK_UTF8CHAR;
typedef unsigned long CK_ULONG;
typedef CK_ULONG CK_RV;
typedef CK_ULONG CK_FLAGS;
typedef CK_ULONG CK_SLOT_ID;
typedef CK_ULONG CK_SESSION_HANDLE;
typedef CK_ULONG CK_OBJECT_HANDLE;
typedef CK_ULONG CK_OBJECT_CLASS;
typedef CK_ULONG CK_KEY_TYPE;
typedef CK_ULONG CK_CERTIFICATE_TYPE;
typedef CK_ULONG CK_ATTRIBUTE_TYPE;
typedef CK_ULONG CK_MECHANISM_TYPE;
typedef CK_ULONG CK_USER_TYPE;

#define CK_TRUE			1
#define CK_FALSE		0
#define CK_UNAVAILABLE_INFORMATION	(~0UL)

/* Return values looked at. */
#define CKR_OK				0x000UL
#define CKR_PIN_INCORRECT		0x0a0UL
#define CKR_PIN_LOCKED			0x0a4UL
#define CKR_USER_ALREADY_LOGGED_IN	0x100UL
#define CKR_BUFFER_TOO_SMALL		0x150UL
#define CKR_CRYPTOKI_ALREADY_INITIALIZED 0x191UL

/* Session and token flags. */
#define CKF_RW_SESSION			0x002UL
#define CKF_SERIAL_SESSION		0x004UL
#define CKF_LOGIN_REQUIRED		0x004UL
#define CKF_PROTECTED_AUTHENTICATION_PATH 0x100UL
#define CKF_TOKEN_INITIALIZED		0x400UL
#define CKF_OS_LOCKING_OK		0x002UL

#define CKU_USER			1UL

/* Object classes, key and certificate types. */
#define CKO_CERTIFICATE			1UL
#define CKO_PUBLIC_KEY			2UL
#define CKO_PRIVATE_KEY			3UL
#define CKK_RSA				0UL
#define CKK_EC				3UL
#define CKC_X_509			0UL

/* Attributes. */
#define CKA_CLASS			0x000UL
#define CKA_LABEL			0x003UL
#define CKA_VALUE			0x011UL
#define CKA_CERTIFICATE_TYPE		0x080UL
#define CKA_KEY_TYPE			0x100UL
#define CKA_ID				0x102UL
#define CKA_SIGN			0x108UL
#define CKA_MODULUS			0x120UL
#define CKA_PUBLIC_EXPONENT		0x122UL
#define CKA_EC_PARAMS			0x180UL
#define CKA_EC_POINT			0x181UL

/* Mechanisms. */
#define CKM_RSA_PKCS			0x0001UL
#define CKM_ECDSA			0x1041UL

typedef struct CK_VERSION {
	CK_BYTE major;
	CK_BYTE minor;
} CK_VERSION;

typedef struct CK_ATTRIBUTE {
	CK_ATTRIBUTE_TYPE type;
	void *pValue;
	CK_ULONG ulValueLen;
} CK_ATTRIBUTE;

typedef struct CK_MECHANISM {
	CK_MECHANISM_TYPE mechanism;
	void *pParameter;
	CK_ULONG ulParameterLen;
} CK_MECHANISM;

typedef struct CK_C_INITIALIZE_ARGS {
	void *CreateMutex;
	void *DestroyMutex;
	void *LockMutex;
	void *UnlockMutex;
	CK_FLAGS flags;
	void *pReserved;
} CK_C_INITIALIZE_ARGS;

typedef struct CK_TOKEN_INFO {
	CK_UTF8CHAR label[32];
	CK_UTF8CHAR manufacturerID[32];
	CK_UTF8CHAR model[16];
	CK_BYTE serialNumber[16];
	CK_FLAGS flags;
	CK_ULONG ulMaxSessionCount;
	CK_ULONG ulSessionCount;
	CK_ULONG ulMaxRwSessionCount;
	CK_ULONG ulRwSessionCount;
	CK_ULONG ulMaxPinLen;
	CK_ULONG ulMinPinLen;
	CK_ULONG ulTotalPublicMemory;
	CK_ULONG ulFreePublicMemory;
	CK_ULONG ulTotalPrivateMemory;
	CK_ULONG ulFreePrivateMemory;
	CK_VERSION hardwareVersion;
	CK_VERSION firmwareVersion;
	CK_UTF8CHAR utcTime[16];
} CK_TOKEN_INFO;

typedef void *CK_UNUSED_FN;	/* a slot we never call */

typedef struct CK_FUNCTION_LIST {
	CK_VERSION version;
	CK_RV (*C_Initialize)(void *init_args);
	CK_RV (*C_Finalize)(void *reserved);
	CK_UNUSED_FN C_GetInfo;
	CK_UNUSED_FN C_GetFunctionList;
	CK_RV (*C_GetSlotList)(CK_BBOOL token_present, CK_SLOT_ID *list,
	    CK_ULONG *count);
	CK_UNUSED_FN C_GetSlotInfo;
	CK_RV (*C_GetTokenInfo)(CK_SLOT_ID slot, CK_TOKEN_INFO *info);
	CK_UNUSED_FN C_GetMechanismList;
	CK_UNUSED_FN C_GetMechanismInfo;
	CK_UNUSED_FN C_InitToken;
	CK_UNUSED_FN C_InitPIN;
	CK_UNUSED_FN C_SetPIN;
	CK_RV (*C_OpenSession)(CK_SLOT_ID slot, CK_FLAGS flags, void *app,
	    void *notify, CK_SESSION_HANDLE *session);
	CK_RV (*C_CloseSession)(CK_SESSION_HANDLE session);
	CK_UNUSED_FN C_CloseAllSessions;
	CK_UNUSED_FN C_GetSessionInfo;
	CK_UNUSED_FN C_GetOperationState;
	CK_UNUSED_FN C_SetOperationState;
	CK_RV (*C_Login)(CK_SESSION_HANDLE session, CK_USER_TYPE user,
	    CK_UTF8CHAR *pin, CK_ULONG pin_len);
	CK_UNUSED_FN C_Logout;
	CK_UNUSED_FN C_CreateObject;
	CK_UNUSED_FN C_CopyObject;
	CK_UNUSED_FN C_DestroyObject;
	CK_UNUSED_FN C_GetObjectSize;
	CK_RV (*C_GetAttributeValue)(CK_SESSION_HANDLE session,
	    CK_OBJECT_HANDLE object, CK_ATTRIBUTE *templ, CK_ULONG count);
	CK_UNUSED_FN C_SetAttributeValue;
	CK_RV (*C_FindObjectsInit)(CK_SESSION_HANDLE session,
	    CK_ATTRIBUTE *templ, CK_ULONG count);
	CK_RV (*C_FindObjects)(CK_SESSION_HANDLE session,
	    CK_OBJECT_HANDLE *objects, CK_ULONG max, CK_ULONG *count);
	CK_RV (*C_FindObjectsFinal)(CK_SESSION_HANDLE session);
	CK_UNUSED_FN C_EncryptInit;
	CK_UNUSED_FN C_Encrypt;
	CK_UNUSED_FN C_EncryptUpdate;
	CK_UNUSED_FN C_EncryptFinal;
	CK_UNUSED_FN C_DecryptInit;
	CK_UNUSED_FN C_Decrypt;
	CK_UNUSED_FN C_DecryptUpdate;
	CK_UNUSED_FN C_DecryptFinal;
	CK_UNUSED_FN C_DigestInit;
	CK_UNUSED_FN C_Digest;
	CK_UNUSED_FN C_DigestUpdate;
	CK_UNUSED_FN C_DigestKey;
	CK_UNUSED_FN C_DigestFinal;
	CK_RV (*C_SignInit)(CK_SESSION_HANDLE session, CK_MECHANISM *mech,
	    CK_OBJECT_HANDLE key);
	CK_RV (*C_Sign)(CK_SESSION_HANDLE session, CK_BYTE *data,
	    CK_ULONG dlen, CK_BYTE *sig, CK_ULONG *siglen);
	/* the rest of the table is never reached */
} CK_FUNCTION_LIST;

typedef CK_RV (*CK_C_GetFunctionList)(CK_FUNCTION_LIST **list);

#endif
