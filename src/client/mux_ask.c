/*
 * mux_ask.c: ControlMaster ask and autoask, the master's questions to
 * the user through SSH_ASKPASS (or the terminal) before it serves a
 * client's session, -W, forwarding, proxy mode, -O exit or -O stop, in
 * ssh(1)'s words.
 */
#include <string.h>
#include <strings.h>

#include "client.h"
#include "fwd.h"
#include "mem.h"
#include "mux_int.h"

/*
 * ControlMaster ask/autoask: the user says yes to each request (the
 * question as ssh(1) words it, ending in what, else the host); an
 * empty answer is yes, no answer at all (askpass failed) no. The loop
 * waits meanwhile, as ssh(1)'s does.
 */
int
mux_allowed(struct mux_master *mm, const char *question, const char *what)
{
	char *prompt, *ans = NULL;
	int ok;

	if (mm->o->control_master != MUX_ASK &&
	    mm->o->control_master != MUX_AUTOASK)
		return 1;
	prompt = x_asprintf("%s%s? ", question, what != NULL ? what :
	    mm->host);
	ok = client_read_passphrase((void *)mm->o, prompt,
	    CLIENT_PROMPT_CONFIRM, &ans) == 0 && ans != NULL &&
	    (strcasecmp(ans, "yes") == 0 || strcasecmp(ans, "y") == 0 ||
	    *ans == '\0');
	x_free(ans);
	x_free(prompt);
	return ok;
}

/*
 * The ask/autoask question for a forwarding, in ssh(1)'s words: "Open
 * local forward LOCALHOST:8080 -> web:80 on HOST?" (a socket path shows
 * with port -2, a dynamic forward's target as "*").
 */
int
mux_fwd_allowed(struct mux_master *mm, int kind, const struct fwd_spec *f)
{
	char *q, *to;
	int ok;

	if (kind == 'D')
		to = x_strdup("*");
	else if (f->connect_path != NULL)
		to = x_asprintf("%s:-2", f->connect_path);
	else
		to = x_asprintf("%s:%d", f->connect_host, f->connect_port);
	if (f->listen_path != NULL)
		q = x_asprintf("Open %s forward %s:-2 -> %s on ",
		    kind == 'L' ? "local" : kind == 'R' ? "remote" : "dynamic",
		    f->listen_path, to);
	else
		q = x_asprintf("Open %s forward %s:%d -> %s on ",
		    kind == 'L' ? "local" : kind == 'R' ? "remote" : "dynamic",
		    f->listen_host != NULL ? f->listen_host : "LOCALHOST",
		    f->listen_port, to);
	ok = mux_allowed(mm, q, NULL);
	x_free(q);
	x_free(to);
	return ok;
}
