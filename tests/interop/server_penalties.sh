#!/bin/sh
# PerSourcePenalties and PerSourceMaxStartups, as OpenSSH 9.8+ has them,
# with clients bound to other 127.x source addresses:
#  - failed logins from 127.0.0.2 get it refused ("Not allowed at this
#    time", OpenSSH's log lines) while 127.0.0.1 logs in; once the
#    penalty expires 127.0.0.2 logs in again;
#  - PerSourcePenaltyExemptList: an exempt source is never refused while
#    another one failing the same way is;
#  - an unknown user earns "invaliduser", a failed key "authfail";
#  - LoginGraceTime passed, and a connection process that crashes
#    (SIGABRT, as from abort(); not SIGSEGV, which a sanitizer build
#    turns into an exit), penalise their source; SIGTERM does not;
#  - PerSourceMaxStartups 2 (and PerSourceNetBlockSize 24): the third
#    unauthenticated connection from a block is dropped, other blocks
#    are served;
#  - overflow:deny-all with a full table refuses every source not exempt;
#  - a flood from one source neither fills MaxStartups nor locks others
#    out, and its drops are logged at a bounded rate;
#  - sshd -T prints the four keywords as OpenSSH 10.5's sshd -T does.
. "$(dirname "$0")/lib.sh"
need ssh
need ssh-keygen
make_keys
H="$(dirname "$0")/penalty_helper.py"
ssh-keygen -q -t ed25519 -N '' -f "$T/id_wrong" -C wrong
ulimit -c 0	# the SIGABRT below leaves no core file

probe() { "$PY" "$H" probe "$1" "$PORT"; }
# A failed public-key login from source address $1.
fail_login() { ID="$T/id_wrong" ossh -b "$1" "$ME@127.0.0.1" true 2>/dev/null; }
login() { ossh -b "$1" "$ME@127.0.0.1" "echo in-$1" 2>/dev/null; }
logged() { grep -q -- "$1" "$T/sshd.log"; }
# The one connection process of our sshd (the listener's child).
conn_pid() { ps -o pid= --ppid "$SSHD_PID" | tr -d ' ' | head -n 1; }
# Up to 10 s for every connection process to end and be reaped: the
# listener gives a source its penalty when it reaps the process, which
# can be well after the client saw the connection close (a sanitizer
# build's exit-time leak check, a loaded machine).
settle() {
	_i=0
	while [ -n "$(conn_pid)" ] && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
}

# (1) Failed logins: refused for the penalty, then served again. One
# failure (5 s) stays below min (8 s); a second before the first's 5 s
# are out activates it, capped at 9 s. (5 s between two failures: a
# sanitizer build on a busy machine takes more than 2 s for one.)
PENALTIES="authfail:5s noauth:0 min:8s max:9s"
restart_sshd
for i in 1 2 3; do fail_login 127.0.0.2; done
settle
check "127.0.0.2 refused after failed logins" [ "$(probe 127.0.0.2)" = refused ]
check "127.0.0.1 still logs in" [ "$(login 127.0.0.1)" = in-127.0.0.1 ]
check "penalty activation logged" logged \
    "^srclimit_penalise: 127.0.0.2/32: activating ipv4 penalty of [0-9.]* seconds for penalty: failed authentication$"
check "refusal logged" logged \
    "^drop connection #[0-9]* from \[127.0.0.2\]:[0-9]* on \[127.0.0.1\]:$PORT penalty: failed authentication$"
sleep 9.2
check "127.0.0.2 logs in once the penalty expired" \
    [ "$(login 127.0.0.2)" = in-127.0.0.2 ]

# (2) The exemption list.
# (Penalties long enough to outlast a slow machine's probes: nothing
# here waits for them to expire.)
PENALTIES="authfail:10s noauth:0 min:1s max:20s"
restart_sshd "PerSourcePenaltyExemptList 10.0.0.0/8,127.0.0.2"
for i in 1 2 3; do fail_login 127.0.0.2; fail_login 127.0.0.3; done
settle
check "127.0.0.3, not exempt, refused" [ "$(probe 127.0.0.3)" = refused ]
check "exempt 127.0.0.2 never refused" [ "$(probe 127.0.0.2)" = served ]
check "exempt 127.0.0.2 logs in" [ "$(login 127.0.0.2)" = in-127.0.0.2 ]

