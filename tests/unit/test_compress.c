/*
 * test_compress.c: transport compression. The deflate/inflate streams
 * on their own (round trips, the bound on inflated size, bad data), then
 * two transports over a socketpair in one process: negotiation of none,
 * zlib and zlib@openssh.com as ssh and sshd offer them; zlib from the
 * first NEWKEYS on and zlib@openssh.com only once USERAUTH_SUCCESS has
 * gone by (seen in the bytes on the wire); data intact across rekeys,
 * which restart the streams; the hand-over of a server's state after
 * USERAUTH_SUCCESS; and a crafted packet that inflates past the packet
 * limit, which ends the connection instead of growing a buffer.
 */
#include <sys/socket.h>

#include <signal.h>
#include <unistd.h>

#include "compress.h"
#include "key.h"
#include "log.h"
#include "mem.h"
#include "sbuf.h"
#include "testlib.h"
#include "transport.h"
#include "trlocal.h"
#include "transport_int.h"	/* to play a hostile peer (bomb()) */

static struct key *hostkey, *hostpub;

static int
sign_cb(void *arg, const struct key *pub, const char *alg,
    const unsigned char *d, size_t dl, struct sbuf *sig)
{
	return key_sign(hostkey, alg, d, dl, sig);
}

static int
verify_cb(void *arg, const struct key *k)
{
	return key_equal_public(hostpub, k) ? 0 : ERR_HOSTKEY_MISMATCH;
}

static int
pair_open(struct trl_pair *p, const char *scomp, const char *ccomp,
    uint64_t rekey_bytes)
{
	struct tr_config sc;

	memset(&sc, 0, sizeof(sc));
	sc.kex_algs = "curve25519-sha256";
	sc.hostkey_algs = "ssh-ed25519";
	sc.ciphers = "aes128-ctr";
	sc.macs = "hmac-sha2-256-etm@openssh.com";
	sc.compression = scomp;
	sc.rekey_bytes = rekey_bytes;
	sc.hostkeys = &hostpub;
	sc.nhostkeys = 1;
	sc.hostkey_sign = sign_cb;
	sc.peer_desc = "test port 1";
	return trl_open(p, &sc, ccomp, verify_cb);
}

/* Byte i of a test message: text-like (kind 0) or noise (kind 1). */
static unsigned char
fill(size_t i, unsigned int seed, int kind)
{
	uint32_t x;

	if (kind == 0)
		return (unsigned char)"moat compresses this line\n"[(i + seed) % 26];
	x = (uint32_t)(i * 2654435761u) ^ (seed * 40503u);
	x ^= x >> 13;
	x *= 0x5bd1e995u;
	return (unsigned char)(x ^ (x >> 15));
}

/*
 * Send len bytes from a to b as CHANNEL_DATA; check they arrive intact.
 * *wirep, when not NULL: the bytes the packet took on the wire.
 */
static int
roundtrip(struct transport *a, struct transport *b, size_t len,
    unsigned int seed, int kind, size_t *wirep)
{
	struct sbuf *m, *got;
	unsigned char *p;
	uint8_t type;
	size_t i, before;
	int r;

	if ((r = tr_flush(a)) != 0)
		return r;
	before = tr_output_pending(a);
	m = tr_msg_start(a, SSH2_MSG_CHANNEL_DATA);
	if ((r = sbuf_reserve(m, len, &p)) != 0)
		return r;
	for (i = 0; i < len; i++)
		p[i] = fill(i, seed, kind);
	if ((r = tr_msg_send(a)) != 0)
		return r;
	if (wirep != NULL)
		*wirep = tr_output_pending(a) - before;
	if ((r = trl_wait_msg(b, a, &type, &got)) != 0)
		return r;
	if (type != SSH2_MSG_CHANNEL_DATA || sbuf_len(got) != len)
		return ERR_INVALID_FORMAT;
	for (i = 0; i < len; i++)
		if (sbuf_ptr(got)[i] != fill(i, seed, kind))
			return ERR_INVALID_FORMAT;
	return 0;
}

/* Complete the first exchange (a SERVICE_REQUEST rides behind it). */
static int
pair_kex(struct trl_pair *p)
{
	struct sbuf *got;
	uint8_t type;
	int r;

	tr_msg_start(p->c, SSH2_MSG_SERVICE_REQUEST);
	if ((r = tr_msg_send(p->c)) != 0 ||
	    (r = trl_wait_msg(p->s, p->c, &type, &got)) != 0)
		return r;
	return type == SSH2_MSG_SERVICE_REQUEST ? 0 : ERR_PROTOCOL;
}

