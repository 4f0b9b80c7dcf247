#!/bin/sh
# Unix-domain socket forwarding: Debian's OpenSSH ssh against our sshd,
# logged in as a temporary user. -L to a socket path, -L from a TCP port
# to a socket path and -R from a socket path carry a few MiB both ways
# intact (SHA-256 through echo servers); each AllowStreamLocalForwarding
# value allows and refuses the right direction with the rule in the
# log while the session stays up; DisableForwarding in Match and the
# authorized_keys options no-port-forwarding and restrict refuse both.
# The server connects and binds as the user: a socket only root may use
# is refused, the bound socket is the user's with mode 0600 (or what
# StreamLocalBindMask says), StreamLocalBindUnlink yes replaces a stale
# socket and no refuses, and the bound socket is removed by a cancel and
# at the end of the connection.
. "$(dirname "$0")/lib.sh"
need ssh
[ "$(id -u)" = 0 ] || skip "needs root to log a temporary user in"
H="$SRC/tests/interop/fwd_unix_helper.py"
HT="$SRC/tests/interop/fwd_helper.py"
U=moatsl$$
make_user "$U"
make_keys
chmod 711 "$T"			# the user reaches $T/u, nothing else
D="$T/u"
mkdir "$D"
chown "$U:" "$D"
chmod 700 "$D"
AKF="$D/ak"			# read with the user's rights
cp "$T/id_ed25519.pub" "$AKF"
chown "$U:" "$AKF"
MB4=$((4 * 1024 * 1024))
SSH_PID=""; SRV_PIDS=""; MPID=""

# Echo servers: one the user may reach (mode 0666), one only root may.
"$PY" "$H" serve "$D/echo.sock" 666 & SRV_PIDS="$SRV_PIDS $!"
"$PY" "$H" serve "$D/root.sock" 600 & SRV_PIDS="$SRV_PIDS $!"
"$PY" "$H" serve "$T/local.sock" 600 & SRV_PIDS="$SRV_PIDS $!"
for s in "$D/echo.sock" "$D/root.sock" "$T/local.sock"; do
	"$PY" "$H" wait "$s" 10 || { echo "echo server $s did not start" >&2; exit 1; }
done
trap 'for p in $SRV_PIDS $SSH_PID $MPID; do kill $p 2>/dev/null; done; cleanup' EXIT

stop_sshd() { kill "$SSHD_PID" 2>/dev/null; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""; }
stop_ssh() { [ -n "$SSH_PID" ] && { kill "$SSH_PID" 2>/dev/null; wait "$SSH_PID" 2>/dev/null; }; SSH_PID=""; }

fssh() {
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=INFO \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" "$@"
}

# bg_ssh LOG args...: Debian ssh in the background with no command (-N)
# (ssh itself, not a subshell, so that SSH_PID stops it).
bg_ssh() {
	log=$1; shift
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=INFO \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" \
	    -o ExitOnForwardFailure=no -N "$@" "$U@127.0.0.1" \
	    </dev/null >"$log" 2>&1 &
	SSH_PID=$!
}

# wait_gone PATH: up to 5 s for PATH to disappear.
wait_gone() {
	i=0
	while [ -e "$1" ]; do
		i=$((i + 1)); [ $i -gt 100 ] && return 1; sleep 0.05
	done
}

sock_is() { # sock_is PATH OWNER MODE
	[ -S "$1" ] && [ "$(stat -c '%U %a' "$1")" = "$2 $3" ]
}

refused_L() {
	"$PY" "$H" echo "$T/l.sock" 1000 2>/dev/null && return 1
	return 0
}

for mode in yes no local remote; do
	write_config <<EOC
AllowStreamLocalForwarding $mode
EOC
	start_sshd
	rm -f "$T/l.sock"
	bg_ssh "$T/ssh-L.log" -L "$T/l.sock:$D/echo.sock"
	"$PY" "$H" wait "$T/l.sock" 10
	case $mode in yes|local)
		check "$mode: -L to a socket carries 4 MiB both ways" \
		    "$PY" "$H" echo "$T/l.sock" $MB4 ;;
	*)
		check "$mode: -L to a socket refused" refused_L
		check "$mode: -L refusal logged with the rule" wait_log "$T/sshd.log" \
		    "refused streamlocal port forward: originator .* port 0, target $D/echo.sock (AllowStreamLocalForwarding)"
		check "$mode: session stays up after -L refusal" kill -0 "$SSH_PID" ;;
	esac
	stop_ssh
	bg_ssh "$T/ssh-R.log" -R "$D/r.sock:$T/local.sock"
	case $mode in yes|remote)
		"$PY" "$H" wait "$D/r.sock" 10
		check "$mode: -R from a socket carries 4 MiB both ways" \
		    "$PY" "$H" echo "$D/r.sock" $MB4
		check "$mode: -R socket owned by the user, mode 0600" \
		    sock_is "$D/r.sock" "$U" 600
		stop_ssh
		check "$mode: -R socket removed at the end of the connection" \
		    wait_gone "$D/r.sock" ;;
	*)
		check "$mode: -R from a socket refused" wait_log "$T/ssh-R.log" \
		    "remote port forwarding failed for listen path $D/r.sock"
		check "$mode: -R refusal logged with the rule" wait_log "$T/sshd.log" \
		    "refused streamlocal remote forward: listen path $D/r.sock (AllowStreamLocalForwarding)"
		check "$mode: no socket left by a refused -R" [ ! -e "$D/r.sock" ]
		check "$mode: session stays up after -R refusal" kill -0 "$SSH_PID"
		stop_ssh ;;
	esac
	stop_sshd
