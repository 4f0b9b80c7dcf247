/*
 * fuzz_tr.h: the harness the two transport fuzz targets share.
 *
 * One transport (server or client role) is fed the fuzz input as its
 * peer's byte stream, in one of three modes chosen by the first byte:
 *
 *  - raw (first byte neither 0 nor 1): the whole input is written into
 *    one end of a socketpair whose other end is the transport's input;
 *    the write side is then shut down and the transport is read and
 *    drained (tr_fd_read, tr_next_message) until it reports an error
 *    or the end. This reaches the banner, the clear-text packet framing,
 *    KEXINIT negotiation and the first KEX messages.
 *
 *  - scripted (first byte 0): a real peer of the opposite role, in the
 *    same process, completes a key exchange with the transport under
 *    test (byte 1 picks its cipher, MAC and compression method); then
 *    every record of the rest of the input, "u16 length, message
 *    bytes", is sent by that peer as one encrypted (and maybe
 *    compressed) message. This reaches what comes after the first
 *    NEWKEYS: ext-info, rekeying, the packet paths of every cipher,
 *    zlib from NEWKEYS on and zlib@openssh.com from a USERAUTH_SUCCESS
 *    on. (Hostile compressed bytes themselves: fuzz_compress.)
 *
 *  - after login (first byte 1): scripted, but before the records the
 *    login ends as auth.c and clientauth.c end it: the server of the
 *    pair sends USERAUTH_SUCCESS and marks the user authenticated, the
 *    client marks it when the message arrives. This reaches what only
 *    an authenticated transport does: a server's answer to
 *    ping@openssh.com (PONG, held during a key exchange of its own),
 *    delayed compression from the start of the script, and key
 *    exchanges the tested end starts itself: byte 1 also sets its
 *    RekeyLimit (see fz_rekey_limits), so a short script of pings
 *    crosses it. The login_* seeds (and preauth_ping) are written by
 *    mkseeds_login.py.
 *
 * Output of the transport under test goes to /dev/null in raw mode.
 * Host keys (ed25519, ECDSA P-256, RSA) are made once; the client's
 * host key check accepts any key so the signature check is reached.
 *
 * Speed (each input pays for one or two key exchanges, so what they
 * cost decides how many inputs a second are tried):
 *  - the RSA host key has 1024 bits: signing with it runs the same code
 *    as with 2048 at a quarter of the cost;
 *  - diffie-hellman-group16/18 are left out of both roles' lists: they
 *    are group14's code with 4096- and 8192-bit groups, tens of
 *    milliseconds an exchange under the sanitizers;
 *  - group exchange reads a moduli file made at start that holds one
 *    2048-bit group, so a request the file can serve costs what group14
 *    does (one asking for more than 2048 bits at least still gets the
 *    built-in groups, as the server would);
 *  - the sanitizer's quarantine of freed memory is kept at 16 MiB (see
 *    __asan_default_options below): every input maps and frees two
 *    256 KiB read buffers, and recycling a 256 MiB quarantine of them
 *    cost a third of the time. 16 MiB still holds what the last dozen
 *    inputs freed, so a use after free within an input is caught.
 */
#ifndef MOAT_FUZZ_TR_H
#define MOAT_FUZZ_TR_H

#include <sys/socket.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bn.h>

#include "cipher.h"
#include "err.h"
#include "kexalg.h"
#include "key.h"
#include "log.h"
#include "mac.h"
#include "mem.h"
#include "sbuf.h"
#include "transport.h"

#define FZ_NKEYS	3
#define FZ_MAX_ROUNDS	20000

static struct key *fz_priv[FZ_NKEYS], *fz_pub[FZ_NKEYS];
static int fz_devnull = -1;
static char fz_kex_algs[1024];
static char fz_moduli[64];

const char *__asan_default_options(void);

const char *
__asan_default_options(void)
{
	return "quarantine_size_mb=16";
}

static const char *fz_ciphers[] = {
	"chacha20-poly1305@openssh.com", "aes128-ctr", "aes256-ctr",
	"aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes192-ctr",
};
static const char *fz_macs[] = {
	"hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com",
	"hmac-sha1-etm@openssh.com", "hmac-sha2-256", "hmac-sha2-512",
	"hmac-sha1",
};
/* The peer's one compression method (the tested end offers all). */
static const char *fz_comps[] = { "none", "zlib", "zlib@openssh.com" };
/*
 * After login, the tested end's RekeyLimit in bytes (0: the cipher's
 * default), picked by what byte 1 has left over after the three lists.
 */
static const uint64_t fz_rekey_limits[] = { 0, 1024, 32768 };
#define FZ_NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static int
fz_sign(void *arg, const struct key *pub, const char *alg,
    const unsigned char *d, size_t dl, struct sbuf *sig)
{
	int i;

	for (i = 0; i < FZ_NKEYS; i++)
		if (fz_pub[i] == pub)
			return key_sign(fz_priv[i], alg, d, dl, sig);
	return ERR_NOT_FOUND;
}

