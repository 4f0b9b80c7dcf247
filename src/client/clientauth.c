/*
 * clientauth.c: the client side of ssh-userauth (RFC 4252, RFC 4256).
 *
 * SERVICE_REQUEST "ssh-userauth", then a "none" request to learn the
 * methods the server will take. After each FAILURE the current method
 * gets to try again (the next key, another password), and once it has
 * nothing left we move to the next method in PreferredAuthentications
 * order that the server lists. A FAILURE with partial success set means
 * a step of an AuthenticationMethods chain was done: every method starts
 * afresh with the new list. Banners go to stderr (not at LogLevel QUIET).
 *
 * Methods are table rows (name, enabled by which option, next step,
 * handler for message 60). publickey lives in clientpubkey.c, hostbased
 * in clienthostbased.c.
 */
#include <stdio.h>
#include <string.h>

#include "clientauth_int.h"
#include "err.h"
#include "kexalg.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "transport.h"

#define DEFAULT_PREFERRED \
	"gssapi-with-mic,hostbased,publickey,keyboard-interactive,password"

static int pw_next(struct ca_ctx *c);
static int pw_msg60(struct ca_ctx *c, struct sbuf *p);
static int kbd_next(struct ca_ctx *c);
static int kbd_msg60(struct ca_ctx *c, struct sbuf *p);

static const struct ca_method {
	const char *name;
	int (*next)(struct ca_ctx *c);
	int (*msg60)(struct ca_ctx *c, struct sbuf *p);
} methods[] = {
	{ "hostbased", ca_hostbased_next, ca_hostbased_msg60 },
	{ "publickey", ca_pubkey_next, ca_pubkey_msg60 },
	{ "keyboard-interactive", kbd_next, kbd_msg60 },
	{ "password", pw_next, pw_msg60 },
};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

static const struct ca_method *
method_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NMETHODS; i++)
		if (strcmp(methods[i].name, name) == 0)
			return &methods[i];
	return NULL;
}

const char *
ca_next_method(const char *preferred, const char *server, const char *ours,
    const char *done)
{
	const struct ca_method *m;
	const char *p, *e;
	char name[64];
	size_t len;

	if (preferred == NULL)
		preferred = DEFAULT_PREFERRED;
	for (p = preferred; *p != '\0'; p = *e ? e + 1 : e) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		len = (size_t)(e - p);
		if (len == 0 || len >= sizeof(name))
			continue;
		memcpy(name, p, len);
		name[len] = '\0';
		if ((m = method_by_name(name)) == NULL ||
		    server == NULL || !match_list_contains(server, name) ||
		    (ours != NULL && !match_list_contains(ours, name)) ||
		    (done != NULL && match_list_contains(done, name)))
			continue;
		return m->name;
	}
	return NULL;
}

struct sbuf *
ca_request_start(struct ca_ctx *c, const char *method)
{
	struct sbuf *m = tr_msg_start(c->t, SSH2_MSG_USERAUTH_REQUEST);

	if (m == NULL || sbuf_put_cstring(m, c->user) != 0 ||
	    sbuf_put_cstring(m, "ssh-connection") != 0 ||
	    sbuf_put_cstring(m, method) != 0)
		return NULL;
	return m;
}

int
ca_ask(struct ca_ctx *c, const char *prompt, int echo, char **answerp)
{
	*answerp = NULL;
	if (c->o->batch_mode > 0)
		return ERR_PERMISSION_DENIED;
	return c->prompt(c->prompt_arg, prompt, echo, answerp);
}

static int
prompts_max(const struct ca_ctx *c)
{
	return c->o->number_of_password_prompts >= 0 ?
	    c->o->number_of_password_prompts : 3;
}

/* ---- password ---- */

