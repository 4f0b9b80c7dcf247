#!/bin/sh
# Our ssh's behaviour around the session, without a terminal: the banner
# goes out before the server's, "Received disconnect" is shown at
# LogLevel ERROR, -f -N -n -T -t -tt, a missing -i file is warned about,
# and ServerAliveInterval gives up on a server that stopped answering.
. "$(dirname "$0")/lib.sh"
make_keys
write_config <<CFG
MaxAuthTries 1
CFG
start_sshd
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -p "$PORT" "$@"
}

# A listener that accepts and says nothing must still get our banner.
BPORT=$(free_port)
"$PY" - "$BPORT" "$T/banner" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
s.settimeout(10)
c, _ = s.accept()
c.settimeout(5)
try:
    data = c.recv(256)
except OSError:
    data = b""
open(sys.argv[2], "wb").write(data)
c.close()
PY
LPID=$!
sleep 0.3
"$BIN/ssh" -F /dev/null -o BatchMode=yes -o ConnectTimeout=5 -p "$BPORT" \
    "$ME@127.0.0.1" true </dev/null >/dev/null 2>&1 &
CPID=$!
wait "$LPID"
kill "$CPID" 2>/dev/null
wait "$CPID" 2>/dev/null
check "our banner goes out before the server says anything" \
    grep -q "^SSH-2.0-" "$T/banner"

# MaxAuthTries 1, two keys offered: the server disconnects.
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger1" -C s1
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger2" -C s2
mssh -o LogLevel=ERROR -i "$T/stranger1" -i "$T/stranger2" \
    "$ME@127.0.0.1" true </dev/null 2>"$T/err"
st=$?
check "too many authentication failures: status 255" [ $st -eq 255 ]
check "Received disconnect shown at LogLevel ERROR" \
    grep -q "^Received disconnect from 127.0.0.1 port $PORT:2: " "$T/err"
[ $st -eq 255 ] || cat "$T/err" >&2
write_config </dev/null
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
start_sshd
K="-i $T/id_ed25519"

# -f: back to the shell at once, the command finishes later.
start=$(date +%s)
# shellcheck disable=SC2086
mssh -f $K "$ME@127.0.0.1" "sleep 2; touch $T/f-done" </dev/null 2>"$T/err"
st=$?
took=$(($(date +%s) - start))
check "-f returns at once with status 0" [ $st -eq 0 ] && [ $took -lt 2 ]
check "-f: the file is not there yet" [ ! -e "$T/f-done" ]
i=0; while [ ! -e "$T/f-done" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "-f: the command ran in the background" [ -e "$T/f-done" ]

# -N: stays connected, no command, until killed.
n0=$(grep -c "Starting session" "$T/sshd.log")
# shellcheck disable=SC2086
# (ssh itself, not a shell function: $! must be ssh's pid)
"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
    -o IdentitiesOnly=yes -p "$PORT" -N $K "$ME@127.0.0.1" </dev/null \
    2>"$T/err" &
NPID=$!
sleep 1.5
check "-N stays connected" kill -0 "$NPID"
kill "$NPID"; wait "$NPID"
check "-N: SIGTERM ends ssh (255)" [ $? -eq 255 ]
check "SIGTERM ends ssh quietly at LogLevel INFO, as OpenSSH 9.2" \
    sh -c "! grep -q 'Killed by signal' '$T/err'"
check "-N ran no session" [ "$(grep -c "Starting session" "$T/sshd.log")" = "$n0" ]

# -n: stdin is /dev/null even when something is there.
# shellcheck disable=SC2086
out=$(echo from-stdin | mssh -n $K "$ME@127.0.0.1" 'cat; echo end' 2>/dev/null)
check "-n: the remote command reads nothing" [ "$out" = "end" ]
# shellcheck disable=SC2086
out=$(mssh -T $K "$ME@127.0.0.1" 'tty >/dev/null && echo tty || echo notty' </dev/null 2>/dev/null)
check "-T with a command: no pty" [ "$out" = "notty" ]
# shellcheck disable=SC2086
out=$(mssh -t $K "$ME@127.0.0.1" 'tty >/dev/null && echo tty || echo notty' </dev/null 2>"$T/err")
check "-t without a local tty: no pty" [ "$out" = "notty" ]
check "... Pseudo-terminal will not be allocated because stdin is not a terminal." \
    grep -q "^Pseudo-terminal will not be allocated because stdin is not a terminal.\r\?$" "$T/err"
# shellcheck disable=SC2086
out=$(mssh -tt $K "$ME@127.0.0.1" 'tty >/dev/null && echo tty || echo notty' </dev/null 2>/dev/null | tr -d '\r')
check "-tt forces a pty" [ "$out" = "tty" ]

# An explicit identity that is not there.
# shellcheck disable=SC2086
mssh -i "$T/nonesuch" $K "$ME@127.0.0.1" true </dev/null 2>"$T/err"
check "missing -i file warned about" \
    grep -q "^Warning: Identity file $T/nonesuch not accessible: No such file or directory.\r\?$" "$T/err"

# ServerAliveInterval against a server that stops answering. The
# server's process is stopped once this connection's session has started
# (the log already holds earlier connections' lines, so count them):
# before that the client is still logging in, where no keepalive runs.
sessions=$(grep -c "Starting session" "$T/sshd.log")
# shellcheck disable=SC2086
"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
    -o IdentitiesOnly=yes -p "$PORT" $K -o ServerAliveInterval=1 \
    -o ServerAliveCountMax=2 "$ME@127.0.0.1" 'sleep 30' </dev/null \
    2>"$T/err" &
APID=$!
child=""
i=0
while [ -z "$child" ] && [ $i -lt 200 ]; do
	sleep 0.1; i=$((i + 1))
	[ "$(grep -c "Starting session" "$T/sshd.log")" -gt "$sessions" ] ||
	    continue
	child=$(cat /proc/"$SSHD_PID"/task/*/children 2>/dev/null | tr ' ' '\n' | grep . | head -1)
done
if [ -n "$child" ]; then
	kill -STOP "$child"
	start=$(date +%s)
	# A client that never gives up fails the check below, not the
	# whole test by its time limit.
	(sleep 30; kill "$APID" 2>/dev/null) >/dev/null 2>&1 &
	wd=$!
	wait "$APID"
	st=$?
	kill "$wd" 2>/dev/null
	took=$(($(date +%s) - start))
	kill -CONT "$child"
	check "ServerAlive: ssh gives up with 255" [ $st -eq 255 ]
	check "... within a few intervals (${took}s)" [ "$took" -le 6 ]
	check "... saying Timeout, server 127.0.0.1 not responding." \
	    grep -q "^Timeout, server 127.0.0.1 not responding.\r\?$" "$T/err"
else
	kill "$APID"
	fail "no per-connection server process found"
fi
finish
