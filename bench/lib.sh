# bench/lib.sh: what the benchmark scripts that pit our sshd against
# Debian's share, sourced by them: a scratch directory removed at exit,
# servers stopped by the PIDs they were started with, free loopback
# ports, a host key and a user key, and a minimal server configuration.
#
#   . "$(dirname "$0")/lib.sh"
#   bench_init NAME [mem]   # mem: the scratch directory in /dev/shm
#   bench_config PORT [LINE...] > FILE
#   bench_sshd SSHD FILE LOG
#   bench_user              # as root: BUSER, a temporary login user
#
# Sets ROOT, BIN (our programs: $MOAT_BIN or build/bin), T (scratch,
# with host, id and ak: the host key, the user key and its
# authorized_keys) and PIDS.

bench_init() { # bench_init NAME [mem]
	ROOT=$(cd "$(dirname "$0")/.." && pwd)
	BIN=${MOAT_BIN:-$ROOT/build/bin}
	_dir=/tmp
	if [ "${2:-}" = mem ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
		_dir=/dev/shm
	fi
	T=$(mktemp -d "$_dir/moat-bench-$1.XXXXXX")
	PIDS=""
	trap bench_cleanup EXIT
	trap 'exit 130' HUP INT TERM
	ssh-keygen -q -t ed25519 -N '' -f "$T/host" >/dev/null
	ssh-keygen -q -t ed25519 -N '' -f "$T/id" >/dev/null
	cp "$T/id.pub" "$T/ak"
	chmod 600 "$T/ak"
}

bench_cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	[ -n "${BUSER_MADE:-}" ] && userdel "$BUSER" >/dev/null 2>&1
	rm -rf "$T"
}

# As root, logins are a temporary user's whose shell is /bin/sh with no
# start-up files: root's own (a .bashrc that sets up a language
# environment, say) would otherwise be timed with every command. The
# scratch directory becomes searchable and the authorized keys readable
# by that user, as the servers read them with its privileges. Not root:
# BUSER is the caller.
bench_user() {
	BUSER=$(id -un)
	[ "$(id -u)" = 0 ] || return 0
	useradd -M -d / -s /bin/sh "moatbench$$" 2>/dev/null || return 0
	usermod -p '*' "moatbench$$"
	BUSER=moatbench$$
	BUSER_MADE=1
	chmod 711 "$T"
	chmod 644 "$T/ak"
}

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

bench_config() { # bench_config PORT [LINE...]
	printf '%s\n' "ListenAddress 127.0.0.1" "Port $1" "HostKey $T/host" \
	    "AuthorizedKeysFile $T/ak" "PidFile none" "UsePAM no" \
	    "StrictModes no"
	shift
	for _l in "$@"; do
		printf '%s\n' "$_l"
	done
}

wait_listen() { # wait_listen LOG
	_i=0
	while ! grep -q "Server listening" "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -gt 100 ] && { echo "a server did not start" >&2; exit 1; }
		sleep 0.05
	done
}

bench_sshd() { # bench_sshd SSHD CONFIG LOG: started, listening, PID kept
	"$1" -D -e -f "$2" 2>"$3" &
	PIDS="$PIDS $!"
	wait_listen "$3"
}