static int
fz_verify(void *arg, const struct key *k)
{
	/* Look at the key as a caller would, then trust it. */
	char *fp = key_fingerprint(k, KEY_FP_SHA256);

	free(fp);
	return 0;
}

/* Every KEX algorithm but the two with the largest fixed groups. */
static void
fz_kex_list(void)
{
	char *all = x_strdup(kexalg_all_names()), *p, *save = NULL;

	fz_kex_algs[0] = '\0';
	for (p = strtok_r(all, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		if (strcmp(p, "diffie-hellman-group16-sha512") == 0 ||
		    strcmp(p, "diffie-hellman-group18-sha512") == 0)
			continue;
		if (fz_kex_algs[0] != '\0')
			strcat(fz_kex_algs, ",");
		strcat(fz_kex_algs, p);
	}
	x_free(all);
}

static void
fz_rm_moduli(void)
{
	(void)unlink(fz_moduli);
}

/* A moduli file with RFC 3526's 2048-bit group (a safe prime, g 2). */
static void
fz_moduli_file(void)
{
	BIGNUM *p = BN_get_rfc3526_prime_2048(NULL);
	char *hex = p != NULL ? BN_bn2hex(p) : NULL;
	FILE *f;
	int fd;

	snprintf(fz_moduli, sizeof(fz_moduli), "/tmp/moat-fuzz-moduli-XXXXXX");
	if (hex == NULL || (fd = mkstemp(fz_moduli)) == -1 ||
	    (f = fdopen(fd, "w")) == NULL)
		abort();
	fprintf(f, "# fuzz\n20000101000000 2 6 100 2047 2 %s\n", hex);
	fclose(f);
	atexit(fz_rm_moduli);
	OPENSSL_free(hex);
	BN_free(p);
}

static void
fz_init(void)
{
	enum key_type types[FZ_NKEYS] = { KEY_ED25519, KEY_ECDSA, KEY_RSA };
	int i;

	/* Log everything, formatted, into /dev/null: format bugs show. */
	log_init("fuzz", LOG_LEVEL_DEBUG3, 0, 0);
	if (log_to_file("/dev/null") != 0)
		log_init("fuzz", LOG_LEVEL_QUIET, 0, 0);
	if ((fz_devnull = open("/dev/null", O_WRONLY)) == -1)
		abort();
	for (i = 0; i < FZ_NKEYS; i++) {
		if (key_generate(types[i], types[i] == KEY_RSA ? 1024 : 0,
		    &fz_priv[i]) != 0 || key_demote(fz_priv[i], &fz_pub[i]) != 0)
			abort();
	}
	fz_kex_list();
	fz_moduli_file();
}

static void
fz_config(struct tr_config *c, int server)
{
	memset(c, 0, sizeof(*c));
	c->server = server;
	c->kex_algs = fz_kex_algs;
	c->hostkey_algs = key_sigalg_all_names();
	c->ciphers = cipher_all_names();
	c->macs = mac_all_names();
	c->compression = "zlib,zlib@openssh.com,none";
	c->peer_desc = "fuzz port 1";
	if (server) {
		c->hostkeys = fz_pub;
		c->nhostkeys = FZ_NKEYS;
		c->hostkey_sign = fz_sign;
		c->moduli_path = fz_moduli;
	} else
		c->hostkey_verify = fz_verify;
}

/* Hand every complete message up; 0 to go on, an error when fatal. */
static int
fz_drain(struct transport *t)
{
	uint8_t type;
	struct sbuf *m;
	int r;

	for (;;) {
		r = tr_next_message(t, &type, &m);
		if (r == ERR_AGAIN)
			return 0;
		if (r != 0)
			return r;
		/* An upper layer would answer an unknown message so. */
		if (type >= 50 && type < 60 && tr_unimplemented(t) != 0)
			return ERR_CONN_CLOSED;
	}
}

static void
fz_raw(int server, const uint8_t *data, size_t size)
{
	struct tr_config cfg;
	struct transport *t;
	size_t off = 0;
	ssize_t n;
	int sp[2], shut = 0, i, r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0)
		abort();
	(void)fcntl(sp[1], F_SETFL, O_NONBLOCK);
	fz_config(&cfg, server);
	if ((t = tr_new(sp[0], fz_devnull, &cfg)) == NULL)
		abort();
	for (i = 0; i < FZ_MAX_ROUNDS; i++) {
		if (off < size) {
			n = write(sp[1], data + off, size - off);
			if (n > 0)
				off += (size_t)n;
		} else if (!shut) {
			shutdown(sp[1], SHUT_WR);
			shut = 1;
		}
		r = tr_fd_read(t);
		if (r != 0 && r != ERR_AGAIN) {
			(void)fz_drain(t);	/* what was read before EOF */
			break;
		}
		if (fz_drain(t) != 0)
			break;
		(void)tr_fd_write(t);
	}
	(void)tr_fd_write(t);
	tr_free(t);
	close(sp[0]);
	close(sp[1]);
}

