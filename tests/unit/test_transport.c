/*
 * test_transport.c: two transports, server and client, talking to each
 * other over a socketpair in one process: every KEX method, host key
 * type, cipher and MAC negotiated and used for data, rekeying, strict
 * KEX, and bad input (garbage, corrupted packets) refused cleanly; the
 * blocking waits keep their deadlines (LoginGraceTime) while a peer
 * trickles bytes or messages at them.
 */
#include <sys/socket.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "cipher.h"
#include "kexalg.h"
#include "key.h"
#include "mac.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"
#include "transport.h"
#include "trlocal.h"
#include "trpair.h"
#include "log.h"

static struct key *hostkeys[3], *hostpub[3];
static int verified;

static int
sign_cb(void *arg, const struct key *pub, const char *alg,
    const unsigned char *d, size_t dl, struct sbuf *sig)
{
	int i;

	for (i = 0; i < 3; i++)
		if (hostpub[i] == pub)
			return key_sign(hostkeys[i], alg, d, dl, sig);
	return ERR_NOT_FOUND;
}

static int
verify_cb(void *arg, const struct key *k)
{
	int i;

	for (i = 0; i < 3; i++)
		if (key_equal_public(hostpub[i], k)) {
			verified++;
			return 0;
		}
	return ERR_HOSTKEY_MISMATCH;
}

/*
 * A server's settings with the test's three host keys, curve25519 and
 * aes128-ctr, host key algorithm hk and MAC mac.
 */
static void
server_config(struct tr_config *sc, const char *hk, const char *mac)
{
	memset(sc, 0, sizeof(*sc));
	sc->server = 1;
	sc->kex_algs = "curve25519-sha256";
	sc->hostkey_algs = hk;
	sc->ciphers = "aes128-ctr";
	sc->macs = mac;
	sc->hostkeys = hostpub;
	sc->nhostkeys = 3;
	sc->hostkey_sign = sign_cb;
}

static int
pair_open(struct trl_pair *p, const char *kex, const char *hk,
    const char *cipher, const char *mac, uint64_t rekey_bytes)
{
	struct tr_config sc;

	memset(&sc, 0, sizeof(sc));
	sc.kex_algs = kex;
	sc.hostkey_algs = hk;
	sc.ciphers = cipher;
	sc.macs = mac;
	sc.rekey_bytes = rekey_bytes;
	sc.hostkeys = hostpub;
	sc.nhostkeys = 3;
	sc.hostkey_sign = sign_cb;
	sc.peer_desc = "test port 1";
	return trl_open(p, &sc, NULL, verify_cb);
}

/* Send a message of len bytes from a to b and check it arrives intact. */
static int
roundtrip(struct transport *a, struct transport *b, size_t len, int seed)
{
	struct sbuf *m = tr_msg_start(a, 94), *got;
	unsigned char *p;
	uint8_t type;
	size_t i;
	int r;

	if ((r = sbuf_reserve(m, len, &p)) != 0)
		return r;
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + (size_t)seed);
	if ((r = tr_msg_send(a)) != 0)
		return r;
	if ((r = trl_wait_msg(b, a, &type, &got)) != 0)
		return r;
	if (type != 94 || sbuf_len(got) != len)
		return ERR_INVALID_FORMAT;
	for (i = 0; i < len; i++)
		if (sbuf_ptr(got)[i] != (unsigned char)(i * 7 + (size_t)seed))
			return ERR_INVALID_FORMAT;
	return 0;
}

/* Whether session() marks both ends authenticated; exchanges it saw. */
static int session_authed = 1;
static unsigned int session_kexes;

