/*
 * add_dest.c: ssh-add -h, destination constraints (OpenSSH's
 * restrict-destination-v00@openssh.com key constraint, PROTOCOL.agent).
 *
 * A constraint "[from>][user@]host" names the hops a key may be used
 * for: from the host "from" (or from this machine, when left out) to
 * "host" as "user". Each named host must have keys in the known_hosts
 * files (-H, else ~/.ssh/known_hosts, ~/.ssh/known_hosts2 and the
 * system's two): they go along, @cert-authority ones flagged as CAs,
 * so that the agent can check the hops by the host keys ssh binds to
 * its connections.
 *
 * On the wire each constraint is a string holding: string from-hop,
 * string to-hop, string reserved; a hop is string user, string host,
 * string reserved, then for each key string blob, bool is_ca.
 */
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "add.h"
#include "err.h"
#include "hostfile.h"
#include "mem.h"
#include "sbuf.h"

static const char *const system_files[] = {
	"/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2",
};

struct keys_arg {
	struct sbuf *hop;
	int found;
};

static int
add_host_key(struct hostfile_line *l, void *arg)
{
	struct keys_arg *a = arg;
	struct sbuf *blob;
	int r;

	if (l->status != HOSTFILE_LINE_MATCHED || l->key == NULL ||
	    l->marker == HOSTFILE_MARK_REVOKED)
		return 0;
	blob = sbuf_new();
	if ((r = key_to_blob(l->key, blob)) == 0 &&
	    (r = sbuf_put_stringb(a->hop, blob)) == 0)
		r = sbuf_put_u8(a->hop, l->marker == HOSTFILE_MARK_CA);
	sbuf_free(blob);
	if (r == 0)
		a->found++;
	return r;
}

/* The known_hosts keys of host into hop; how many. */
static int
host_keys(const struct add_opts *o, const char *host, struct sbuf *hop)
{
	struct keys_arg a = { hop, 0 };
	struct passwd *pw;
	char *lower = x_strdup(host), *path, *p;
	size_t i;

	for (p = lower; *p != '\0'; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	if (o->nhostfiles > 0) {
		for (i = 0; i < o->nhostfiles; i++)
			(void)hostfile_foreach(o->hostfiles[i], lower, NULL,
			    add_host_key, &a);
	} else {
		if ((pw = getpwuid(getuid())) != NULL) {
			path = x_asprintf("%s/.ssh/known_hosts", pw->pw_dir);
			(void)hostfile_foreach(path, lower, NULL,
			    add_host_key, &a);
			x_free(path);
			path = x_asprintf("%s/.ssh/known_hosts2", pw->pw_dir);
			(void)hostfile_foreach(path, lower, NULL,
			    add_host_key, &a);
			x_free(path);
		}
		for (i = 0; i < sizeof(system_files) / sizeof(*system_files);
		    i++)
			(void)hostfile_foreach(system_files[i], lower, NULL,
			    add_host_key, &a);
	}
	x_free(lower);
	return a.found;
}

/*
 * One hop "[user@]host" appended to c as a string; 1 when it names a
 * user (which a "from" hop may not: checked once both hops are read,
 * as OpenSSH does).
 */
static int
put_hop(const struct add_opts *o, const char *text, struct sbuf *c)
{
	struct sbuf *hop = sbuf_new();
	char *copy = x_strdup(text), *user = NULL, *host = copy, *at;

	if (*text == '\0')
		add_fatal("Invalid key destination constraint \"%s\": does "
		    "not specify user or host", text);
	if ((at = strchr(copy, '@')) != NULL) {
		*at = '\0';
		user = copy;
		host = at + 1;
	}
	if (sbuf_put_cstring(hop, user != NULL ? user : "") != 0 ||
	    sbuf_put_cstring(hop, host) != 0 ||
	    sbuf_put_cstring(hop, "") != 0)
		add_fatal("out of memory");
	if (*host != '\0' && host_keys(o, host, hop) == 0)
		add_fatal("No host keys found for destination \"%s\"", host);
	if (sbuf_put_stringb(c, hop) != 0)
		add_fatal("out of memory");
	sbuf_free(hop);
	x_free(copy);
	return user != NULL;
}

/* An empty "from" hop: from this machine. */
static void
put_local_hop(struct sbuf *c)
{
	struct sbuf *hop = sbuf_new();

	if (sbuf_put_cstring(hop, "") != 0 || sbuf_put_cstring(hop, "") != 0 ||
	    sbuf_put_cstring(hop, "") != 0 || sbuf_put_stringb(c, hop) != 0)
		add_fatal("out of memory");
	sbuf_free(hop);
}

void
add_dest_constraint(struct add_opts *o, const char *spec)
{
	struct sbuf *c = sbuf_new();
	char *copy = x_strdup(spec), *gt;
	int from_user;

	if ((gt = strchr(copy, '>')) != NULL) {
		*gt = '\0';
		from_user = put_hop(o, copy, c);
		(void)put_hop(o, gt + 1, c);
		if (from_user)
			add_fatal("Invalid key constraint %s: cannot specify "
			    "user on 'from' host", copy);
	} else {
		put_local_hop(c);
		(void)put_hop(o, copy, c);
	}
	if (sbuf_put_cstring(c, "") != 0)
		add_fatal("out of memory");
	if (o->dest == NULL)
		o->dest = sbuf_new();
	if (sbuf_put_stringb(o->dest, c) != 0)
		add_fatal("out of memory");
	sbuf_free(c);
	x_free(copy);
}
