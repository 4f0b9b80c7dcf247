/* test_fwd: forwarding specs, GatewayPorts, permission lists, SOCKS, the
 * refusals of -L/-R/-D/-W/-w and of forwarding before a connection. */
#include <string.h>

#include "authopts.h"
#include "client.h"
#include "err.h"
#include "fwd.h"
#include "fwd_client.h"
#include "fwd_server.h"
#include "servconf.h"
#include "testlib.h"
#include "tun_client.h"

static void
test_spec(void)
{
	struct fwd_spec f;

	CHECK_OK(fwd_parse_spec("8080:example.org:80", 0, &f));
	CHECK(f.listen_host == NULL && f.listen_port == 8080);
	CHECK_STR(f.connect_host, "example.org");
	CHECK(f.connect_port == 80);
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("[::1]:8080:[2001:db8::1]:22", 0, &f));
	CHECK_STR(f.listen_host, "::1");
	CHECK_STR(f.connect_host, "2001:db8::1");
	CHECK(f.connect_port == 22);
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("*:0:host:22", 2, &f));
	CHECK_STR(f.listen_host, "*");
	CHECK(f.listen_port == 0);
	fwd_spec_clear(&f);
	/* '/' marks a path now, as in OpenSSH since 6.7: no separator. */
	CHECK_ERR(fwd_parse_spec("1234/host/22", 0, &f), ERR_INVALID_FORMAT);
	/* Allocated listen ports are for -R only. */
	CHECK_ERR(fwd_parse_spec("0:host:22", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("0", 1, &f), ERR_INVALID_FORMAT);
	CHECK_OK(fwd_parse_spec("1080", 1, &f));
	CHECK(f.connect_host == NULL && f.listen_port == 1080);
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("localhost:1080", 2, &f));
	CHECK_STR(f.listen_host, "localhost");
	fwd_spec_clear(&f);
	CHECK_ERR(fwd_parse_spec("1080", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("1:h:2", 1, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("70000:h:22", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("1:h:0", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("1::22", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("a:b:c:d:e", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("[::1:80:h:1", 0, &f), ERR_INVALID_FORMAT);
}

/* Specs with Unix-domain socket paths, checked against OpenSSH 9.2's
 * ssh -G for the same strings. */
static void
test_spec_paths(void)
{
	struct fwd_spec f;
	char longp[200];

	CHECK_OK(fwd_parse_spec("/tmp/a.sock:localhost:22", 0, &f));
	CHECK_STR(f.listen_path, "/tmp/a.sock");
	CHECK(f.listen_host == NULL && f.listen_port == 0);
	CHECK_STR(f.connect_host, "localhost");
	CHECK(f.connect_port == 22 && f.connect_path == NULL);
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("1234:/tmp/r.sock", 0, &f));
	CHECK(f.listen_host == NULL && f.listen_port == 1234);
	CHECK(f.listen_path == NULL && f.connect_host == NULL);
	CHECK_STR(f.connect_path, "/tmp/r.sock");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("[::1]:1234:/tmp/r", 0, &f));
	CHECK_STR(f.listen_host, "::1");
	CHECK(f.listen_port == 1234);
	CHECK_STR(f.connect_path, "/tmp/r");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("/tmp/a:/tmp/b", 0, &f));
	CHECK_STR(f.listen_path, "/tmp/a");
	CHECK_STR(f.connect_path, "/tmp/b");
	fwd_spec_clear(&f);
	/* Three fields with the first a path: the second is a host. */
	CHECK_OK(fwd_parse_spec("/tmp/a:/tmp/b:22", 0, &f));
	CHECK_STR(f.listen_path, "/tmp/a");
	CHECK_STR(f.connect_host, "/tmp/b");
	CHECK(f.connect_path == NULL && f.connect_port == 22);
	fwd_spec_clear(&f);
	/* A '/' in a middle host field does not make it a path. */
	CHECK_OK(fwd_parse_spec("1234:h/x:22", 0, &f));
	CHECK_STR(f.connect_host, "h/x");
	fwd_spec_clear(&f);
	/* Brackets: literal, and a path when they hold a '/'. */
	CHECK_OK(fwd_parse_spec("[/tmp/a]:h:22", 0, &f));
	CHECK_STR(f.listen_path, "/tmp/a");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("1234:[/tmp/x]", 0, &f));
	CHECK_STR(f.connect_path, "/tmp/x");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("[/x]:1234:h:22", 0, &f));
	CHECK_STR(f.listen_host, "/x");
	CHECK(f.listen_path == NULL && f.listen_port == 1234);
	fwd_spec_clear(&f);
	/* Backslash escapes: a literal ':' inside a path; an escaped '/'
	 * alone does not make a path. */
	CHECK_OK(fwd_parse_spec("/tmp/a\\:b:h:22", 0, &f));
	CHECK_STR(f.listen_path, "/tmp/a:b");
	fwd_spec_clear(&f);
	CHECK_ERR(fwd_parse_spec("\\/a:h:22", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("1234:h:22\\", 0, &f), ERR_INVALID_FORMAT);
	/* Leading blanks are skipped; one trailing ':' is harmless. */
	CHECK_OK(fwd_parse_spec(" 1234:h:22:", 0, &f));
	CHECK(f.listen_port == 1234 && f.connect_port == 22);
	fwd_spec_clear(&f);
	/* -R forms. */
	CHECK_OK(fwd_parse_spec("/tmp/r:h:22", 2, &f));
	CHECK_STR(f.listen_path, "/tmp/r");
	CHECK_STR(f.connect_host, "h");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("/tmp/r:/tmp/l", 2, &f));
	CHECK_STR(f.listen_path, "/tmp/r");
	CHECK_STR(f.connect_path, "/tmp/l");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("0:/tmp/l", 2, &f));
	CHECK(f.listen_port == 0);
	CHECK_STR(f.connect_path, "/tmp/l");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("*:1234:/tmp/l", 2, &f));
	CHECK_STR(f.listen_host, "*");
	CHECK_STR(f.connect_path, "/tmp/l");
	fwd_spec_clear(&f);
	CHECK_OK(fwd_parse_spec("/tmp/r", 2, &f));
	CHECK_STR(f.listen_path, "/tmp/r");
	CHECK(f.connect_host == NULL && f.connect_path == NULL);
	fwd_spec_clear(&f);
	/* A path then a port is a bind address that looks like a path. */
	CHECK_OK(fwd_parse_spec("/tmp/r:1234", 2, &f));
	CHECK_STR(f.listen_host, "/tmp/r");
	CHECK(f.listen_path == NULL && f.listen_port == 1234);
	fwd_spec_clear(&f);
	/* Malformed. */
	CHECK_ERR(fwd_parse_spec("/tmp/a:1234", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("/tmp/a", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("/tmp/a:", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec(":/tmp/a", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("1234:h:/x", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("0:/tmp/x", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("/tmp/a:h:0", 0, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("1234::/x", 2, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("[/tmp/a]x:h:22", 0, &f),
	    ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("/a:b:c:d:e", 2, &f), ERR_INVALID_FORMAT);
	CHECK_ERR(fwd_parse_spec("/tmp/r:h:22", 1, &f), ERR_INVALID_FORMAT);
	/* Paths must fit a sockaddr_un: 107 bytes do, 108 do not. */
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	memcpy(longp + 107, ":h:22", 6);
	CHECK_OK(fwd_parse_spec(longp, 0, &f));
	CHECK(strlen(f.listen_path) == 107);
	fwd_spec_clear(&f);
	memcpy(longp + 108, ":h:22", 6);
	CHECK_ERR(fwd_parse_spec(longp, 0, &f), ERR_INVALID_FORMAT);
}

static void
test_bind(void)
{
	const char *a;
	int w;

	fwd_bind_addr(NULL, 0, 0, &a, &w);
	CHECK(a == NULL && w == 0);
	fwd_bind_addr("", 0, 0, &a, &w);	/* GatewayPorts no wins */
	CHECK(a == NULL && w == 0);
	fwd_bind_addr("10.0.0.1", 1, 0, &a, &w);	/* yes: wildcard */
	CHECK(w == 1);
	fwd_bind_addr("10.0.0.1", 2, 0, &a, &w);	/* clientspecified */
	CHECK(w == 0 && a != NULL && strcmp(a, "10.0.0.1") == 0);
	fwd_bind_addr("", 2, 0, &a, &w);
	CHECK(w == 1);
	fwd_bind_addr("localhost", 2, 0, &a, &w);
	CHECK(w == 0 && a == NULL);
	fwd_bind_addr(NULL, 1, 1, &a, &w);		/* ssh -g */
	CHECK(w == 1);
	fwd_bind_addr("*", 0, 1, &a, &w);
	CHECK(w == 1);
	fwd_bind_addr("127.0.0.2", 0, 1, &a, &w);
	CHECK(w == 0 && a != NULL && strcmp(a, "127.0.0.2") == 0);
}

static void
test_permit(void)
{
	char *open1[] = { "db:5432", "[::1]:22", "*:443", "web:*" };
	char *none[] = { "none" }, *any[] = { "any" };
	char *listen1[] = { "8080", "localhost:9000", "10.*:*" };

	CHECK(fwd_permit_open(NULL, 0, "x", 1) == 1);
	CHECK(fwd_permit_open(any, 1, "x", 1) == 1);
	CHECK(fwd_permit_open(none, 1, "x", 1) == 0);
	CHECK(fwd_permit_open(open1, 4, "db", 5432) == 1);
	CHECK(fwd_permit_open(open1, 4, "db", 5433) == 0);
	CHECK(fwd_permit_open(open1, 4, "DB2", 5432) == 0);
	CHECK(fwd_permit_open(open1, 4, "::1", 22) == 1);
	CHECK(fwd_permit_open(open1, 4, "anything", 443) == 1);
	CHECK(fwd_permit_open(open1, 4, "web", 1) == 1);
	CHECK(fwd_permit_listen(listen1, 3, "localhost", 8080) == 1);
	CHECK(fwd_permit_listen(listen1, 3, "", 8080) == 1);
	CHECK(fwd_permit_listen(listen1, 3, "localhost", 9000) == 1);
	CHECK(fwd_permit_listen(listen1, 3, "LOCALHOST", 9000) == 1);
	CHECK(fwd_permit_listen(listen1, 3, "otherhost", 9000) == 0);
	CHECK(fwd_permit_listen(listen1, 3, "10.1.2.3", 7) == 1);
	CHECK(fwd_permit_listen(listen1, 3, "11.1.2.3", 7) == 0);
	CHECK(fwd_permit_listen(none, 1, "localhost", 8080) == 0);
}

static void
test_refusal(void)
{
	struct servconf sc;
	struct authopts *o = authopts_new();
	char *po[] = { "127.0.0.1:22" };

	memset(&sc, 0, sizeof(sc));
	sc.allow_tcp_forwarding = 3;
	CHECK(fwd_server_refusal(&sc, o, 1000, 0, "h", 1) == NULL);
	CHECK(fwd_server_refusal(&sc, o, 1000, 1, "h", 8080) == NULL);
	CHECK_STR(fwd_server_refusal(&sc, o, 1000, 1, "h", 80),
	    "privileged port");
	CHECK(fwd_server_refusal(&sc, o, 0, 1, "h", 80) == NULL);
	sc.allow_tcp_forwarding = 1;		/* remote */
	CHECK_STR(fwd_server_refusal(&sc, o, 1000, 0, "h", 1),
	    "AllowTcpForwarding");
	CHECK(fwd_server_refusal(&sc, o, 1000, 1, "h", 8080) == NULL);
	sc.allow_tcp_forwarding = 2;		/* local */
	CHECK(fwd_server_refusal(&sc, o, 1000, 0, "h", 1) == NULL);
	CHECK_STR(fwd_server_refusal(&sc, o, 1000, 1, "h", 8080),
	    "AllowTcpForwarding");
	sc.permit_open[0] = po[0];
	sc.npermit_open = 1;
	CHECK_STR(fwd_server_refusal(&sc, o, 1000, 0, "h", 1), "PermitOpen");
	CHECK(fwd_server_refusal(&sc, o, 1000, 0, "127.0.0.1", 22) == NULL);
	o->permit_port_forwarding = 0;
	CHECK_STR(fwd_server_refusal(&sc, o, 1000, 0, "127.0.0.1", 22),
	    "no-port-forwarding");
	sc.disable_forwarding = 1;
	CHECK_STR(fwd_server_refusal(&sc, o, 1000, 0, "127.0.0.1", 22),
	    "DisableForwarding");
	sc.npermit_open = 0;
	authopts_free(o);
}

static void
test_socks(void)
{
	static const unsigned char s4[] = { 4, 1, 0, 80, 10, 0, 0, 1,
	    'u', 0 };
	static const unsigned char s4a[] = { 4, 1, 0x1f, 0x90, 0, 0, 0, 1,
	    0, 'e', 'x', '.', 'o', 'r', 'g', 0 };
	static const unsigned char g5[] = { 5, 2, 2, 0 };
	static const unsigned char r5[] = { 5, 1, 0, 3, 4, 'h', 'o', 's',
	    't', 0x01, 0xbb };
	static const unsigned char r5v6[] = { 5, 1, 0, 4, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 22 };
	static const unsigned char bind5[] = { 5, 2, 0, 1, 1, 2, 3, 4, 0, 1 };
	static const unsigned char g5auth[] = { 5, 1, 2 };
	struct socks_req req;
	const unsigned char *rep;
	size_t used, rlen;
	unsigned char out[16];
	int st = 0;

	CHECK_ERR(socks_parse(s4, 5, &st, &req, &used, &rep, &rlen),
	    ERR_AGAIN);
	CHECK_OK(socks_parse(s4, sizeof(s4), &st, &req, &used, &rep, &rlen));
	CHECK(req.version == 4 && req.port == 80 && used == sizeof(s4));
	CHECK_STR(req.host, "10.0.0.1");
	st = 0;
	CHECK_OK(socks_parse(s4a, sizeof(s4a), &st, &req, &used, &rep,
	    &rlen));
	CHECK_STR(req.host, "ex.org");
	CHECK(req.port == 8080);
	st = 0;
	CHECK_ERR(socks_parse(g5, sizeof(g5), &st, &req, &used, &rep, &rlen),
	    ERR_AGAIN);
	CHECK(st == 1 && used == sizeof(g5) && rlen == 2 && rep[1] == 0);
	CHECK_ERR(socks_parse(r5, 6, &st, &req, &used, &rep, &rlen),
	    ERR_AGAIN);
	CHECK_OK(socks_parse(r5, sizeof(r5), &st, &req, &used, &rep, &rlen));
	CHECK_STR(req.host, "host");
	CHECK(req.port == 443 && req.version == 5);
	CHECK_OK(socks_parse(r5v6, sizeof(r5v6), &st, &req, &used, &rep,
	    &rlen));
	CHECK_STR(req.host, "::1");
	CHECK(req.port == 22);
	CHECK_ERR(socks_parse(bind5, sizeof(bind5), &st, &req, &used, &rep,
	    &rlen), ERR_FEATURE_UNSUPPORTED);
	st = 0;
	CHECK_ERR(socks_parse(g5auth, sizeof(g5auth), &st, &req, &used, &rep,
	    &rlen), ERR_FEATURE_UNSUPPORTED);
	CHECK(socks_reply(5, 1, out, sizeof(out)) == 10 && out[1] == 0);
	CHECK(socks_reply(4, 0, out, sizeof(out)) == 8 && out[1] == 91);
}

/* -L -R -D -W -w refusals are error codes, never a bare -1. */
static void
test_client_options(void)
{
	struct client_opts *o = client_opts_new();
	struct fwd_spec f;

	CHECK_OK(fwd_client_option(o, 'L', "8080:example.org:80"));
	CHECK_ERR(fwd_client_option(o, 'L', "nonsense"), ERR_INVALID_ARGUMENT);
	CHECK_ERR(fwd_client_option(o, 'W', "nocolon"), ERR_INVALID_ARGUMENT);
	CHECK_ERR(fwd_client_option(o, 'W', "host:0"), ERR_INVALID_ARGUMENT);
	CHECK_OK(fwd_client_option(o, 'W', "host:22"));
	CHECK_ERR(tun_client_option(o, "x:y"), ERR_INVALID_FORMAT);
	CHECK_OK(tun_client_option(o, "0:1"));
	/* Before the connection there is nothing to add to or cancel. */
	CHECK_OK(fwd_parse_spec("8080:example.org:80", 0, &f));
	CHECK_ERR(fwd_client_cancel_spec(NULL, 'L', &f), ERR_NOT_FOUND);
	CHECK_ERR(fwd_client_add_spec(NULL, 'L', &f, NULL, NULL),
	    ERR_INVALID_ARGUMENT);
	CHECK(f.connect_host == NULL);	/* taken and cleared all the same */
	client_opts_free(o);
}

int
main(void)
{
	test_spec();
	test_spec_paths();
	test_bind();
	test_permit();
	test_refusal();
	test_socks();
	test_client_options();
	return TEST_DONE();
}
