/*
 * fido.c: the built-in provider (fido.h) on libfido2's public API.
 *
 * The device: the "device" option's path, else the one authenticator
 * attached, else, with several, for signing the first that knows the
 * key handle (asked without a touch), and for the other operations the
 * first one touched. The application is the relying party ID; the
 * challenge and the data to sign go to libfido2 as client data, which
 * it hashes with SHA-256 as the sk_api interface wants.
 */
#ifdef MOAT_HAVE_FIDO2

#include <stdlib.h>
#include <string.h>

#include <fido.h>
#include <fido/credman.h>

#include "fido.h"
#include "fido_conv.h"
#include "log.h"
#include "mem.h"

#define SKF_MAX_DEVICES		64
#define SKF_TOUCH_POLL_MS	50
#define SKF_TOUCH_WAIT_MS	15000
#define SKF_MAX_RESIDENT	256

/* libfido2's error codes in sk_api's words. */
static int
map_err(int fr)
{
	switch (fr) {
	case FIDO_OK:
		return 0;
	case FIDO_ERR_PIN_REQUIRED:
	case FIDO_ERR_PIN_INVALID:
	case FIDO_ERR_PIN_AUTH_INVALID:
	case FIDO_ERR_UV_INVALID:
		return SSH_SK_ERR_PIN_REQUIRED;
	case FIDO_ERR_CREDENTIAL_EXCLUDED:
		return SSH_SK_ERR_CREDENTIAL_EXISTS;
	case FIDO_ERR_UNSUPPORTED_ALGORITHM:
	case FIDO_ERR_UNSUPPORTED_OPTION:
	case FIDO_ERR_UNSUPPORTED_EXTENSION:
		return SSH_SK_ERR_UNSUPPORTED;
	default:
		return SSH_SK_ERR_GENERAL;
	}
}

static int
cose_of(uint32_t alg, int *cosep)
{
	switch (alg) {
	case SSH_SK_ED25519:
		*cosep = COSE_EDDSA;
		return 0;
	case SSH_SK_ECDSA:
		*cosep = COSE_ES256;
		return 0;
	default:
		return SSH_SK_ERR_UNSUPPORTED;
	}
}

static void
dev_close(fido_dev_t **devp)
{
	if (*devp == NULL)
		return;
	fido_dev_close(*devp);
	fido_dev_free(devp);
}

static int
dev_open(const char *path, fido_dev_t **devp)
{
	int fr;

	if ((*devp = fido_dev_new()) == NULL)
		return SSH_SK_ERR_GENERAL;
	if ((fr = fido_dev_open(*devp, path)) != FIDO_OK) {
		log_debug("fido: open %s: %s", path, fido_strerr(fr));
		fido_dev_free(devp);
		return SSH_SK_ERR_DEVICE_NOT_FOUND;
	}
	return 0;
}

/* Whether dev holds key handle kh for app: an assertion with no touch. */
static int
knows_handle(fido_dev_t *dev, const char *app, const uint8_t *kh,
    size_t khlen)
{
	static const uint8_t probe[32];
	fido_assert_t *a;
	int ok = 0;

	if ((a = fido_assert_new()) == NULL)
		return 0;
	if (fido_assert_set_clientdata(a, probe, sizeof(probe)) == FIDO_OK &&
	    fido_assert_set_rp(a, app) == FIDO_OK &&
	    fido_assert_allow_cred(a, kh, khlen) == FIDO_OK &&
	    fido_assert_set_up(a, FIDO_OPT_FALSE) == FIDO_OK &&
	    fido_dev_get_assert(dev, a, NULL) == FIDO_OK)
		ok = 1;
	fido_assert_free(&a);
	return ok;
}

/* Of n open devices, the index of the first one touched, or -1. */
static int
first_touched(fido_dev_t **devs, size_t n)
{
	size_t i;
	int waited, touched, found = -1;

	for (i = 0; i < n; i++)
		if (fido_dev_get_touch_begin(devs[i]) != FIDO_OK)
			dev_close(&devs[i]);
	for (waited = 0; found < 0 && waited < SKF_TOUCH_WAIT_MS;
	    waited += SKF_TOUCH_POLL_MS) {
		for (i = 0; i < n && found < 0; i++) {
			if (devs[i] == NULL)
				continue;
			touched = 0;
			if (fido_dev_get_touch_status(devs[i], &touched,
			    SKF_TOUCH_POLL_MS) != FIDO_OK)
				dev_close(&devs[i]);
			else if (touched)
				found = (int)i;
		}
	}
	for (i = 0; i < n; i++)
		if (devs[i] != NULL && (int)i != found)
			fido_dev_cancel(devs[i]);
	return found;
}

