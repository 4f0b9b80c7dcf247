#!/bin/sh
# Debian's OpenSSH ssh forwards through our sshd under each
# AllowTcpForwarding value: an allowed -L / -R carries 50 MiB both ways
# intact (SHA-256 through a local echo server), a refused one is refused
# (with the rule in the server log) and the session stays up. Then
# PermitOpen, PermitListen, DisableForwarding, authorized_keys options,
# 100 connections at once, -R port 0, and peers that close early or never
# read.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
H="$SRC/tests/interop/fwd_helper.py"
MB50=$((50 * 1024 * 1024))
ECHO_PID=""; SSH_PID=""; SRV_PIDS=""

"$PY" "$H" serve echo "$T/echo.port" & SRV_PIDS="$SRV_PIDS $!"
"$PY" "$H" serve close "$T/close.port" & SRV_PIDS="$SRV_PIDS $!"
"$PY" "$H" serve noread "$T/noread.port" & SRV_PIDS="$SRV_PIDS $!"
for f in echo close noread; do
	i=0; while [ ! -s "$T/$f.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
done
EP=$(cat "$T/echo.port"); CP=$(cat "$T/close.port"); NP=$(cat "$T/noread.port")
trap 'for p in $SRV_PIDS $SSH_PID; do kill $p 2>/dev/null; done; cleanup' EXIT

stop_sshd() { kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""; }
stop_ssh() { [ -n "$SSH_PID" ] && { kill "$SSH_PID" 2>/dev/null; wait "$SSH_PID" 2>/dev/null; }; SSH_PID=""; }

# Debian's ssh with LogLevel INFO (it reports forwarding failures there).
fssh() {
	"${FWD_SSH:-ssh}" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=INFO \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" "$@"
}

# bg_ssh LOG args...: Debian ssh in the background running sleep. The
# subshell execs ssh, so SSH_PID is ssh itself and stop_ssh stops it.
bg_ssh() {
	log=$1; shift
	(exec "${FWD_SSH:-ssh}" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=INFO \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" \
	    -o ExitOnForwardFailure=no "$@" "$ME@127.0.0.1" 'sleep 60' \
	    </dev/null >"$log" 2>&1) &
	SSH_PID=$!
}

for mode in yes no local remote; do
	write_config <<EOC
AllowTcpForwarding $mode
EOC
	start_sshd
	L=$(free_port)
	L2=$(free_port)
	bg_ssh "$T/ssh-L.log" -L "$L:127.0.0.1:$EP"
	"$PY" "$H" wait 127.0.0.1 "$L" 10
	case $mode in yes|local)
		check "$mode: -L carries 50 MiB both ways" \
		    "$PY" "$H" echo 127.0.0.1 "$L" $MB50 ;;
	*)
		"$PY" "$H" echo 127.0.0.1 "$L" 1000 2>/dev/null
		check "$mode: -L refused" [ $? -ne 0 ]
		check "$mode: -L refusal logged with the rule" wait_log "$T/sshd.log" \
		    "refused local port forward: originator 127.0.0.1 port [0-9]*, target 127.0.0.1 port $EP (AllowTcpForwarding)"
		[ -z "${FWD_SSH:-}" ] &&
		    check "$mode: client told administratively prohibited" \
		    wait_log "$T/ssh-L.log" "administratively prohibited"
		check "$mode: session stays up after -L refusal" kill -0 "$SSH_PID" ;;
	esac
	stop_ssh
	R=$(free_port)
	bg_ssh "$T/ssh-R.log" -R "$R:127.0.0.1:$EP"
	case $mode in yes|remote)
		"$PY" "$H" wait 127.0.0.1 "$R" 10
		check "$mode: -R carries 50 MiB both ways" \
		    "$PY" "$H" echo 127.0.0.1 "$R" $MB50 ;;
	*)
		check "$mode: -R refused" wait_log "$T/ssh-R.log" \
		    "remote port forwarding failed for listen port $R"
		check "$mode: -R refusal logged with the rule" grep -q \
		    "refused remote port forward: listen localhost port $R (AllowTcpForwarding)" "$T/sshd.log"
		sleep 0.3
		check "$mode: session stays up after -R refusal" kill -0 "$SSH_PID" ;;
	esac
	stop_ssh
	stop_sshd
done

# PermitOpen / PermitListen / DisableForwarding / Match.
write_config <<EOC
PermitOpen 127.0.0.1:$EP
PermitListen 127.0.0.1:1 localhost:$((R + 0))
Match User nobody-here
	DisableForwarding yes
EOC
start_sshd
# free_port's port can be taken by a test running beside this one before
# ssh binds it, and then our "refused" connection reaches that test's
# server: start again with other ports when ssh could not bind both.
try=0
while :; do
	L=$(free_port)
	L2=$(free_port)
	bg_ssh "$T/ssh-po.log" -L "$L:127.0.0.1:$EP" -L "$L2:localhost:$EP"
	"$PY" "$H" wait 127.0.0.1 "$L" 10
	sleep 0.2
	try=$((try + 1))
	grep -q "Address already in use\|Could not request local forwarding" \
	    "$T/ssh-po.log" &&
	    [ $try -lt 5 ] || break
	stop_ssh
done
check "PermitOpen: listed target allowed" "$PY" "$H" echo 127.0.0.1 "$L" 100000
"$PY" "$H" echo 127.0.0.1 "$L2" 100 2>/dev/null
check "PermitOpen: other target refused" [ $? -ne 0 ]
check "PermitOpen refusal logged" wait_log "$T/sshd.log" \
    "to connect to host localhost port $EP, but the request was denied. (PermitOpen)"
