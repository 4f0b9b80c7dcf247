/*
 * mkseeds.c: writes the synthetic seeds of the upper-layer fuzz targets
 * (fuzz_userauth, fuzz_session, fuzz_fwd) into the corpus directories
 * given on the command line; built and run by mkseeds.sh, which also
 * records real sessions for the same targets.
 *
 * usage: mkseeds USERAUTH_DIR SESSION_DIR FWD_DIR
 *
 * Each seed is what those targets read: one byte choosing their
 * configuration, then the client's messages as records "uint16 length,
 * type, payload". The userauth seeds carry signatures made with the
 * fixed keys of fuzz_keys.h over the fixed session id of
 * fuzz_fake_tr.h, so they verify in the fuzzer: they lead it to the
 * paths past a good signature (accepted keys and certificates,
 * AuthenticationMethods chains, hostbased) that a fuzzer cannot reach
 * by guessing. The session and forwarding seeds hold what a real client
 * seldom sends: signal, streamlocal forwarding, cancels, a confirmation
 * of the server's own open, windows used up.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fuzz_keys.h"
#include "key.h"
#include "mem.h"
#include "sbuf.h"

#define MSG_SERVICE_REQUEST	5
#define MSG_USERAUTH_REQUEST	50
#define MSG_INFO_RESPONSE	61
#define MSG_GLOBAL_REQUEST	80
#define MSG_CHANNEL_OPEN	90
#define MSG_OPEN_CONFIRMATION	91
#define MSG_OPEN_FAILURE	92
#define MSG_WINDOW_ADJUST	93
#define MSG_DATA		94
#define MSG_EXTENDED_DATA	95
#define MSG_EOF			96
#define MSG_CLOSE		97
#define MSG_CHANNEL_REQUEST	98

static const unsigned char session_id[32] = {
	0x6d, 0x6f, 0x61, 0x74, 0x20, 0x66, 0x75, 0x7a,
	0x7a, 0x20, 0x73, 0x65, 0x73, 0x73, 0x69, 0x6f,
	0x6e, 0x20, 0x69, 0x64, 0x2c, 0x20, 0x33, 0x32,
	0x20, 0x62, 0x79, 0x74, 0x65, 0x73, 0x2e, 0x0a,
};

static const char *outdir;
static struct sbuf *seed;	/* the seed being written */
static struct sbuf *msg;	/* the message being built */

static void
die(const char *what)
{
	fprintf(stderr, "mkseeds: %s\n", what);
	exit(1);
}

static void
ok(int r)
{
	if (r != 0)
		die(err_str(r));
}

static void
begin(const char *dir, uint8_t variant)
{
	outdir = dir;
	sbuf_reset(seed);
	ok(sbuf_put_u8(seed, variant));
}

static void
end(const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(sbuf_ptr(seed), 1, sbuf_len(seed), f) != sbuf_len(seed) ||
	    fclose(f) != 0)
		die(path);
}

/*
 * Append one message: fmt says what follows, 'b' a byte, 'u' a uint32,
 * 's' a C string, 'S' an sbuf as a string, 'B' a length and bytes.
 */
static void
m(uint8_t type, const char *fmt, ...)
{
	const unsigned char *p;
	va_list ap;
	size_t n;

	sbuf_reset(msg);
	ok(sbuf_put_u8(msg, type));
	va_start(ap, fmt);
	for (; *fmt != '\0'; fmt++) {
		switch (*fmt) {
		case 'b':
			ok(sbuf_put_u8(msg, (uint8_t)va_arg(ap, int)));
			break;
		case 'u':
			ok(sbuf_put_u32(msg, va_arg(ap, uint32_t)));
			break;
		case 's':
			ok(sbuf_put_cstring(msg, va_arg(ap, const char *)));
			break;
		case 'S':
			ok(sbuf_put_stringb(msg, va_arg(ap, struct sbuf *)));
			break;
		case 'B':
			n = va_arg(ap, size_t);
			p = va_arg(ap, const unsigned char *);
			ok(sbuf_put_string(msg, p, n));
			break;
		default:
			die("bad format");
		}
	}
	va_end(ap);
	if (sbuf_len(msg) > 0xffff)
		die("message too long");
	ok(sbuf_put_u8(seed, (uint8_t)(sbuf_len(msg) >> 8)));
	ok(sbuf_put_u8(seed, (uint8_t)sbuf_len(msg)));
	ok(sbuf_putb(seed, msg));
}