/* Among several attached devices: kh != NULL picks by handle, else touch. */
static int
choose(const fido_dev_info_t *list, size_t n, const char *app,
    const uint8_t *kh, size_t khlen, fido_dev_t **devp)
{
	fido_dev_t *devs[SKF_MAX_DEVICES];
	size_t i;
	int found = -1;

	for (i = 0; i < n; i++)
		if (dev_open(fido_dev_info_path(fido_dev_info_ptr(list, i)),
		    &devs[i]) != 0)
			devs[i] = NULL;
	if (kh != NULL) {
		for (i = 0; i < n && found < 0; i++)
			if (devs[i] != NULL && knows_handle(devs[i], app, kh,
			    khlen))
				found = (int)i;
	} else {
		log_debug("fido: %zu devices, waiting for a touch", n);
		found = first_touched(devs, n);
	}
	for (i = 0; i < n; i++)
		if ((int)i != found)
			dev_close(&devs[i]);
	if (found < 0)
		return SSH_SK_ERR_DEVICE_NOT_FOUND;
	*devp = devs[found];
	return 0;
}

/* The device to use (see the top of the file). */
static int
find_device(const struct skf_opts *o, const char *app, const uint8_t *kh,
    size_t khlen, fido_dev_t **devp)
{
	fido_dev_info_t *list;
	size_t n = 0;
	int r;

	*devp = NULL;
	if (o->device != NULL)
		return dev_open(o->device, devp);
	if ((list = fido_dev_info_new(SKF_MAX_DEVICES)) == NULL)
		return SSH_SK_ERR_GENERAL;
	if (fido_dev_info_manifest(list, SKF_MAX_DEVICES, &n) != FIDO_OK)
		n = 0;
	log_debug("fido: %zu device(s) found", n);
	if (n == 0)
		r = SSH_SK_ERR_DEVICE_NOT_FOUND;
	else if (n == 1)
		r = dev_open(fido_dev_info_path(fido_dev_info_ptr(list, 0)),
		    devp);
	else
		r = choose(list, n, app, kh, khlen, devp);
	fido_dev_info_free(&list, SKF_MAX_DEVICES);
	return r;
}

/* The credential's parameters, from sk_enroll's arguments. */
static int
cred_setup(fido_dev_t *dev, fido_cred_t *cred, int cose,
    const uint8_t *challenge, size_t challenge_len, const char *application,
    uint8_t flags, const struct skf_opts *o)
{
	uint8_t uid[SKF_USER_ID_LEN];
	const char *user = o->user != NULL ? o->user : SKF_DEFAULT_USER;

	skf_user_id(o->user, uid);
	if (fido_cred_set_type(cred, cose) != FIDO_OK ||
	    fido_cred_set_clientdata(cred, challenge,
	    challenge_len) != FIDO_OK ||
	    fido_cred_set_rp(cred, application, NULL) != FIDO_OK ||
	    fido_cred_set_user(cred, uid, sizeof(uid), user, NULL,
	    NULL) != FIDO_OK)
		return SSH_SK_ERR_GENERAL;
	if ((flags & SSH_SK_RESIDENT_KEY) &&
	    fido_cred_set_rk(cred, FIDO_OPT_TRUE) != FIDO_OK)
		return SSH_SK_ERR_GENERAL;
	if (flags & SSH_SK_USER_VERIFICATION_REQD) {
		/* kept on the authenticator: it asks for the PIN each time */
		if (!fido_dev_supports_cred_prot(dev))
			return SSH_SK_ERR_UNSUPPORTED;
		if (fido_cred_set_prot(cred,
		    FIDO_CRED_PROT_UV_REQUIRED) != FIDO_OK)
			return SSH_SK_ERR_GENERAL;
	}
	return 0;
}

