/*
 * kex_negotiate.c: algorithm negotiation from the two KEXINITs (RFC 4253
 * section 7.1) and the host key algorithms a server may offer.
 *
 * One name is chosen per slot, the client's preference first
 * (match_first_common); the MAC slots are skipped for AEAD ciphers. The
 * first exchange also settles OpenSSH's extensions: ext-info-c/-s and
 * strict KEX (kex-strict-*-v00@openssh.com), whose KEXINIT must then have
 * been the very first packet. A wrong first_kex_packet_follows guess
 * makes the transport skip the peer's guessed packet.
 */
#include <string.h>

#include "cert.h"
#include "err.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport_int.h"

/* Index of our host key for alg (certificate algorithms too); -1: none. */
int
kex_hostkey_index(const struct transport *t, const char *alg)
{
	const struct key_cert *c;
	size_t i;

	for (i = 0; i < t->cfg.nhostkeys; i++) {
		c = t->cfg.hostcerts != NULL ? t->cfg.hostcerts[i] : NULL;
		if (cert_sigalg_base(alg) != NULL ? cert_sigalg_matches(c, alg) :
		    key_sigalg_matches(t->cfg.hostkeys[i], alg))
			return (int)i;
	}
	return -1;
}

/* The server offers only host key algorithms it has a key for. */
char *
kex_hostkey_list(const struct transport *t)
{
	struct sbuf *b = sbuf_new();
	const char *p = t->cfg.hostkey_algs;
	char *out;

	while (p != NULL && *p != '\0') {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *name = x_strndup(p, len);

		if (kex_hostkey_index(t, name) >= 0)
			sbuf_putf(b, "%s%s", sbuf_len(b) ? "," : "", name);
		x_free(name);
		p = e ? e + 1 : NULL;
	}
	out = x_strndup((const char *)sbuf_ptr(b), sbuf_len(b));
	sbuf_free(b);
	return out;
}

/* What one negotiation settles, slot by slot, before it is applied. */
struct kex_choice {
	char *res[NEG_MAX];
	const struct cipher_alg *cipher[2];
	const struct mac_alg *mac[2];
	const struct comp_alg *comp[2];
};

/* Both KEXINITs' name-lists (past the type byte and cookie); the peer's
 * first_kex_packet_follows flag. */
static int
kex_read_lists(struct transport *t, char **ml, char **pl, int *followsp)
{
	struct sbuf *mine = sbuf_from(sbuf_ptr(t->my_kexinit) + 17,
	    sbuf_len(t->my_kexinit) - 17);
	struct sbuf *peer = sbuf_from(sbuf_ptr(t->peer_kexinit) + 17,
	    sbuf_len(t->peer_kexinit) - 17);
	int r = 0, i;

	for (i = 0; i < NEG_MAX && r == 0; i++) {
		if ((r = sbuf_get_cstring(mine, &ml[i], NULL)) == 0)
			r = sbuf_get_cstring(peer, &pl[i], NULL);
	}
	if (r == 0 && (r = sbuf_get_bool(peer, followsp)) == 0)
		r = sbuf_get_u32(peer, NULL);
	if (r != 0)
		r = tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "bad KEXINIT: %s", err_str(r));
	sbuf_free(mine);
	sbuf_free(peer);
	return r;
}

/* The extensions only the first exchange settles: ext-info and strict
 * KEX, which must then have been the first packet. */
static int
kex_first_extensions(struct transport *t, char **cl, char **sl, char **pl)
{
	t->peer_ext_info = t->server ?
	    match_list_contains(cl[NEG_KEX], EXT_INFO_C) :
	    match_list_contains(sl[NEG_KEX], EXT_INFO_S);
	t->strict = t->server ? match_list_contains(cl[NEG_KEX], STRICT_C) :
	    match_list_contains(sl[NEG_KEX], STRICT_S);
	x_free(t->peer_hostkey_algs);
	t->peer_hostkey_algs = x_strdup(pl[NEG_HOSTKEY]);
	if (t->strict && t->last_seqnr != 0)
		return tr_protocol_error(t, SSH2_DISCONNECT_PROTOCOL_ERROR,
		    "strict KEX violation: KEXINIT was not the first packet");
	return 0;
}

/* No common name in slot i: say so as ssh(1) and sshd do, and disconnect. */
static int
kex_no_match(struct transport *t, int i, const char *theirs)
{
	static const char *what[] = { "key exchange method",
	    "host key type",
	    "cipher", "cipher", "MAC", "MAC", "compression",
	    "compression" };
	static const int errs[] = { ERR_NO_KEX_MATCH,
	    ERR_NO_HOSTKEY_MATCH, ERR_NO_CIPHER_MATCH,
	    ERR_NO_CIPHER_MATCH, ERR_NO_MAC_MATCH,
	    ERR_NO_MAC_MATCH, ERR_NO_COMPRESS_MATCH,
	    ERR_NO_COMPRESS_MATCH };

	/* The client's one-line error, as ssh(1) prints it. */
	log_msg(t->server ? LOG_LEVEL_INFO : LOG_LEVEL_ERROR,
	    "Unable to negotiate with %s: no matching %s "
	    "found. Their offer: %s",
	    t->cfg.peer_desc ? t->cfg.peer_desc : "peer",
	    what[i], theirs);
	tr_disconnect(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
	    "no matching %s found", what[i]);
	return errs[i];
}

/* One name per slot, the client's preference first; the MAC slots are
 * skipped once the cipher of that direction is an AEAD. */