/* ---- keys ---- */

static struct key *
priv(const char *text)
{
	struct sbuf *f = sbuf_from(text, strlen(text));
	struct key *k = NULL;

	ok(key_parse_private(f, NULL, &k, NULL));
	sbuf_free(f);
	return k;
}

/* The blob of a public key or certificate line. */
static struct sbuf *
blob_of(const char *line)
{
	struct sbuf *b = sbuf_new();
	const char *p = strchr(line, ' ');
	char *b64;
	size_t n;

	if (p == NULL)
		die("bad key line");
	p++;
	n = strcspn(p, " \n");
	b64 = x_strndup(p, n);
	ok(sbuf_b64_decode(b, b64));
	x_free(b64);
	return b;
}

/* What a client signs for publickey (RFC 4252 7) or hostbased (9). */
static struct sbuf *
signature(const struct key *k, const char *sigalg, const char *user,
    const char *method, const char *alg, const struct sbuf *blob,
    const char *chost, const char *cuser)
{
	struct sbuf *d = sbuf_new(), *sig = sbuf_new();

	ok(sbuf_put_string(d, session_id, sizeof(session_id)));
	ok(sbuf_put_u8(d, MSG_USERAUTH_REQUEST));
	ok(sbuf_put_cstring(d, user));
	ok(sbuf_put_cstring(d, "ssh-connection"));
	ok(sbuf_put_cstring(d, method));
	if (chost == NULL)
		ok(sbuf_put_u8(d, 1));
	ok(sbuf_put_cstring(d, alg));
	ok(sbuf_put_stringb(d, blob));
	if (chost != NULL) {
		ok(sbuf_put_cstring(d, chost));
		ok(sbuf_put_cstring(d, cuser));
	}
	ok(key_sign(k, sigalg, sbuf_ptr(d), sbuf_len(d), sig));
	sbuf_free(d);
	return sig;
}

/* A signed publickey request by key k shown as line (a key or cert). */
static void
pubkey(const char *user, const struct key *k, const char *line,
    const char *alg, const char *sigalg)
{
	struct sbuf *blob = blob_of(line);
	struct sbuf *sig = signature(k, sigalg, user, "publickey", alg, blob,
	    NULL, NULL);

	m(MSG_USERAUTH_REQUEST, "sssbsSS", user, "ssh-connection",
	    "publickey", 1, alg, blob, sig);
	sbuf_free(sig);
	sbuf_free(blob);
}

/*
 * publickey-hostbound-v00@openssh.com (OpenSSH's PROTOCOL): a publickey
 * request that also names the server's host key, after the user's key in
 * the request and in what is signed. sign 0: a query, no signature.
 */
static void
hostbound(const char *user, const struct key *k, const char *line,
    const char *hkline, int sign)
{
	struct sbuf *blob = blob_of(line), *hk = blob_of(hkline);
	struct sbuf *d = sbuf_new(), *sig = sbuf_new();
	const char *method = "publickey-hostbound-v00@openssh.com";

	if (!sign) {
		m(MSG_USERAUTH_REQUEST, "sssbsSS", user, "ssh-connection",
		    method, 0, "ssh-ed25519", blob, hk);
		goto out;
	}
	ok(sbuf_put_string(d, session_id, sizeof(session_id)));
	ok(sbuf_put_u8(d, MSG_USERAUTH_REQUEST));
	ok(sbuf_put_cstring(d, user));
	ok(sbuf_put_cstring(d, "ssh-connection"));
	ok(sbuf_put_cstring(d, method));
	ok(sbuf_put_u8(d, 1));
	ok(sbuf_put_cstring(d, "ssh-ed25519"));
	ok(sbuf_put_stringb(d, blob));
	ok(sbuf_put_stringb(d, hk));
	ok(key_sign(k, "ssh-ed25519", sbuf_ptr(d), sbuf_len(d), sig));
	m(MSG_USERAUTH_REQUEST, "sssbsSSS", user, "ssh-connection", method,
	    1, "ssh-ed25519", blob, hk, sig);
 out:
	sbuf_free(d);
	sbuf_free(sig);
	sbuf_free(hk);
	sbuf_free(blob);
}

