/*
 * agentfwd.h: agent forwarding in ssh(1) (ForwardAgent, -A, -a), see
 * agentfwd.c.
 *
 * Use: agent_fwd_new(o) once the options are final; agent_fwd_setup()
 * on the connection's channel set (accepts the server's agent
 * channels); agent_fwd_request() when the session channel is open (at
 * most one request per connection); agent_fwd_free() after the
 * connection. The state must outlive the channel set.
 */
#ifndef MOAT_AGENTFWD_H
#define MOAT_AGENTFWD_H

#include "client.h"

struct chan_set;
struct chan;
struct agent_fwd;

struct agent_fwd *agent_fwd_new(const struct client_opts *o);
void agent_fwd_free(struct agent_fwd *af);
/* Register the agent channel types on cs; 0 or an error. */
int agent_fwd_setup(struct chan_set *cs, struct agent_fwd *af);
/*
 * Send auth-agent-req@openssh.com on session channel c when forwarding
 * is on, an agent answers and none was sent yet (af may be NULL).
 */
int agent_fwd_request(struct agent_fwd *af, const struct client_opts *o,
    struct chan_set *cs, struct chan *c);
/*
 * The same for a further session channel on the connection (a mux
 * client's that asked for it): sent whenever forwarding is on, whether
 * or not a request went before.
 */
int agent_fwd_request_more(struct agent_fwd *af, const struct client_opts *o,
    struct chan_set *cs, struct chan *c);

#endif