static int
pw_next(struct ca_ctx *c)
{
	char *prompt, *pass = NULL;
	struct sbuf *m;
	int r;

	if (c->pw_tries >= prompts_max(c))
		return 0;
	if (c->pw_tries > 0)
		fprintf(stderr, "Permission denied, please try again.\n");
	c->pw_tries++;
	prompt = x_asprintf("%.30s@%.128s's password: ", c->user, c->host);
	r = ca_ask(c, prompt, 0, &pass);
	x_free(prompt);
	if (r != 0)
		return 0;
	if ((m = ca_request_start(c, "password")) == NULL ||
	    sbuf_put_u8(m, 0) != 0 || sbuf_put_cstring(m, pass) != 0)
		r = ERR_INTERNAL;
	else
		r = tr_msg_send(c->t);
	x_freezero(pass, strlen(pass));
	return r == 0 ? 1 : r;
}

/* PASSWD_CHANGEREQ: we do not change passwords; treat as a failure. */
static int
pw_msg60(struct ca_ctx *c, struct sbuf *p)
{
	fprintf(stderr, "Password change required but not supported.\n");
	c->pw_tries = prompts_max(c);
	return 0;
}

/* ---- keyboard-interactive (RFC 4256) ---- */

static int
kbd_next(struct ca_ctx *c)
{
	struct sbuf *m;
	int r;

	if (c->kbd_tries >= prompts_max(c))
		return 0;
	c->kbd_tries++;
	c->kbd_in_info = 0;
	if ((m = ca_request_start(c, "keyboard-interactive")) == NULL ||
	    sbuf_put_cstring(m, "") != 0 ||	/* language */
	    sbuf_put_cstring(m, c->o->kbd_interactive_devices != NULL ?
	    c->o->kbd_interactive_devices : "") != 0)	/* submethods */
		return ERR_INTERNAL;
	return (r = tr_msg_send(c->t)) == 0 ? 1 : r;
}

/* Print server text, with control characters made visible. */
static void
print_safe(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\t' || *p >= 0x20)
			fputc(*p, f);
		else if (*p != '\r')
			fprintf(f, "\\%03o", *p);
	}
}

/*
 * INFO_REQUEST: show name and instruction, answer each prompt (a round
 * without prompts gets an answer without responses). 1: answered.
 */
static int
kbd_msg60(struct ca_ctx *c, struct sbuf *p)
{
	char *name = NULL, *instr = NULL, *lang = NULL, *prompt = NULL;
	char **answers = NULL;
	uint32_t n = 0, i;
	int echo, r;
	struct sbuf *m;

	if ((r = sbuf_get_cstring(p, &name, NULL)) != 0 ||
	    (r = sbuf_get_cstring(p, &instr, NULL)) != 0 ||
	    (r = sbuf_get_cstring(p, &lang, NULL)) != 0 ||
	    (r = sbuf_get_u32(p, &n)) != 0)
		goto out;
	if (n > 100) {
		r = ERR_PROTOCOL;
		goto out;
	}
	c->kbd_in_info = 1;
	if (*name != '\0') {
		print_safe(stderr, name);
		fputc('\n', stderr);
	}
	if (*instr != '\0') {
		print_safe(stderr, instr);
		fputc('\n', stderr);
	}
	answers = x_calloc(n + 1, sizeof(*answers));
	for (i = 0; i < n; i++) {
		if ((r = sbuf_get_cstring(p, &prompt, NULL)) != 0 ||
		    (r = sbuf_get_bool(p, &echo)) != 0)
			goto out;
		if (ca_ask(c, prompt, echo, &answers[i]) != 0)
			answers[i] = x_strdup("");
		x_free(prompt);
		prompt = NULL;
	}
	if ((m = tr_msg_start(c->t, SSH2_MSG_USERAUTH_INFO_RESPONSE)) ==
	    NULL || sbuf_put_u32(m, n) != 0) {
		r = ERR_INTERNAL;
		goto out;
	}
	for (i = 0; i < n; i++)
		if ((r = sbuf_put_cstring(m, answers[i])) != 0)
			goto out;
	if ((r = tr_msg_send(c->t)) == 0)
		r = 1;
 out:
	if (answers != NULL) {
		for (i = 0; i < n; i++)
			if (answers[i] != NULL)
				x_freezero(answers[i], strlen(answers[i]));
		x_free(answers);
	}
	x_free(name);
	x_free(instr);
	x_free(lang);
	x_free(prompt);
	return r;
}

/* ---- the loop ---- */

