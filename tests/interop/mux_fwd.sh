#!/bin/sh
# Agent and X11 forwarding for the sessions of mux clients: our master
# (-A -X, -N) into our sshd sends auth-agent-req and x11-req on each
# client's session channel when that client asked with -A / -X, and
# only then. Shown with ssh-add -l (a Debian ssh-agent holding one key)
# and xdpyinfo under Xvfb run through our mux client and Debian's ssh
# as a mux client of our master.
. "$(dirname "$0")/lib.sh"
need ssh
need ssh-agent
need ssh-add
need_xvfb
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/fwd" -C key-fwd
FPR=$(ssh-keygen -lf "$T/fwd.pub" | cut -d' ' -f2)

# The agent the master forwards.
start_ssh_agent agent
SSH_AUTH_SOCK=$T/agent.sock ssh-add -q "$T/fwd" 2>/dev/null || fail "ssh-add"
SSH_AUTH_SOCK=$T/agent.sock
export SSH_AUTH_SOCK

# A display of the test's own.
start_xvfb 50

write_config <<CFG
X11Forwarding yes
AllowAgentForwarding yes
SetEnv XAUTHORITY=$T/server.auth
CFG
start_sshd
S=$T/cm
KH=$T/kh

# The master: -N, forwarding both on.
(exec "$BIN/ssh" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$KH" -o IdentitiesOnly=yes -i "$T/id_ed25519" \
    -p "$PORT" -o ControlPath="$S" -M -N -A -X 127.0.0.1 \
    2>"$T/master.err") &
MP=$!
at_exit "kill $MP 2>/dev/null"
wait_master "$S" "$MP" "$T/master.err"
logins() { grep -c "Accepted publickey" "$T/sshd.log"; }
before=$(logins)

REMOTE='echo "A=${SSH_AUTH_SOCK:+set}"; ssh-add -l; echo "L=$?"; echo "D=$DISPLAY"; xdpyinfo >/dev/null 2>&1; echo "X=$?"'
# run NAME CLIENT ARGS...: REMOTE through the master; A, L, D, X from
# its output (agent socket set, ssh-add -l's status, DISPLAY, xdpyinfo).
run() {
	_n=$1 _c=$2
	shift 2
	$_c -F /dev/null -o ControlPath="$S" -o ControlMaster=no "$@" \
	    127.0.0.1 "$REMOTE" >"$T/$_n.out" 2>"$T/$_n.err" </dev/null &
	_pid=$!
	( sleep 20; kill "$_pid" 2>/dev/null ) &
	_w=$!
	wait "$_pid"
	kill "$_w" 2>/dev/null
	A=$(sed -n 's/^A=//p' "$T/$_n.out")
	L=$(sed -n 's/^L=//p' "$T/$_n.out")
	D=$(sed -n 's/^D=//p' "$T/$_n.out")
	X=$(sed -n 's/^X=//p' "$T/$_n.out")
}

is_display() { expr "$1" : 'localhost:[0-9][0-9]*\.0$' >/dev/null; }

# First a client that asks for neither: the server (ours as OpenSSH's)
# keeps a forwarded agent for the whole connection once asked, so this
# shows the master did not ask on its behalf.
run ours_none "$BIN/ssh" -a -x
check "our mux client without -A: no agent socket on the server" \
    [ -z "$A" ] && [ "$L" = 2 ]
check "our mux client without -X: no DISPLAY on the server" [ -z "$D" ]

run ours_a "$BIN/ssh" -A -x
check "our mux client -A: ssh-add -l lists the master's agent's key" \
    [ "$L" = 0 ] && grep -q "$FPR" "$T/ours_a.out"
check "... and without -X no DISPLAY" [ -z "$D" ]

run ours_ax "$BIN/ssh" -A -X
check "our mux client -X: DISPLAY set on the server" is_display "$D"
check "our mux client -X: xdpyinfo reaches the display" [ "$X" = 0 ]
[ "$X" = 0 ] || cat "$T/ours_ax.out" "$T/ours_ax.err" >&2

run deb_ax ssh -A -X
check "Debian's ssh -A as our master's client: ssh-add -l lists the key" \
    [ "$L" = 0 ] && grep -q "$FPR" "$T/deb_ax.out"
check "Debian's ssh -X as our master's client: xdpyinfo reaches the display" \
    [ "$X" = 0 ] && is_display "$D"
[ "$X" = 0 ] && [ "$L" = 0 ] || cat "$T/deb_ax.out" "$T/deb_ax.err" >&2
run deb_none ssh -a -x
check "Debian's ssh without -X through our master: no DISPLAY" [ -z "$D" ]
check "... the session still runs" [ -n "$X" ]

check "no new login for the mux clients" [ "$(logins)" -eq "$before" ]
"$BIN/ssh" -F /dev/null -o ControlPath="$S" -O exit 127.0.0.1 2>/dev/null
i=0
while kill -0 "$MP" 2>/dev/null && [ $i -lt 100 ]; do
	i=$((i + 1)); sleep 0.05
done
check "no sanitizer report from the master" \
    sh -c "! grep -q 'ERROR: .*Sanitizer\|runtime error:' '$T/master.err'"
finish
