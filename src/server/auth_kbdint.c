/*
 * auth_kbdint.c: keyboard-interactive authentication (RFC 4256).
 *
 * The only device is "pam" (UsePAM yes): the authority runs the PAM
 * transaction it started for the user (authority_kbdint()), and each
 * PAM conversation call comes back here as one INFO_REQUEST /
 * INFO_RESPONSE round, blocking inside the handler until PAM is done. Without PAM there is no device, and the
 * method fails at once while still being offered, as OpenSSH does on
 * systems without BSD auth. AuthenticationMethods may name the device
 * ("keyboard-interactive:pam"); the client's submethods hint, when not
 * empty, must name it too.
 *
 * A client may give up on a round by sending a new USERAUTH_REQUEST:
 * that request is kept in the context, PAM is told the conversation
 * failed, no answer goes out for the abandoned request, and the main
 * loop handles the new one next.
 */
#include <string.h>

#include "auth_int.h"
#include "err.h"
#include "log.h"
#include "mem.h"

#define KBDINT_MAX_PROMPTS	32
#define KBDINT_DEVICE		"pam"

static int
read_response(struct sbuf *p, size_t n, char ***answersp)
{
	char **ans;
	uint32_t cnt, i;
	int r;

	if ((r = sbuf_get_u32(p, &cnt)) != 0)
		return ERR_PROTOCOL;
	if (cnt != n) {
		log_error("input_userauth_info_response: wrong number of "
		    "replies");
		return ERR_PROTOCOL;
	}
	ans = x_calloc(n + 1, sizeof(*ans));
	for (i = 0; i < cnt; i++)
		if ((r = sbuf_get_cstring(p, &ans[i], NULL)) != 0)
			break;
	if (r != 0 || sbuf_len(p) != 0) {
		for (i = 0; i < cnt; i++)
			if (ans[i] != NULL)
				x_freezero(ans[i], strlen(ans[i]));
		x_free(ans);
		return ERR_PROTOCOL;
	}
	*answersp = ans;
	return 0;
}

/* The PAM conversation, as INFO_REQUEST rounds (auth_pam_ask_fn). */
static int
kbd_ask(void *arg, const char *instruction, size_t n,
    const char *const *prompts, const int *echo, char ***answersp)
{
	struct authctxt *ac = arg;
	struct sbuf *m, *p;
	uint8_t type;
	size_t i;
	int r;

	*answersp = NULL;
	if (n > KBDINT_MAX_PROMPTS)
		return ERR_INVALID_ARGUMENT;
	if ((m = tr_msg_start(ac->t, SSH2_MSG_USERAUTH_INFO_REQUEST)) == NULL)
		return ERR_INTERNAL;
	if ((r = sbuf_put_cstring(m, "")) != 0 ||
	    (r = sbuf_put_cstring(m, instruction)) != 0 ||
	    (r = sbuf_put_cstring(m, "")) != 0 ||
	    (r = sbuf_put_u32(m, (uint32_t)n)) != 0)
		return r;
	for (i = 0; i < n; i++)
		if ((r = sbuf_put_cstring(m, prompts[i])) != 0 ||
		    (r = sbuf_put_u8(m, echo[i] ? 1 : 0)) != 0)
			return r;
	if ((r = tr_msg_send(ac->t)) != 0)
		return r;
	for (;;) {
		r = tr_wait_message(ac->t, &type, &p, -1);
		if (r != 0)
			return auth_wait_failed(ac, r);
		if (type == SSH2_MSG_USERAUTH_INFO_RESPONSE)
			return read_response(p, n, answersp);
		if (type == SSH2_MSG_USERAUTH_REQUEST) {
			ac->pending = sbuf_dup(p);
			return ERR_AGAIN;
		}
		log_debug("unexpected message type %u during "
		    "keyboard-interactive", type);
		if ((r = tr_unimplemented(ac->t)) != 0)
			return r;
	}
}

/* Whether a comma-separated hint list names dev. */
static int
hint_names(const char *hints, const char *dev)
{
	size_t l = strlen(dev);
	const char *p = hints;

	while (*p != '\0') {
		if (strncmp(p, dev, l) == 0 && (p[l] == ',' || p[l] == '\0'))
			return 1;
		if ((p = strchr(p, ',')) == NULL)
			break;
		p++;
	}
	return 0;
}

int
auth_m_kbdint(struct authctxt *ac, struct sbuf *req, enum auth_outcome *outp,
    char **infop)
{
	char *lang = NULL, *devs = NULL;
	int r, ok;

	*outp = AUTH_FAIL;
	if (sbuf_get_cstring(req, &lang, NULL) != 0 ||
	    sbuf_get_cstring(req, &devs, NULL) != 0 || sbuf_len(req) != 0) {
		r = ERR_PROTOCOL;
		goto out;
	}
	r = 0;
	log_debug("keyboard-interactive devs %s", devs);
	if (!ac->sc->use_pam || !ac->pam) {
		log_debug("kbdint: no devices");
		goto out;
	}
	if (*devs != '\0' && !hint_names(devs, KBDINT_DEVICE)) {
		log_debug("kbdint: client asked for devices \"%s\" only",
		    devs);
		goto out;
	}
	if (!auth_chains_allowed(ac->chains,
	    "keyboard-interactive:" KBDINT_DEVICE)) {
		log_debug("kbdint: device %s not allowed by "
		    "AuthenticationMethods", KBDINT_DEVICE);
		goto out;
	}
	ac->submethod = KBDINT_DEVICE;
	r = authority_kbdint(ac->auth, ac->user, kbd_ask, ac, &ok);
	if (r == 0 && ok)
		*outp = AUTH_SUCCESS;
	else if (r == ERR_AGAIN) {
		log_debug("kbdint: abandoned for a new request");
		*outp = AUTH_POSTPONED;
		r = 0;
	} else if (r == ERR_PERMISSION_DENIED ||
	    r == ERR_FEATURE_UNSUPPORTED)
		r = 0;
 out:
	x_free(lang);
	x_free(devs);
	return r;
}
