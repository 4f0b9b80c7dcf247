#!/bin/sh
# Connection sharing across implementations (PROTOCOL.mux): Debian's
# OpenSSH ssh as a mux client of our master, and our ssh as a mux
# client of Debian's master, against our sshd: sessions with their exit
# status, output and input, -O check (the master's pid), -O forward and
# cancel of a -L, -W through the master, and -O stop / -O exit.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config </dev/null
start_sshd -o "SetEnv SHLVL=1"
S=$T/cm

# cli PROGRAM ARGS: a client with the test's settings.
cli() {
	prog=$1; shift
	"$prog" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/kh" -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" -o ControlPath="$S" "$@"
}
logins() { grep -c "Accepted publickey" "$T/sshd.log"; }

# start_master PROGRAM: a -N master, MP its pid.
start_master() { start_mux_master "$1" "$PORT"; }

gone() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 200 ] && return 1; sleep 0.05
	done
	wait "$1"
	GONE_ST=$?
}

# banner PORT: the server's version line read through a forwarded port.
banner() {
	"$PY" -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', $1), 5)
sys.exit(0 if s.recv(64).startswith(b'SSH-2.0') else 1)" 2>/dev/null
}

# run_pair MASTER CLIENT NAME: the master's program and the client's.
run_pair() {
	master=$1; client=$2; name=$3
	start_master "$master"
	n0=$(logins)
	cli "$client" -O check 127.0.0.1 2>"$T/c.$name"
	st=$?
	check "$name: -O check" [ $st -eq 0 ] &&
	    grep -q "^Master running (pid=$MP)" "$T/c.$name"
	cli "$client" -o ControlMaster=no 127.0.0.1 \
	    'echo out; echo err >&2; exit 42' >"$T/o.$name" 2>"$T/e.$name" </dev/null
	st=$?
	check "$name: a session's exit status and output" [ $st -eq 42 ] &&
	    grep -qx out "$T/o.$name" && grep -qx err "$T/e.$name"
	printf 'abc\n' | cli "$client" -o ControlMaster=no 127.0.0.1 'cat; exit 0' \
	    >"$T/i.$name" 2>/dev/null
	check "$name: input to a session" grep -qx abc "$T/i.$name"
	cli "$client" -o ControlMaster=no -tt 127.0.0.1 'exit 7' \
	    >/dev/null 2>"$T/t.$name" </dev/null
	st=$?
	check "$name: a session with a pty" [ $st -eq 7 ] &&
	    grep -q "Shared connection to 127.0.0.1 closed." "$T/t.$name"
	FP=$(free_port)
	cli "$client" -O forward -L "$FP:127.0.0.1:$PORT" 127.0.0.1 2>/dev/null
	st=$?
	check "$name: -O forward -L" [ $st -eq 0 ] && banner "$FP"
	cli "$client" -O cancel -L "$FP:127.0.0.1:$PORT" 127.0.0.1 2>/dev/null
	st=$?
	check "$name: -O cancel" [ $st -eq 0 ] && ! banner "$FP"
	printf '' | cli "$client" -o ControlMaster=no -W "127.0.0.1:$PORT" \
	    127.0.0.1 2>"$T/w.$name" | head -c 7 >"$T/wo.$name"
	check "$name: -W through the master" grep -q "^SSH-2.0" "$T/wo.$name"
	check "$name: all on the master's one login" [ "$(logins)" -eq "$n0" ]
	cli "$client" -O stop 127.0.0.1 2>"$T/s.$name"
	st=$?
	check "$name: -O stop" [ $st -eq 0 ] &&
	    grep -q "^Stop listening request sent." "$T/s.$name"
	GONE_ST=""
	gone "$MP"
	check "$name: the -N master is gone after -O stop" [ "$GONE_ST" = 255 ]
	start_master "$master"
	cli "$client" -O exit 127.0.0.1 2>"$T/x.$name"
	st=$?
	check "$name: -O exit" [ $st -eq 0 ] &&
	    grep -q "^Exit request sent." "$T/x.$name"
	GONE_ST=""
	gone "$MP"
	check "$name: the master is gone after -O exit" [ "$GONE_ST" = 255 ]
}

run_pair "$BIN/ssh" ssh "Debian's client, our master"
run_pair ssh "$BIN/ssh" "our client, Debian's master"
finish