stop_ssh
bg_ssh "$T/ssh-pl.log" -R "$R:127.0.0.1:$EP" -R "$((R + 1)):127.0.0.1:$EP"
"$PY" "$H" wait 127.0.0.1 "$R" 10
check "PermitListen: listed port allowed" "$PY" "$H" echo 127.0.0.1 "$R" 100000
check "PermitListen: other port refused" wait_log "$T/ssh-pl.log" \
    "remote port forwarding failed for listen port $((R + 1))"
check "PermitListen refusal logged" grep -q "but the request was denied. (PermitListen)" "$T/sshd.log"
stop_ssh
stop_sshd

write_config <<EOC
Match User $ME
	DisableForwarding yes
EOC
start_sshd
L=$(free_port)
L2=$(free_port)
bg_ssh "$T/ssh-df.log" -L "$L:127.0.0.1:$EP"
"$PY" "$H" wait 127.0.0.1 "$L" 10
"$PY" "$H" echo 127.0.0.1 "$L" 100 2>/dev/null
check "DisableForwarding in Match refuses -L" [ $? -ne 0 ]
check "DisableForwarding named in the log" wait_log "$T/sshd.log" "(DisableForwarding)"
stop_ssh
stop_sshd

# authorized_keys options.
cp "$T/authorized_keys" "$T/ak.orig"
{ printf 'no-port-forwarding '; cat "$T/id_ed25519.pub"; } > "$T/authorized_keys"
write_config </dev/null
start_sshd
L=$(free_port)
L2=$(free_port)
bg_ssh "$T/ssh-ak.log" -L "$L:127.0.0.1:$EP"
"$PY" "$H" wait 127.0.0.1 "$L" 10
"$PY" "$H" echo 127.0.0.1 "$L" 100 2>/dev/null
check "no-port-forwarding refuses -L" [ $? -ne 0 ]
check "no-port-forwarding named in the log" wait_log "$T/sshd.log" "(no-port-forwarding)"
stop_ssh
{ printf 'restrict,port-forwarding,permitopen="127.0.0.1:%s" ' "$EP"; cat "$T/id_ed25519.pub"; } > "$T/authorized_keys"
L=$(free_port)
L2=$(free_port)
bg_ssh "$T/ssh-ak2.log" -L "$L:127.0.0.1:$EP" -L "$L2:127.0.0.1:$CP"
"$PY" "$H" wait 127.0.0.1 "$L" 10
check "permitopen= allows its target" "$PY" "$H" echo 127.0.0.1 "$L" 100000
"$PY" "$H" echo 127.0.0.1 "$L2" 100 2>/dev/null
check "permitopen= refuses others" [ $? -ne 0 ]
check "permitopen named in the log" wait_log "$T/sshd.log" "(permitopen)"
stop_ssh
{ printf 'restrict ' ; cat "$T/id_ed25519.pub"; } > "$T/authorized_keys"
R=$(free_port)
bg_ssh "$T/ssh-ak3.log" -R "$R:127.0.0.1:$EP"
check "restrict refuses -R" wait_log "$T/ssh-ak3.log" "remote port forwarding failed"
stop_ssh
cp "$T/ak.orig" "$T/authorized_keys"

# Many at once, port 0, early close, a peer that never reads.
L=$(free_port)
L2=$(free_port)
bg_ssh "$T/ssh-many.log" -L "$L:127.0.0.1:$EP" -L "$L2:127.0.0.1:$CP" \
    -L "$((L + 2)):127.0.0.1:$NP"
"$PY" "$H" wait 127.0.0.1 "$L" 10
check "100 parallel connections through one -L intact" \
    "$PY" "$H" parallel 127.0.0.1 "$L" 100 300000
"$PY" "$H" echo 127.0.0.1 "$L2" 5000000 2>/dev/null
check "early remote close does not hang" [ $? -ne 0 ]
# Never-reading peer: push 60 MB at it in the background; the server's
# memory must stay bounded and the session must keep working.
SPID=$(pgrep -n -P "$SSHD_PID" || true)
rss0=$(awk '/VmRSS/ {print $2}' "/proc/$SPID/status" 2>/dev/null)
timeout 8 "$PY" -c '
import socket,sys
s=socket.create_connection(("127.0.0.1",int(sys.argv[1])))
b=b"x"*65536
try:
    for i in range(960): s.sendall(b)
except Exception: pass
' "$((L + 2))" &
NR=$!
sleep 4
check "a peer that never reads does not stall other channels" \
    "$PY" "$H" echo 127.0.0.1 "$L" 1000000
if [ -n "$SPID" ] && [ -r "/proc/$SPID/status" ]; then
	rss=$(awk '/VmRSS/ {print $2}' "/proc/$SPID/status")
	grow=$(( ${rss:-0} - ${rss0:-0} ))
	check "server memory bounded with a stalled peer (+${grow} kB for 60 MB pushed)" [ "$grow" -lt 24000 ]
fi
kill $NR 2>/dev/null; wait $NR 2>/dev/null
check "session still up" kill -0 "$SSH_PID"
stop_ssh

fssh -o ExitOnForwardFailure=yes -R "0:127.0.0.1:$EP" "$ME@127.0.0.1" 'sleep 60' \
    </dev/null >"$T/ssh-r0.log" 2>&1 &
SSH_PID=$!
check "-R 0 gets an allocated port" wait_log "$T/ssh-r0.log" "Allocated port [0-9]* for remote forward"
AP=$(sed -n 's/.*Allocated port \([0-9]*\) .*/\1/p' "$T/ssh-r0.log" | head -1)
check "allocated port carries data" "$PY" "$H" echo 127.0.0.1 "${AP:-1}" 1000000
stop_ssh
finish
