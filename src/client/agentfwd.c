/*
 * agentfwd.c: the client's side of agent forwarding (OpenSSH's
 * PROTOCOL, "agent forwarding"): ForwardAgent, -A and -a.
 *
 * When forwarding is on, the session channel asks for it once per
 * connection with "auth-agent-req@openssh.com" (no reply wanted, as
 * ssh(1) sends it), after checking that the agent can be reached at
 * all: with no agent the request is left out, as there. The server then
 * opens an "auth-agent@openssh.com" channel for each program on its
 * side that talks to the agent; each is connected here to the agent's
 * socket (a Unix connect, which completes or fails at once), bound to
 * this connection's server with session-bind@openssh.com (forwarding
 * set) as ssh(1) does, and the channel layer then relays the bytes
 * both ways, never reading them: the agent judges its own requests.
 *
 * Which socket: ForwardAgent's path, or the variable "$VAR" names
 * (unset: no forwarding); for "yes" the one IdentityAgent names, else
 * $SSH_AUTH_SOCK. A channel the server opens when forwarding was not
 * asked for is refused, with ssh(1)'s two warning lines, since only a
 * hostile server does that.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "agentfwd.h"
#include "channel.h"
#include "err.h"
#include "fwd.h"
#include "log.h"
#include "mem.h"

struct agent_fwd {
	int enabled;		/* ForwardAgent; cleared with no agent */
	int requested;		/* auth-agent-req sent (once) */
	char *path;		/* the socket channels connect to, or NULL */
};

struct agent_fwd *
agent_fwd_new(const struct client_opts *o)
{
	struct agent_fwd *af = x_calloc(1, sizeof(*af));
	const char *s = o->forward_agent_sock, *v;

	af->enabled = o->forward_agent > 0;
	if (!af->enabled)
		return af;
	if (s == NULL)
		agent_socket_path(o->identity_agent, &af->path);
	else if (s[0] == '$' && s[1] != '{') {
		/* "$VAR": unset turns forwarding off, as in ssh(1). */
		if ((v = getenv(s + 1)) != NULL)
			af->path = x_strdup(v);
		else
			af->enabled = 0;
	} else
		af->path = x_strdup(s);
	return af;
}

void
agent_fwd_free(struct agent_fwd *af)
{
	if (af == NULL)
		return;
	x_free(af->path);
	x_free(af);
}

/*
 * ssh(1) asks for forwarding only when an agent answers at the socket
 * the session itself would use (IdentityAgent or $SSH_AUTH_SOCK), even
 * when ForwardAgent names another one.
 */
static int
agent_present(const struct client_opts *o)
{
	char *path = NULL;
	int fd, r;

	agent_socket_path(o->identity_agent, &path);
	if (path == NULL)
		return 0;
	r = agent_connect(path, &fd);
	x_free(path);
	if (r != 0) {
		log_debug("ssh_get_authentication_socket: %s",
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		return 0;
	}
	agent_close(fd);
	return 1;
}

int
agent_fwd_request(struct agent_fwd *af, const struct client_opts *o,
    struct chan_set *cs, struct chan *c)
{
	if (af == NULL || af->requested)
		return 0;
	return agent_fwd_request_more(af, o, cs, c);
}

int
agent_fwd_request_more(struct agent_fwd *af, const struct client_opts *o,
    struct chan_set *cs, struct chan *c)
{
	struct sbuf *b;

	if (af == NULL || !af->enabled)
		return 0;
	if (!agent_present(o)) {
		af->enabled = 0;
		return 0;
	}
	af->requested = 1;
	log_debug("Requesting authentication agent forwarding.");
	if ((b = chan_request_start(cs, c, "auth-agent-req@openssh.com",
	    0)) == NULL)
		return ERR_CONN_CLOSED;
	return chan_msg_send(cs);
}

/* The server opens a channel to the agent: connect it, or refuse. */
static int
agent_chan_open(struct chan_set *cs, struct chan *c, struct sbuf *extra,
    uint32_t *reasonp, const char **descp)
{
	struct agent_fwd *af = c->type_arg;
	int fd = -1, r = ERR_SYSTEM;

	(void)extra;	/* the type carries no fields */
	/* ssh(1) answers every refusal alike. */
	*reasonp = SSH2_OPEN_ADMINISTRATIVELY_PROHIBITED;
	*descp = "open failed";
	if (!af->enabled || !af->requested) {
		log_error("Warning: ssh server tried agent forwarding.");
		log_error("Warning: this is probably a break-in attempt by a "
		    "malicious server.");
		log_debug("failure %s", c->ops->type);
		return ERR_PERMISSION_DENIED;
	}
	if (af->path == NULL || (r = agent_connect(af->path, &fd)) != 0) {
		log_debug("ssh_get_authentication_socket: %s",
		    af->path == NULL ? "agent not present" :
		    r == ERR_SYSTEM ? strerror(errno) : err_str(r));
		log_debug("failure %s", c->ops->type);
		return ERR_SYSTEM;
	}
	/*
	 * Tell the agent, before any byte is relayed, which server this
	 * forwarded connection comes from (session-bind, forwarding set),
	 * so keys restricted to destinations stay where they may go.
	 */
	agent_bind_transport(fd, chan_set_transport(cs), 1,
	    "client_request_agent");
	log_debug("confirm %s", c->ops->type);
	chan_set_fds(c, fd, fd, -1, CHAN_EFD_NONE, 0);
	return 0;
}

static const struct chan_ops agent_ops = {
	.type = "auth-agent@openssh.com",
	.open = agent_chan_open,
};

/* The newer name OpenSSH's ssh also accepts for the same channel. */
static const struct chan_ops agent_connect_ops = {
	.type = "agent-connect",
	.open = agent_chan_open,
};

int
agent_fwd_setup(struct chan_set *cs, struct agent_fwd *af)
{
	int r;

	if ((r = chan_set_register(cs, &agent_ops, af)) != 0 ||
	    (r = chan_set_register(cs, &agent_connect_ops, af)) != 0)
		return r;
	return 0;
}
