#!/bin/sh
# bench/mux.sh: connection sharing. Wall time of N (default 50)
# consecutive `ssh host true`, each with a connection of its own and
# then all through a -N master (ControlMaster), for our ssh against our
# sshd and (as root) Debian's ssh against Debian's sshd, on 127.0.0.1.
# Prints seconds for the N runs (lower is better), the speed-up the
# master gives, and our time over OpenSSH's (lower is better).
#
#   sh bench/mux.sh [N]
N=${1:-50}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MOAT_BIN:-$ROOT/build/bin}
T=$(mktemp -d /tmp/moat-bench-mux.XXXXXX)
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$T/host" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/id" >/dev/null
cp "$T/id.pub" "$T/ak"
chmod 600 "$T/ak"

config() { # config port
	cat <<EOF
ListenAddress 127.0.0.1
Port $1
HostKey $T/host
AuthorizedKeysFile $T/ak
PidFile none
UsePAM no
StrictModes no
MaxStartups 100
EOF
}

wait_listen() { # wait_listen log
	i=0
	while ! grep -q "Server listening" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "a server did not start" >&2; exit 1; }
		sleep 0.05
	done
}

MOAT_PORT=$(free_port)
config "$MOAT_PORT" > "$T/moat_config"
"$BIN/sshd" -D -e -f "$T/moat_config" 2>"$T/moat.log" &
PIDS="$PIDS $!"
wait_listen "$T/moat.log"
PAIRS="ours:$BIN/ssh:$MOAT_PORT"
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ] && [ -x /usr/bin/ssh ]; then
	mkdir -p /run/sshd
	OSSH_PORT=$(free_port)
	config "$OSSH_PORT" > "$T/openssh_config"
	/usr/sbin/sshd -D -e -f "$T/openssh_config" 2>"$T/openssh.log" &
	PIDS="$PIDS $!"
	wait_listen "$T/openssh.log"
	PAIRS="$PAIRS OpenSSH:/usr/bin/ssh:$OSSH_PORT"
else
	echo "(not root or no Debian sshd: OpenSSH's column left out)" >&2
fi

now() { date +%s.%N; }
# cli ssh port ARGS...
cli() {
	_s=$1 _p=$2
	shift 2
	"$_s" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -i "$T/id" -p "$_p" "$@"
}
# runs ssh port ARGS...: seconds for N `true`s ("-" when one failed).
runs() {
	_t0=$(now)
	_i=0
	while [ $_i -lt "$N" ]; do
		cli "$@" 127.0.0.1 true </dev/null 2>>"$T/err" ||
		    { echo -; return; }
		_i=$((_i + 1))
	done
	awk -v a="$_t0" -v b="$(now)" 'BEGIN { printf "%.2f\n", b - a }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || b == "-" || b == 0) print "-";
		else printf "%.2f\n", a / b }'
}

for pair in $PAIRS; do
	name=${pair%%:*} rest=${pair#*:}
	ssh=${rest%:*} port=${rest##*:}
	sock=$T/cm.$name
	plain=$(runs "$ssh" "$port" -o ControlMaster=no -o ControlPath=none)
	cli "$ssh" "$port" -M -N -o ControlPath="$sock" 127.0.0.1 \
	    </dev/null 2>>"$T/err" &
	mp=$!
	PIDS="$PIDS $mp"
	i=0
	while [ ! -S "$sock" ] && [ $i -lt 200 ]; do
		i=$((i + 1)); sleep 0.05
	done
	shared=$(runs "$ssh" "$port" -o ControlMaster=no \
	    -o ControlPath="$sock")
	cli "$ssh" "$port" -o ControlPath="$sock" -O exit 127.0.0.1 \
	    2>/dev/null
	kill "$mp" 2>/dev/null
	eval "PLAIN_$name=\$plain SHARED_$name=\$shared"
done

echo "$N consecutive 'ssh host true' (seconds, lower is better)"
printf '%-10s %12s %14s %10s\n' "client" "own conn" "through master" "speed-up"
for pair in $PAIRS; do
	name=${pair%%:*}
	eval "p=\$PLAIN_$name s=\$SHARED_$name"
	printf '%-10s %12s %14s %9sx\n' "$name" "$p" "$s" "$(ratio "$p" "$s")"
done
if [ -n "${PLAIN_OpenSSH:-}" ]; then
	printf '%-10s %12s %14s\n' "ours/OpenSSH" \
	    "$(ratio "$PLAIN_ours" "$PLAIN_OpenSSH")" \
	    "$(ratio "$SHARED_ours" "$SHARED_OpenSSH")"
fi
if [ -s "$T/err" ]; then
	echo "errors:" >&2
	sort -u "$T/err" | head -5 >&2
fi