static void
show_banner(struct ca_ctx *c, struct sbuf *p)
{
	char *msg = NULL;

	if (sbuf_get_cstring(p, &msg, NULL) != 0)
		return;
	if (c->o->log_level != 0)	/* LOG_LEVEL_QUIET */
		print_safe(stderr, msg);
	x_free(msg);
}

static char *
ours_list(const struct client_opts *o)
{
	return x_asprintf("%s%s%s%s",
	    o->hostbased_authentication > 0 ? "hostbased," : "",
	    o->pubkey_authentication != 0 ? "publickey," : "",
	    o->kbd_interactive_authentication != 0 ?
	    "keyboard-interactive," : "",
	    o->password_authentication != 0 ? "password" : "");
}

static void
done_add(char **done, const char *name)
{
	char *n = x_asprintf("%s%s%s", *done, **done ? "," : "", name);

	x_free(*done);
	*done = n;
}

/*
 * After a FAILURE: let the current method go on, or pick the next one.
 * Returns 1 when a request went out, 0 when nothing is left.
 */
static int
advance(struct ca_ctx *c, const struct ca_method **curp, const char *server,
    const char *ours, char **done)
{
	const char *name;
	int r;

	for (;;) {
		if (*curp != NULL && match_list_contains(server,
		    (*curp)->name)) {
			if ((r = (*curp)->next(c)) != 0)
				return r;
			done_add(done, (*curp)->name);
		}
		name = ca_next_method(c->o->preferred_authentications,
		    server, ours, *done);
		if (name == NULL)
			return 0;
		*curp = method_by_name(name);
		log_debug("Next authentication method: %s", name);
	}
}

static int
service_request(struct ca_ctx *c)
{
	struct sbuf *m, *p;
	char *svc = NULL;
	uint8_t type;
	int r;

	if ((m = tr_msg_start(c->t, SSH2_MSG_SERVICE_REQUEST)) == NULL ||
	    sbuf_put_cstring(m, "ssh-userauth") != 0)
		return ERR_INTERNAL;
	if ((r = tr_msg_send(c->t)) != 0 ||
	    (r = tr_wait_message(c->t, &type, &p, -1)) != 0)
		return r;
	if (type != SSH2_MSG_SERVICE_ACCEPT)
		return ERR_PROTOCOL;
	if ((r = sbuf_get_cstring(p, &svc, NULL)) != 0)
		return r;
	if (strcmp(svc, "ssh-userauth") != 0)
		r = ERR_PROTOCOL;
	x_free(svc);
	return r;
}

/*
 * WarnWeakCrypto (OpenSSH 10.1+): after the first key exchange, say so
 * when it was not post-quantum, in OpenSSH's words. As OpenSSH's, only
 * when KexAlgorithms is the default: whoever chose the list (even with
 * "+") chose what it allows.
 */
static void
warn_weak_kex(const struct ca_ctx *c)
{
	const struct kex_alg *k = kexalg_by_name(tr_negotiated(c->t, "kex"));

	if (c->o->warn_weak_crypto == 0 || c->o->kex_algorithms_given ||
	    k == NULL ||
	    k->kind == KEX_KIND_KEM)
		return;
	log_info("** WARNING: connection is not using a post-quantum key "
	    "exchange algorithm.");
	log_info("** This session may be vulnerable to \"store now, decrypt "
	    "later\" attacks.");
	log_info("** The server may need to be upgraded. See "
	    "https://openssh.com/pq.html");
}

static void
reset_methods(struct ca_ctx *c)
{
	c->pw_tries = 0;
	c->kbd_tries = 0;
	ca_pubkey_reset(c);
	ca_hostbased_reset(c);
}

/* The context of one authentication, before anything is sent. */
static void
ctx_init(struct ca_ctx *c, struct transport *t, const struct client_opts *o,
    const char *user, const char *host_for_prompts,
    const struct client_auth_args *a)
{
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->o = o;
	c->hb_cur = -1;
	c->user = user;
	c->host = host_for_prompts != NULL ? host_for_prompts : "";
	c->prompt = a != NULL && a->prompt != NULL ? a->prompt :
	    client_read_passphrase;
	c->prompt_arg = a != NULL && a->prompt != NULL ? a->prompt_arg :
	    (void *)o;
}