static int
session(const char *kex, const char *hk, const char *cipher, const char *mac,
    uint64_t rekey_bytes, int nmsgs)
{
	struct trl_pair p;
	int r, i;

	if ((r = pair_open(&p, kex, hk, cipher, mac, rekey_bytes)) != 0)
		goto out;
	if (session_authed) {
		tr_set_authenticated(p.s);
		tr_set_authenticated(p.c);
	}
	for (i = 0; i < nmsgs; i++) {
		if ((r = roundtrip(p.c, p.s, (size_t)(1 + i * 4099 % 65000),
		    i)) != 0 ||
		    (r = roundtrip(p.s, p.c, (size_t)(1 + i * 7919 % 65000),
		    i + 1)) != 0)
			goto out;
	}
	if (strcmp(tr_negotiated(p.s, "kex"), kex) != 0 ||
	    strcmp(tr_negotiated(p.c, "cipher c2s"), cipher) != 0)
		r = ERR_INTERNAL;
	session_kexes = tr_kex_count(p.s);
	if (tr_kex_count(p.c) != session_kexes)
		r = ERR_INTERNAL;
 out:
	if (r != 0)
		fprintf(stderr, "session %s %s %s %s: %s\n", kex, hk, cipher,
		    mac, err_str(r));
	trl_close(&p);
	return r;
}