static void
query(const char *user, const char *line, const char *alg)
{
	struct sbuf *blob = blob_of(line);

	m(MSG_USERAUTH_REQUEST, "sssbsS", user, "ssh-connection",
	    "publickey", 0, alg, blob);
	sbuf_free(blob);
}

static void
hostbased(const char *user, const struct key *k, const char *line,
    const char *chost, const char *cuser)
{
	struct sbuf *blob = blob_of(line);
	struct sbuf *sig = signature(k, "ssh-ed25519", user, "hostbased",
	    "ssh-ed25519", blob, chost, cuser);

	m(MSG_USERAUTH_REQUEST, "ssssSssS", user, "ssh-connection",
	    "hostbased", "ssh-ed25519", blob, chost, cuser, sig);
	sbuf_free(sig);
	sbuf_free(blob);
}

static void
service(void)
{
	m(MSG_SERVICE_REQUEST, "s", "ssh-userauth");
}

static void
req(const char *user, const char *method)
{
	m(MSG_USERAUTH_REQUEST, "sss", user, "ssh-connection", method);
}

static void
password(const char *user, const char *pass)
{
	m(MSG_USERAUTH_REQUEST, "sssbs", user, "ssh-connection", "password",
	    0, pass);
}

static void
kbdint(const char *user)
{
	m(MSG_USERAUTH_REQUEST, "sssss", user, "ssh-connection",
	    "keyboard-interactive", "", "");
}

/* fuzz_userauth's first byte: configuration + 5 * PAM conversation. */
#define UA(variant, pam)	((uint8_t)((variant) + 5 * (pam)))

