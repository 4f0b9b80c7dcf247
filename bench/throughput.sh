#!/bin/sh
# bench/throughput.sh: our sshd against Debian's OpenSSH sshd on this
# machine, in one run, through the same stock OpenSSH client: bulk MB/s
# per cipher (data into `cat > /dev/null`) and connect+login latency.
# Prints a table of both and the ratio ours/OpenSSH.
#
#   sh bench/throughput.sh [MiB]      (default 1024; CI runs it with 8)
#
# Needs root for OpenSSH's sshd (it insists on an absolute path and on
# /run/sshd); without root only our server is measured.
set -u
MIB=${1:-1024}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MOAT_BIN:-$ROOT/build/bin}
T=$(mktemp -d /tmp/moat-bench.XXXXXX)
PIDS=""
cleanup() { for p in $PIDS; do kill "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
ME=$(id -un)

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$T/host" >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/id" >/dev/null
cp "$T/id.pub" "$T/ak"
chmod 600 "$T/ak"

config() { # config port
	cat <<EOF2
ListenAddress 127.0.0.1
Port $1
HostKey $T/host
AuthorizedKeysFile $T/ak
PidFile none
UsePAM no
StrictModes no
EOF2
}

MOAT_PORT=$(free_port)
config "$MOAT_PORT" > "$T/moat_config"
"$BIN/sshd" -D -e -f "$T/moat_config" 2>"$T/moat.log" &
PIDS="$PIDS $!"

OSSH_PORT=""
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	mkdir -p /run/sshd
	OSSH_PORT=$(free_port)
	config "$OSSH_PORT" > "$T/openssh_config"
	/usr/sbin/sshd -D -e -f "$T/openssh_config" 2>"$T/openssh.log" &
	PIDS="$PIDS $!"
fi
sleep 0.5

cli() { # cli port args...
	p=$1; shift
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -i "$T/id" \
	    -p "$p" "$@"
}

now() { date +%s.%N; }

# MB/s of MIB mebibytes through `cat > /dev/null` with cipher/mac.
rate() { # rate port cipher mac
	s=$(now)
	head -c $((MIB * 1024 * 1024)) /dev/zero |
	    cli "$1" -c "$2" -m "$3" "$ME@127.0.0.1" 'cat > /dev/null' || return 1
	e=$(now)
	echo "$s $e $MIB" | awk '{ printf "%.0f", ($3 * 1.048576) / ($2 - $1) }'
}

latency() { # latency port: mean ms of 10 logins running `true`
	s=$(now)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		cli "$1" -o KexAlgorithms=curve25519-sha256 "$ME@127.0.0.1" true || return 1
	done
	e=$(now)
	echo "$s $e" | awk '{ printf "%.1f", ($2 - $1) * 100 }'
}

printf '%-44s %10s %10s %7s\n' "bulk ($MIB MiB into cat)" "moat MB/s" "OpenSSH" "ratio"
for cm in "aes128-gcm@openssh.com hmac-sha2-256-etm@openssh.com" \
    "chacha20-poly1305@openssh.com hmac-sha2-256-etm@openssh.com" \
    "aes128-ctr hmac-sha2-256-etm@openssh.com" \
    "aes256-ctr hmac-sha2-512-etm@openssh.com" \
    "aes128-ctr umac-64-etm@openssh.com" \
    "aes128-ctr umac-128-etm@openssh.com"; do
	set -- $cm
	ours=$(rate "$MOAT_PORT" "$1" "$2") || { echo "moat failed for $1" >&2; exit 1; }
	theirs=-
	ratio=-
	if [ -n "$OSSH_PORT" ]; then
		theirs=$(rate "$OSSH_PORT" "$1" "$2") || theirs=-
		[ "$theirs" != - ] && ratio=$(echo "$ours $theirs" | awk '{ printf "%.2f", $1 / $2 }')
	fi
	name=$1
	[ "$1" = aes128-ctr ] || [ "$1" = aes256-ctr ] && name="$1+$2"
	printf '%-44s %10s %10s %7s\n' "$name" "$ours" "$theirs" "$ratio"
done

ours=$(latency "$MOAT_PORT") || { echo "moat login failed" >&2; exit 1; }
theirs=-
ratio=-
if [ -n "$OSSH_PORT" ]; then
	theirs=$(latency "$OSSH_PORT") || theirs=-
	[ "$theirs" != - ] && ratio=$(echo "$ours $theirs" | awk '{ printf "%.2f", $1 / $2 }')
fi
printf '%-44s %10s %10s %7s\n' "connect+login ms (lower is better)" "$ours" "$theirs" "$ratio"