static void
test_all_algorithms(void)
{
	const char *kexes[] = { "mlkem768x25519-sha256",
	    "mlkem768nistp256-sha256", "sntrup761x25519-sha512",
	    "sntrup761x25519-sha512@openssh.com", "curve25519-sha256",
	    "curve25519-sha256@libssh.org", "ecdh-sha2-nistp256",
	    "ecdh-sha2-nistp384", "ecdh-sha2-nistp521",
	    "diffie-hellman-group14-sha256", "diffie-hellman-group16-sha512",
	    "diffie-hellman-group18-sha512",
	    "diffie-hellman-group-exchange-sha256" };
	const char *hks[] = { "ssh-ed25519", "ecdsa-sha2-nistp256",
	    "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa" };
	const char *ciphers[] = { "chacha20-poly1305@openssh.com",
	    "aes128-ctr", "aes192-ctr", "aes256-ctr",
	    "aes128-gcm@openssh.com", "aes256-gcm@openssh.com" };
	const char *macs[] = { "hmac-sha2-256-etm@openssh.com",
	    "hmac-sha2-512-etm@openssh.com", "hmac-sha1-etm@openssh.com",
	    "hmac-sha2-256", "hmac-sha2-512", "hmac-sha1" };
	size_t i, j;

	for (i = 0; i < sizeof(kexes) / sizeof(kexes[0]); i++)
		CHECK_OK(session(kexes[i], "ssh-ed25519", "aes128-ctr",
		    "hmac-sha2-256-etm@openssh.com", 0, 2));
	for (i = 0; i < sizeof(hks) / sizeof(hks[0]); i++)
		CHECK_OK(session("curve25519-sha256", hks[i],
		    "aes256-gcm@openssh.com", "hmac-sha1", 0, 2));
	for (i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		for (j = 0; j < sizeof(macs) / sizeof(macs[0]); j++)
			CHECK_OK(session("curve25519-sha256", "ssh-ed25519",
			    ciphers[i], macs[j], 0, 3));
	CHECK(verified > 0);
}

/* One message: type and a string (NULL: no string at all). */
static int
send_str(struct transport *t, uint8_t type, const char *data)
{
	struct sbuf *m = tr_msg_start(t, type);

	if (data != NULL && sbuf_put_string(m, data, strlen(data)) != 0)
		return ERR_INTERNAL;
	return tr_msg_send(t);
}

/* The string a message holds is want. */
static int
has_str(struct sbuf *m, const char *want)
{
	const unsigned char *d;
	size_t n;

	return sbuf_get_string_direct(m, &d, &n) == 0 &&
	    n == strlen(want) && memcmp(d, want, n) == 0 && sbuf_len(m) == 0;
}

/*
 * ping@openssh.com: the server answers a PING with a PONG of the same
 * data, in order, once the user is authenticated; before, it is
 * dropped (the server yields no message for either).
 */
static void
test_ping(void)
{
	struct trl_pair p;
	struct sbuf *got;
	uint8_t type;

	CHECK_OK(pair_open(&p, "curve25519-sha256", "ssh-ed25519",
	    "aes128-ctr", "hmac-sha2-256", 0));
	CHECK_OK(send_str(p.c, SSH2_MSG_PING, "early"));
	CHECK_OK(send_str(p.c, 94, "after"));
	CHECK_OK(trl_wait_msg(p.s, p.c, &type, &got));
	CHECK(type == 94 && has_str(got, "after"));
	CHECK_OK(send_str(p.s, 94, "reply"));
	CHECK_OK(trl_wait_msg(p.c, p.s, &type, &got));
	CHECK(type == 94 && has_str(got, "reply"));	/* no PONG first */

	tr_set_authenticated(p.s);
	tr_set_authenticated(p.c);
	CHECK_OK(send_str(p.c, SSH2_MSG_PING, "hello"));
	CHECK_OK(send_str(p.c, SSH2_MSG_PING, ""));
	CHECK_OK(send_str(p.c, 94, "after"));
	CHECK_OK(trl_wait_msg(p.s, p.c, &type, &got));
	CHECK(type == 94 && has_str(got, "after"));
	CHECK_OK(trl_wait_msg(p.c, p.s, &type, &got));
	CHECK(type == SSH2_MSG_PONG && has_str(got, "hello"));
	CHECK_OK(trl_wait_msg(p.c, p.s, &type, &got));
	CHECK(type == SSH2_MSG_PONG && has_str(got, ""));
	/* A PING without its string ends the connection. */
	CHECK_OK(send_str(p.c, SSH2_MSG_PING, NULL));
	CHECK(trl_wait_msg(p.s, p.c, &type, &got) != 0);
	trl_close(&p);
}

/*
 * A PING flood from a peer that reads nothing: the PONGs waiting to go
 * out stop growing at the server's backlog limit (4 MiB), also while a
 * key exchange of the server's holds them back. Once the peer reads,
 * what was queued arrives in order and a PING is answered again.
 */
#define FLOOD_PINGS	160		/* of 64 KiB: 10 MiB each round */
#define FLOOD_MOST	(4u * 1024 * 1024 + 70000)

static size_t
ping_flood(struct trl_pair *p)
{
	struct sbuf *m, *got;
	unsigned char *d;
	size_t most = 0;
	uint8_t type;
	int i, j;

	for (i = 0; i < FLOOD_PINGS; i++) {
		m = tr_msg_start(p->c, SSH2_MSG_PING);
		if (sbuf_put_u32(m, 65536) != 0 ||
		    sbuf_reserve(m, 65536, &d) != 0)
			return SIZE_MAX;
		memset(d, i, 65536);
		if (tr_msg_send(p->c) != 0)
			return SIZE_MAX;
		/* The client writes, the server reads; the server never
		 * writes, as to a peer that does not read. */
		for (j = 0; j < 10000 && tr_want_write(p->c); j++) {
			(void)tr_fd_write(p->c);
			(void)tr_fd_read(p->s);
			if (tr_next_message(p->s, &type, &got) != ERR_AGAIN)
				return SIZE_MAX;
		}
		if (tr_output_pending(p->s) > most)
			most = tr_output_pending(p->s);
	}
	return most;
}

/* The PONGs before the server's message 94; -1 if anything else came. */
static int
count_pongs(struct trl_pair *p)
{
	struct sbuf *got;
	uint8_t type;
	int n = 0;

	if (send_str(p->s, 94, "end") != 0)
		return -1;
	for (;;) {
		if (trl_wait_msg(p->c, p->s, &type, &got) != 0)
			return -1;
		if (type == 94)
			return has_str(got, "end") ? n : -1;
		if (type != SSH2_MSG_PONG)
			return -1;
		n++;
	}
}

static void
test_ping_flood(void)
{
	struct trl_pair p;
	struct sbuf *got;
	uint8_t type;
	size_t most;
	int n;

	CHECK_OK(pair_open(&p, "curve25519-sha256", "ssh-ed25519",
	    "aes128-ctr", "hmac-sha2-256", 0));
	CHECK_OK(send_str(p.c, 94, "start"));
	CHECK_OK(trl_wait_msg(p.s, p.c, &type, &got));
	tr_set_authenticated(p.s);
	tr_set_authenticated(p.c);

	most = ping_flood(&p);
	CHECK(most > 1024 * 1024 && most <= FLOOD_MOST);
	n = count_pongs(&p);
	CHECK(n > 10 && n < FLOOD_PINGS);

	/* The server's key exchange holds PONGs: bounded the same way. */
	CHECK_OK(tr_rekey(p.s));
	most = ping_flood(&p);
	CHECK(most > 1024 * 1024 && most <= FLOOD_MOST);
	n = count_pongs(&p);
	CHECK(n > 10 && n < FLOOD_PINGS);
	CHECK(tr_kex_count(p.s) == 2);

	CHECK_OK(send_str(p.c, SSH2_MSG_PING, "again"));
	CHECK_OK(trl_wait_msg(p.c, p.s, &type, &got));
	CHECK(type == SSH2_MSG_PONG && has_str(got, "again"));
	trl_close(&p);
}

static void
test_rekey(void)
{
	/* A 64 KiB rekey limit forces many exchanges under traffic. */
	CHECK_OK(session("curve25519-sha256", "ssh-ed25519",
	    "chacha20-poly1305@openssh.com", "hmac-sha2-256", 65536, 40));
	CHECK(session_kexes > 10);
	CHECK_OK(session("ecdh-sha2-nistp256", "ecdsa-sha2-nistp256",
	    "aes128-ctr", "hmac-sha2-512", 65536, 40));
	CHECK(session_kexes > 10);
	/*
	 * Before authentication neither end starts one, however much is
	 * sent: OpenSSH's client cannot take a KEXINIT during userauth.
	 */
	session_authed = 0;
	CHECK_OK(session("curve25519-sha256", "ssh-ed25519",
	    "aes128-gcm@openssh.com", "hmac-sha2-256", 65536, 40));
	CHECK(session_kexes == 1);
	session_authed = 1;
}

static void
test_no_common_algorithm(void)
{
	struct trl_pair p;
	struct tr_config sc, cc;
	uint8_t type;
	struct sbuf *m;
	int r;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, p.fd) == 0);
	server_config(&sc, "ssh-ed25519", "hmac-sha1");
	cc = sc;
	cc.server = 0;
	cc.ciphers = "aes256-ctr";
	p.s = tr_new(p.fd[0], p.fd[0], &sc);
	p.c = tr_new(p.fd[1], p.fd[1], &cc);
	r = trl_wait_msg(p.s, p.c, &type, &m);
	CHECK(r == ERR_NO_CIPHER_MATCH || r == ERR_CONN_CLOSED ||
	    r == ERR_DISCONNECTED);
	trl_close(&p);
}