int
client_auth_ex(struct transport *t, const struct client_opts *o,
    const char *user, const char *host_for_prompts,
    struct client_auth_args *a)
{
	struct ca_ctx c;
	const struct ca_method *cur = NULL;
	char *server = NULL, *prev, *ours = NULL, *done = x_strdup("");
	struct sbuf *p;
	uint8_t type;
	int partial, r;

	ctx_init(&c, t, o, user, host_for_prompts, a);
	if (a != NULL)
		a->method = NULL;
	ours = ours_list(o);
	if ((r = service_request(&c)) != 0)
		goto out;
	/*
	 * After the first key exchange (done once the service is
	 * accepted): the agent is bound to this server before its keys
	 * are listed, as ssh(1) does.
	 */
	if (o->pubkey_authentication != 0)
		ca_identities_load(&c);
	warn_weak_kex(&c);
	if (ca_request_start(&c, "none") == NULL) {
		r = ERR_INTERNAL;
		goto out;
	}
	if ((r = tr_msg_send(t)) != 0)
		goto out;
	for (;;) {
		if ((r = tr_wait_message(t, &type, &p, -1)) != 0)
			goto out;
		switch (type) {
		case SSH2_MSG_USERAUTH_BANNER:
			show_banner(&c, p);
			continue;
		case SSH2_MSG_USERAUTH_SUCCESS:
			tr_set_authenticated(t);
			log_debug("Authentication succeeded (%s).",
			    cur != NULL ? cur->name : "none");
			if (a != NULL)
				a->method = x_strdup(cur != NULL ?
				    cur->name : "none");
			r = 0;
			goto out;
		case SSH2_MSG_USERAUTH_FAILURE:
			prev = server;
			server = NULL;
			if ((r = sbuf_get_cstring(p, &server, NULL)) != 0 ||
			    (r = sbuf_get_bool(p, &partial)) != 0) {
				x_free(prev);
				goto out;
			}
			log_debug("Authentications that can continue: %s",
			    server);
			/*
			 * Some servers keep the flag set after the first
			 * partial success: a new step is one that changed
			 * the list, or the answer to a signed request (two
			 * publickey steps leave the list as it was).
			 */
			if (partial && (prev == NULL || c.signed_sent ||
			    strcmp(prev, server) != 0)) {
				log_verbose("Authenticated using \"%s\" with "
				    "partial success.",
				    cur != NULL ? cur->name : "none");
				if (c.id_cur != NULL)
					c.id_cur->used = 1;
				reset_methods(&c);
				x_free(done);
				done = x_strdup("");
			}
			x_free(prev);
			c.id_cur = NULL;
			c.hb_cur = -1;
			c.signed_sent = 0;
			if ((r = advance(&c, &cur, server, ours, &done)) < 0)
				goto out;
			if (r == 0) {
				r = ERR_PERMISSION_DENIED;
				goto out;
			}
			continue;
		case SSH2_MSG_USERAUTH_PK_OK:	/* also INFO_REQUEST... */
			if (cur == NULL) {
				r = ERR_PROTOCOL;
				goto out;
			}
			if ((r = cur->msg60(&c, p)) < 0)
				goto out;
			/* Nothing was sent: go on as after a failure. */
			if (r == 0 && (r = advance(&c, &cur, server, ours,
			    &done)) <= 0) {
				if (r == 0)
					r = ERR_PERMISSION_DENIED;
				goto out;
			}
			continue;
		default:
			log_debug("userauth: unexpected message %u", type);
			r = ERR_PROTOCOL;
			goto out;
		}
	}
 out:
	if (a != NULL && server != NULL) {
		x_free(a->last_methods);
		a->last_methods = x_strdup(server);
	}
	ca_identities_free(&c);
	ca_hostbased_free(&c);
	x_free(server);
	x_free(ours);
	x_free(done);
	return r;
}

int
client_auth(struct transport *t, const struct client_opts *o,
    const char *user, const char *host_for_prompts)
{
	return client_auth_ex(t, o, user, host_for_prompts, NULL);
}
