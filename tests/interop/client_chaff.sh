#!/bin/sh
# ObscureKeystrokeTiming seen from the wire: a relay between ssh and
# sshd notes every client-to-server segment while three keys are typed
# into a pty session (chaff_relay.py). With the default (yes) the client
# goes on sending packets of one size about every 20 ms for a second or
# more after the last key, and the server answers them (PONGs); with
# "no" there is one packet per key; interval:80 spaces them 80 ms apart.
# Against our sshd and OpenSSH 10.5's, which offer ping@openssh.com;
# against Debian's 9.2, which does not, no chaff. OpenSSH 10.5's ssh
# against our sshd shows the same shape.
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/python3 ] || skip "needs /usr/bin/python3 for the pty driver"
DRV="$SRC/tests/interop/chaff_relay.py"
make_keys
write_config </dev/null
start_sshd
OURS_PORT=$PORT

CAT='echo ready; exec cat'
# The peers' sessions get SHLVL=1 as lib.sh's write_config gives ours
# (bash then skips the account's ~/.bashrc).
client() { # client SSH [OPTIONS...]: the ssh command line for the relay
	_ssh=$1; shift
	echo "$_ssh -F /dev/null -o UserKnownHostsFile=/dev/null
	    -o StrictHostKeyChecking=no -o IdentitiesOnly=yes
	    -o LogLevel=ERROR -i $T/id_ed25519 -p @PORT@ $*"
}
# run NAME SERVER_PORT SSH-ARGV...: facts in $T/NAME.res
run() {
	_n=$1 _p=$2; shift 2
	"$PY" "$DRV" "$T/$_n.res" "$_p" -- "$@" "$ME@127.0.0.1" "$CAT" \
	    2>"$T/$_n.drv" || cat "$T/$_n.drv" >&2
	sed "s/^/$_n: /" "$T/$_n.res"
}
val() { sed -n "s/^$2=//p" "$T/$1.res"; }
ge() { [ "$(val "$1" "$2")" -ge "$3" ] 2>/dev/null; }
le() { [ "$(val "$1" "$2")" -le "$3" ] 2>/dev/null; }
secs_between() { # NAME LO HI: tail_secs within [LO, HI]
	awk -v v="$(val "$1" tail_secs)" -v lo="$2" -v hi="$3" \
	    'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'
}
# chaffed NAME LO_MS HI_MS: packets on a steady interval, of one size,
# for a while after the last key, answered by the server.
chaffed() {
	check "$1: packets go on after the last key" ge "$1" tail 20
	check "$1: for 1 to 3.5 s" secs_between "$1" 0.9 3.5
	check "$1: on a steady interval (${2}-${3} ms)" \
	    sh -c "[ $(val "$1" gap_ms) -ge $2 ] && [ $(val "$1" gap_ms) -le $3 ] &&
	    [ $(val "$1" gap_ok) -ge 70 ]"
	check "$1: all of one size" ge "$1" size_ok 90
	check "$1: the server answers the pings" ge "$1" answers 10
}
# plain NAME: one packet per key and nothing after.
plain() {
	check "$1: one packet per key" sh -c "[ '$(val "$1" during)' = 3 ]"
	check "$1: nothing after the last key" sh -c "[ '$(val "$1" tail)' = 0 ]"
}

# shellcheck disable=SC2046
run ours_yes "$OURS_PORT" $(client "$BIN/ssh" -E "$T/ssh_yes.log" -vvv -tt)
chaffed ours_yes 12 35
check "ours: the debug lines say when a run starts and ends" \
    sh -c "grep -q 'obfuscate_keystroke_timing: starting: interval ~20ms' \
    '$T/ssh_yes.log' && grep -q 'obfuscate_keystroke_timing: stopping: \
chaff time expired ([1-9][0-9]* chaff packets sent)' '$T/ssh_yes.log'"
check "ours: no UNIMPLEMENTED for the server's PONGs" \
    sh -c "! grep -q 'Received SSH2_MSG_UNIMPLEMENTED' '$T/sshd.log'"

# shellcheck disable=SC2046
run ours_no "$OURS_PORT" $(client "$BIN/ssh" -o ObscureKeystrokeTiming=no -tt)
plain ours_no

# shellcheck disable=SC2046
run ours_80 "$OURS_PORT" \
    $(client "$BIN/ssh" -o ObscureKeystrokeTiming=interval:80 -tt)
check "interval:80: packets go on after the last key" ge ours_80 tail 6
check "interval:80: about 80 ms apart" \
    sh -c "[ $(val ours_80 gap_ms) -ge 60 ] && [ $(val ours_80 gap_ms) -le 110 ]"

# Debian's sshd (9.2) offers no ping@openssh.com: no chaff.
if [ -x /usr/sbin/sshd ]; then
	PPORT=$(free_port)
	printf '%s\n' "ListenAddress 127.0.0.1" "Port $PPORT" \
	    "HostKey $T/host_ed25519" "AuthorizedKeysFile $T/authorized_keys" \
	    "PidFile none" "StrictModes no" "SetEnv SHLVL=1" > "$T/deb_config"
	start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"
	DEB_PID=$PEER_PID
	# shellcheck disable=SC2046
	run ours_debian "$PPORT" $(client "$BIN/ssh" -tt)
	plain ours_debian
	kill "$DEB_PID" 2>/dev/null
else
	fail "Debian's sshd is not installed"
fi

need_peer_openssh
PPORT=$(free_port)
printf '%s\n' "ListenAddress 127.0.0.1" "Port $PPORT" \
    "HostKey $T/host_ed25519" "AuthorizedKeysFile $T/authorized_keys" \
    "PidFile none" "StrictModes no" "PerSourcePenalties no" \
    "SetEnv SHLVL=1" > "$T/o105_config"
start_peer_sshd "$O105/sbin/sshd" "$T/o105_config" "$T/o105.log"
# shellcheck disable=SC2046
run ours_o105 "$PPORT" $(client "$BIN/ssh" -tt)
chaffed ours_o105 12 35

# OpenSSH 10.5's ssh against our sshd: the same shape.
# shellcheck disable=SC2046
run o105_ours "$OURS_PORT" $(client "$O105/bin/ssh" -tt)
chaffed o105_ours 12 35
finish