done

# The user's identity, TCP port to socket, stale sockets, cancel.
write_config </dev/null
start_sshd
rm -f "$T/l.sock"
P=$(free_port)
bg_ssh "$T/ssh-id.log" -L "$T/l.sock:$D/root.sock" -L "$P:$D/echo.sock"
"$PY" "$HT" wait 127.0.0.1 "$P" 10
check "-L from a TCP port to a socket carries 4 MiB both ways" \
    "$PY" "$HT" echo 127.0.0.1 "$P" $MB4
check "a socket only root may use is refused to the user" refused_L
check "the failed connect is logged" wait_log "$T/sshd.log" \
    "connect_to path $D/root.sock: Permission denied"
check "session stays up after a failed connect" kill -0 "$SSH_PID"
stop_ssh

"$PY" "$H" stale "$D/stale.sock"
chown "$U:" "$D/stale.sock"
bg_ssh "$T/ssh-st.log" -R "$D/stale.sock:$T/local.sock"
check "StreamLocalBindUnlink no: a stale socket refuses -R" wait_log \
    "$T/ssh-st.log" "remote port forwarding failed for listen path $D/stale.sock"
check "StreamLocalBindUnlink no: the stale socket is left" [ -S "$D/stale.sock" ]
stop_ssh
stop_sshd

echo "not a socket" > "$D/file"
chown "$U:" "$D/file"
write_config <<EOC
Match User $U
	StreamLocalBindUnlink yes
	StreamLocalBindMask 0
EOC
start_sshd
bg_ssh "$T/ssh-st2.log" -R "$D/stale.sock:$T/local.sock" -R "$D/file:$T/local.sock"
"$PY" "$H" wait "$D/stale.sock" 10
check "StreamLocalBindUnlink yes (Match): a stale socket is replaced" \
    "$PY" "$H" echo "$D/stale.sock" 100000
check "StreamLocalBindMask 0 (Match): socket mode 0777" \
    sock_is "$D/stale.sock" "$U" 777
check "StreamLocalBindUnlink yes leaves a file that is not a socket" \
    wait_log "$T/ssh-st2.log" "remote port forwarding failed for listen path $D/file"
check "... and the file is intact" grep -q "not a socket" "$D/file"
stop_ssh
check "replaced socket removed at the end of the connection" wait_gone "$D/stale.sock"

# Cancel through a control master (ssh -O cancel).
fssh -o ControlMaster=yes -o ControlPath="$T/ctl" -N -f "$U@127.0.0.1" \
    </dev/null >"$T/ssh-m.log" 2>&1
MPID=$(fssh -o ControlPath="$T/ctl" -O check "$U@127.0.0.1" 2>&1 |
    sed -n 's/.*pid=\([0-9]*\).*/\1/p')
fssh -o ControlPath="$T/ctl" -O forward -R "$D/c.sock:$T/local.sock" \
    "$U@127.0.0.1" >/dev/null 2>&1
"$PY" "$H" wait "$D/c.sock" 10
check "-R through a control master carries data" \
    "$PY" "$H" echo "$D/c.sock" 100000
fssh -o ControlPath="$T/ctl" -O cancel -R "$D/c.sock:$T/local.sock" \
    "$U@127.0.0.1" >/dev/null 2>&1
check "cancel-streamlocal-forward removes the socket" wait_gone "$D/c.sock"
check "the connection stays up after the cancel" \
    fssh -o ControlPath="$T/ctl" -O check "$U@127.0.0.1" 2>/dev/null
fssh -o ControlPath="$T/ctl" -O exit "$U@127.0.0.1" >/dev/null 2>&1
MPID=""
stop_sshd

# DisableForwarding in Match, no-port-forwarding, restrict: both ways.
for how in DisableForwarding no-port-forwarding restrict; do
	if [ $how = DisableForwarding ]; then
		write_config <<EOC
Match User $U
	DisableForwarding yes
EOC
	else
		{ printf '%s ' $how; cat "$T/id_ed25519.pub"; } > "$AKF"
		write_config </dev/null
	fi
	start_sshd
	rm -f "$T/l.sock"
	bg_ssh "$T/ssh-$how.log" -L "$T/l.sock:$D/echo.sock" \
	    -R "$D/r.sock:$T/local.sock"
	check "$how: -R refused" wait_log "$T/ssh-$how.log" \
	    "remote port forwarding failed for listen path $D/r.sock"
	"$PY" "$H" wait "$T/l.sock" 10
	check "$how: -L refused" refused_L
	check "$how: named in the log for -L" wait_log "$T/sshd.log" \
	    "refused streamlocal port forward: .*($how)"
	check "$how: named in the log for -R" wait_log "$T/sshd.log" \
	    "refused streamlocal remote forward: listen path $D/r.sock ($how)"
	check "$how: session stays up" kill -0 "$SSH_PID"
	stop_ssh
	stop_sshd
	cp "$T/id_ed25519.pub" "$AKF"
done
finish