static void
userauth(const char *dir)
{
	struct key *u1 = priv(fz_key_user1), *u2 = priv(fz_key_user2);
	struct key *u3 = priv(fz_key_user3), *host = priv(fz_key_host);
	const char *U = "fuzzuser";

	begin(dir, UA(0, 0));
	service();
	req(U, "none");
	query(U, fz_pub_user1, "ssh-ed25519");
	pubkey(U, u1, fz_pub_user1, "ssh-ed25519", "ssh-ed25519");
	end("synth_pubkey");

	/* Bound to the stand-in transport's host key (fuzz_userauth's). */
	begin(dir, UA(0, 0));
	service();
	hostbound(U, u1, fz_pub_user1, fz_pub_host, 0);
	hostbound(U, u1, fz_pub_user1, fz_pub_host, 1);
	end("synth_hostbound");

	/* Bound to another key: the server ends the connection. */
	begin(dir, UA(0, 0));
	service();
	hostbound(U, u1, fz_pub_user1, fz_pub_user2, 1);
	end("synth_hostbound_wrong_key");

	/* A certificate as the host key: its key is read (not ours). */
	begin(dir, UA(2, 0));
	service();
	hostbound(U, u1, fz_pub_user1, fz_pub_cert1, 1);
	end("synth_hostbound_certs");

	begin(dir, UA(0, 0));
	service();
	query(U, fz_pub_user2, "ecdsa-sha2-nistp256");
	pubkey(U, u3, fz_pub_user3, "ssh-ed25519", "ssh-ed25519");
	pubkey(U, u2, fz_pub_user2, "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp256");
	end("synth_pubkey_restricted_revoked");

	begin(dir, UA(0, 0));
	service();
	pubkey(U, u1, fz_pub_cert2, "ssh-ed25519-cert-v01@openssh.com",
	    "ssh-ed25519");
	pubkey(U, u1, fz_pub_cert1, "ssh-ed25519-cert-v01@openssh.com",
	    "ssh-ed25519");
	end("synth_cert");

	begin(dir, UA(2, 0));
	service();
	pubkey(U, u1, fz_pub_cert1, "ssh-ed25519-cert-v01@openssh.com",
	    "ssh-ed25519");
	pubkey(U, u2, fz_pub_user2, "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp256");
	pubkey(U, u1, fz_pub_user1, "ssh-ed25519", "ssh-ed25519");
	end("synth_chain_publickey_publickey");

	begin(dir, UA(0, 0));
	service();
	password(U, "wrong");
	m(MSG_USERAUTH_REQUEST, "sssbss", U, "ssh-connection", "password", 1,
	    "old", "new");
	password(U, "fuzzpass");
	end("synth_password");

	begin(dir, UA(0, 0));
	service();
	hostbased(U, host, fz_pub_host, "fuzzhost.", U);
	end("synth_hostbased");

	begin(dir, UA(2, 0));
	service();
	hostbased(U, host, fz_pub_host, "fuzzhost", U);
	password(U, "fuzzpass");
	end("synth_chain_hostbased_password");

	begin(dir, UA(1, 0));
	service();
	kbdint(U);
	m(MSG_INFO_RESPONSE, "us", 1, "fuzzpass");
	end("synth_kbdint_pam");

	begin(dir, UA(1, 1));
	service();
	pubkey(U, u1, fz_pub_user1, "ssh-ed25519", "ssh-ed25519");
	kbdint(U);
	m(MSG_INFO_RESPONSE, "us", 1, "fuzzpass");
	m(MSG_INFO_RESPONSE, "us", 1, "123456");
	m(MSG_INFO_RESPONSE, "u", 0);
	end("synth_chain_publickey_kbdint_pam");

	begin(dir, UA(1, 2));
	service();
	kbdint(U);
	m(MSG_INFO_RESPONSE, "us", 1, "fuzzpass");
	m(MSG_INFO_RESPONSE, "uss", 2, "n3w", "n3w");
	m(MSG_INFO_RESPONSE, "u", 0);
	end("synth_kbdint_pam_expired");

	begin(dir, UA(1, 0));
	service();
	kbdint(U);
	password(U, "fuzzpass");	/* gives up the round */
	kbdint(U);
	m(MSG_INFO_RESPONSE, "us", 1, "");
	end("synth_kbdint_abandoned");

	begin(dir, UA(4, 0));
	service();
	password(U, "fuzzpass");
	end("synth_pam_password");

	begin(dir, UA(3, 0));
	service();
	pubkey(U, u2, fz_pub_user2, "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp256");
	password(U, "fuzzpass");
	kbdint(U);
	end("synth_match_forced");

	begin(dir, UA(0, 0));
	service();
	req("root", "none");
	password("root", "x");
	req("nosuchuser-fuzz", "none");
	end("synth_change_user");

	begin(dir, UA(2, 0));
	service();
	req("bad1", "none");
	password("bad1", "a");
	password("bad1", "b");
	password("bad1", "c");
	end("synth_denied_maxtries");

	key_free(u1);
	key_free(u2);
	key_free(u3);
	key_free(host);
}

/* ---- the connection layer ---- */

static const unsigned char modes[] = {
	128, 0, 0, 0x96, 0,	129, 0, 0, 0x96, 0,	/* 38400 */
	1, 0, 0, 0, 3,		3, 0, 0, 0, 127,	/* VINTR, VERASE */
	42, 0, 0, 0, 1,		53, 0, 0, 0, 0,		/* IUTF8, -ECHO */
	91, 0, 0, 0, 1,		160, 1, 2, 3, 4,	/* CS8, end */
};

static void
open_session(uint32_t id, uint32_t window, uint32_t maxpacket)
{
	m(MSG_CHANNEL_OPEN, "suuu", "session", id, window, maxpacket);
}