int
skf_enroll(uint32_t alg, const uint8_t *challenge, size_t challenge_len,
    const char *application, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_enroll_response **resp)
{
	struct skf_opts o;
	struct skf_cred c;
	fido_dev_t *dev = NULL;
	fido_cred_t *cred = NULL;
	int cose, fr, r;

	*resp = NULL;
	fido_init(0);
	if ((r = skf_parse_options(options, &o)) != 0 ||
	    (r = cose_of(alg, &cose)) != 0)
		return r;
	if (application == NULL || challenge == NULL)
		return SSH_SK_ERR_GENERAL;
	if ((r = find_device(&o, application, NULL, 0, &dev)) != 0)
		return r;
	if ((cred = fido_cred_new()) == NULL) {
		r = SSH_SK_ERR_GENERAL;
		goto out;
	}
	if ((r = cred_setup(dev, cred, cose, challenge, challenge_len,
	    application, flags, &o)) != 0)
		goto out;
	if ((fr = fido_dev_make_cred(dev, cred, pin)) != FIDO_OK) {
		log_debug("fido: make credential: %s", fido_strerr(fr));
		r = map_err(fr);
		goto out;
	}
	memset(&c, 0, sizeof(c));
	c.alg = alg;
	c.flags = flags;
	c.pubkey.ptr = fido_cred_pubkey_ptr(cred);
	c.pubkey.len = fido_cred_pubkey_len(cred);
	c.id.ptr = fido_cred_id_ptr(cred);
	c.id.len = fido_cred_id_len(cred);
	c.sig.ptr = fido_cred_sig_ptr(cred);
	c.sig.len = fido_cred_sig_len(cred);
	c.x5c.ptr = fido_cred_x5c_ptr(cred);
	c.x5c.len = fido_cred_x5c_len(cred);
	c.authdata.ptr = fido_cred_authdata_ptr(cred);
	c.authdata.len = fido_cred_authdata_len(cred);
	r = skf_enroll_response(&c, resp);
 out:
	fido_cred_free(&cred);
	dev_close(&dev);
	return r;
}

/* The assertion's parameters, from sk_sign's arguments. */
static int
assert_setup(fido_dev_t *dev, fido_assert_t *a, const uint8_t *data,
    size_t data_len, const char *application, const uint8_t *kh,
    size_t khlen, uint8_t flags, const char *pin)
{
	if (fido_assert_set_clientdata(a, data, data_len) != FIDO_OK ||
	    fido_assert_set_rp(a, application) != FIDO_OK ||
	    fido_assert_allow_cred(a, kh, khlen) != FIDO_OK ||
	    fido_assert_set_up(a, (flags & SSH_SK_USER_PRESENCE_REQD) ?
	    FIDO_OPT_TRUE : FIDO_OPT_FALSE) != FIDO_OK)
		return SSH_SK_ERR_GENERAL;
	/* A PIN verifies the user; without one, the device's own means. */
	if ((flags & SSH_SK_USER_VERIFICATION_REQD) && pin == NULL) {
		if (!fido_dev_has_uv(dev))
			return SSH_SK_ERR_PIN_REQUIRED;
		if (fido_assert_set_uv(a, FIDO_OPT_TRUE) != FIDO_OK)
			return SSH_SK_ERR_GENERAL;
	}
	return 0;
}

int
skf_sign(uint32_t alg, const uint8_t *data, size_t data_len,
    const char *application, const uint8_t *key_handle,
    size_t key_handle_len, uint8_t flags, const char *pin,
    struct sk_option **options, struct sk_sign_response **resp)
{
	struct skf_opts o;
	fido_dev_t *dev = NULL;
	fido_assert_t *a = NULL;
	int cose, fr, r;

	*resp = NULL;
	fido_init(0);
	if ((r = skf_parse_options(options, &o)) != 0 ||
	    (r = cose_of(alg, &cose)) != 0)
		return r;
	if (application == NULL || data == NULL || key_handle == NULL ||
	    key_handle_len == 0)
		return SSH_SK_ERR_GENERAL;
	if ((r = find_device(&o, application, key_handle, key_handle_len,
	    &dev)) != 0)
		return r;
	if ((a = fido_assert_new()) == NULL) {
		r = SSH_SK_ERR_GENERAL;
		goto out;
	}
	if ((r = assert_setup(dev, a, data, data_len, application, key_handle,
	    key_handle_len, flags, pin)) != 0)
		goto out;
	if ((fr = fido_dev_get_assert(dev, a, pin)) != FIDO_OK) {
		log_debug("fido: get assertion: %s", fido_strerr(fr));
		r = map_err(fr);
		goto out;
	}
	if (fido_assert_count(a) != 1) {
		r = SSH_SK_ERR_GENERAL;
		goto out;
	}
	r = skf_sign_response(alg, fido_assert_sig_ptr(a, 0),
	    fido_assert_sig_len(a, 0), fido_assert_flags(a, 0),
	    fido_assert_sigcount(a, 0), resp);
 out:
	fido_assert_free(&a);
	dev_close(&dev);
	return r;
}