/* What hostkey_seen was shown, and what it answers. */
static struct sbuf *seen_blob;
static char *seen_alg;
static int seen_answer;

static int
seen_cb(void *arg, const char *alg, const unsigned char *blob, size_t len)
{
	sbuf_free(seen_blob);
	x_free(seen_alg);
	seen_blob = sbuf_new();
	if (sbuf_put(seen_blob, blob, len) != 0)
		return ERR_ALLOC;
	seen_alg = x_strdup(alg);
	return seen_answer;
}

/*
 * hostkey_seen: shown the very blob the server sent, before the host key
 * verification; accepting lets the exchange finish, refusing ends it
 * with hostkey_verify never asked.
 */
static void
test_hostkey_seen(void)
{
	struct tr_config sc, cc;
	struct sbuf *want = sbuf_new(), *m;
	struct trl_pair p;
	uint8_t type;
	int r, before, refuse;

	CHECK_OK(key_to_blob(hostpub[2], want));
	for (refuse = 0; refuse <= 1; refuse++) {
		seen_answer = refuse ? ERR_PERMISSION_DENIED : 0;
		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, p.fd) == 0);
		server_config(&sc, "rsa-sha2-512", "hmac-sha2-256");
		cc = sc;
		cc.server = 0;
		cc.hostkey_verify = verify_cb;
		cc.hostkey_seen = seen_cb;
		p.s = tr_new(p.fd[0], p.fd[0], &sc);
		p.c = tr_new(p.fd[1], p.fd[1], &cc);
		before = verified;
		if (!refuse) {
			CHECK_OK(roundtrip(p.c, p.s, 10, 1));
			CHECK(verified == before + 1);
		} else {
			log_set_level(LOG_LEVEL_QUIET);
			r = trl_wait_msg(p.s, p.c, &type, &m);
			log_set_level(LOG_LEVEL_INFO);
			CHECK(r == ERR_PERMISSION_DENIED);
			CHECK(verified == before);
		}
		CHECK(seen_blob != NULL && sbuf_equal(seen_blob, want));
		CHECK_STR(seen_alg, "rsa-sha2-512");
		trl_close(&p);
	}
	sbuf_free(seen_blob);
	x_free(seen_alg);
	sbuf_free(want);
}