/* The server says USERAUTH_SUCCESS and both ends mark it. */
static int
pair_auth(struct trl_pair *p)
{
	struct sbuf *got;
	uint8_t type;
	int r;

	tr_msg_start(p->s, SSH2_MSG_USERAUTH_SUCCESS);
	if ((r = tr_msg_send(p->s)) != 0)
		return r;
	tr_set_authenticated(p->s);
	if ((r = trl_wait_msg(p->c, p->s, &type, &got)) != 0)
		return r;
	tr_set_authenticated(p->c);
	return type == SSH2_MSG_USERAUTH_SUCCESS ? 0 : ERR_PROTOCOL;
}

static void
test_streams(void)
{
	struct comp_ctx *d = NULL, *in = NULL;
	unsigned char *buf = x_malloc(1024 * 1024), *out;
	const unsigned char *got;
	size_t i, n, olen, glen, sizes[] = { 1, 2, 100, 5000, 32768, 70000 };
	int ok = 1;

	CHECK(comp_by_name("zlib") != NULL && comp_by_name("zlib")->zlib &&
	    !comp_by_name("zlib")->delayed);
	CHECK(comp_by_name("zlib@openssh.com") != NULL &&
	    comp_by_name("zlib@openssh.com")->delayed);
	CHECK(comp_by_name("none") != NULL && !comp_by_name("none")->zlib);
	CHECK(comp_by_name("zlib@example.com") == NULL);
	CHECK_STR(comp_all_names(), "none,zlib@openssh.com");

	/* Packet after packet through one pair of streams. */
	CHECK_OK(comp_new(&d, 1));
	CHECK_OK(comp_new(&in, 0));
	for (n = 0; n < 3 * sizeof(sizes) / sizeof(sizes[0]); n++) {
		size_t len = sizes[n % 6];

		for (i = 0; i < len; i++)
			buf[i] = fill(i, (unsigned int)n, (int)(n / 6) % 2);
		if (comp_deflate(d, buf, len, 5, 256, &out, &olen) != 0 ||
		    comp_inflate(in, out + 5, olen, 256 * 1024, &got,
		    &glen) != 0 || glen != len || memcmp(got, buf, len) != 0)
			ok = 0;
	}
	CHECK(ok);
	CHECK(comp_used(d) && comp_used(in));

	/*
	 * A bomb: 1 MiB of zeros is about a kilobyte deflated. Refused at
	 * the cap; and a packet just under the cap still passes.
	 */
	memset(buf, 0, 1024 * 1024);
	CHECK_OK(comp_deflate(d, buf, 200 * 1024, 0, 0, &out, &olen));
	CHECK_OK(comp_inflate(in, out, olen, 256 * 1024, &got, &glen));
	CHECK(glen == 200 * 1024);
	CHECK_OK(comp_deflate(d, buf, 1024 * 1024, 0, 0, &out, &olen));
	CHECK(olen < 4096);
	CHECK_ERR(comp_inflate(in, out, olen, 256 * 1024, &got, &glen),
	    ERR_PACKET_TOO_LARGE);
	comp_free(in);
	comp_free(d);

	/* Garbage, and a stream that ends (Z_FINISH): not ours to take. */
	CHECK_OK(comp_new(&in, 0));
	memset(buf, 0xa5, 64);
	CHECK_ERR(comp_inflate(in, buf, 64, 256 * 1024, &got, &glen),
	    ERR_INVALID_FORMAT);
	comp_free(in);
	CHECK_OK(comp_new(&in, 0));
	{
		/* "hi", a complete zlib stream with its final block. */
		static const unsigned char fin[] = { 0x78, 0x9c, 0xcb, 0xc8,
		    0x04, 0x00, 0x01, 0x3b, 0x00, 0xd2 };

		CHECK_ERR(comp_inflate(in, fin, sizeof(fin), 256 * 1024, &got,
		    &glen), ERR_INVALID_FORMAT);
	}
	comp_free(in);
	CHECK_OK(comp_new(&d, 1));
	CHECK_ERR(comp_inflate(d, buf, 1, 10, &got, &glen),
	    ERR_INVALID_ARGUMENT);
	comp_free(d);
	x_free(buf);
}

