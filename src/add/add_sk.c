/*
 * add_sk.c: ssh-add -K: the resident (discoverable) keys of a FIDO
 * authenticator, read through ssh-sk-helper with the middleware of -S
 * (else $SSH_SK_PROVIDER, else the built-in one), added to the agent
 * with that middleware as the key's provider, so the agent signs
 * through it. Messages and exit status are OpenSSH's.
 */
#include <stdio.h>

#include "add.h"
#include "agent.h"
#include "err.h"
#include "mem.h"
#include "sk_client.h"

/* Add one downloaded key; 0 or the agent's error, having said it. */
static int
add_one(struct add_opts *o, const struct key *k)
{
	struct agent_constraints cons = { o->lifetime, o->confirm,
	    o->maxsign, o->dest, o->sk_provider };
	char *fp = key_fingerprint(k, o->fp_hash);
	int r;

	if ((r = agent_add(o->fd, k, NULL, k->sk_application, &cons)) != 0)
		add_log("Unable to add key %s %s", key_short_name(k), fp);
	else if (!o->quiet) {
		fprintf(stderr, "Resident identity added: %s %s\n",
		    key_short_name(k), fp);
		if (o->lifetime != 0)
			fprintf(stderr, "Lifetime set to %d seconds\n",
			    (int)o->lifetime);
		if (o->confirm)
			fprintf(stderr, "The user must confirm each use of "
			    "the key\n");
	}
	x_free(fp);
	return r;
}

int
add_resident(struct add_opts *o)
{
	struct sk_where w = { o->sk_provider, NULL, NULL };
	struct skh_resident *keys = NULL;
	char *pin;
	size_t n = 0, i;
	int r, skerr = 0, ok = 0;

	pin = add_read_pass("Enter PIN for authenticator: ");
	w.pin = *pin != '\0' ? pin : NULL;
	r = skc_load_resident(&w, &keys, &n, &skerr);
	add_pass_free(pin);
	if (r != 0) {
		add_log("Unable to load resident keys: %s", skerr != 0 ?
		    skc_strerror(skerr) : err_str(r));
		return -1;
	}
	/* As OpenSSH's: the outcome is the first key's, once one is added. */
	for (i = 0; i < n; i++) {
		r = add_one(o, keys[i].key);
		if (ok == 0)
			ok = r == 0 ? 1 : -1;
	}
	skh_resident_free(keys, n);
	return n > 0 && ok == 1 ? 0 : -1;
}