/* Bad input: each case ends in a clean error, never a crash. */
static void
test_bad_input(void)
{
	static const char *cases[] = {
		"GET / HTTP/1.0\r\n\r\n",		/* not a banner */
		"SSH-1.5-old\r\n",			/* protocol 1 */
		"SSH-2.0-x\r\n\0\0\0\xff\x05",		/* bad length */
		"SSH-2.0-x\r\n\xff\xff\xff\xff\x05\x14",	/* huge length */
		"SSH-2.0-x\r\n\0\0\0\x0c\x04\x32" "abcdefghij", /* early msg */
	};
	static const size_t lens[] = { 18, 13, 17, 17, 27 };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tr_config sc;
		struct transport *s;
		uint8_t type;
		struct sbuf *m;
		int fd[2], r;

		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fd) == 0);
		server_config(&sc, "ssh-ed25519", "hmac-sha1");
		s = tr_new(fd[0], fd[0], &sc);
		CHECK(write(fd[1], cases[i], lens[i]) == (ssize_t)lens[i]);
		shutdown(fd[1], SHUT_WR);
		r = tr_wait_message(s, &type, &m, 2000);
		CHECK(r != 0 && r != ERR_CONN_TIMEOUT);
		tr_free(s);
		close(fd[0]);
		close(fd[1]);
	}
}

/* A corrupted encrypted packet is caught by the MAC/tag. */
static void
test_corrupt_packet(void)
{
	const char *ciphers[] = { "aes128-ctr", "aes128-gcm@openssh.com",
	    "chacha20-poly1305@openssh.com" };
	const char *macs[] = { "hmac-sha2-256-etm@openssh.com",
	    "hmac-sha2-256", "hmac-sha1" };
	size_t i, j;

	for (i = 0; i < 3; i++) for (j = 0; j < 2; j++) {
		struct trl_pair p;
		struct sbuf *m;
		uint8_t type;
		unsigned char buf[65536];
		ssize_t n;
		int r;

		CHECK_OK(pair_open(&p, "curve25519-sha256", "ssh-ed25519",
		    ciphers[i], macs[j], 0));
		CHECK_OK(roundtrip(p.c, p.s, 100, 1));
		/* Compose a message on the client, flip a bit on the wire. */
		m = tr_msg_start(p.c, 94);
		sbuf_put(m, "0123456789abcdef0123456789", 26);
		CHECK_OK(tr_msg_send(p.c));
		CHECK_OK(tr_flush(p.c));
		usleep(1000);
		n = read(p.fd[0], buf, sizeof(buf));
		CHECK(n > 20);
		if (n > 20) {
			buf[n - 20] ^= 0x01;
			CHECK(write(p.fd[1], buf, (size_t)n) == n);
		}
		r = tr_wait_message(p.s, &type, &m, 2000);
		CHECK(r == ERR_MAC_INVALID);
		trl_close(&p);
	}
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A server end on a socketpair, no peer transport (raw bytes at fd[1]). */
static struct transport *
lone_server(int fd[2])
{
	struct tr_config sc;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd) != 0)
		return NULL;
	server_config(&sc, "ssh-ed25519", "hmac-sha1");
	return tr_new(fd[0], fd[0], &sc);
}

/*
 * A peer that sends its banner a byte every 100 ms does not stretch
 * tr_wait_message()'s timeout: it ends 500 ms after the call, not 500 ms
 * after the last byte.
 */
static void
test_wait_timeout_absolute(void)
{
	static const char banner[] = "SSH-2.0-trickle_xxxxxxxxxxxxxxxxxxxx\r\n";
	struct transport *s;
	struct sbuf *m;
	uint8_t type;
	uint64_t t0, took;
	pid_t pid;
	int fd[2], r, st;
	size_t i;

	CHECK((s = lone_server(fd)) != NULL);
	if (s == NULL)
		return;
	if ((pid = fork()) == 0) {
		close(fd[0]);
		for (i = 0; i + 1 < sizeof(banner); i++) {
			if (write(fd[1], banner + i, 1) != 1)
				break;
			usleep(100000);
		}
		_exit(0);
	}
	close(fd[1]);
	t0 = now_ms();
	r = tr_wait_message(s, &type, &m, 500);
	took = now_ms() - t0;
	CHECK_ERR(r, ERR_CONN_TIMEOUT);
	CHECK(took >= 450 && took < 1500);
	if (took >= 1500)
		fprintf(stderr, "wait with a 500 ms timeout took %llu ms\n",
		    (unsigned long long)took);
	tr_free(s);
	close(fd[0]);
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
}