# (2b) Kinds: a user that does not exist, asked for with "none" only,
# earns invaliduser; here a failed key of a real user earns nothing.
PENALTIES="invaliduser:10s authfail:0 noauth:0 min:5s"
restart_sshd
ossh -o PreferredAuthentications=gssapi-with-mic -b 127.0.0.11 \
    "nosuchuser$$@127.0.0.1" true 2>/dev/null
fail_login 127.0.0.12
settle
check "127.0.0.11 refused after an invalid user" [ "$(probe 127.0.0.11)" = refused ]
check "invalid-user refusal logged" logged \
    "^drop connection #[0-9]* from \[127.0.0.11\]:[0-9]* on \[127.0.0.1\]:$PORT penalty: attempted authentication by invalid user$"
check "127.0.0.12 (authfail:0) served" [ "$(probe 127.0.0.12)" = served ]

# (3) LoginGraceTime passed.
PENALTIES="grace-exceeded:20s noauth:0 min:5s"
restart_sshd "LoginGraceTime 2"
"$PY" "$H" grace 127.0.0.3 "$PORT" 6
check "connection from 127.0.0.3 cut at LoginGraceTime" [ $? -eq 0 ]
settle
check "127.0.0.3 refused after LoginGraceTime" [ "$(probe 127.0.0.3)" = refused ]
check "127.0.0.1 still served" [ "$(probe 127.0.0.1)" = served ]
check "grace penalty logged" logged \
    "^srclimit_penalise: ipv4: new 127.0.0.3/32 active penalty of 20.000 seconds for penalty: exceeded LoginGraceTime$"
check "grace refusal logged" logged \
    "^drop connection #[0-9]* from \[127.0.0.3\]:[0-9]* on \[127.0.0.1\]:$PORT penalty: exceeded LoginGraceTime$"