/* A resident credential as a listed key; NULL when not one of ours. */
static struct sk_resident_key *
resident_of(const fido_cred_t *cred, const char *app, size_t slot)
{
	struct sk_resident_key *rk;
	struct skf_bytes uid;
	struct skf_cred c;

	memset(&c, 0, sizeof(c));
	if (fido_cred_type(cred) == COSE_EDDSA)
		c.alg = SSH_SK_ED25519;
	else if (fido_cred_type(cred) == COSE_ES256)
		c.alg = SSH_SK_ECDSA;
	else
		return NULL;
	c.flags = SSH_SK_USER_PRESENCE_REQD | SSH_SK_RESIDENT_KEY;
	if (fido_cred_prot(cred) == FIDO_CRED_PROT_UV_REQUIRED)
		c.flags |= SSH_SK_USER_VERIFICATION_REQD;
	c.pubkey.ptr = fido_cred_pubkey_ptr(cred);
	c.pubkey.len = fido_cred_pubkey_len(cred);
	c.id.ptr = fido_cred_id_ptr(cred);
	c.id.len = fido_cred_id_len(cred);
	uid.ptr = fido_cred_user_id_ptr(cred);
	uid.len = fido_cred_user_id_len(cred);
	if (skf_resident_key(&c, app, slot, &uid, &rk) != 0)
		return NULL;
	return rk;
}

/* Append the "ssh:" resident keys of one relying party to the list. */
static int
load_rp(fido_dev_t *dev, const char *app, const char *pin,
    struct sk_resident_key ***rksp, size_t *nrksp)
{
	fido_credman_rk_t *rk;
	struct sk_resident_key *k;
	size_t i;
	int fr;

	if ((rk = fido_credman_rk_new()) == NULL)
		return SSH_SK_ERR_GENERAL;
	if ((fr = fido_credman_get_dev_rk(dev, app, rk, pin)) != FIDO_OK) {
		log_debug("fido: credentials of %s: %s", app,
		    fido_strerr(fr));
		fido_credman_rk_free(&rk);
		return map_err(fr);
	}
	for (i = 0; i < fido_credman_rk_count(rk) &&
	    *nrksp < SKF_MAX_RESIDENT; i++) {
		if ((k = resident_of(fido_credman_rk(rk, i), app, i)) == NULL)
			continue;
		*rksp = x_reallocarray(*rksp, *nrksp + 1, sizeof(**rksp));
		(*rksp)[(*nrksp)++] = k;
	}
	fido_credman_rk_free(&rk);
	return 0;
}

static int
load_dev(fido_dev_t *dev, const char *pin, struct sk_resident_key ***rksp,
    size_t *nrksp)
{
	fido_credman_rp_t *rp;
	const char *app;
	size_t i;
	int fr, r = 0;

	if (!fido_dev_supports_credman(dev))
		return SSH_SK_ERR_UNSUPPORTED;
	if (pin == NULL)
		return SSH_SK_ERR_PIN_REQUIRED;
	if ((rp = fido_credman_rp_new()) == NULL)
		return SSH_SK_ERR_GENERAL;
	if ((fr = fido_credman_get_dev_rp(dev, rp, pin)) != FIDO_OK) {
		log_debug("fido: relying parties: %s", fido_strerr(fr));
		fido_credman_rp_free(&rp);
		return map_err(fr);
	}
	for (i = 0; i < fido_credman_rp_count(rp) && r == 0; i++) {
		app = fido_credman_rp_id(rp, i);
		if (app != NULL && strncmp(app, "ssh:", 4) == 0)
			r = load_rp(dev, app, pin, rksp, nrksp);
	}
	fido_credman_rp_free(&rp);
	return r;
}

int
skf_load_resident(const char *pin, struct sk_option **options,
    struct sk_resident_key ***rks, size_t *nrks)
{
	struct sk_resident_key **list = NULL;
	struct skf_opts o;
	fido_dev_t *dev = NULL;
	size_t n = 0;
	int r;

	*rks = NULL;
	*nrks = 0;
	fido_init(0);
	if ((r = skf_parse_options(options, &o)) != 0)
		return r;
	if ((r = find_device(&o, "ssh:", NULL, 0, &dev)) != 0)
		return r;
	r = load_dev(dev, pin, &list, &n);
	dev_close(&dev);
	if (r != 0) {
		skf_resident_list_free(list, n);
		return r;
	}
	*rks = list;
	*nrks = n;
	return 0;
}

#else

/* Built without libfido2: SecurityKeyProvider "internal" is refused. */
typedef int skf_none;

#endif