/*
 * The client end in a child: finish the key exchange, then for up to 6 s
 * an IGNORE and an upper-layer message (60) every 100 ms, until the
 * server end goes away.
 */
static int
trickle_messages(struct transport *t, void *arg)
{
	struct sbuf *m;
	uint8_t type;
	int i, r;

	for (i = 0; i < 100 && tr_kex_count(t) == 0; i++) {
		r = tr_wait_message(t, &type, &m, 100);
		if (r != 0 && r != ERR_CONN_TIMEOUT)
			return 1;
	}
	if (tr_kex_count(t) == 0)
		return 2;
	for (i = 0; i < 60; i++) {
		m = tr_msg_start(t, i % 2 ? SSH2_MSG_IGNORE : 60);
		if (sbuf_put_cstring(m, "trickle") != 0)
			return 3;
		if (tr_msg_send(t) != 0 || tr_flush(t) != 0)
			break;		/* the server end is gone */
		usleep(100000);
	}
	return 0;
}

/*
 * tr_set_deadline() holds across calls, whatever arrives after the key
 * exchange: IGNOREs (handled inside) and messages handed up alike.
 * Cleared, waits go on as before.
 */
static void
test_deadline(void)
{
	struct trp_host h = { hostkeys[0], hostpub[0], NULL, NULL };
	struct trp_peer p;
	struct sbuf *m;
	uint8_t type;
	uint64_t t0, took;
	int r, n = 0;

	CHECK_OK(trp_start(&p, &h, 0, trickle_messages, NULL));
	if (p.t == NULL)
		return;
	tr_set_deadline(p.t, 2000);
	t0 = now_ms();
	while ((r = tr_wait_message(p.t, &type, &m, -1)) == 0)
		n++;
	took = now_ms() - t0;
	CHECK_ERR(r, ERR_CONN_TIMEOUT);
	CHECK(tr_kex_count(p.t) == 1);
	CHECK(n > 3);
	CHECK(took >= 1950 && took < 3000);
	if (took >= 3000)
		fprintf(stderr, "a 2 s deadline took %llu ms\n",
		    (unsigned long long)took);
	tr_set_deadline(p.t, 0);
	r = tr_wait_message(p.t, &type, &m, 2000);
	CHECK_OK(r);
	CHECK(r != 0 || type == 60);
	CHECK(trp_finish(&p) == 0);
}

/* tr_flush() to a peer that never reads ends at the deadline. */
static void
test_flush_deadline(void)
{
	struct transport *s;
	struct sbuf *m;
	unsigned char *d;
	uint64_t t0, took;
	int fd[2], i;

	CHECK((s = lone_server(fd)) != NULL);
	if (s == NULL)
		return;
	for (i = 0; i < 16; i++) {
		m = tr_msg_start(s, SSH2_MSG_IGNORE);
		CHECK_OK(sbuf_put_u32(m, 100000));
		CHECK_OK(sbuf_reserve(m, 100000, &d));
		memset(d, 'x', 100000);
		CHECK_OK(tr_msg_send(s));
	}
	tr_set_deadline(s, 300);
	t0 = now_ms();
	CHECK_ERR(tr_flush(s), ERR_CONN_TIMEOUT);
	took = now_ms() - t0;
	CHECK(took >= 250 && took < 1500);
	tr_free(s);
	close(fd[0]);
	close(fd[1]);
}

/*
 * Hand the server end to a fresh transport (tr_export/tr_import) with
 * n messages from the client read but not yet handled, and go on: the
 * held messages, traffic both ways, a key exchange, more traffic.
 */
