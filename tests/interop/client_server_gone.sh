#!/bin/sh
# Our ssh when the server goes away without a DISCONNECT: the helper
# (hostile_server.py) closes the connection (FIN, or RST for the "-rst"
# modes) before any byte, instead of the server's KEXINIT, instead of
# its first encrypted packet (during authentication), or, as a proxy
# in front of our sshd, in the middle of a session when told to
# (SIGUSR1), with and without a pty, with -q and LogLevel=error, and
# with -N. Each case runs our ssh and Debian's OpenSSH ssh alike: both
# must exit 255 and print exactly the expected lines on stderr (the
# known_hosts warning aside; OpenSSH ends its log lines with CR LF, and
# CRs are set aside in the comparison, except that the session's
# "closed by remote host." line must end in CR LF for ours too).
. "$(dirname "$0")/lib.sh"
need ssh
HELPER=$(dirname "$0")/hostile_server.py
make_keys
write_config </dev/null
# The whole of stderr is compared, so nothing from the account's shell
# start-up files may join it: bash run by sshd reads ~/.bashrc only at
# shell level 1, and SHLVL=1 in the session makes it level 2.
start_sshd -o "SetEnv SHLVL=1"
N=0

# run_client CLIENT KIND MODE [SSH ARGS...]: the helper in KIND/MODE and
# CLIENT (ours or openssh) against it; leaves the exit status in ST, the
# raw stderr in $T/raw.$N and the compared form in $T/err.$N. For the
# drop-session modes the command prints "ready" (or, with -N, the
# server logs the login) before the helper is told to drop.
run_client() {
	client=$1; kind=$2; mode=$3; shift 3
	N=$((N + 1))
	pf=$T/port.$N
	if [ "$kind" = proxy ]; then
		"$PY" "$HELPER" "$pf" proxy "$mode" "$PORT" > "$T/helper.$N" 2>&1 &
	else
		"$PY" "$HELPER" "$pf" fake "$mode" > "$T/helper.$N" 2>&1 &
	fi
	hpid=$!
	if ! wait_log "$pf" .; then
		fail "$client $mode: the helper did not start"
		kill "$hpid" 2>/dev/null
		wait "$hpid" 2>/dev/null
		ST=-1
		return
	fi
	gport=$(cat "$pf")
	if [ "$client" = ours ]; then cl=$BIN/ssh; else cl=ssh; fi
	logins=$(grep -c "Accepted publickey" "$T/sshd.log")
	timeout 30 "$cl" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="$T/kh.$N" -o StrictHostKeyChecking=no \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$gport" "$@" \
	    "$ME@127.0.0.1" ${CMD+"$CMD"} </dev/null \
	    > "$T/out.$N" 2> "$T/raw.$N" &
	cpid=$!
	case $mode in
	drop-session*)
		if [ -n "${CMD+x}" ]; then
			wait_log "$T/out.$N" "^ready" ||
			    fail "$client $*: the command did not start"
		else
			i=0
			while [ "$(grep -c "Accepted publickey" \
			    "$T/sshd.log")" -le "$logins" ] && [ $i -lt 300 ]; do
				i=$((i + 1))
				sleep 0.05
			done
			sleep 0.5
		fi
		kill -USR1 "$hpid"
		;;
	esac
	wait "$cpid"
	ST=$?
	i=0
	while kill -0 "$hpid" 2>/dev/null && [ $i -lt 50 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	kill "$hpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
	grep -q "^dropped " "$T/helper.$N" ||
	    fail "$client $mode: the helper did not drop the connection ($(cat "$T/helper.$N"))"
	tr -d '\r' < "$T/raw.$N" | grep -v "^Warning: Permanently added" |
	    sed "s/ port $gport\$/ port PORT/" > "$T/err.$N"
}

