#!/bin/sh
# kex.sh: the cost of each post-quantum key exchange, our sshd against
# OpenSSH 10.5's, side by side, with the same client (OpenSSH 10.5's ssh).
#
#   sh bench/kex.sh [N]     (N logins per method and server; default 40)
#
# For each method: N logins (`ssh -o KexAlgorithms=METHOD host true`)
# against each server, interleaved in rounds of 5 so that drift in the
# machine's speed hits both alike. Reported per login:
#   - server CPU: user+sys of every process the server ran for the
#     connection, read as the listener's reaped-children times
#     (/proc/PID/stat cutime+cstime) before and after;
#   - wall time of the whole login, client included (connect+login
#     latency).
# Each row ends with the ratios ours/theirs (lower is better).
#
# Needs root (OpenSSH's sshd) and the OpenSSH 10.5 peer that
# scripts/peer_openssh.sh builds from the tarball beside the project.
set -u
N=${1:-40}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MOAT_BIN:-$ROOT/build/bin}
if [ "$(id -u)" != 0 ]; then
	echo "kex.sh: needs root for OpenSSH's sshd" >&2
	exit 77
fi
O105=$(sh "$ROOT/scripts/peer_openssh.sh" -q) || {
	echo "kex.sh: no OpenSSH 10.5 peer (scripts/peer_openssh.sh)" >&2
	exit 77
}
T=$(mktemp -d /tmp/moat-bench.XXXXXX)
PIDS=""
BUSER=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	[ -n "$BUSER" ] && userdel "$BUSER" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM
# A user whose shell reads no start-up files: root's shell here may run
# a great deal at every login, which would swamp the figures.
BUSER=moatkex$$
useradd -M -d "$T" -s /bin/sh "$BUSER" || { BUSER=""; exit 1; }
usermod -p "*" "$BUSER"	# no password, but not locked
ME=$BUSER
free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$T/host" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/id" >/dev/null
cp "$T/id.pub" "$T/ak"
chmod 755 "$T"
config() { # config port
	cat <<EOF
ListenAddress 127.0.0.1
Port $1
HostKey $T/host
AuthorizedKeysFile $T/ak
PidFile none
UsePAM no
StrictModes no
KexAlgorithms +mlkem768nistp256-sha256
EOF
}
start() { # start NAME SSHD: sets PORT_NAME and PID_NAME
	port=$(free_port)
	config "$port" > "$T/$1.cfg"
	"$2" -D -e -f "$T/$1.cfg" 2>"$T/$1.log" &
	pid=$!
	PIDS="$PIDS $pid"
	i=0
	while ! grep -q "Server listening" "$T/$1.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { cat "$T/$1.log" >&2; exit 1; }
		sleep 0.05
	done
	eval "PORT_$1=$port PID_$1=$pid"
}
mkdir -p /run/sshd
start moat "$BIN/sshd"
start o105 "$O105/sbin/sshd"

# Children CPU of a listener, in clock ticks.
ticks() { awk '{ print $16 + $17 }' "/proc/$1/stat"; }
now_ms() { date +%s%3N; }
login() { # login PORT METHOD
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -o IdentitiesOnly=yes -i "$T/id" \
	    -o KexAlgorithms="$2" -p "$1" "$ME@127.0.0.1" true ||
	    { echo "kex.sh: login failed ($2, port $1)" >&2; exit 1; }
}
HZ=$(getconf CLK_TCK)
printf '%-36s %12s %12s %6s %12s %12s %6s\n' "method (per login)" \
    "moat CPU ms" "10.5 CPU ms" ratio "moat wall ms" "10.5 wall ms" ratio
for k in mlkem768x25519-sha256 mlkem768nistp256-sha256 \
    sntrup761x25519-sha512 curve25519-sha256; do
	for s in moat o105; do
		eval "cpu_$s=0 wall_$s=0"
	done
	done_n=0
	while [ $done_n -lt "$N" ]; do
		for s in moat o105; do
			eval "port=\$PORT_$s pid=\$PID_$s"
			c0=$(ticks "$pid")
			w0=$(now_ms)
			for i in 1 2 3 4 5; do login "$port" "$k"; done
			w1=$(now_ms)
			# Let the listener reap the last connection.
			sleep 0.2
			c1=$(ticks "$pid")
			eval "cpu_$s=\$((cpu_$s + c1 - c0)) wall_$s=\$((wall_$s + w1 - w0))"
		done
		done_n=$((done_n + 5))
	done
	awk -v k="$k" -v n="$done_n" -v hz="$HZ" -v cm="$cpu_moat" \
	    -v co="$cpu_o105" -v wm="$wall_moat" -v wo="$wall_o105" 'BEGIN {
		cmm = cm * 1000 / hz / n; com = co * 1000 / hz / n
		printf "%-36s %12.2f %12.2f %6.2f %12.1f %12.1f %6.2f\n", k,
		    cmm, com, (com > 0 ? cmm / com : 0), wm / n, wo / n,
		    (wo > 0 ? wm / wo : 0) }'
done
echo "(server CPU from the listeners' reaped children, clock ticks of 1/$HZ s;"
echo " $done_n logins per method and server, OpenSSH 10.5's ssh as the client)"
