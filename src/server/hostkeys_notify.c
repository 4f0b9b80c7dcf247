/*
 * hostkeys_notify.c: tell the client every host key we have after it
 * has logged in, and prove we hold them when it asks (OpenSSH 6.8's
 * hostkeys-00 / hostkeys-prove-00; see src/conn/hkproof.h).
 *
 * The proof for each requested key is a signature by that key over
 * hkproof_data(). A key that is not one of ours fails the whole request,
 * as in OpenSSH. RSA keys sign with the algorithm of the key exchange
 * when that was an RSA one, else rsa-sha2-512 or rsa-sha2-256 when the
 * client's first KEXINIT offered it, else ssh-rsa: the choice OpenSSH's
 * sshd makes, and the one its client checks.
 *
 * Signing goes through sign_proof() alone, which asks the transport's
 * host key callback (the same one the key exchange uses); a privileged
 * monitor that holds the private keys needs to accept exactly
 * hkproof_data() for one of our keys and this session there.
 */
#include <string.h>

#include "cert.h"
#include "channel.h"
#include "err.h"
#include "hkproof.h"
#include "hostkeys_notify.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

/* OpenSSH's SSH_BUG_HOSTKEYS: software versions to send nothing to. */
#define HOSTKEYS_BUGGY	"Cisco-1.*,TTSSH/2.6*,TTSSH/2.70*,TTSSH/2.71*," \
			"TTSSH/2.72*"

/* The one place a proof gets signed. */
static int
sign_proof(struct transport *t, const struct key *pub, const char *sigalg,
    const struct sbuf *data, struct sbuf *sig)
{
	return tr_hostkey_sign(t, pub, sigalg, sbuf_ptr(data), sbuf_len(data),
	    sig);
}

/* "ED25519", "ECDSA", "RSA", as OpenSSH's sshkey_type() logs. */
static const char *
short_type(const struct key *k)
{
	switch (k->type) {
	case KEY_ED25519:
		return "ED25519";
	case KEY_ECDSA:
		return "ECDSA";
	case KEY_RSA:
		return "RSA";
	default:
		return "unknown";
	}
}

static int
is_rsa_alg(const char *alg)
{
	enum key_type type;
	int nid;

	if (alg == NULL)
		return 0;
	if (cert_sigalg_base(alg) != NULL)
		alg = cert_sigalg_base(alg);
	return key_type_from_name(alg, &type, &nid) == 0 && type == KEY_RSA;
}

static int
offered(const char *list, const char *a, const char *b)
{
	return list != NULL && (match_list_contains(list, a) ||
	    match_list_contains(list, b));
}

/* The signature algorithm for a proof by k. */
static const char *
proof_sigalg(struct transport *t, const struct key *k)
{
	const char *kex = tr_negotiated(t, "hostkey");
	const char *peer = tr_peer_hostkey_algs(t);

	if (k->type != KEY_RSA)
		return key_type_name(k);
	if (is_rsa_alg(kex))
		return cert_sigalg_base(kex) != NULL ? cert_sigalg_base(kex) :
		    kex;
	if (offered(peer, "rsa-sha2-512", "rsa-sha2-512-cert-v01@openssh.com"))
		return "rsa-sha2-512";
	if (offered(peer, "rsa-sha2-256", "rsa-sha2-256-cert-v01@openssh.com"))
		return "rsa-sha2-256";
	return "ssh-rsa";
}

/* One requested key: its proof appended to reply as a string. */
static int
prove_one(struct transport *t, const unsigned char *blob, size_t blen,
    struct sbuf *reply)
{
	struct key *k = NULL, *const *keys;
	struct sbuf *data = sbuf_new(), *sig = sbuf_new();
	const unsigned char *sid;
	const char *alg;
	size_t n, i, sidlen;
	int r;

	if ((r = key_from_blob(blob, blen, &k)) != 0) {
		log_error("server_input_hostkeys_prove: parse key: %s",
		    err_str(r));
		goto out;
	}
	keys = tr_hostkeys(t, &n);
	for (i = 0; i < n; i++)
		if (keys[i] != NULL && key_equal_public(keys[i], k))
			break;
	if (i == n) {
		log_error("server_input_hostkeys_prove: unknown host %s key",
		    short_type(k));
		r = ERR_NOT_FOUND;
		goto out;
	}
	alg = proof_sigalg(t, k);
	log_debug3("server_input_hostkeys_prove: sign %s key (index %zu) "
	    "using sigalg %s", short_type(k), i, alg);
	sid = tr_session_id(t, &sidlen);
	if ((r = hkproof_data(sid, sidlen, keys[i], data)) != 0 ||
	    (r = sign_proof(t, keys[i], alg, data, sig)) != 0 ||
	    (r = sbuf_put_stringb(reply, sig)) != 0)
		log_error("server_input_hostkeys_prove: assemble signature: "
		    "%s", err_str(r));
 out:
	key_free(k);
	sbuf_free(data);
	sbuf_free(sig);
	return r;
}

/* hostkeys-prove-00@openssh.com: a signature per key, in order. */
static int
prove(struct chan_set *cs, void *arg, struct sbuf *body, struct sbuf *reply)
{
	struct transport *t = arg;
	const unsigned char *blob;
	size_t blen;
	int r;

	(void)cs;
	while (sbuf_len(body) > 0) {
		if ((r = sbuf_get_string_direct(body, &blob, &blen)) != 0) {
			log_error("server_input_hostkeys_prove: parse key: %s",
			    err_str(r));
			return r;
		}
		if ((r = prove_one(t, blob, blen, reply)) != 0)
			return r;
	}
	return 0;
}

/* 1 if the client's software is on OpenSSH's list of those that choke. */
static int
buggy_client(const struct transport *t)
{
	const char *v = tr_peer_version(t), *soft;

	if (v == NULL || (soft = strchr(v + 4, '-')) == NULL)
		return 0;
	return match_pattern_list(soft + 1, HOSTKEYS_BUGGY, 0) == 1;
}

int
hostkeys_notify(struct chan_set *cs, struct transport *t)
{
	struct key *const *keys;
	struct sbuf *b, *blob;
	size_t n, i, sent = 0;
	char *fp;
	int r;

	if ((r = chan_set_global(cs, HKPROOF_PROVE, prove, t)) != 0)
		return r;
	if (buggy_client(t))
		return 0;
	keys = tr_hostkeys(t, &n);
	if (n == 0)
		return 0;
	if ((b = chan_global_start(cs, HKPROOF_HOSTKEYS, 0, NULL,
	    NULL)) == NULL)
		return ERR_INTERNAL;
	blob = sbuf_new();
	for (i = 0; i < n; i++) {
		if (keys[i] == NULL)
			continue;
		fp = key_fingerprint(keys[i], KEY_FP_SHA256);
		log_debug3("notify_hostkeys: key %zu: %s %s", i,
		    key_type_name(keys[i]), fp ? fp : "?");
		x_free(fp);
		sbuf_reset(blob);
		if ((r = key_to_blob(keys[i], blob)) != 0 ||
		    (r = sbuf_put_stringb(b, blob)) != 0)
			break;
		sent++;
	}
	sbuf_free(blob);
	if (r != 0)
		return r;
	log_debug3("notify_hostkeys: sent %zu hostkeys", sent);
	return chan_msg_send(cs);
}
