# lib.sh: shared set-up for the interop tests (sourced, not run).
#
# Each test gets a private temporary directory, host keys and a user key
# made by Debian's ssh-keygen, an authorized_keys file, and our sshd on a
# free high port on 127.0.0.1, stopped by its PID on exit.
# Exit status 77 means "skipped" to CTest; say why on stderr first.
# What a test changes outside $T (a temporary user, a PAM service file,
# helper processes) is undone by the same exit trap: see at_exit.

set -u
BIN=${MOAT_BIN:-$(cd "$(dirname "$0")/../../build/bin" && pwd)}
# 1 for a sanitizer build (its programs start slower: tests that time a
# burst of connections allow for it, and say so).
SANITIZED=0
ldd "$BIN/sshd" 2>/dev/null | grep -q libasan && SANITIZED=1
SRC=${MOAT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/moat-test.XXXXXX)
chmod 700 "$T"
ME=$(id -un)
SSHD_PID=""
FAILS=0
# Debian's python3 (with python3-paramiko), not whatever is first on PATH.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
PASSES=0
AT_EXIT=""

cleanup() {
	eval "$AT_EXIT"
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "kept $T" >&2
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT

# at_exit COMMAND: cleanup runs COMMAND (eval'ed then, so quote what must
# be read late), the latest first, before it stops sshd and removes $T.
# A signal then exits through the same trap.
at_exit() {
	AT_EXIT="$1
$AT_EXIT"
	trap 'exit 1' INT TERM HUP
}

skip() { echo "SKIP: $*" >&2; exit 77; }
pass() { PASSES=$((PASSES + 1)); echo "ok: $*"; }
fail() { FAILS=$((FAILS + 1)); echo "FAIL: $*" >&2; }
check() { # check "description" command...
	desc=$1; shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}
finish() {
	# A sanitizer build reports memory errors on the server's stderr.
	if [ -f "$T/sshd.log" ] &&
	    grep -q "ERROR: AddressSanitizer\|runtime error:" "$T/sshd.log"; then
		grep -A20 "ERROR: AddressSanitizer\|runtime error:" "$T/sshd.log" >&2
		fail "sanitizer report in the server log"
	fi
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
	exit $?
}

# wait_log FILE PATTERN: up to 20 s for a line matching PATTERN (grep's
# basic regex) to appear in FILE. A line another process writes when it
# gets round to it (a server's log, a client's stderr) is waited for,
# never assumed to be there already.
wait_log() {
	_i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		_i=$((_i + 1)); [ $_i -gt 400 ] && return 1; sleep 0.05
	done
	return 0
}

need() { command -v "$1" >/dev/null 2>&1 || skip "$1 not installed"; }

# start_peer_sshd SSHD CONFIG LOG: another implementation's sshd (Debian's
# or OpenSSH 10.5's) in the foreground of a background job, logging to
# LOG; waits until it listens and stops it by PID at exit. Sets PEER_PID.
start_peer_sshd() {
	mkdir -p /run/sshd
	# SHLVL=1 unless the test sets its own environment, as write_config
	# does for ours (a SetEnv on the command line would displace the
	# file's: the first SetEnv counts).
	if grep -qi '^[[:space:]]*setenv' "$2"; then
		"$1" -D -e -f "$2" 2>"$3" &
	else
		"$1" -D -e -f "$2" -o "SetEnv SHLVL=1" 2>"$3" &
	fi
	PEER_PID=$!
	at_exit "kill $PEER_PID 2>/dev/null"
	i=0
	while ! grep -q "Server listening" "$3" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$PEER_PID" 2>/dev/null; then
			echo "$1 did not start:" >&2
			cat "$3" >&2
			exit 1
		fi
		sleep 0.05
	done
}

# need_peer_openssh: O105 is the prefix of the current OpenSSH that
# scripts/peer_openssh.sh builds (once, cached) from the source tarball
# beside the project; the test is skipped when there is none.
need_peer_openssh() {
	O105=$(sh "$SRC/scripts/peer_openssh.sh" -q) ||
	    skip "no current OpenSSH peer (scripts/peer_openssh.sh)"
	[ -x "$O105/bin/ssh" ] || skip "no current OpenSSH peer in $O105"
}

# make_user NAME [PASSWORD]: a user with a home directory and /bin/sh,
# removed on exit; with no PASSWORD it has none but is not locked ("*").
# Root only; the test is skipped when useradd fails.
make_user() {
	need useradd
	useradd -m -s /bin/sh "$1" || skip "useradd failed"
	at_exit "userdel -r '$1' >/dev/null 2>&1"
	if [ $# -gt 1 ]; then
		echo "$1:$2" | chpasswd
	else
		usermod -p '*' "$1"
	fi
}

# pam_service NAME: /etc/pam.d/NAME holds stdin until the test ends.
pam_service() {
	at_exit "rm -f '/etc/pam.d/$1'"
	cat > "/etc/pam.d/$1"
}

. "$(dirname "$0")/port.inc"

# Host keys of every type, and user keys, made by Debian's ssh-keygen.
make_keys() {
	need ssh-keygen
	for t in ed25519 ecdsa rsa; do
		ssh-keygen -q -t $t -N '' -f "$T/host_$t" -C host >/dev/null
		ssh-keygen -q -t $t -N '' -f "$T/id_$t" -C "user-$t" >/dev/null
	done
	cat "$T"/id_*.pub > "$T/authorized_keys"
	chmod 600 "$T/authorized_keys"
}

# write_config [extra lines on stdin]; AKF and STRICT_MODES override the
# test defaults (a file in $T, StrictModes no since $T is under /tmp).
# Sessions get SHLVL=1 unless the test sets its own SetEnv (only the
# first SetEnv counts): bash started by sshd reads the account's
# ~/.bashrc only at shell level 1, and a heavy one (root's may set up
# language tool chains) costs every login in the suite time and can
# add to stderr.
write_config() {
	PORT=$(free_port)
	cat > "$T/config_extra"
	{
		echo "ListenAddress 127.0.0.1"
		echo "Port $PORT"
		echo "HostKey $T/host_ed25519"
		echo "HostKey $T/host_ecdsa"
		echo "HostKey $T/host_rsa"
		echo "AuthorizedKeysFile ${AKF:-$T/authorized_keys}"
		echo "PidFile none"
		echo "LogLevel DEBUG1"
		echo "StrictModes ${STRICT_MODES:-no}"
		grep -qi '^[[:space:]]*setenv' "$T/config_extra" ||
		    echo "SetEnv SHLVL=1"
		cat "$T/config_extra"
	} > "$T/sshd_config"
}

# PerSourcePenalties is off unless a test sets PENALTIES (e.g. "yes" or
# "authfail:3s min:5s"): the tests connect from 127.0.0.1 again and
# again, failing on purpose, and must not lock themselves out. A value
# given in the config file still turns penalties on (OpenSSH's rule).
start_sshd() {
	# Empty the log here, not in the background child's redirection, so
	# a restarted server's old "Server listening" line cannot be seen.
	: > "$T/sshd.log"
	"$BIN/sshd" -D -e -f "$T/sshd_config" "$@" \
	    -o "PerSourcePenalties ${PENALTIES:-no}" 2>>"$T/sshd.log" &
	SSHD_PID=$!
	i=0
	while ! grep -q "Server listening" "$T/sshd.log" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 "$SSHD_PID" 2>/dev/null; then
			echo "sshd did not start:" >&2
			cat "$T/sshd.log" >&2
			exit 1
		fi
		sleep 0.05
	done
}

# restart_sshd [sshd_config lines...]: stop our sshd if it runs, then
# start it again with a fresh config (and port) holding these lines.
restart_sshd() {
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
		SSHD_PID=""
	fi
	printf '%s\n' "$@" > "$T/extra"
	write_config < "$T/extra"	# not in a pipe: it sets PORT
	start_sshd
}

# start_ssh_agent NAME: Debian's ssh-agent on $T/NAME.sock (its output in
# $T/NAME.env), stopped by its PID at exit; sets AGENT_PID. The test is
# skipped when the agent does not start.
start_ssh_agent() {
	ssh-agent -a "$T/$1.sock" >"$T/$1.env" || skip "ssh-agent failed"
	AGENT_PID=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/$1.env")
	[ -n "$AGENT_PID" ] || skip "no ssh-agent pid"
	at_exit "kill $AGENT_PID 2>/dev/null"
}

# need_xvfb: skip unless Xvfb, xdpyinfo and xauth are installed.
need_xvfb() {
	command -v Xvfb >/dev/null 2>&1 ||
	    skip "Xvfb not installed (scripts/deps.sh installs xvfb)"
	need xdpyinfo
	need xauth
}

# start_xvfb FIRST: an X display of the test's own, the first number
# from FIRST that no X server uses here (N), under Xvfb (XPID, stopped
# at exit) with a random MIT-MAGIC-COOKIE-1 in $T/xserver.auth; the
# client's copy of the cookie in $T/client.auth. Exports DISPLAY and
# XAUTHORITY for it; skips the test when the display does not answer.
start_xvfb() {
	N=$1
	while [ -e "/tmp/.X11-unix/X$N" ] || [ -e "/tmp/.X$N-lock" ]; do
		N=$((N + 1))
	done
	COOKIE=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
	xauth -q -f "$T/xserver.auth" add ":$N" MIT-MAGIC-COOKIE-1 "$COOKIE" \
	    2>/dev/null
	Xvfb ":$N" -screen 0 640x480x24 -auth "$T/xserver.auth" -nolisten tcp \
	    >"$T/xvfb.log" 2>&1 &
	XPID=$!
	at_exit "kill $XPID 2>/dev/null"
	XAUTHORITY="$T/client.auth"
	export XAUTHORITY
	xauth -q add ":$N" MIT-MAGIC-COOKIE-1 "$COOKIE" 2>/dev/null
	DISPLAY=":$N"
	export DISPLAY
	_i=0
	until xdpyinfo >/dev/null 2>&1; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ]; then
			cat "$T/xvfb.log" >&2
			skip "Xvfb did not start"
		fi
		sleep 0.1
	done
}

# wait_master SOCKET PID ERRLOG: until the ControlMaster PID listens on
# SOCKET; one that exits or takes over 10 s fails the test, which ends
# there (with ERRLOG, the master's stderr, shown).
wait_master() {
	_i=0
	while [ ! -S "$1" ]; do
		_i=$((_i + 1))
		if [ $_i -gt 200 ] || ! kill -0 "$2" 2>/dev/null; then
			cat "$3" >&2
			fail "the master did not start"
			finish
		fi
		sleep 0.05
	done
}

# start_mux_master PROGRAM PORT [ssh options...]: PROGRAM's (our ssh or
# Debian's) -N ControlMaster on $S, logged in to the server on PORT with
# the ed25519 user key; MP its pid, stopped at exit. A master that does
# not start fails the test, which ends there.
start_mux_master() {
	_prog=$1 _port=$2
	shift 2
	rm -f "$S"
	(exec "$_prog" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile="$T/kh" \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$_port" \
	    -o ControlPath="$S" -M -N "$@" 127.0.0.1 2>>"$T/master.err") &
	MP=$!
	at_exit "kill $MP 2>/dev/null"
	wait_master "$S" "$MP" "$T/master.err"
}

# Debian's OpenSSH client, configured only by the command line; the
# identity is $ID (default: the ed25519 user key).
ossh() {
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="${KNOWN:-$T/known_hosts}" -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -i "${ID:-$T/id_ed25519}" -p "$PORT" "$@"
}