static void
session(const char *dir)
{
	begin(dir, 0);
	open_session(0, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usbsuuuuB", 0, "pty-req", 1, "xterm-256color",
	    80, 24, 640, 480, sizeof(modes), modes);
	m(MSG_CHANNEL_REQUEST, "usbss", 0, "env", 0, "LANG", "C.UTF-8");
	m(MSG_CHANNEL_REQUEST, "usbss", 0, "env", 0, "NOTALLOWED", "x");
	m(MSG_CHANNEL_REQUEST, "usbuuuu", 0, "window-change", 0, 132, 43, 0,
	    0);
	m(MSG_CHANNEL_REQUEST, "usb", 0, "shell", 1);
	m(MSG_CHANNEL_REQUEST, "usbs", 0, "signal", 0, "INT");
	m(MSG_DATA, "us", 0, "ls\n");
	m(MSG_EOF, "u", 0);
	m(MSG_CLOSE, "u", 0);
	end("synth_pty_shell");

	begin(dir, 0);
	open_session(3, 100, 16);
	open_session(4, 0, 0);
	/* Requests name our channel numbers (0 and 1), not the client's. */
	m(MSG_CHANNEL_REQUEST, "usbs", 0, "subsystem", 1, "sftp");
	m(MSG_CHANNEL_REQUEST, "usbs", 1, "subsystem", 1, "isftp");
	m(MSG_CHANNEL_REQUEST, "usbs", 1, "exec", 1, "id");
	m(MSG_WINDOW_ADJUST, "uu", 0, 1000);
	m(MSG_EXTENDED_DATA, "uus", 0, 1, "err");
	m(MSG_CHANNEL_REQUEST, "usb", 0, "eow@openssh.com", 0);
	m(MSG_GLOBAL_REQUEST, "sb", "keepalive@openssh.com", 1);
	m(MSG_GLOBAL_REQUEST, "sb", "no-more-sessions@openssh.com", 0);
	m(MSG_CLOSE, "u", 1);
	m(MSG_CLOSE, "u", 0);
	open_session(3, 2097152, 32768);
	end("synth_two_sessions");

	begin(dir, 1);
	open_session(0, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usbs", 0, "exec", 1, "echo original");
	open_session(1, 2097152, 32768);
	end("synth_forced_maxsessions");

	/*
	 * x11-req (single, protocol, cookie, screen): words xauth could
	 * misread, an empty cookie, a screen past 65535, then a good one
	 * (variant 0 lets it through to the missing xauth) and a second.
	 */
	begin(dir, 0);
	open_session(0, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 0,
	    "MIT-MAGIC-COOKIE-1\nadd", "0123456789abcdef", 0);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 0,
	    "MIT-MAGIC-COOKIE-1", "", 0);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 1,
	    "MIT-MAGIC-COOKIE-1", "0123456789abcdef", 65536);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 1,
	    "MIT-MAGIC-COOKIE-1", "0123456789abcdef0123456789abcdef", 2);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 0,
	    "MIT-MAGIC-COOKIE-1", "00", 0);
	m(MSG_CHANNEL_REQUEST, "usbbss", 0, "x11-req", 1, 0, "short", "00");
	m(MSG_CHANNEL_REQUEST, "usbs", 0, "exec", 1, "xterm");
	end("synth_x11_req");

	/* Refused by the key's restrict (1) and by DisableForwarding (3). */
	begin(dir, 1);
	open_session(0, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 0,
	    "MIT-MAGIC-COOKIE-1", "0123456789abcdef", 0);
	end("synth_x11_req_restrict");
	begin(dir, 3);
	open_session(0, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usbbssu", 0, "x11-req", 1, 0,
	    "MIT-MAGIC-COOKIE-1", "0123456789abcdef", 0);
	end("synth_x11_req_disabled");

	/* The server's host keys are host, user2 and hostrsa; user1 not. */
	begin(dir, 0);
	{
		struct sbuf *h = blob_of(fz_pub_host), *e = blob_of(fz_pub_user2);
		struct sbuf *r = blob_of(fz_pub_hostrsa);
		struct sbuf *u = blob_of(fz_pub_user1);

		m(MSG_GLOBAL_REQUEST, "sbSSS", "hostkeys-prove-00@openssh.com",
		    1, h, e, r);
		m(MSG_GLOBAL_REQUEST, "sbSS", "hostkeys-prove-00@openssh.com",
		    1, h, u);
		sbuf_free(h);
		sbuf_free(e);
		sbuf_free(r);
		sbuf_free(u);
	}
	end("synth_hostkeys_prove");

	/*
	 * Agent forwarding: the request, a second one (refused), then the
	 * server's auth-agent@openssh.com for the connection waiting on
	 * its socket (ours 1; a keepalive gives it the turn) answered,
	 * used and closed; a request with a stray field.
	 */
	begin(dir, 0);
	open_session(0, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usb", 0, "auth-agent-req@openssh.com", 0);
	m(MSG_CHANNEL_REQUEST, "usb", 0, "auth-agent-req@openssh.com", 1);
	m(MSG_GLOBAL_REQUEST, "sb", "keepalive@openssh.com", 0);
	m(MSG_OPEN_CONFIRMATION, "uuuu", 1, 9, 65536, 16384);
	{
		/* SSH_AGENTC_REQUEST_IDENTITIES, framed. */
		static const unsigned char req[] = { 0, 0, 0, 1, 11 };

		m(MSG_DATA, "uB", 1, sizeof(req), req);
	}
	m(MSG_WINDOW_ADJUST, "uu", 1, 4096);
	m(MSG_EOF, "u", 1);
	m(MSG_CLOSE, "u", 1);
	m(MSG_CHANNEL_REQUEST, "usbs", 0, "exec", 1, "ssh-add -l");
	open_session(2, 2097152, 32768);
	m(MSG_CHANNEL_REQUEST, "usbs", 1, "auth-agent-req@openssh.com", 1,
	    "extra");
	end("synth_agent_forward");
}

