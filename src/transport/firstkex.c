/*
 * firstkex.c: what outlives the first key exchange. Its exchange hash
 * becomes the session ID for good (RFC 4253 section 7.2); the client
 * keeps the server's host key blob and signature for
 * session-bind@openssh.com; the peer's ext-info says whether the
 * server takes publickey-hostbound-v00@openssh.com and ping@openssh.com
 * (the keystroke chaff of ObscureKeystrokeTiming needs it) and which
 * signature algorithms it accepts. A rekey changes none of these. The host key
 * accessors are here too: hostbound authentication reads them with the
 * session ID.
 */
#include <string.h>

#include "err.h"
#include "log.h"
#include "mem.h"
#include "transport_int.h"

const char *tr_peer_sig_algs(const struct transport *t) { return t->peer_sig_algs; }
const struct key *tr_hostkey(const struct transport *t) { return t->hostkey; }
int tr_peer_hostbound(const struct transport *t) { return t->peer_hostbound; }
int tr_peer_ping(const struct transport *t) { return t->peer_ping; }
const char *tr_peer_hostkey_algs(const struct transport *t) { return t->peer_hostkey_algs; }

struct key *const *
tr_hostkeys(const struct transport *t, size_t *np)
{
	*np = t->server ? t->cfg.nhostkeys : 0;
	return t->server ? t->cfg.hostkeys : NULL;
}

int
tr_hostkey_sign(struct transport *t, const struct key *pub,
    const char *sigalg, const unsigned char *data, size_t dlen,
    struct sbuf *sig)
{
	if (!t->server || t->cfg.hostkey_sign == NULL)
		return ERR_INVALID_ARGUMENT;
	return t->cfg.hostkey_sign(t->cfg.hostkey_arg, pub, sigalg, data,
	    dlen, sig);
}

const unsigned char *
tr_session_id(const struct transport *t, size_t *lenp)
{
	*lenp = t->session_id_len;
	return t->session_id;
}

int
tr_first_kex(const struct transport *t, const unsigned char **hkp,
    size_t *hklenp, const unsigned char **sigp, size_t *siglenp)
{
	if (t->first_hostkey == NULL || t->first_sig == NULL)
		return ERR_INVALID_ARGUMENT;
	*hkp = t->first_hostkey;
	*hklenp = t->first_hostkey_len;
	*sigp = t->first_sig;
	*siglenp = t->first_sig_len;
	return 0;
}

void
firstkex_session_id(struct transport *t, const unsigned char *H, size_t hlen)
{
	if (t->session_id_len == 0) {
		memcpy(t->session_id, H, hlen);
		t->session_id_len = hlen;
	}
}

void
firstkex_keep(struct transport *t, const unsigned char *kblob,
    size_t kbloblen, const unsigned char *sig, size_t siglen)
{
	if (t->first_hostkey != NULL)
		return;
	t->first_hostkey = x_memdup(kblob, kbloblen);
	t->first_hostkey_len = kbloblen;
	t->first_sig = x_memdup(sig, siglen);
	t->first_sig_len = siglen;
}

void
firstkex_clear(struct transport *t)
{
	x_free(t->peer_sig_algs);
	x_free(t->peer_hostkey_algs);
	x_wipe(t->session_id, sizeof(t->session_id));
	x_free(t->first_hostkey);
	x_free(t->first_sig);
}

int
firstkex_ext_info(struct transport *t)
{
	uint32_t n, i;
	char *name = NULL;
	const unsigned char *val;
	size_t vlen;
	int r;

	if ((r = sbuf_get_u32(t->body, &n)) != 0)
		return r;
	for (i = 0; i < n && i < 1024; i++) {
		if ((r = sbuf_get_cstring(t->body, &name, NULL)) != 0 ||
		    (r = sbuf_get_string_direct(t->body, &val, &vlen)) != 0) {
			x_free(name);
			return r;
		}
		if (strcmp(name, "server-sig-algs") == 0 && !t->server) {
			x_free(t->peer_sig_algs);
			t->peer_sig_algs = x_strndup((const char *)val, vlen);
			log_debug("kex_input_ext_info: server-sig-algs=<%s>",
			    t->peer_sig_algs);
		} else if (strcmp(name, "publickey-hostbound@openssh.com")
		    == 0 && !t->server) {
			/* Only version "0" is known (OpenSSH's PROTOCOL). */
			t->peer_hostbound = vlen == 1 && val[0] == '0';
			log_debug("kex_ext_info_check_ver: "
			    "publickey-hostbound@openssh.com=<%.*s>",
			    (int)(vlen > 32 ? 32 : vlen), (const char *)val);
		} else if (strcmp(name, "ping@openssh.com") == 0 &&
		    !t->server) {
			/* PROTOCOL 1.8: version "0" only. */
			t->peer_ping = vlen == 1 && val[0] == '0';
			log_debug("kex_ext_info_check_ver: "
			    "ping@openssh.com=<%.*s>",
			    (int)(vlen > 32 ? 32 : vlen), (const char *)val);
		}
		x_free(name);
		name = NULL;
	}
	return 0;
}