# gone LABEL EXPECTED KIND MODE [SSH ARGS...]: EXPECTED is the whole of
# stderr (printf format, "PORT" for the helper's port) for both clients.
gone() {
	label=$1; expected=$2; shift 2
	printf "$expected" > "$T/want"
	for client in ours openssh; do
		run_client "$client" "$@"
		why=""
		[ "$ST" -eq 255 ] || why="$why; exit status $ST, not 255"
		cmp -s "$T/want" "$T/err.$N" || why="$why; stderr differs"
		grep -q "ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer" \
		    "$T/raw.$N" && why="$why; sanitizer report"
		if [ -z "$why" ]; then
			pass "$label ($client): exit 255, stderr as expected"
		else
			fail "$label ($client)$why"
			sed 's/^/  want: /' "$T/want" >&2
			sed 's/^/  got:  /' "$T/err.$N" >&2
		fi
	done
	LAST=$N
}

CMD=true
# Before the server's version line; then during key exchange and during
# authentication: OpenSSH's INFO line with the numeric address.
gone "closed before any byte" \
    "kex_exchange_identification: Connection closed by remote host\nConnection closed by 127.0.0.1 port PORT\n" \
    fake drop
gone "closed before any byte, LogLevel=error" \
    "kex_exchange_identification: Connection closed by remote host\n" \
    fake drop -o LogLevel=error
gone "closed before any byte, -q" "" fake drop -q
gone "closed during key exchange" \
    "Connection closed by 127.0.0.1 port PORT\n" proxy drop-kex
gone "closed during key exchange, host named localhost" \
    "Connection closed by 127.0.0.1 port PORT\n" proxy drop-kex \
    -o HostName=localhost
gone "closed during key exchange, LogLevel=error" "" \
    proxy drop-kex -o LogLevel=error
gone "reset during key exchange" \
    "Connection reset by 127.0.0.1 port PORT\n" proxy drop-kex-rst
gone "closed during authentication" \
    "Connection closed by 127.0.0.1 port PORT\n" proxy drop-auth
gone "reset during authentication" \
    "Connection reset by 127.0.0.1 port PORT\n" proxy drop-auth-rst

# In the session: the line goes out whatever the LogLevel; with a pty,
# at LogLevel INFO, "Connection to HOST closed." follows it.
CMD='echo ready; exec sleep 30'
gone "closed in a session" \
    "Connection to 127.0.0.1 closed by remote host.\n" proxy drop-session
if grep -q "^Connection to 127.0.0.1 closed by remote host.$(printf '\r')\$" \
    "$T/raw.$((LAST - 1))"; then
	pass "closed in a session (ours): the line ends in CR LF"
else
	fail "closed in a session (ours): no CR LF line in $(od -c "$T/raw.$((LAST - 1))")"
fi
gone "closed in a session, -q" \
    "Connection to 127.0.0.1 closed by remote host.\n" proxy drop-session -q
gone "closed in a session with a pty" \
    "Connection to 127.0.0.1 closed by remote host.\nConnection to 127.0.0.1 closed.\n" \
    proxy drop-session -tt
gone "closed in a session with a pty, LogLevel=error" \
    "Connection to 127.0.0.1 closed by remote host.\n" \
    proxy drop-session -tt -o LogLevel=error
gone "closed in a session, host named localhost" \
    "Connection to localhost closed by remote host.\n" \
    proxy drop-session -o HostName=localhost
# A read error: OpenSSH's DISCONNECT at exit fails on the reset socket.
gone "reset in a session" \
    "client_loop: send disconnect: Broken pipe\n" proxy drop-session-rst
gone "reset in a session, -q" "" proxy drop-session-rst -q
unset CMD
gone "closed with -N" \
    "Connection to 127.0.0.1 closed by remote host.\n" proxy drop-session -N

# A session that ends normally says none of this.
out=$("$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile=/dev/null \
    -o StrictHostKeyChecking=no -o LogLevel=error -o IdentitiesOnly=yes \
    -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" 'echo fine; exit 3' \
    </dev/null 2>"$T/err.clean")
st=$?
if [ "$out" = fine ] && [ $st -eq 3 ] && [ ! -s "$T/err.clean" ]; then
	pass "a normal end: exit 3, nothing on stderr"
else
	fail "a normal end: \"$out\", exit $st, stderr: $(cat "$T/err.clean")"
fi
finish
