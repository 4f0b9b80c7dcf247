/*
 * test_agentfwd.c: agent forwarding in the client (agentfwd.c), end to
 * end over a socketpair against a scripted server in a forked child.
 *
 * The server accepts the session, notes whether auth-agent-req came,
 * answers exec by opening an auth-agent@openssh.com channel back, and
 * reports through the session's exit status what it saw: 1 for the
 * request, plus 2 when the client confirmed the agent channel (0 when
 * it refused it).
 * Without forwarding the client must refuse (a hostile server); with
 * it, the channel is connected to a listening socket standing in for
 * the agent.
 */
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "agentfwd.h"
#include "channel.h"
#include "client.h"
#include "log.h"
#include "mem.h"
#include "testlib.h"
#include "transport.h"
#include "trpair.h"

static struct trp_host host;

struct srv {
	struct chan_set *cs;
	struct chan *session;
	int got_req;
	int answered;		/* the agent channel's outcome, as above */
};

/* The session's end: exit status, EOF, CLOSE. */
static void
srv_end_session(struct srv *s)
{
	struct sbuf *b;

	if ((b = chan_request_start(s->cs, s->session, "exit-status",
	    0)) == NULL || sbuf_put_u32(b, (uint32_t)(s->got_req +
	    s->answered)) != 0 || chan_msg_send(s->cs) != 0)
		return;
	chan_send_eof(s->cs, s->session);
	chan_send_close(s->cs, s->session);
}

static void
agent_opened(struct chan_set *cs, struct chan *c, int ok)
{
	struct srv *s = c->ctx;
	int sv[2];

	s->answered = ok ? 2 : 0;
	if (ok && socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
		/* Nothing to say to the agent: EOF at once. */
		close(sv[1]);
		chan_set_fds(c, sv[0], dup(sv[0]), -1, CHAN_EFD_NONE, 0);
	}
	(void)cs;
	srv_end_session(s);
}

static const struct chan_ops agent_ops = {
	.type = "auth-agent@openssh.com",
	.opened = agent_opened,
};

static int
sess_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct srv *s = c->type_arg;

	(void)cs;
	(void)extra;
	(void)reasonp;
	(void)descp;
	s->session = c;
	return 0;
}

static int
sess_request(struct chan_set *cs, struct chan *c, const char *name,
    int want_reply, struct sbuf *body)
{
	struct srv *s = c->type_arg;
	struct chan *ac;

	(void)want_reply;
	(void)body;
	if (strcmp(name, "auth-agent-req@openssh.com") == 0) {
		s->got_req++;
		return 0;
	}
	if (strcmp(name, "exec") != 0)
		return ERR_PERMISSION_DENIED;
	if (chan_open(cs, &agent_ops, s, NULL, &ac) != 0)
		return ERR_INTERNAL;
	return 0;
}

static const struct chan_ops sess_ops = {
	.type = "session",
	.open = sess_open,
	.request = sess_request,
};

static int
server(struct transport *t, void *arg)
{
	struct srv s;

	(void)arg;
	memset(&s, 0, sizeof(s));
	if ((s.cs = chan_set_new(t)) == NULL ||
	    chan_set_register(s.cs, &sess_ops, &s) != 0)
		return 100;
	conn_loop(t, s.cs);
	chan_set_free(s.cs);
	return 0;
}

/* A refusal reaches agent_opened too (ok 0): an unanswered open
 * would leave the session hanging. */
static int
setup(struct chan_set *cs, void *arg)
{
	return agent_fwd_setup(cs, arg);
}

/* A socket at path that accepts and drops connections, in a child. */
static pid_t
fake_agent(const char *path)
{
	struct sockaddr_un sun;
	pid_t pid;
	int fd, c;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(fd, 8) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		for (;;)
			if ((c = accept(fd, NULL, NULL)) != -1)
				close(c);
	}
	close(fd);
	return pid;
}

/* One session; the server's report (its exit status) or -1. */
static int
run(int forward, const char *path)
{
	struct client_opts o;
	struct client_session_args a;
	struct agent_fwd *af;
	struct trp_peer p;
	int r, fds[3], i;

	if (trp_start(&p, &host, 1, server, NULL) != 0)
		return -1;
	memset(&o, 0, sizeof(o));
	o.escape_char = -1;
	o.log_level = LOG_LEVEL_ERROR;
	o.hostname = (char *)"h.example";
	o.forward_agent = forward;
	o.identity_agent = (char *)path;
	af = agent_fwd_new(&o);
	memset(&a, 0, sizeof(a));
	a.command = "true";
	a.stdin_null = 1;
	a.use_fds = 1;
	for (i = 0; i < 3; i++)
		fds[i] = open("/dev/null", O_RDWR);
	a.in_fd = fds[0];
	a.out_fd = fds[1];
	a.err_fd = fds[2];
	a.setup = setup;
	a.setup_arg = af;
	a.afwd = af;
	r = client_session(p.t, &o, &a);
	CHECK(trp_finish(&p) == 0);
	agent_fwd_free(af);
	for (i = 0; i < 3; i++)
		close(fds[i]);
	return r;
}

int
main(void)
{
	char dir[] = "/tmp/test_agentfwd.XXXXXX", *path;
	pid_t agent;

	signal(SIGPIPE, SIG_IGN);
	log_init("test_agentfwd", LOG_LEVEL_QUIET, 0, 1);
	CHECK_OK(key_generate(KEY_ED25519, 0, &host.key));
	CHECK_OK(key_demote(host.key, &host.pub));
	CHECK(mkdtemp(dir) != NULL);
	path = x_asprintf("%s/agent.sock", dir);
	agent = fake_agent(path);
	CHECK(agent > 0);
	/* A server opening an agent channel unasked is refused. */
	CHECK(run(0, path) == 0);
	/* Asked for once, and the agent channel is connected. */
	CHECK(run(1, path) == 1 + 2);
	/* Forwarding on but no agent answering: not asked, refused. */
	CHECK(run(1, "/nonexistent/agent.sock") == 0);
	if (agent > 0) {
		kill(agent, SIGTERM);
		waitpid(agent, NULL, 0);
	}
	unlink(path);
	rmdir(dir);
	x_free(path);
	key_free(host.key);
	key_free(host.pub);
	return TEST_DONE();
}