# (4) A crash (SIGABRT) penalises; SIGTERM, an administrator's, does not.
PENALTIES="crash:20s noauth:0 min:5s"
restart_sshd
for sig in ABRT TERM; do
	src=127.0.0.4
	[ $sig = TERM ] && src=127.0.0.5
	i=0
	while [ -n "$(conn_pid)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$PY" "$H" hold "$src" "$PORT" 1 5 > "$T/hold.out" &
	HOLD=$!
	i=0
	while [ -z "$(conn_pid)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	pid=$(conn_pid)
	kill -$sig "$pid"
	sleep 0.5
	kill "$HOLD" 2>/dev/null
	wait "$HOLD" 2>/dev/null
	echo "connection process $pid from $src killed by SIG$sig"
done
check "127.0.0.4 refused after its connection process crashed" \
    [ "$(probe 127.0.0.4)" = refused ]
check "127.0.0.5 served after SIGTERM" [ "$(probe 127.0.0.5)" = served ]
check "crash logged" logged \
    "^session process [0-9]* for connection from 127.0.0.4 to 127.0.0.1 killed by signal 6$"
check "crash refusal logged" logged \
    "^drop connection #[0-9]* from \[127.0.0.4\]:[0-9]* on \[127.0.0.1\]:$PORT penalty: caused crash$"

# (5) PerSourceMaxStartups 2 over /24 blocks.
PENALTIES=no
restart_sshd "PerSourceMaxStartups 2" "PerSourceNetBlockSize 24"
"$PY" "$H" hold 127.0.0.6 "$PORT" 2 3 > "$T/hold.out" &
HOLD=$!
sleep 1
check "two connections from 127.0.0.6 served" grep -qx "served 2" "$T/hold.out"
check "a third from 127.0.0.6 dropped" [ "$(probe 127.0.0.6)" = dropped ]
check "127.0.0.7, same /24, dropped" [ "$(probe 127.0.0.7)" = dropped ]
check "127.0.1.1, another /24, served" [ "$(probe 127.0.1.1)" = served ]
check "drop logged" logged \
    "^drop connection #2 from \[127.0.0.6\]:[0-9]* on \[127.0.0.1\]:$PORT past MaxStartups$"
wait "$HOLD"

# (6) overflow:deny-all: one penalised source fills a table of one.
PENALTIES="authfail:3s noauth:0 min:1s max-sources4:1 overflow:deny-all"
restart_sshd "PerSourcePenaltyExemptList 127.0.0.9"
fail_login 127.0.0.2
settle
check "deny-all: 127.0.0.1 refused while the table is full" \
    [ "$(probe 127.0.0.1)" = refused ]
check "deny-all: exempt 127.0.0.9 served" [ "$(probe 127.0.0.9)" = served ]
check "deny-all refusal logged" logged \
    "^drop connection #[0-9]* from \[127.0.0.1\]:[0-9]* on \[127.0.0.1\]:$PORT too many penalised addresses$"
sleep 3
check "deny-all: 127.0.0.1 served once the entry expired" \
    [ "$(probe 127.0.0.1)" = served ]

# (7) Floods from one source lock no one else out. (a) Connections that
# leave at once: the source is soon refused, and its drops are logged
# at a bounded rate. (b) Connections held open: PerSourceMaxStartups
# keeps them from filling MaxStartups. One connection's penalty reaches
# min, so the refusals start after the first connection process ends
# (a connection costs a re-executed sshd and a sandboxed child first:
# half a second under the sanitizers).
PENALTIES="noauth:3s min:3s max:10s"
restart_sshd
"$PY" "$H" flood 127.0.0.8 "$PORT" 3 > "$T/flood.out" &
FL=$!
sleep 0.3
ok=0
for n in 1 2 3; do
	[ "$(login 127.0.0.1)" = in-127.0.0.1 ] && ok=$((ok + 1))
done
wait "$FL"
echo "flood: $(cat "$T/flood.out")"
check "logins from 127.0.0.1 during the flood ($ok of 3)" [ $ok -eq 3 ]
refused=$(sed -n 's/.*refused \([0-9]*\).*/\1/p' "$T/flood.out")
check "the flood's source refused (${refused:-0} times)" \
    [ "${refused:-0}" -ge 20 ]
lines=$(grep -c "^drop connection .*\[127.0.0.8\].* penalty:" "$T/sshd.log")
bounded() { [ "$lines" -ge 1 ] && [ "$lines" -lt "${refused:-0}" ] &&
    [ "$lines" -le 20 ]; }
check "its drops logged at a bounded rate ($lines lines)" bounded

PENALTIES=no
restart_sshd "PerSourceMaxStartups 3" "MaxStartups 10:30:20"
"$PY" "$H" hold 127.0.0.10 "$PORT" 30 4 > "$T/hold.out" &
FH=$!
sleep 2
ok=0
for n in 1 2 3; do
	[ "$(login 127.0.0.1)" = in-127.0.0.1 ] && ok=$((ok + 1))
done
wait "$FH"
check "3 of 30 held from 127.0.0.10 served ($(cat "$T/hold.out"))" \
    grep -qx "served 3" "$T/hold.out"
check "logins from 127.0.0.1 meanwhile ($ok of 3)" [ $ok -eq 3 ]

# (8) sshd -T against OpenSSH 10.5's for the same settings.
if O105=$(sh "$SRC/scripts/peer_openssh.sh" -q 2>/dev/null) &&
    [ -x "$O105/sbin/sshd" ]; then
	n=0
	for cfg in "" "PerSourcePenalties no" \
	    "PerSourcePenalties crash:1.5 authfail:1m30s noauth:0 max-sources4:7 overflow:deny-all" \
	    "PerSourcePenalties overflow6:deny-all grace-exceeded:1h1m1.25 min:2 max:1w" \
	    "PerSourcePenalties no
PerSourcePenalties authfail:3" \
	    "PerSourcePenaltyExemptList 127.0.0.*,!10.0.0.1,::1/128" \
	    "PerSourceNetBlockSize 24:64" "PerSourceNetBlockSize 16" \
	    "PerSourceMaxStartups 5" "PerSourceMaxStartups none"; do
		n=$((n + 1))
		printf 'HostKey %s\n%s\n' "$T/host_ed25519" "$cfg" > "$T/tconf"
		"$O105/sbin/sshd" -T -f "$T/tconf" 2>&1 | grep -i '^persource' |
		    awk '{ $1 = tolower($1); print }' | sort > "$T/theirs"
		"$BIN/sshd" -T -f "$T/tconf" 2>&1 | grep '^persource' |
		    sort > "$T/ours"
		check "sshd -T matches OpenSSH 10.5 ($n: $(echo "$cfg" | head -n 1))" \
		    cmp -s "$T/theirs" "$T/ours"
		cmp -s "$T/theirs" "$T/ours" ||
		    diff "$T/theirs" "$T/ours" >&2
		[ "$(wc -l < "$T/ours")" -eq 4 ] ||
		    fail "sshd -T printed $(wc -l < "$T/ours") persource lines"
	done
else
	echo "note: sshd -T comparison not run: no OpenSSH 10.5 peer"
fi
finish
