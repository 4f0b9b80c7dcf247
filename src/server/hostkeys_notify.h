/*
 * hostkeys_notify.h: the server's half of OpenSSH's host key rotation
 * (UpdateHostKeys in ssh; see src/conn/hkproof.h for the messages).
 */
#ifndef MOAT_HOSTKEYS_NOTIFY_H
#define MOAT_HOSTKEYS_NOTIFY_H

struct chan_set;
struct transport;

/*
 * Once the user has authenticated: send hostkeys-00@openssh.com on cs
 * with every host key of t (plain keys; certificates are never sent),
 * and answer the client's hostkeys-prove-00@openssh.com from then on.
 * Clients known not to cope with the message (OpenSSH's SSH_BUG_HOSTKEYS
 * list) are sent nothing. t must outlive cs.
 */
int hostkeys_notify(struct chan_set *cs, struct transport *t);

#endif