static int
handover(const char *cipher, const char *mac, int held, struct sbuf **blobp)
{
	struct trl_pair p;
	struct sbuf *blob = sbuf_new(), *m;
	const unsigned char *sid;
	unsigned char sid1[64];
	size_t sidlen, sidlen1;
	uint8_t type;
	int r, i, got = 0;

	if ((r = pair_open(&p, "curve25519-sha256", "ecdsa-sha2-nistp256",
	    cipher, mac, 0)) != 0)
		goto out;
	tr_set_authenticated(p.s);
	tr_set_authenticated(p.c);
	for (i = 0; i < 3; i++)
		if ((r = roundtrip(p.c, p.s, (size_t)(100 + i * 300), i)) != 0 ||
		    (r = roundtrip(p.s, p.c, (size_t)(50 + i * 200), i)) != 0)
			goto out;
	/*
	 * With held: the client sends held messages, the last one large,
	 * through a small socket buffer; the server takes what has come
	 * (the large one only in part, its first block decrypted for a
	 * classic cipher) and is handed over in the middle of it.
	 * Without: the server hands over with a reply not yet written.
	 */
	if (held > 0) {
		int sndbuf = 8192;

		(void)setsockopt(p.fd[1], SOL_SOCKET, SO_SNDBUF, &sndbuf,
		    sizeof(sndbuf));
		for (i = 0; i < held; i++) {
			unsigned char *q;

			m = tr_msg_start(p.c, 94);
			if ((r = sbuf_put_u32(m, (uint32_t)i)) != 0 ||
			    (i == held - 1 &&
			    (r = sbuf_reserve(m, 30000, &q)) != 0))
				goto out;
			if (i == held - 1)
				memset(q, 0x33, 30000);
			if ((r = tr_msg_send(p.c)) != 0)
				goto out;
		}
		(void)tr_fd_write(p.c);
		(void)tr_fd_read(p.s);
		while ((r = tr_next_message(p.s, &type, &m)) == 0)
			got++;
		if (r != ERR_AGAIN || got == 0 || got >= held) {
			r = ERR_INTERNAL;
			goto out;
		}
	} else {
		m = tr_msg_start(p.s, 94);
		if ((r = sbuf_put_u32(m, 77)) != 0 ||
		    (r = tr_msg_send(p.s)) != 0)
			goto out;
	}
	sid = tr_session_id(p.s, &sidlen1);
	memcpy(sid1, sid, sidlen1);
	if ((r = tr_export(p.s, blob)) != 0)
		goto out;
	tr_free(p.s);
	if ((p.s = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(blob),
	    sbuf_len(blob))) == NULL) {
		r = ERR_INVALID_FORMAT;
		goto out;
	}
	sid = tr_session_id(p.s, &sidlen);
	if (sidlen != sidlen1 || memcmp(sid, sid1, sidlen) != 0 ||
	    strcmp(tr_negotiated(p.s, "cipher c2s"), cipher) != 0 ||
	    tr_kex_count(p.s) != 1) {
		r = ERR_INTERNAL;
		goto out;
	}
	/* The rest of the held messages, the large one completed. */
	for (i = got; i < held; i++) {
		uint32_t v;

		if ((r = trl_wait_msg(p.s, p.c, &type, &m)) != 0 ||
		    (r = sbuf_get_u32(m, &v)) != 0)
			goto out;
		if (type != 94 || v != (uint32_t)i || sbuf_len(m) !=
		    (i == held - 1 ? 30000u : 0u)) {
			r = ERR_INVALID_FORMAT;
			goto out;
		}
	}
	if (held == 0 && (r = trl_wait_msg(p.c, p.s, &type, &m)) != 0)
		goto out;
	for (i = 0; i < 3; i++)
		if ((r = roundtrip(p.c, p.s, (size_t)(1 + i * 5000), i)) != 0 ||
		    (r = roundtrip(p.s, p.c, (size_t)(7 + i * 3000), i)) != 0)
			goto out;
	if ((r = tr_rekey(p.s)) != 0)
		goto out;
	for (i = 0; i < 3; i++)
		if ((r = roundtrip(p.c, p.s, 1000, i)) != 0 ||
		    (r = roundtrip(p.s, p.c, 1000, i)) != 0)
			goto out;
	if (tr_kex_count(p.s) != 2 || tr_kex_count(p.c) != 2)
		r = ERR_INTERNAL;
 out:
	if (r != 0)
		fprintf(stderr, "handover %s %s held %d: %s\n", cipher, mac,
		    held, err_str(r));
	trl_close(&p);
	if (blobp != NULL && r == 0)
		*blobp = blob;
	else
		sbuf_free(blob);
	return r;
}

