/*
 * timeouts.h: sshd's ChannelTimeout and UnusedConnectionTimeout, put on
 * a connection's channel set (the connection layer enforces them: see
 * chan_set_timeouts() in src/conn/channel.h).
 */
#ifndef MOAT_TIMEOUTS_H
#define MOAT_TIMEOUTS_H

struct chan_set;
struct servconf;

/*
 * The seconds of inactivity ChannelTimeout allows a channel of type
 * (0: no limit): the first "pattern=interval" of sc whose pattern
 * matches OpenSSH's name for the type; "global" is never matched
 * (wildcards included). The wire names OpenSSH renames are mapped first:
 * auth-agent@openssh.com is agent-connection, x11 x11-connection,
 * tun@openssh.com tun-connection; others are used as they are.
 */
int srv_channel_timeout(const struct servconf *sc, const char *type);
/* The global= interval of sc's ChannelTimeout (the last one), or 0. */
int srv_global_timeout(const struct servconf *sc);
/*
 * Apply sc's ChannelTimeout and UnusedConnectionTimeout to cs, which
 * must not outlive sc. Sessions relabel their channels themselves
 * (session:shell, session:command, session:subsystem:NAME), as OpenSSH.
 */
void srv_timeouts_apply(struct chan_set *cs, const struct servconf *sc);

#endif