/* What each side offers, as ssh and sshd do, and what comes of it. */
static void
test_negotiation(void)
{
	static const struct {
		const char *s, *c, *want;
	} cases[] = {
		{ COMP_SERVER_YES, COMP_CLIENT_YES, "zlib@openssh.com" },
		{ COMP_SERVER_YES, COMP_CLIENT_NO, "none" },
		{ COMP_SERVER_NO, COMP_CLIENT_YES, "none" },
		{ NULL, COMP_CLIENT_YES, "none" },
		{ "zlib,none", "zlib@openssh.com,zlib,none", "zlib" },
		{ "zlib", "none,zlib", "zlib" },
	};
	struct trl_pair p;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_OK(pair_open(&p, cases[i].s, cases[i].c, 0));
		CHECK_OK(pair_kex(&p));
		CHECK_STR(tr_negotiated(p.c, "comp c2s"), cases[i].want);
		CHECK_STR(tr_negotiated(p.s, "comp s2c"), cases[i].want);
		CHECK_OK(roundtrip(p.c, p.s, 3000, (unsigned int)i, 0, NULL));
		trl_close(&p);
	}
	/*
	 * Nothing in common (a server of plain zlib only, and ssh -C, as
	 * OpenSSH 10.5's): the exchange fails, as for a cipher.
	 */
	CHECK_OK(pair_open(&p, "zlib", COMP_CLIENT_YES, 0));
	tr_msg_start(p.c, SSH2_MSG_SERVICE_REQUEST);
	CHECK_OK(tr_msg_send(p.c));
	{
		struct sbuf *got;
		uint8_t type;

		CHECK_ERR(trl_wait_msg(p.s, p.c, &type, &got),
		    ERR_NO_COMPRESS_MATCH);
	}
	trl_close(&p);
}

/* zlib: compressed from the first NEWKEYS, intact across rekeys. */
static void
test_zlib(void)
{
	struct trl_pair p;
	size_t wire = 0;
	unsigned int i, kex;
	int ok = 1;

	CHECK_OK(pair_open(&p, "zlib", "zlib", 16 * 1024));
	CHECK_OK(pair_kex(&p));
	CHECK_OK(roundtrip(p.c, p.s, 30000, 1, 0, &wire));
	CHECK(wire > 0 && wire < 1000);
	CHECK_OK(roundtrip(p.s, p.c, 30000, 2, 0, &wire));
	CHECK(wire > 0 && wire < 1000);
	CHECK_OK(pair_auth(&p));
	kex = tr_kex_count(p.c);
	/* Noise carries each 16 KiB key past its limit: many exchanges. */
	for (i = 0; i < 40; i++) {
		if (roundtrip(i % 2 ? p.s : p.c, i % 2 ? p.c : p.s,
		    20000 + i * 331, i, (int)(i % 3 != 0), NULL) != 0)
			ok = 0;
	}
	CHECK(ok);
	CHECK(tr_kex_count(p.c) > kex + 10);
	/* Still compressing after them. */
	CHECK_OK(roundtrip(p.c, p.s, 30000, 3, 0, &wire));
	CHECK(wire > 0 && wire < 1000);
	trl_close(&p);
}

/* zlib@openssh.com: plain until USERAUTH_SUCCESS, compressed after. */
static void
test_delayed(void)
{
	struct trl_pair p;
	size_t wire = 0;
	unsigned int i;
	int ok = 1;

	CHECK_OK(pair_open(&p, COMP_SERVER_YES, COMP_CLIENT_YES, 0));
	CHECK_OK(pair_kex(&p));
	CHECK_STR(tr_negotiated(p.s, "comp c2s"), "zlib@openssh.com");
	CHECK_OK(roundtrip(p.c, p.s, 30000, 1, 0, &wire));
	CHECK(wire > 30000);
	CHECK_OK(roundtrip(p.s, p.c, 30000, 2, 0, &wire));
	CHECK(wire > 30000);
	/* A rekey before authentication does not start it either. */
	CHECK_OK(tr_rekey(p.c));
	CHECK_OK(roundtrip(p.c, p.s, 30000, 3, 0, &wire));
	CHECK(wire > 30000 && tr_kex_count(p.c) == 2);
	CHECK_OK(pair_auth(&p));
	CHECK_OK(roundtrip(p.c, p.s, 30000, 4, 0, &wire));
	CHECK(wire > 0 && wire < 1000);
	CHECK_OK(roundtrip(p.s, p.c, 30000, 5, 0, &wire));
	CHECK(wire > 0 && wire < 1000);
	/* A rekey after it: fresh streams at once, and data intact. */
	CHECK_OK(tr_rekey(p.s));
	for (i = 0; i < 10; i++)
		if (roundtrip(i % 2 ? p.s : p.c, i % 2 ? p.c : p.s,
		    30000, i, (int)(i % 2), NULL) != 0)
			ok = 0;
	CHECK(ok && tr_kex_count(p.c) == 3);
	CHECK_OK(roundtrip(p.s, p.c, 30000, 6, 0, &wire));
	CHECK(wire > 0 && wire < 1000);
	trl_close(&p);
}

