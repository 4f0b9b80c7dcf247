/*
 * add_card.c: ssh-add -s / -e provider: have the agent load a PKCS#11
 * module's keys (through its own ssh-pkcs11-helper) or drop them. The
 * PIN is asked here, as OpenSSH's ssh-add asks it, and sent with the
 * request; the agent logs in to the token once.
 */
#include <stdio.h>

#include "add.h"
#include "agent.h"

int
add_card(struct add_opts *o, const char *provider, int add)
{
	struct agent_constraints cons = {
		.lifetime = o->lifetime, .confirm = o->confirm, .dest = o->dest,
	};
	char *pin = NULL;
	int r;

	if (add)
		pin = add_read_pass("Enter passphrase for PKCS#11: ");
	r = agent_update_card(o->fd, add, provider, pin, &cons);
	add_pass_free(pin);
	if (r != 0) {
		fprintf(stderr, "Could not %s card \"%s\": %s\n",
		    add ? "add" : "remove", provider, add_agent_err(r));
		return -1;
	}
	if (!o->quiet)
		fprintf(stderr, "Card %s: %s\n", add ? "added" : "removed",
		    provider);
	return 0;
}
