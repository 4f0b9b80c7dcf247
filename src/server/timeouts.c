/*
 * timeouts.c: from sshd_config's ChannelTimeout to the seconds each
 * channel gets (see timeouts.h).
 *
 * The configuration keeps the words as written ("session:*=5m"), each
 * checked when it was read. A channel's interval is looked up when the
 * channel is made and when a session relabels it, which is rare enough
 * to parse the words each time rather than keep a table of our own.
 */
#include <stdint.h>
#include <string.h>

#include "channel.h"
#include "conf.h"
#include "log.h"
#include "match.h"
#include "mem.h"
#include "servconf.h"
#include "timeouts.h"

/* Channel types OpenSSH calls by another name than the wire's. */
static const struct {
	const char *wire, *name;
} renamed[] = {
	{ "auth-agent@openssh.com",	"agent-connection" },
	{ "x11",			"x11-connection" },
	{ "tun@openssh.com",		"tun-connection" },
};

/*
 * Split "pattern=interval": the pattern (caller frees) and the seconds,
 * or -1 for a word that is not one (never stored by the parser). A
 * count of seconds, not an error code.
 */
static long
split(const char *word, char **patternp)
{
	const char *eq = strchr(word, '=');
	long secs;

	*patternp = NULL;
	if (eq == NULL || eq == word || (secs = conf_parse_time(eq + 1)) < 0)
		return -1;
	*patternp = x_strndup(word, (size_t)(eq - word));
	return secs;
}

int
srv_channel_timeout(const struct servconf *sc, const char *type)
{
	const char *name = type;
	char *pattern;
	long secs;
	size_t i;
	int hit;

	for (i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(type, renamed[i].wire) == 0)
			name = renamed[i].name;
	for (i = 0; i < sc->nchannel_timeouts; i++) {
		if ((secs = split(sc->channel_timeouts[i], &pattern)) < 0)
			continue;
		hit = strcmp(pattern, "global") != 0 &&
		    match_pattern(name, pattern);
		x_free(pattern);
		if (hit)
			return secs > INT32_MAX ? INT32_MAX : (int)secs;
	}
	return 0;
}

int
srv_global_timeout(const struct servconf *sc)
{
	char *pattern;
	long secs, global = 0;
	size_t i;

	for (i = 0; i < sc->nchannel_timeouts; i++) {
		if ((secs = split(sc->channel_timeouts[i], &pattern)) < 0)
			continue;
		if (strcmp(pattern, "global") == 0)
			global = secs;
		x_free(pattern);
	}
	return global > INT32_MAX ? INT32_MAX : (int)global;
}

static int
lookup(void *arg, const char *type)
{
	return srv_channel_timeout(arg, type);
}

void
srv_timeouts_apply(struct chan_set *cs, const struct servconf *sc)
{
	int global = srv_global_timeout(sc);

	if (sc->nchannel_timeouts > 0 || sc->unused_connection_timeout > 0)
		log_debug2("channel timeouts: %zu patterns, global %d, unused "
		    "connection %d", sc->nchannel_timeouts, global,
		    sc->unused_connection_timeout);
	chan_set_timeouts(cs, sc->nchannel_timeouts > 0 ? lookup : NULL,
	    (void *)sc, global, sc->unused_connection_timeout);
}
