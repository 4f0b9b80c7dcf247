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
. "$(dirname "$0")/lib.sh"
bench_init mux
bench_user

MOAT_PORT=$(free_port)
bench_config "$MOAT_PORT" "MaxStartups 100" > "$T/moat_config"
bench_sshd "$BIN/sshd" "$T/moat_config" "$T/moat.log"
PAIRS="ours:$BIN/ssh:$MOAT_PORT"
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ] && [ -x /usr/bin/ssh ]; then
	mkdir -p /run/sshd
	OSSH_PORT=$(free_port)
	bench_config "$OSSH_PORT" "MaxStartups 100" > "$T/openssh_config"
	bench_sshd /usr/sbin/sshd "$T/openssh_config" "$T/openssh.log"
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
	    -o IdentitiesOnly=yes -i "$T/id" -l "$BUSER" -p "$_p" "$@"
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
