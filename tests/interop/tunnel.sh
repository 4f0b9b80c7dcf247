#!/bin/sh
# tunnel.sh: tunnel device forwarding (ssh -w, tun@openssh.com): our ssh
# into our sshd, Debian's ssh into our sshd and our ssh into Debian's
# sshd, point-to-point (tun) and ethernet (tap). Both ends of a tunnel
# are devices on this host, so the server's end is moved into a private
# network namespace (its descriptor stays attached) and pinged across
# the tunnel from here. PermitTunnel (also in a Match block) refuses as
# Debian's sshd does, with the same words at the client; tunnel="n" in
# authorized_keys forces the server's unit; DisableForwarding and a
# restrict key refuse too.
#
# Device units, namespaces and addresses are unique per run; what the
# test made is removed by name at exit, servers are stopped by PID.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (tun devices)"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
need ip
need ping
[ -x /usr/sbin/sshd ] || skip "OpenSSH's sshd not installed"
ip netns add "moat-probe-$$" 2>/dev/null || skip "cannot make a network namespace"
ip netns del "moat-probe-$$"
make_keys

# Units 1000..32999 (16 a run) and a third address byte from the PID:
# runs at the same time do not collide.
BASE=$(( ($$ % 2000) * 16 + 1000 ))
NET=$(( $$ % 250 + 1 ))
NSLIST=""
DEVLIST=""
at_exit 'for n in $NSLIST; do ip netns del "$n" 2>/dev/null; done
	for d in $DEVLIST; do ip link del "$d" 2>/dev/null; done'

# tunnel="n" for the ECDSA key: it may only have unit BASE+7.
FORCED=$((BASE + 7))
{
	cat "$T/id_ed25519.pub" "$T/id_rsa.pub"
	printf 'tunnel="%s" ' "$FORCED"; cat "$T/id_ecdsa.pub"
} > "$T/authorized_keys"

# mssh / ossh [args]: our ssh, Debian's, configured by the command line
# only. exec_ssh replaces the shell it runs in: started with "&", the
# client itself is $!.
mssh() { (exec_ssh "$BIN/ssh" "$@"); }
ossh() { (exec_ssh /usr/bin/ssh "$@"); }
exec_ssh() {
	_prog=$1; shift
	exec "$_prog" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" \
	    -o LogLevel="${LOGLEVEL:-ERROR}" \
	    -o IdentitiesOnly=yes -i "${ID:-$T/id_ed25519}" -p "$PORT" "$@"
}

# wait_dev NAME: up to 10 s for the device to exist here.
wait_dev() {
	_i=0
	while ! ip link show dev "$1" >/dev/null 2>&1; do
		_i=$((_i + 1)); [ $_i -gt 200 ] && return 1
		kill -0 "$CPID" 2>/dev/null || return 1
		sleep 0.05
	done
}

# tunnel_start CLIENT MODE LOCAL REMOTE [args]: CLIENT (our ssh or
# Debian's) keeps a tunnel up in the background (CPID, the client
# itself) once both devices exist. REMOTE "any:N" asks for any unit and
# waits for unit N.
tunnel_start() {
	_cl=$1 _mode=$2 _l=$3 _r=${4#any:} _w=${4%%:*}; shift 4
	case $_mode in ethernet) _p=tap ;; *) _p=tun ;; esac
	DEVLIST="$DEVLIST $_p$_l $_p$_r"
	exec_ssh "$_cl" -N -o ExitOnForwardFailure=yes -o Tunnel="$_mode" \
	    -w "$_l:$_w" "$@" "$ME@127.0.0.1" 2>"$T/client.err" &
	CPID=$!
	wait_dev "$_p$_l" && wait_dev "$_p$_r"
}

tunnel_stop() {
	kill "$CPID" 2>/dev/null
	wait "$CPID" 2>/dev/null
	CPID=""
}

