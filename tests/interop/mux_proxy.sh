#!/bin/sh
# ssh -O proxy through our master (PROTOCOL.mux section 9): Debian's
# OpenSSH ssh as a proxy-mode client of our ssh -M, against our sshd.
# Commands with their exit status and output, 1 MiB of input through
# cat intact, a session with a pty (-tt), a -L forward carrying data,
# several proxy clients at once, all on the master's one login. A
# hostile proxy client (bad framing, a KEXINIT, a malformed message, a
# message for another client's channel or one never opened) is dropped
# while the master and the other clients carry on. The same commands
# through Debian's own master give the same exit statuses.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config </dev/null
start_sshd
S=$T/cm
HELPER=$SRC/tests/interop/mux_proxy_client.py

# cli ARGS: Debian's ssh with the test's settings and ControlPath.
cli() {
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/kh" -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" -o ControlPath="$S" "$@"
}
proxy() { cli -O proxy "$@"; }
logins() { grep -c "Accepted publickey" "$T/sshd.log"; }

# start_master PROGRAM: a -N master, MP its pid.
start_master() { start_mux_master "$1" "$PORT"; }

stop_master() {
	cli -O exit 127.0.0.1 2>/dev/null
	i=0
	while kill -0 "$MP" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 200 ] && break; sleep 0.05
	done
	wait "$MP" 2>/dev/null
}

# alive: the master answers -O check.
alive() { cli -O check 127.0.0.1 2>/dev/null; }

# exec_statuses: "0 3 7" from three proxy sessions, for the comparison.
exec_statuses() {
	proxy 127.0.0.1 'exit 0' </dev/null >/dev/null 2>&1; a=$?
	proxy 127.0.0.1 'exit 3' </dev/null >/dev/null 2>&1; b=$?
	proxy -tt 127.0.0.1 'exit 7' </dev/null >/dev/null 2>&1; c=$?
	echo "$a $b $c"
}

head -c 1048576 /dev/urandom >"$T/big"

start_master "$BIN/ssh"
n0=$(logins)

proxy 127.0.0.1 'echo out; echo err >&2; exit 0' >"$T/o1" 2>"$T/e1" </dev/null
st=$?
check "exec: exit status 0 and output" [ $st -eq 0 ] &&
    grep -qx out "$T/o1" && grep -qx err "$T/e1"
proxy 127.0.0.1 'echo three; exit 3' >"$T/o3" 2>/dev/null </dev/null
st=$?
check "exec: exit status 3" [ $st -eq 3 ] && grep -qx three "$T/o3"

proxy 127.0.0.1 cat <"$T/big" >"$T/big.out" 2>"$T/big.err"
st=$?
check "1 MiB through cat intact" [ $st -eq 0 ] && cmp -s "$T/big" "$T/big.out"

proxy -tt 127.0.0.1 'tty; exit 7' </dev/null >"$T/tt" 2>/dev/null
st=$?
check "a session with a pty (-tt)" [ $st -eq 7 ] && grep -q '^/dev/' "$T/tt"

FP=$(free_port)
proxy -L "$FP:127.0.0.1:$PORT" 127.0.0.1 'sleep 20' </dev/null \
    >/dev/null 2>"$T/fwd.err" &
LP=$!
at_exit "kill $LP 2>/dev/null"
i=0
got=""
while [ $i -lt 100 ] && [ -z "$got" ]; do
	got=$("$PY" -c "
import socket
try:
    s = socket.create_connection(('127.0.0.1', $FP), 2)
    s.sendall(b'SSH-2.0-probe\r\n')
    print(s.recv(64).split(b'\r')[0].decode())
except OSError:
    pass" 2>/dev/null)
	[ -n "$got" ] || sleep 0.1
	i=$((i + 1))
done
check "-L forward carries data ($got)" \
    [ "${got#SSH-2.0-}" != "$got" ]
kill "$LP" 2>/dev/null
wait "$LP" 2>/dev/null

# Several at once: each its own output and status.
pids=""
for n in 1 2 3 4 5 6; do
	proxy 127.0.0.1 "sleep 1; echo c$n; exit $n" </dev/null \
	    >"$T/par.$n" 2>/dev/null &
	pids="$pids $!"
done
ok=1
n=0
for p in $pids; do
	n=$((n + 1))
	wait "$p"
	st=$?
	[ $st -eq $n ] && grep -qx "c$n" "$T/par.$n" || ok=0
done
check "six proxy clients at once" [ $ok -eq 1 ]

# A proxy client of our own making: the ids the master hands it.
"$PY" "$HELPER" "$S" exec 'echo py; exit 5' >"$T/py.out" 2>"$T/py.err"
st=$?
check "a raw proxy client: its own channel ids, exit status" \
    [ $st -eq 5 ] && grep -qx py "$T/py.out"
g=$("$PY" "$HELPER" "$S" global 2>/dev/null)
check "a global request is refused" [ "$g" = failure ]

# Hostile clients, each while a well-behaved one runs a session: the
# master drops the hostile one only.
for scen in badlen short kex malformed "foreign 0" unopened; do
	proxy 127.0.0.1 'sleep 1; echo fine' </dev/null >"$T/bystander" \
	    2>/dev/null &
	BP=$!
	sleep 0.3
	# shellcheck disable=SC2086
	"$PY" "$HELPER" "$S" $scen 2>"$T/h.err"
	st=$?
	wait "$BP"
	bst=$?
	check "hostile proxy client ($scen) dropped, others unharmed" \
	    [ $st -eq 0 ] && [ $bst -eq 0 ] && grep -qx fine "$T/bystander" &&
	    alive
done
proxy 127.0.0.1 'exit 4' </dev/null >/dev/null 2>&1
st=$?
check "the master still serves after the hostile clients" [ $st -eq 4 ]
check "all on the master's one login" [ "$(logins)" -eq "$n0" ]
check "the master logged the refusals" \
    grep -q "not one of its open channels" "$T/master.err"

stop_master

# The comparison, each master on a connection of its own (one session
# with a pty each: our sshd ends a connection whose second pty session
# gets the pty name its first one had).
start_master "$BIN/ssh"
ours=$(exec_statuses)
stop_master
check "our master: statuses 0 3 7 ($ours)" [ "$ours" = "0 3 7" ]

# Debian's master with the same commands.
start_master ssh
theirs=$(exec_statuses)
stop_master
check "Debian's master gives the same statuses ($theirs)" \
    [ "$ours" = "$theirs" ]
check "no sanitizer report from the master" \
    sh -c "! grep -q 'ERROR: .*Sanitizer\|runtime error:' '$T/master.err'"
finish