/*
 * The server handles one message per turn of its loop and accepts on
 * its listeners after it: a message with no effect gives it the turn
 * in which it opens its own channel for the connection waiting.
 */
static void
spacer(void)
{
	m(MSG_GLOBAL_REQUEST, "sb", "keepalive@openssh.com", 0);
}

/* tun@openssh.com: opens in every mode, then packets both ways. */
static void
tun(const char *dir)
{
	/* An IPv4 header's first bytes after the family; and a short one. */
	static const unsigned char pkt[] = {
		0, 0, 0, 2, 0x45, 0, 0, 20, 0, 0, 0, 0, 64, 1, 0, 0,
		10, 0, 0, 1, 10, 0, 0, 2,
	};

	begin(dir, 0);		/* PermitTunnel yes */
	m(MSG_CHANNEL_OPEN, "suuuuu", "tun@openssh.com", 0, 2097152, 32768,
	    1, 0x7fffffff);
	m(MSG_CHANNEL_OPEN, "suuuuu", "tun@openssh.com", 1, 2097152, 32768,
	    2, 5);
	m(MSG_CHANNEL_OPEN, "suuuuu", "tun@openssh.com", 2, 2097152, 32768,
	    7, 0);
	m(MSG_CHANNEL_OPEN, "suuuu", "tun@openssh.com", 3, 2097152, 32768, 1);
	m(MSG_DATA, "uB", 0, sizeof(pkt), pkt);
	m(MSG_DATA, "uB", 0, (size_t)3, pkt);
	m(MSG_DATA, "uB", 1, sizeof(pkt) - 4, pkt + 4);
	m(MSG_WINDOW_ADJUST, "uu", 0, 4096);
	spacer();
	m(MSG_EOF, "u", 0);
	m(MSG_CLOSE, "u", 0);
	m(MSG_CLOSE, "u", 1);
	end("synth_tun");

	begin(dir, 1);		/* point-to-point only, tunnel="3" */
	m(MSG_CHANNEL_OPEN, "suuuuu", "tun@openssh.com", 0, 2097152, 32768,
	    2, 0x7fffffff);
	m(MSG_CHANNEL_OPEN, "suuuuu", "tun@openssh.com", 1, 2097152, 32768,
	    1, 4);
	m(MSG_CHANNEL_OPEN, "suuuuu", "tun@openssh.com", 2, 16, 16,
	    1, 0x7fffffff);
	m(MSG_DATA, "uB", 2, sizeof(pkt), pkt);
	spacer();
	m(MSG_CLOSE, "u", 2);
	end("synth_tun_forced");
}

