/*
 * test_conn.c: the connection layer over two real transports (server and
 * client roles, full key exchange and encryption) on a socketpair.
 *
 * The server (a forked process) runs session_serve(). The client is this
 * process, using the same channel layer in the client role: it opens a
 * "session" channel, sends "exec" when the open is confirmed, feeds stdin
 * from a file, writes stdout and stderr (EXTENDED_DATA) to files, records
 * exit-status, and conn_loop returns once the channel is gone. There is
 * no user authentication here: session_serve is what runs after it.
 */
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "channel.h"
#include "cipher.h"
#include "kexalg.h"
#include "key.h"
#include "log.h"
#include "mac.h"
#include "mem.h"
#include "sbuf.h"
#include "servconf.h"
#include "session.h"
#include "testlib.h"
#include "transport.h"

static int
sign_cb(void *arg, const struct key *pub, const char *sigalg,
    const unsigned char *data, size_t dlen, struct sbuf *sig)
{
	return key_sign(arg, sigalg, data, dlen, sig);
}

static int
verify_cb(void *arg, const struct key *hostkey)
{
	return 0;
}

static void
base_cfg(struct tr_config *cfg, int server)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->server = server;
	cfg->kex_algs = "curve25519-sha256";
	cfg->hostkey_algs = "ssh-ed25519";
	cfg->ciphers = "chacha20-poly1305@openssh.com,aes128-ctr";
	cfg->macs = mac_default_names();
}

struct client {
	const char *cmd;
	int in, out, err;
	int exec_ok;
	int exit_status;
	int opened;
};

static void
cl_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct client *cl = c->ctx;
	struct sbuf *b;

	cl->opened = ok;
	if (!ok)
		return;
	if ((b = chan_request_start(cs, c, "exec", 1)) == NULL ||
	    sbuf_put_cstring(b, cl->cmd) != 0 || chan_msg_send(cs) != 0)
		return;
	chan_set_fds(c, cl->in, cl->out, cl->err, CHAN_EFD_WRITE, 0);
}

static void
cl_reply(struct chan_set *cs, struct chan *c, int ok)
{
	((struct client *)c->ctx)->exec_ok = ok;
}

static int
cl_request(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply, struct sbuf *body)
{
	struct client *cl = c->ctx;
	uint32_t v;

	if (strcmp(name, "exit-status") != 0 || sbuf_get_u32(body, &v) != 0)
		return ERR_FEATURE_UNSUPPORTED;
	cl->exit_status = (int)v;
	return 0;
}

static const struct chan_ops client_session_ops = {
	.type = "session",
	.opened = cl_opened,
	.request = cl_request,
	.reply = cl_reply,
};

static int
tmpfd(const void *data, size_t len)
{
	FILE *f = tmpfile();
	int fd;

	if (f == NULL)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	if (len > 0 && write(fd, data, len) != (ssize_t)len)
		return -1;
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static struct sbuf *
slurp(int fd)
{
	struct sbuf *b = sbuf_new();
	char buf[65536];
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sbuf_put(b, buf, (size_t)n);
	return b;
}

int
main(void)
{
	struct tr_config ccfg;
	struct transport *ct;
	struct chan_set *cs;
	struct chan *c;
	struct client cl;
	struct sbuf *input, *out, *err;
	int sv[2], status;
	size_t i;
	pid_t pid;

	log_init("test_conn", LOG_LEVEL_ERROR, 0, 1);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	if ((pid = fork()) == 0) {
		struct tr_config scfg;
		struct servconf sc;
		struct key *hk = NULL, *pub = NULL;
		struct transport *st;
		int r;

		close(sv[0]);
		if (key_generate(KEY_ED25519, 0, &hk) != 0 ||
		    key_demote(hk, &pub) != 0)
			_exit(2);
		base_cfg(&scfg, 1);
		scfg.hostkeys = &pub;
		scfg.nhostkeys = 1;
		scfg.hostkey_sign = sign_cb;
		scfg.hostkey_arg = hk;
		memset(&sc, 0, sizeof(sc));
		sc.max_sessions = 10;
		st = tr_new(sv[1], sv[1], &scfg);
		r = session_serve(st, &sc, getpwuid(getuid()), NULL,
		    "127.0.0.1", 40000);
		tr_free(st);
		_exit(r == 0 ? 0 : 3);
	}
	close(sv[1]);

	/* 3 MB through "cat" both ways, plus stderr and an exit status. */
	input = sbuf_new();
	for (i = 0; i < 3000000; i++)
		sbuf_put_u8(input, (uint8_t)(i % 253));
	memset(&cl, 0, sizeof(cl));
	cl.cmd = "cat; echo done >&2; exit 5";
	cl.exit_status = -1;
	cl.in = tmpfd(sbuf_ptr(input), sbuf_len(input));
	cl.out = tmpfd(NULL, 0);
	cl.err = tmpfd(NULL, 0);
	CHECK(cl.in != -1 && cl.out != -1 && cl.err != -1);

	base_cfg(&ccfg, 0);
	ccfg.hostkey_verify = verify_cb;
	ct = tr_new(sv[0], sv[0], &ccfg);
	cs = chan_set_new(ct);
	chan_set_exit_when_idle(cs, 1);
	/* The out/err fds are the set's after chan_set_fds: keep copies. */
	{
		int out_keep = dup(cl.out), err_keep = dup(cl.err);

		CHECK_OK(chan_open(cs, &client_session_ops, &cl, NULL, &c));
		CHECK_OK(conn_loop(ct, cs));
		CHECK(cl.opened == 1);
		CHECK(cl.exec_ok == 1);
		CHECK(cl.exit_status == 5);
		out = slurp(out_keep);
		err = slurp(err_keep);
		CHECK(sbuf_equal(out, input));
		CHECK(sbuf_len(err) == 5 &&
		    memcmp(sbuf_ptr(err), "done\n", 5) == 0);
		CHECK(chan_set_count(cs) == 0);
		close(out_keep);
		close(err_keep);
		sbuf_free(out);
		sbuf_free(err);
	}
	chan_set_free(cs);
	tr_free(ct);
	close(sv[0]);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	sbuf_free(input);
	return TEST_DONE();
}