static int
kex_choose(struct transport *t, char **cl, char **sl, char **pl,
    struct kex_choice *kc)
{
	int i;

	for (i = 0; i < NEG_MAX; i++) {
		if (i == NEG_LANG_C2S || i == NEG_LANG_S2C)
			continue;
		if ((i == NEG_MAC_C2S && kc->cipher[0] != NULL &&
		    (kc->cipher[0]->flags & CIPHER_AEAD)) ||
		    (i == NEG_MAC_S2C && kc->cipher[1] != NULL &&
		    (kc->cipher[1]->flags & CIPHER_AEAD)))
			continue;
		kc->res[i] = match_first_common(cl[i], sl[i]);
		if (kc->res[i] == NULL)
			return kex_no_match(t, i, pl[i]);
		if (i == NEG_CIPHER_C2S || i == NEG_CIPHER_S2C)
			kc->cipher[i - NEG_CIPHER_C2S] =
			    cipher_by_name(kc->res[i]);
		if (i == NEG_MAC_C2S || i == NEG_MAC_S2C)
			kc->mac[i - NEG_MAC_C2S] = mac_by_name(kc->res[i]);
		if (i == NEG_COMP_C2S || i == NEG_COMP_S2C)
			kc->comp[i - NEG_COMP_C2S] = comp_by_name(kc->res[i]);
	}
	t->kex = kexalg_by_name(kc->res[NEG_KEX]);
	if (t->kex == NULL || kc->cipher[0] == NULL || kc->cipher[1] == NULL ||
	    (kc->res[NEG_MAC_C2S] != NULL && kc->mac[0] == NULL) ||
	    (kc->res[NEG_MAC_S2C] != NULL && kc->mac[1] == NULL) ||
	    kc->comp[0] == NULL || kc->comp[1] == NULL)
		return tr_protocol_error(t, SSH2_DISCONNECT_KEY_EXCHANGE_FAILED,
		    "negotiated an unsupported algorithm");
	return 0;
}

/* The peer guessed; a wrong guess's packet is skipped. The guess is right
 * when both sides' first KEX and host key names agree. */
static void
kex_check_guess(struct transport *t, char **cl, char **sl)
{
	char *ck = match_first_common(cl[NEG_KEX], cl[NEG_KEX]);
	char *ch = match_first_common(cl[NEG_HOSTKEY], cl[NEG_HOSTKEY]);
	char *sk = match_first_common(sl[NEG_KEX], sl[NEG_KEX]);
	char *sh = match_first_common(sl[NEG_HOSTKEY], sl[NEG_HOSTKEY]);

	if (ck == NULL || sk == NULL || ch == NULL || sh == NULL ||
	    strcmp(ck, sk) != 0 || strcmp(ch, sh) != 0)
		t->ignore_guess = 1;
	x_free(ck);
	x_free(ch);
	x_free(sk);
	x_free(sh);
}

/* The choice becomes the next keys' algorithms and the names the
 * transport reports; the host key algorithm's string moves to t. */
static void
kex_apply(struct transport *t, struct kex_choice *kc)
{
	int s = t->server ? 1 : 0;	/* index of our sending dir */
	int i;

	x_free(t->hostkey_alg);
	t->hostkey_alg = kc->res[NEG_HOSTKEY];
	kc->res[NEG_HOSTKEY] = NULL;
	t->nk_send.cipher = kc->cipher[s];
	t->nk_send.mac = kc->mac[s];
	t->nk_recv.cipher = kc->cipher[!s];
	t->nk_recv.mac = kc->mac[!s];
	t->nk_send.comp = kc->comp[s];
	t->nk_recv.comp = kc->comp[!s];
	for (i = 0; i < NEG_LANG_C2S; i++) {
		x_free(t->negotiated[i]);
		t->negotiated[i] = x_strdup(i == NEG_HOSTKEY ? t->hostkey_alg :
		    kc->res[i] ? kc->res[i] : "<implicit>");
	}
	log_debug("kex: algorithm: %s", t->kex->name);
	log_debug("kex: host key algorithm: %s", t->hostkey_alg);
	log_debug("kex: client->server cipher: %s MAC: %s compression: %s",
	    kc->cipher[0]->name, kc->mac[0] ? kc->mac[0]->name : "<implicit>",
	    kc->comp[0]->name);
	log_debug("kex: server->client cipher: %s MAC: %s compression: %s",
	    kc->cipher[1]->name, kc->mac[1] ? kc->mac[1]->name : "<implicit>",
	    kc->comp[1]->name);
}

int
kex_negotiate(struct transport *t)
{
	char *ml[NEG_MAX] = { 0 }, *pl[NEG_MAX] = { 0 };
	char **cl, **sl;
	struct kex_choice kc;
	int follows = 0, r, i;

	memset(&kc, 0, sizeof(kc));
	if ((r = kex_read_lists(t, ml, pl, &follows)) != 0)
		goto out;
	cl = t->server ? pl : ml;
	sl = t->server ? ml : pl;
	if (!t->first_kex_done &&
	    (r = kex_first_extensions(t, cl, sl, pl)) != 0)
		goto out;
	if ((r = kex_choose(t, cl, sl, pl, &kc)) != 0)
		goto out;
	if (follows)
		kex_check_guess(t, cl, sl);
	kex_apply(t, &kc);
 out:
	for (i = 0; i < NEG_MAX; i++) {
		x_free(ml[i]);
		x_free(pl[i]);
		x_free(kc.res[i]);
	}
	return r;
}
