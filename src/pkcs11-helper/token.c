/*
 * token.c: loading a PKCS#11 module and finding its keys. Every token
 * that is present and initialized gets a read-only session; on each,
 * the public key objects are listed first, then the X.509 certificate
 * objects, each in the order the module returns them, and a key seen
 * twice is listed once. A key's CKA_ID later finds its private half.
 *
 * Logging in is per token. It happens when a PIN is given and the token
 * says it needs one (CKF_LOGIN_REQUIRED); without a PIN the public
 * objects are still listed.
 */
#include <dlfcn.h>
#include <string.h>

#include "err.h"
#include "helper.h"
#include "log.h"
#include "mem.h"

#define MAX_OBJECTS	1024		/* objects looked at per class */

int
p11h_get_attr(struct p11h *h, CK_SESSION_HANDLE sess, CK_OBJECT_HANDLE obj,
    CK_ATTRIBUTE_TYPE type, unsigned char **valp, size_t *lenp)
{
	CK_ATTRIBUTE a = { type, NULL, 0 };
	CK_ULONG want;
	CK_RV rv;

	*valp = NULL;
	*lenp = 0;
	if ((rv = h->f->C_GetAttributeValue(sess, obj, &a, 1)) != CKR_OK ||
	    a.ulValueLen == CK_UNAVAILABLE_INFORMATION ||
	    a.ulValueLen > P11H_MAX_ATTR)
		return ERR_NOT_FOUND;
	want = a.ulValueLen;
	a.pValue = x_malloc(want + 1);
	if ((rv = h->f->C_GetAttributeValue(sess, obj, &a, 1)) != CKR_OK ||
	    a.ulValueLen > want) {
		x_free(a.pValue);
		return ERR_NOT_FOUND;
	}
	*valp = a.pValue;
	*lenp = a.ulValueLen;
	return 0;
}

static int
get_ulong(struct p11h *h, CK_SESSION_HANDLE sess, CK_OBJECT_HANDLE obj,
    CK_ATTRIBUTE_TYPE type, CK_ULONG *vp)
{
	unsigned char *v;
	size_t len;
	int r;

	if ((r = p11h_get_attr(h, sess, obj, type, &v, &len)) != 0)
		return r;
	if (len != sizeof(*vp)) {
		x_free(v);
		return ERR_INVALID_FORMAT;
	}
	memcpy(vp, v, sizeof(*vp));
	x_free(v);
	return 0;
}

/* A label for printing: control bytes become '?'. */
static char *
printable(const unsigned char *s, size_t len)
{
	char *out = x_malloc(len + 1);
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = (s[i] < 0x20 || s[i] == 0x7f) ? '?' : (char)s[i];
	out[len] = '\0';
	return out;
}

static int
have_key(const struct p11h *h, const struct key *k)
{
	size_t i;

	for (i = 0; i < h->nkeys; i++)
		if (key_equal_public(h->keys[i].pub, k))
			return 1;
	return 0;
}

static int
pubkey_object(struct p11h *h, CK_SESSION_HANDLE sess, CK_OBJECT_HANDLE obj,
    struct key **kp)
{
	unsigned char *a = NULL, *b = NULL;
	size_t alen, blen;
	CK_ULONG kt;
	int r;

	if ((r = get_ulong(h, sess, obj, CKA_KEY_TYPE, &kt)) != 0)
		return r;
	if (kt == CKK_RSA) {
		if ((r = p11h_get_attr(h, sess, obj, CKA_MODULUS, &a,
		    &alen)) == 0 && (r = p11h_get_attr(h, sess, obj,
		    CKA_PUBLIC_EXPONENT, &b, &blen)) == 0)
			r = p11h_rsa_key(a, alen, b, blen, kp);
	} else if (kt == CKK_EC) {
		if ((r = p11h_get_attr(h, sess, obj, CKA_EC_PARAMS, &a,
		    &alen)) == 0 && (r = p11h_get_attr(h, sess, obj,
		    CKA_EC_POINT, &b, &blen)) == 0)
			r = p11h_ec_key(a, alen, b, blen, kp);
	} else
		r = ERR_KEY_TYPE_UNKNOWN;
	x_free(a);
	x_free(b);
	return r;
}

static int
cert_object(struct p11h *h, CK_SESSION_HANDLE sess, CK_OBJECT_HANDLE obj,
    struct key **kp)
{
	unsigned char *der;
	size_t len;
	CK_ULONG ct;
	int r;