# ping_across MODE LOCAL REMOTE K: the server's device into namespace K,
# addresses on both ends, three pings from here to there.
ping_across() {
	case $1 in ethernet) _p=tap ;; *) _p=tun ;; esac
	_ns="moat-tun-$$-$4"
	NSLIST="$NSLIST $_ns"
	_a="10.200.$NET.$(($4 * 4 + 1))" _b="10.200.$NET.$(($4 * 4 + 2))"
	ip netns add "$_ns" &&
	ip link set "$_p$3" netns "$_ns" &&
	if [ "$1" = ethernet ]; then
		ip addr add "$_a/30" dev "$_p$2" &&
		ip netns exec "$_ns" ip addr add "$_b/30" dev "$_p$3"
	else
		ip addr add "$_a" peer "$_b" dev "$_p$2" &&
		ip netns exec "$_ns" ip addr add "$_b" peer "$_a" dev "$_p$3"
	fi &&
	ip link set "$_p$2" up &&
	ip netns exec "$_ns" ip link set "$_p$3" up &&
	ping -c 3 -W 2 -i 0.2 "$_b" > "$T/ping.out" 2>&1 &&
	grep -q " 0% packet loss" "$T/ping.out"
	_rc=$?
	[ $_rc -eq 0 ] || cat "$T/ping.out" "$T/client.err" >&2
	ip netns del "$_ns" 2>/dev/null
	return $_rc
}

# pings CLIENT MODE K WHAT: a tunnel up, pings across it, down again.
pings() {
	_l=$((BASE + $3 * 2)) _r=$((BASE + $3 * 2 + 1))
	case $1 in mssh) _c=$BIN/ssh ;; *) _c=/usr/bin/ssh ;; esac
	if tunnel_start "$_c" "$2" "$_l" "$_r"; then
		check "$4" ping_across "$2" "$_l" "$_r" "$3"
	else
		fail "$4 (the tunnel did not come up)"
		cat "$T/client.err" >&2
	fi
	tunnel_stop
}

write_config <<EOF
PermitRootLogin yes
PermitTunnel yes
EOF
start_sshd

pings mssh point-to-point 0 "our ssh -w into our sshd: pings cross a tun pair"
pings ossh point-to-point 1 "Debian's ssh -w into our sshd: pings cross"
pings mssh ethernet 2 "our ssh -w ethernet into our sshd: pings cross a tap pair"
pings ossh ethernet 3 "Debian's ssh -w ethernet into our sshd: pings cross"
check "the server logged the interface it opened" \
    grep -q "Tunnel forwarding using interface tun$((BASE + 1))" "$T/sshd.log"

# ssh_tunnel_env WHAT: a session after a tunnel sees its interface.
# The client stays while the tunnel is open (so does OpenSSH's): it is
# stopped once the line is there.
ssh_tunnel_env() {
	DEVLIST="$DEVLIST tun$((BASE + 12)) tun$((BASE + 13))"
	: > "$T/env.out"
	exec_ssh "$BIN/ssh" -o ExitOnForwardFailure=yes \
	    -w "$((BASE + 12)):$((BASE + 13))" "$ME@127.0.0.1" \
	    'echo "SSH_TUNNEL=$SSH_TUNNEL"' > "$T/env.out" 2>&1 &
	CPID=$!
	wait_log "$T/env.out" "^SSH_TUNNEL="
	check "$1: SSH_TUNNEL names the server's device" \
	    grep -qx "SSH_TUNNEL=tun$((BASE + 13))" "$T/env.out"
	tunnel_stop
}
ssh_tunnel_env "our sshd"

# tunnel="n": "any" gets the forced unit, another unit is refused.
forced_any() {
	ID=$T/id_ecdsa tunnel_start "$BIN/ssh" point-to-point $((BASE + 6)) \
	    "any:$FORCED"
}
check "tunnel=\"$FORCED\": -w L:any opens tun$FORCED at the server" forced_any
tunnel_stop
out=$(LOGLEVEL=INFO ID=$T/id_ecdsa mssh -o ExitOnForwardFailure=yes \
    -w "$((BASE + 6)):$((BASE + 5))" "$ME@127.0.0.1" true 2>&1)
rc=$?
check "tunnel=\"$FORCED\": another remote unit is refused (status 255)" \
    [ $rc -eq 255 ]