/*
 * sshd hands the connection to the user's process right after
 * USERAUTH_SUCCESS: the delayed streams start afresh there. Once a
 * stream has carried data, its state cannot be handed on.
 */
static void
test_handover(void)
{
	struct trl_pair p;
	struct sbuf *blob = sbuf_new();
	struct transport *t2;
	size_t wire = 0;

	CHECK_OK(pair_open(&p, COMP_SERVER_YES, COMP_CLIENT_YES, 0));
	CHECK_OK(pair_kex(&p));
	tr_msg_start(p.s, SSH2_MSG_USERAUTH_SUCCESS);
	CHECK_OK(tr_msg_send(p.s));
	tr_set_authenticated(p.s);
	CHECK_OK(tr_export(p.s, blob));
	t2 = tr_import(p.fd[0], p.fd[0], &p.sc, sbuf_ptr(blob), sbuf_len(blob));
	CHECK(t2 != NULL);
	if (t2 != NULL) {
		struct sbuf *got;
		uint8_t type;

		tr_free(p.s);
		p.s = t2;
		CHECK_OK(trl_wait_msg(p.c, p.s, &type, &got));
		CHECK(type == SSH2_MSG_USERAUTH_SUCCESS);
		tr_set_authenticated(p.c);
		CHECK_STR(tr_negotiated(p.s, "comp s2c"), "zlib@openssh.com");
		CHECK_OK(roundtrip(p.c, p.s, 30000, 1, 0, &wire));
		CHECK(wire > 0 && wire < 1000);
		CHECK_OK(roundtrip(p.s, p.c, 30000, 2, 0, &wire));
		CHECK(wire > 0 && wire < 1000);
		sbuf_reset(blob);
		CHECK_ERR(tr_export(p.s, blob), ERR_FEATURE_UNSUPPORTED);
	}
	sbuf_free(blob);
	trl_close(&p);
}

/*
 * A compressed packet that inflates past the packet limit, as a hostile
 * client would send it: the payload is deflated on the client's own
 * stream (so the server's inflate takes it as the next packet) but from
 * far more than a packet may hold, and framed with the client's
 * compression turned off for that one packet. Then a small message,
 * which the server hands up only if it took the big one.
 */
static int
bomb(size_t inflated)
{
	struct trl_pair p;
	unsigned char *plain = x_calloc(1, inflated), *z;
	struct sbuf *m;
	size_t zlen;
	int r;

	plain[0] = SSH2_MSG_IGNORE;
	if ((r = pair_open(&p, "zlib", "zlib", 0)) != 0 ||
	    (r = pair_kex(&p)) != 0 ||
	    (r = comp_deflate(p.c->send.zctx, plain, inflated, 0, 0, &z,
	    &zlen)) != 0)
		goto out;
	p.c->zany = 0;
	m = tr_msg_start(p.c, z[0]);
	r = sbuf_put(m, z + 1, zlen - 1);
	if (r == 0)
		r = tr_msg_send(p.c);
	p.c->zany = 1;
	if (r != 0 || (r = roundtrip(p.c, p.s, 100, 1, 0, NULL)) != 0)
		goto out;
 out:
	x_free(plain);
	trl_close(&p);
	return r;
}

static void
test_bomb(void)
{
	CHECK_ERR(bomb(64 * 1024 * 1024), ERR_PACKET_TOO_LARGE);
	CHECK_ERR(bomb(256 * 1024 + 1), ERR_PACKET_TOO_LARGE);
	/* At the limit it is only a large IGNORE, and what follows arrives. */
	CHECK_OK(bomb(256 * 1024));
}

int
main(void)
{
	if (getenv("TEST_DEBUG") != NULL)
		log_init("test_compress", LOG_LEVEL_DEBUG1, 0, 1);
	signal(SIGPIPE, SIG_IGN);
	alarm(120);
	CHECK_OK(key_generate(KEY_ED25519, 0, &hostkey));
	CHECK_OK(key_demote(hostkey, &hostpub));
	test_streams();
	test_negotiation();
	test_zlib();
	test_delayed();
	test_handover();
	test_bomb();
	key_free(hostkey);
	key_free(hostpub);
	return TEST_DONE();
}