	if ((r = get_ulong(h, sess, obj, CKA_CERTIFICATE_TYPE, &ct)) != 0)
		return r;
	if (ct != CKC_X_509)
		return ERR_KEY_TYPE_UNKNOWN;
	if ((r = p11h_get_attr(h, sess, obj, CKA_VALUE, &der, &len)) != 0)
		return r;
	r = p11h_x509_key(der, len, kp);
	x_free(der);
	return r;
}

/* Take one object of class cls as a key, if it is one we can use. */
static void
add_object(struct p11h *h, size_t si, CK_OBJECT_HANDLE obj, CK_ULONG cls)
{
	CK_SESSION_HANDLE sess = h->slots[si].sess;
	struct p11h_key *k;
	struct key *pub = NULL;
	unsigned char *label = NULL;
	size_t labellen = 0;
	int r;

	r = cls == CKO_PUBLIC_KEY ? pubkey_object(h, sess, obj, &pub) :
	    cert_object(h, sess, obj, &pub);
	if (r != 0) {
		log_debug("object %lu: %s", (unsigned long)obj, err_str(r));
		return;
	}
	if (key_bits(pub) < 1024 && pub->type == KEY_RSA) {
		log_debug("object %lu: RSA key too small", (unsigned long)obj);
		key_free(pub);
		return;
	}
	if (have_key(h, pub)) {
		key_free(pub);
		return;
	}
	h->keys = x_reallocarray(h->keys, h->nkeys + 1, sizeof(*h->keys));
	k = &h->keys[h->nkeys++];
	memset(k, 0, sizeof(*k));
	k->slot = si;
	k->pub = pub;
	if (p11h_get_attr(h, sess, obj, CKA_ID, &k->ckid, &k->ckidlen) != 0)
		k->ckid = NULL;
	(void)p11h_get_attr(h, sess, obj, CKA_LABEL, &label, &labellen);
	k->label = printable(label != NULL ? label : (const unsigned char *)"",
	    labellen);
	x_free(label);
	log_debug("have %zu keys", h->nkeys);
}

static void
find_class(struct p11h *h, size_t si, CK_ULONG cls)
{
	CK_SESSION_HANDLE sess = h->slots[si].sess;
	CK_ATTRIBUTE t = { CKA_CLASS, &cls, sizeof(cls) };
	CK_OBJECT_HANDLE objs[MAX_OBJECTS];
	CK_ULONG n = 0, got, i;
	CK_RV rv;

	if ((rv = h->f->C_FindObjectsInit(sess, &t, 1)) != CKR_OK) {
		log_error("C_FindObjectsInit failed: %lu", rv);
		return;
	}
	while (n < MAX_OBJECTS) {
		got = 0;
		if ((rv = h->f->C_FindObjects(sess, objs + n,
		    MAX_OBJECTS - n, &got)) != CKR_OK || got == 0 ||
		    got > MAX_OBJECTS - n)
			break;
		n += got;
	}
	(void)h->f->C_FindObjectsFinal(sess);
	for (i = 0; i < n; i++)
		add_object(h, si, objs[i], cls);
}

int
p11h_login(struct p11h *h, struct p11h_slot *s, const char *pin)
{
	CK_RV rv;

	if (!s->login_required || s->logged_in)
		return 0;
	if (pin == NULL || *pin == '\0')
		return ERR_PERMISSION_DENIED;
	rv = h->f->C_Login(s->sess, CKU_USER, (CK_UTF8CHAR *)pin,
	    (CK_ULONG)strlen(pin));
	if (rv != CKR_OK && rv != CKR_USER_ALREADY_LOGGED_IN) {
		log_error("C_Login failed: %lu", rv);
		return rv == CKR_PIN_INCORRECT || rv == CKR_PIN_LOCKED ?
		    ERR_KEY_WRONG_PASSPHRASE : ERR_PERMISSION_DENIED;
	}
	s->logged_in = 1;
	return 0;
}

