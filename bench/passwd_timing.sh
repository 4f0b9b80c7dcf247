#!/bin/sh
# bench/passwd_timing.sh: how long a wrong password takes for a user that
# exists and for one that does not, per hash method of the accounts, on
# our sshd and on Debian's OpenSSH (UsePAM no on both). Prints, per method
# (libxcrypt's default cost for each: yescrypt $y$j9T$, SHA-512 with 5000
# rounds, bcrypt $2b$05$), the median milliseconds of N attempts for each
# user and the ratio nonexistent/existing: near 1.00 means the answer's
# timing does not tell whether the user exists. The 10th percentiles are
# shown too: on a busy machine waits for a CPU spread the times of the
# cheap hashes (a few ms) out, and the median wanders with them.
#
#   sh bench/passwd_timing.sh [N]      (default 40)
#
# The servers imitate the accounts' hash form (ours: the form most usable
# hashes in /etc/shadow share), so for each method the script makes more
# temporary users with it than there are usable hashes already (3 more),
# and removes them. Root only (users, /etc/shadow, OpenSSH's /run/sshd).
set -u
N=${1:-40}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${MOAT_BIN:-$ROOT/build/bin}
PY=/usr/bin/python3
HELPER=$ROOT/tests/interop/passwd_timing.py
[ "$(id -u)" = 0 ] || { echo "passwd_timing: needs root" >&2; exit 1; }
T=$(mktemp -d /tmp/moat-bench.XXXXXX)
PIDS=""
USERS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for u in $USERS; do userdel "$u" >/dev/null 2>&1; done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM
P=mpb$$u
NOUSER=mpb$$none
PW="moat-bench-$$-pw"

free_port() {
	$PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
ssh-keygen -q -t ed25519 -N '' -f "$T/host" >/dev/null
config() { # config port
	cat <<EOF2
ListenAddress 127.0.0.1
Port $1
HostKey $T/host
PidFile none
UsePAM no
PasswordAuthentication yes
KbdInteractiveAuthentication no
PubkeyAuthentication no
MaxAuthTries 100
EOF2
}
start() { # start sshd-binary name: sets PORT
	PORT=$(free_port)
	config "$PORT" > "$T/$2_config"
	"$1" -D -e -f "$T/$2_config" 2>"$T/$2.log" &
	PIDS="$PIDS $!"
}
start "$BIN/sshd" moat
MOAT_PORT=$PORT
OSSH_PORT=""
if [ -x /usr/sbin/sshd ]; then
	mkdir -p /run/sshd
	start /usr/sbin/sshd openssh
	OSSH_PORT=$PORT
fi
sleep 0.5

# Accounts with a usable hash (as our server counts them).
usable() {
	awk -F: '$2 != "x" && $2 !~ /^[!*]/ &&
	    ($2 ~ /^\$/ || length($2) == 13)' /etc/shadow | wc -l
}

measure() { # measure label port
	out=$($PY "$HELPER" time "$2" "$N" "$PW" "${P}0" "$NOUSER") ||
	    { echo "  $1: failed"; return; }
	set -- "$1" $out
	printf '  %-8s existing %6.1f ms  nonexistent %6.1f ms  ratio %s' \
	    "$1" "$2" "$3" "$(echo "$2 $3" | awk '{ printf "%.2f", $2 / $1 }')"
	printf '   (p10: %.1f, %.1f ms, ratio %s)\n' "$4" "$5" \
	    "$(echo "$4 $5" | awk '{ printf "%.2f", $2 / $1 }')"
}

echo "wrong password: median (and 10th percentile) of $N attempts each;" \
    "ratio nonexistent/existing"
for m in 'yescrypt $y$' 'SHA-512 $6$' 'bcrypt $2b$'; do
	set -- $m
	K=$(($(usable) + 3))	# outnumber the others by 3
	i=0
	while [ $i -lt "$K" ]; do
		h=$($PY "$HELPER" hash "$2" 0 "$PW") || exit 1
		useradd -M -s /bin/sh -p "$h" "$P$i" || exit 1
		USERS="$USERS $P$i"
		i=$((i + 1))
	done
	form=$(getent shadow "${P}0" | cut -d: -f2 |
	    sed 's/^\(\$2.\$..\$\).*/\1/; t; s/[^$]*\$[^$]*$//')
	echo "$1 ($form...):"
	measure moat "$MOAT_PORT"
	[ -n "$OSSH_PORT" ] && measure OpenSSH "$OSSH_PORT"
	for u in $USERS; do userdel "$u" >/dev/null 2>&1; done
	USERS=""
done