static void
fwd(const char *dir)
{
	begin(dir, 0);
	/* Ours 0, 1, 2: connects at once, after a while, refused. */
	m(MSG_CHANNEL_OPEN, "suuususu", "direct-tcpip", 1, 2097152, 32768,
	    "127.0.0.1", 8080, "127.0.0.1", 5555);
	m(MSG_CHANNEL_OPEN, "suuususu", "direct-tcpip", 2, 2097152, 32768,
	    "::1", 8082, "::1", 5556);
	m(MSG_CHANNEL_OPEN, "suuususu", "direct-tcpip", 3, 2097152, 32768,
	    "localhost", 8081, "", 0);
	m(MSG_DATA, "us", 0, "GET / HTTP/1.0\r\n\r\n");
	m(MSG_EOF, "u", 0);
	m(MSG_WINDOW_ADJUST, "uu", 1, 4096);
	m(MSG_GLOBAL_REQUEST, "sbsu", "tcpip-forward", 1, "127.0.0.1", 0);
	spacer();
	/* The server's forwarded-tcpip is ours 2: a small window. */
	m(MSG_OPEN_CONFIRMATION, "uuuu", 2, 7, 64, 16);
	m(MSG_WINDOW_ADJUST, "uu", 2, 100);
	m(MSG_DATA, "us", 2, "hello");
	m(MSG_GLOBAL_REQUEST, "sbsu", "cancel-tcpip-forward", 1, "127.0.0.1",
	    50001);
	m(MSG_GLOBAL_REQUEST, "sbsu", "cancel-tcpip-forward", 1, "127.0.0.1",
	    50001);
	m(MSG_GLOBAL_REQUEST, "sbsu", "tcpip-forward", 1, "", 8022);
	spacer();
	m(MSG_CLOSE, "u", 0);
	end("synth_tcp");

	begin(dir, 0);
	m(MSG_GLOBAL_REQUEST, "sbs", "streamlocal-forward@openssh.com", 1,
	    "/tmp/moat-fuzz.sock");
	spacer();
	m(MSG_OPEN_FAILURE, "uuss", 0, 2, "no", "");
	m(MSG_CHANNEL_OPEN, "suuussu", "direct-streamlocal@openssh.com", 5,
	    2097152, 32768, "/tmp/moat-fuzz-peer.sock", "", 0);
	m(MSG_CHANNEL_OPEN, "suuussu", "direct-streamlocal@openssh.com", 6,
	    2097152, 32768, "/tmp/odd.sock", "", 0);
	m(MSG_DATA, "us", 0, "x");
	m(MSG_GLOBAL_REQUEST, "sbs", "cancel-streamlocal-forward@openssh.com",
	    1, "/tmp/moat-fuzz.sock");
	m(MSG_GLOBAL_REQUEST, "sbs", "streamlocal-forward@openssh.com", 1,
	    "/tmp/moat-fuzz.sock");
	end("synth_streamlocal");

	begin(dir, 1);
	m(MSG_CHANNEL_OPEN, "suuususu", "direct-tcpip", 0, 2097152, 32768,
	    "127.0.0.1", 8080, "127.0.0.1", 1);
	m(MSG_CHANNEL_OPEN, "suuususu", "direct-tcpip", 1, 2097152, 32768,
	    "10.0.0.1", 4, "127.0.0.1", 1);
	m(MSG_GLOBAL_REQUEST, "sbsu", "tcpip-forward", 1, "127.0.0.1", 7000);
	m(MSG_GLOBAL_REQUEST, "sbsu", "tcpip-forward", 1, "localhost", 9000);
	end("synth_permit_lists");
	tun(dir);
}

int
main(int argc, char **argv)
{
	if (argc != 4)
		die("usage: mkseeds USERAUTH_DIR SESSION_DIR FWD_DIR");
	seed = sbuf_new();
	msg = sbuf_new();
	userauth(argv[1]);
	session(argv[2]);
	fwd(argv[3]);
	sbuf_free(seed);
	sbuf_free(msg);
	return 0;
}