/* Open a session on slot id; 1 when it became slots[nslots]. */
static int
open_slot(struct p11h *h, CK_SLOT_ID id)
{
	struct p11h_slot *s = &h->slots[h->nslots];
	CK_TOKEN_INFO ti;
	size_t len;
	CK_RV rv;

	memset(&ti, 0, sizeof(ti));
	if ((rv = h->f->C_GetTokenInfo(id, &ti)) != CKR_OK) {
		log_debug("C_GetTokenInfo for slot %lu failed: %lu", id, rv);
		return 0;
	}
	if (!(ti.flags & CKF_TOKEN_INITIALIZED)) {
		log_debug("ignoring uninitialised token in slot %lu", id);
		return 0;
	}
	memset(s, 0, sizeof(*s));
	s->id = id;
	for (len = sizeof(ti.label); len > 0 && (ti.label[len - 1] == ' ' ||
	    ti.label[len - 1] == '\0'); len--)
		;
	for (size_t i = 0; i < len; i++)
		s->label[i] = ti.label[i] < 0x20 || ti.label[i] == 0x7f ?
		    '?' : (char)ti.label[i];
	s->login_required = (ti.flags & CKF_LOGIN_REQUIRED) != 0;
	if ((rv = h->f->C_OpenSession(id, CKF_SERIAL_SESSION, NULL, NULL,
	    &s->sess)) != CKR_OK) {
		log_error("C_OpenSession failed: %lu", rv);
		return 0;
	}
	h->nslots++;
	return 1;
}

static int
load_module(struct p11h *h, const char *path, char **whyp)
{
	CK_C_GetFunctionList getfl;
	CK_C_INITIALIZE_ARGS args;
	CK_RV rv;

	if ((h->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		*whyp = x_asprintf("dlopen %s failed: %s", path, dlerror());
		return ERR_NOT_FOUND;
	}
	*(void **)&getfl = dlsym(h->dl, "C_GetFunctionList");
	if (getfl == NULL) {
		*whyp = x_asprintf("dlsym(C_GetFunctionList) failed: %s",
		    dlerror());
		return ERR_NOT_FOUND;
	}
	if ((rv = getfl(&h->f)) != CKR_OK || h->f == NULL) {
		*whyp = x_asprintf("C_GetFunctionList for provider %s "
		    "failed: %lu", path, rv);
		h->f = NULL;
		return ERR_NOT_FOUND;
	}
	memset(&args, 0, sizeof(args));
	args.flags = CKF_OS_LOCKING_OK;
	if ((rv = h->f->C_Initialize(&args)) != CKR_OK &&
	    rv != CKR_CRYPTOKI_ALREADY_INITIALIZED) {
		*whyp = x_asprintf("C_Initialize for provider %s failed: %lu",
		    path, rv);
		return ERR_NOT_FOUND;
	}
	h->initialized = 1;
	return 0;
}

int
p11h_open(struct p11h *h, const char *path, const char *pin, char **whyp)
{
	CK_SLOT_ID ids[P11H_MAX_SLOTS];
	CK_ULONG n = P11H_MAX_SLOTS, i;
	CK_RV rv;
	size_t si;
	int r;

	*whyp = NULL;
	if (h->dl != NULL) {
		*whyp = x_strdup("provider already registered");
		return ERR_INVALID_ARGUMENT;
	}
	if ((r = load_module(h, path, whyp)) != 0)
		return r;
	if ((rv = h->f->C_GetSlotList(CK_TRUE, ids, &n)) != CKR_OK ||
	    n > P11H_MAX_SLOTS) {
		*whyp = x_asprintf("C_GetSlotList failed: %lu", rv);
		return ERR_NOT_FOUND;
	}
	h->slots = x_calloc(n + 1, sizeof(*h->slots));
	for (i = 0; i < n; i++)
		(void)open_slot(h, ids[i]);
	for (si = 0; si < h->nslots; si++) {
		if (pin != NULL && *pin != '\0' &&
		    (r = p11h_login(h, &h->slots[si], pin)) != 0) {
			*whyp = x_asprintf("login to token '%s' failed",
			    h->slots[si].label);
			return r;
		}
		find_class(h, si, CKO_PUBLIC_KEY);
		find_class(h, si, CKO_CERTIFICATE);
	}
	if (h->nkeys == 0) {
		*whyp = x_asprintf("no keys");
		return ERR_NOT_FOUND;
	}
	return 0;
}

void
p11h_close(struct p11h *h)
{
	size_t i;

	for (i = 0; i < h->nkeys; i++) {
		key_free(h->keys[i].pub);
		x_free(h->keys[i].label);
		x_free(h->keys[i].ckid);
	}
	x_free(h->keys);
	for (i = 0; h->f != NULL && i < h->nslots; i++)
		(void)h->f->C_CloseSession(h->slots[i].sess);
	x_free(h->slots);
	if (h->initialized)
		(void)h->f->C_Finalize(NULL);
	/* The module is not unloaded: its atexit handlers may point in. */
	memset(h, 0, sizeof(*h));
}