check "... with ssh's words" \
    [ "$out" = "channel 0: open failed: connect failed: open failed
Tunnel forwarding failed" ]
check "... and no tun$((BASE + 5)) was made" \
    sh -c "! ip link show dev tun$((BASE + 5)) >/dev/null 2>&1"

# Our ssh into Debian's sshd.
sed "s/^Port .*/Port $(free_port)/; /^SetEnv/d" "$T/sshd_config" \
    > "$T/peer_config"
start_peer_sshd /usr/sbin/sshd "$T/peer_config" "$T/peer.log"
OURPORT=$PORT
PORT=$(sed -n 's/^Port //p' "$T/peer_config")
pings mssh point-to-point 4 "our ssh -w into Debian's sshd: pings cross"
pings mssh ethernet 5 "our ssh -w ethernet into Debian's sshd: pings cross"
ssh_tunnel_env "Debian's sshd"
kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null

# refusals CONFIG_LINES MODE WHAT: Debian's sshd and ours with the same
# lines; Debian's ssh and ours say the same to each, and exit 255.
refusals() {
	restart_sshd "PermitRootLogin yes" "$1" "Match Address 127.0.0.1" "$2"
	sed "s/^Port .*/Port $(free_port)/; /^SetEnv/d" "$T/sshd_config" \
	    > "$T/peer_config"
	start_peer_sshd /usr/sbin/sshd "$T/peer_config" "$T/peer.log"
	PPORT=$(sed -n 's/^Port //p' "$T/peer_config")
	OURPORT=$PORT
	for cl in ossh mssh; do
		for p in $PPORT $OURPORT; do
			PORT=$p
			# At INFO: "channel 0: open failed: ..." shows.
			LOGLEVEL=INFO "$cl" -o ExitOnForwardFailure=yes \
			    -o Tunnel="$3" -w "$((BASE + 14)):any" \
			    "$ME@127.0.0.1" true > "$T/raw" 2>&1
			echo "status $?" >> "$T/raw"
			# OpenSSH ends stderr lines with CR LF; the first
			# login to each port adds its host key.
			tr -d '\r' < "$T/raw" | grep -v "^Warning: Permanently" \
			    > "$T/out.$cl.$p"
		done
	done
	PORT=$OURPORT
	kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null
	check "$4: Debian's ssh says the same to both servers" \
	    cmp -s "$T/out.ossh.$PPORT" "$T/out.ossh.$OURPORT"
	check "$4: our ssh says what Debian's does" \
	    cmp -s "$T/out.ossh.$PPORT" "$T/out.mssh.$OURPORT"
	check "$4: ... and to Debian's sshd too" \
	    cmp -s "$T/out.ossh.$PPORT" "$T/out.mssh.$PPORT"
	check "$4: refused, status 255" [ "$(cat "$T/out.mssh.$OURPORT")" = \
	    "channel 0: open failed: connect failed: open failed
Tunnel forwarding failed
status 255" ]
	for f in "$T"/out.*; do sed "s|^|$(basename "$f"): |" "$f"; done
	rm -f "$T"/out.*
}
DEVLIST="$DEVLIST tun$((BASE + 14)) tap$((BASE + 14))"
refusals "PermitTunnel yes" "PermitTunnel no" point-to-point \
    "PermitTunnel no in Match"
refusals "PermitTunnel yes" "PermitTunnel point-to-point" ethernet \
    "PermitTunnel point-to-point, ethernet asked"
refusals "PermitTunnel no" "PermitTunnel no" point-to-point \
    "PermitTunnel no"
# refused WHAT: our ssh asks our sshd for a tunnel, which is refused.
refused() {
	LOGLEVEL=INFO mssh -o ExitOnForwardFailure=yes \
	    -w "$((BASE + 15)):any" "$ME@127.0.0.1" true > "$T/raw" 2>&1
	rc=$?
	# The first login to each port adds its host key.
	out=$(grep -v "^Warning: Permanently" "$T/raw")
	check "$1: the tunnel is refused (status 255)" [ $rc -eq 255 ]
	check "$1: ... with ssh's words" \
	    [ "$out" = "channel 0: open failed: connect failed: open failed
Tunnel forwarding failed" ]
}
DEVLIST="$DEVLIST tun$((BASE + 15))"

# DisableForwarding (in Match too) refuses a tunnel in OpenSSH 10.5's
# sshd; Debian's 9.2 predates that check and opens one.
restart_sshd "PermitRootLogin yes" "PermitTunnel yes" \
    "Match Address 127.0.0.1" "DisableForwarding yes"
refused "DisableForwarding yes in Match"

# restrict on the key: no tunnel. OpenSSH's sshd has the same check but
# loses the flag when it takes the key's options on, and opens one; ours
# refuses, as the check means.
{
	printf 'restrict '; cat "$T/id_rsa.pub"
	cat "$T/id_ed25519.pub"
} > "$T/authorized_keys"
restart_sshd "PermitRootLogin yes" "PermitTunnel yes"
ID=$T/id_rsa refused "restrict"

finish