static void
test_export_import(void)
{
	const char *ciphers[] = { "aes128-ctr", "aes256-cbc",
	    "aes128-gcm@openssh.com", "chacha20-poly1305@openssh.com" };
	const char *macs[] = { "hmac-sha2-256", "umac-128-etm@openssh.com" };
	struct sbuf *blob = NULL, *bad;
	struct transport *t;
	struct trl_pair p;
	size_t i, j;
	int held;

	for (i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		for (j = 0; j < sizeof(macs) / sizeof(macs[0]); j++)
			for (held = 0; held <= 3; held += 3)
				CHECK_OK(handover(ciphers[i], macs[j], held,
				    NULL));
	/* Hostile blobs: every truncation, a trailing byte, a flipped
	 * byte in each name, the client's role. */
	CHECK_OK(handover("aes128-ctr", "hmac-sha2-256", 3, &blob));
	if (blob == NULL)
		return;
	CHECK_OK(pair_open(&p, "curve25519-sha256", "ssh-ed25519",
	    "aes128-ctr", "hmac-sha2-256", 0));
	log_set_level(LOG_LEVEL_QUIET);
	for (i = 0; i < sbuf_len(blob); i++) {
		t = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(blob), i);
		CHECK(t == NULL);
		tr_free(t);
	}
	bad = sbuf_new();
	CHECK_OK(sbuf_putb(bad, blob));
	CHECK_OK(sbuf_put_u8(bad, 0));
	t = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(bad), sbuf_len(bad));
	CHECK(t == NULL);
	tr_free(t);
	for (i = 0; i < sbuf_len(blob); i++) {
		const char *names[] = { "aes128-ctr", "hmac-sha2-256",
		    "curve25519-sha256", "moat-transport" };
		unsigned char *q;

		for (j = 0; j < 4; j++)
			if (i + strlen(names[j]) <= sbuf_len(blob) &&
			    memcmp(sbuf_ptr(blob) + i, names[j],
			    strlen(names[j])) == 0)
				break;
		if (j == 4)
			continue;
		sbuf_reset(bad);
		CHECK_OK(sbuf_putb(bad, blob));
		q = sbuf_mutable_ptr(bad);
		q[i + 3] ^= 0x01;
		t = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(bad),
		    sbuf_len(bad));
		CHECK(t == NULL);
		tr_free(t);
	}
	p.sc.server = 0;
	t = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(blob), sbuf_len(blob));
	CHECK(t == NULL);
	tr_free(t);
	p.sc.server = 1;
	t = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(blob), sbuf_len(blob));
	CHECK(t != NULL);
	tr_free(t);
	log_set_level(LOG_LEVEL_INFO);
	/* Not before the first exchange. */
	sbuf_reset(bad);
	CHECK_ERR(tr_export(p.s, bad), ERR_INVALID_ARGUMENT);
	sbuf_free(bad);
	sbuf_free(blob);
	trl_close(&p);
}

int
main(void)
{
	int i;
	enum key_type types[3] = { KEY_ED25519, KEY_ECDSA, KEY_RSA };

	if (getenv("TEST_DEBUG") != NULL)
		log_init("test_transport", LOG_LEVEL_DEBUG1, 0, 1);
	signal(SIGPIPE, SIG_IGN);
	alarm(120);	/* a wait that ignores its deadline fails, not hangs */

	for (i = 0; i < 3; i++) {
		CHECK_OK(key_generate(types[i], types[i] == KEY_RSA ? 2048 : 0,
		    &hostkeys[i]));
		CHECK_OK(key_demote(hostkeys[i], &hostpub[i]));
	}
	test_all_algorithms();
	test_rekey();
	test_ping();
	test_ping_flood();
	test_no_common_algorithm();
	test_hostkey_seen();
	test_bad_input();
	test_corrupt_packet();
	test_wait_timeout_absolute();
	test_deadline();
	test_flush_deadline();
	test_export_import();
	for (i = 0; i < 3; i++) {
		key_free(hostkeys[i]);
		key_free(hostpub[i]);
	}
	return TEST_DONE();
}
