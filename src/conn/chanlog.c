/*
 * chanlog.c: log lines for refused peer requests, limited per connection.
 *
 * A peer can ask for what policy refuses (a session past MaxSessions, a
 * forward AllowTcpForwarding forbids, a subsystem that does not exist)
 * as often as it likes, and each refusal has a log line. So that one
 * connection cannot fill the logs, the set counts them: the first
 * CHAN_REFUSAL_LOG_FIRST are logged as usual; after that each is only
 * counted, and the count is logged at most once every
 * CHAN_REFUSAL_LOG_EVERY seconds while refusals keep coming, and once
 * more when the connection ends (chan_set_free) if any went unreported.
 */
#include <stdarg.h>

#include "chan_priv.h"
#include "channel.h"
#include "log.h"

static void
report(struct chan_set *cs, time_t now)
{
	if (cs->refusals_unlogged == 0)
		return;
	if (cs->peer_addr != NULL)
		log_info("Refused %lu more requests from %s port %d, not "
		    "logged one by one", cs->refusals_unlogged, cs->peer_addr,
		    cs->peer_port);
	else
		log_info("Refused %lu more requests, not logged one by one",
		    cs->refusals_unlogged);
	cs->refusals_unlogged = 0;
	cs->refusals_reported = now;
}

void
chan_log_refusal(struct chan_set *cs, int level, const char *fmt, ...)
{
	va_list ap;
	time_t now;

	if (cs->refusals_logged < CHAN_REFUSAL_LOG_FIRST) {
		if (++cs->refusals_logged == CHAN_REFUSAL_LOG_FIRST)
			cs->refusals_reported = chan_now();
		va_start(ap, fmt);
		log_vmsg(level, fmt, ap);
		va_end(ap);
		return;
	}
	cs->refusals_unlogged++;
	now = chan_now();
	if (now - cs->refusals_reported >= CHAN_REFUSAL_LOG_EVERY)
		report(cs, now);
}

void
chan_log_refusals_end(struct chan_set *cs)
{
	report(cs, chan_now());
}