/* Pump both ends once; the tested end's fatal error is returned. */
static int
fz_pump(struct transport *t, struct transport *peer, int *peer_ok,
    uint8_t *gotp)
{
	uint8_t type;
	struct sbuf *m;
	int r;

	if (*peer_ok) {
		(void)tr_fd_write(peer);
		r = tr_fd_read(peer);
		if (r != 0 && r != ERR_AGAIN)
			*peer_ok = 0;
		while (*peer_ok && (r = tr_next_message(peer, &type, &m)) == 0)
			;
		if (r != ERR_AGAIN)
			*peer_ok = 0;
		(void)tr_fd_write(peer);
	}
	(void)tr_fd_write(t);
	r = tr_fd_read(t);
	if (r != 0 && r != ERR_AGAIN)
		return r;
	for (;;) {
		r = tr_next_message(t, &type, &m);
		if (r == ERR_AGAIN)
			return 0;
		if (r != 0)
			return r;
		if (gotp != NULL)
			*gotp = type;
	}
}

/*
 * The end of a login (after-login mode): the server of the pair sends
 * USERAUTH_SUCCESS and marks the user authenticated, as auth.c does;
 * the client marks it on receipt, as clientauth.c does.
 */
static void
fz_login(struct transport *t, struct transport *peer, int server)
{
	struct transport *srv = server ? t : peer, *cli = server ? peer : t;
	struct sbuf *m;
	uint8_t type, got = 0;
	int i, r;

	tr_msg_start(srv, SSH2_MSG_USERAUTH_SUCCESS);
	if (tr_msg_send(srv) != 0)
		abort();
	tr_set_authenticated(srv);
	for (i = 0; i < FZ_MAX_ROUNDS && got != SSH2_MSG_USERAUTH_SUCCESS;
	    i++) {
		(void)tr_fd_write(srv);
		r = tr_fd_read(cli);
		if (r != 0 && r != ERR_AGAIN)
			abort();
		while (got != SSH2_MSG_USERAUTH_SUCCESS &&
		    (r = tr_next_message(cli, &type, &m)) == 0)
			got = type;
		if (r != 0 && r != ERR_AGAIN)
			abort();
	}
	if (got != SSH2_MSG_USERAUTH_SUCCESS)
		abort();	/* the two ends must agree */
	tr_set_authenticated(cli);
}

static void
fz_scripted(int server, int login, const uint8_t *data, size_t size)
{
	struct tr_config tc, pc;
	struct transport *t = NULL, *peer = NULL;
	struct sbuf *m;
	uint8_t got = 0;
	size_t len, sel;
	int sp[2], i, peer_ok = 1;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp) != 0)
		abort();
	fz_config(&tc, server);
	fz_config(&pc, !server);
	pc.kex_algs = "curve25519-sha256";
	pc.hostkey_algs = "ssh-ed25519";
	if (size > 0) {
		sel = data[0];
		pc.ciphers = fz_ciphers[sel % FZ_NELEM(fz_ciphers)];
		sel /= FZ_NELEM(fz_ciphers);
		pc.macs = fz_macs[sel % FZ_NELEM(fz_macs)];
		sel /= FZ_NELEM(fz_macs);
		pc.compression = fz_comps[sel % FZ_NELEM(fz_comps)];
		sel /= FZ_NELEM(fz_comps);
		if (login)
			tc.rekey_bytes = fz_rekey_limits[sel %
			    FZ_NELEM(fz_rekey_limits)];
		data++;
		size--;
	}
	t = tr_new(sp[0], sp[0], &tc);
	peer = tr_new(sp[1], sp[1], &pc);
	if (t == NULL || peer == NULL)
		abort();
	/* Held by the peer until its new keys are in use. */
	tr_msg_start(peer, SSH2_MSG_SERVICE_REQUEST);
	if (tr_msg_send(peer) != 0)
		abort();
	for (i = 0; i < FZ_MAX_ROUNDS && got != SSH2_MSG_SERVICE_REQUEST; i++)
		if (fz_pump(t, peer, &peer_ok, &got) != 0 || !peer_ok)
			abort();	/* the two ends must agree */
	if (got != SSH2_MSG_SERVICE_REQUEST)
		abort();
	if (login)
		fz_login(t, peer, server);
	while (size >= 2) {
		len = (size_t)data[0] << 8 | data[1];
		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		if (len == 0)
			continue;
		if (!peer_ok)
			break;
		m = tr_msg_start(peer, data[0]);
		if (sbuf_put(m, data + 1, len - 1) != 0 ||
		    tr_msg_send(peer) != 0)
			break;
		data += len;
		size -= len;
		if (fz_pump(t, peer, &peer_ok, NULL) != 0)
			goto out;
	}
	for (i = 0; i < 8; i++)
		if (fz_pump(t, peer, &peer_ok, NULL) != 0)
			break;
 out:
	tr_free(t);
	tr_free(peer);
	close(sp[0]);
	close(sp[1]);
}

/* Inline: a target that only borrows the set-up need not call it. */
static inline void
fz_transport(int server, const uint8_t *data, size_t size)
{
	if (size > 0 && (data[0] == 0 || data[0] == 1))
		fz_scripted(server, data[0] == 1, data + 1, size - 1);
	else
		fz_raw(server, data, size);
}

#endif
