#!/bin/sh
# ssh -O proxy (PROTOCOL.mux, "Requesting proxy mode"): our ssh as a
# proxy-mode client of Debian's master (/usr/bin/ssh -M), into our sshd
# and into Debian's sshd. Over the control socket in plain framing we
# run exec sessions (exit 0 and 3), 1 MiB through stdin and back, a
# session with -tt, and a -L forward; Debian's ssh -O proxy runs the
# same in the same runs and its output and exit codes are the measure.
# A fake master that turns hostile after MUX_S_PROXY must only make our
# ssh give up (255), and a master that refuses proxy mode is reported.
# Each client has a master of its own: our sshd ends a connection whose
# second session with a pty gets the first one's tty again ("a login
# record for a tty or process not the user's"), proxy mode or not.
. "$(dirname "$0")/lib.sh"
need ssh
need sshd
need sha256sum
make_keys
write_config </dev/null
start_sshd
OUR_PORT=$PORT
S=$T/cm

# Debian's sshd on its own port, with the same keys.
DPORT=$(free_port)
cat >"$T/dsshd_config" <<CFG
ListenAddress 127.0.0.1
Port $DPORT
HostKey $T/host_ed25519
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
UsePAM no
SetEnv SHLVL=1
CFG
start_peer_sshd "$(command -v sshd)" "$T/dsshd_config" "$T/dsshd.log"

head -c 1048576 /dev/urandom >"$T/mib"
MIB=$(sha256sum <"$T/mib" | cut -d' ' -f1)

# start_master PORT: Debian's -N master into the server on PORT.
start_master() { start_mux_master ssh "$1"; }

stop_master() {
	ssh -F /dev/null -o ControlPath="$S" -O exit 127.0.0.1 2>/dev/null
	# Reaped by wait (kill -0 would see the zombie); 10 s at most.
	(sleep 10; kill "$MP" 2>/dev/null) >/dev/null 2>&1 &
	wd=$!
	wait "$MP"
	kill "$wd" 2>/dev/null
}

# px PROGRAM ARGS: PROGRAM -O proxy through the master, nothing else
# configured (the master has done the host key and the login).
px() {
	prog=$1; shift
	"$prog" -F /dev/null -o ControlPath="$S" -O proxy "$@"
}

# banner PORT: the server's version line read through a forwarded port.
banner() {
	"$PY" -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', $1), 5)
sys.exit(0 if s.recv(64).startswith(b'SSH-2.0') else 1)" 2>/dev/null
}

# wait_port PORT: up to 10 s for something to listen there.
wait_port() {
	"$PY" -c "
import socket, sys, time
for _ in range(200):
    try:
        socket.create_connection(('127.0.0.1', $1), 1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)"
}

# run_one PROGRAM TAG: the cases with PROGRAM -O proxy; results in
# $T/TAG.* for comparing.
run_one() {
	prog=$1; tag=$2
	px "$prog" 127.0.0.1 'echo out; echo err >&2; exit 0' \
	    >"$T/$tag.o0" 2>"$T/$tag.e0" </dev/null
	echo $? >"$T/$tag.s0"
	px "$prog" 127.0.0.1 'echo three; exit 3' \
	    >"$T/$tag.o3" 2>"$T/$tag.e3" </dev/null
	echo $? >"$T/$tag.s3"
	px "$prog" 127.0.0.1 'cat' <"$T/mib" 2>"$T/$tag.ec" |
	    sha256sum | cut -d' ' -f1 >"$T/$tag.sum"
	px "$prog" -tt 127.0.0.1 'echo tty; tty >/dev/null && exit 7' \
	    >"$T/$tag.ot" 2>"$T/$tag.et" </dev/null
	echo $? >"$T/$tag.st"
	FP=$(free_port)
	px "$prog" -L "$FP:127.0.0.1:$PORT" 127.0.0.1 'sleep 20' \
	    >/dev/null 2>"$T/$tag.el" </dev/null &
	LP=$!
	at_exit "kill $LP 2>/dev/null"
	if wait_port "$FP" && banner "$FP"; then
		echo ok >"$T/$tag.l"
	else
		echo no >"$T/$tag.l"
	fi
	kill "$LP" 2>/dev/null
	wait "$LP" 2>/dev/null
}

# same SUFFIX: Debian's file and ours alike, in this server's run.
same() { cmp -s "$T/deb.$S2.$1" "$T/our.$S2.$1"; }
# ours SUFFIX: our client's file of this server's run.
ours() { echo "$T/our.$S2.$1"; }

# run_server PORT NAME TAG: both clients through one master into PORT.
run_server() {
	PORT=$1; name=$2; S2=$3
	# A master each (see the note at the top).
	start_master "$PORT"
	run_one ssh "deb.$S2"
	stop_master
	start_master "$PORT"
	run_one "$BIN/ssh" "our.$S2"
	stop_master
	check "$name: exec, exit 0: status, stdout, stderr as Debian's" \
	    [ "$(cat "$(ours s0)")" = 0 ] && same s0 && same o0 &&
	    grep -qx out "$(ours o0)" && grep -qx err "$(ours e0)"
	check "$name: exec, exit 3 as Debian's" \
	    [ "$(cat "$(ours s3)")" = 3 ] && same s3 && same o3
	check "$name: 1 MiB stdin to stdout intact" \
	    [ "$(cat "$(ours sum)")" = "$MIB" ] &&
	    [ "$(cat "$T/deb.$S2.sum")" = "$MIB" ]
	check "$name: -tt: a pty, status 7, as Debian's" \
	    [ "$(cat "$(ours st)")" = 7 ] && same st &&
	    grep -q "^tty" "$(ours ot)"
	check "$name: -tt: the closing line as Debian's" same et
	check "$name: -L forward carries the server's banner" \
	    [ "$(cat "$(ours l)")" = ok ] && same l
	check "$name: no errors from our client" \
	    [ ! -s "$(ours e3)" ] && [ ! -s "$(ours ec)" ]
}

run_server "$OUR_PORT" "our sshd" o
run_server "$DPORT" "Debian's sshd" d

# Not proxy mode, found on the way: a -D asked of Debian's master by
# -O forward carries the connect host it insists on ("socks").
PORT=$OUR_PORT
start_master "$PORT"
FP=$(free_port)
"$BIN/ssh" -F /dev/null -o ControlPath="$S" -O forward -D "$FP" h \
    2>"$T/d.err"
st=$?
check "-O forward -D to Debian's master: done" \
    [ $st -eq 0 ] && [ ! -s "$T/d.err" ]
check "... and SOCKS there reaches the server" "$PY" -c "
import socket, struct, sys
s = socket.create_connection(('127.0.0.1', $FP), 5)
s.sendall(b'\\5\\1\\0')
assert s.recv(2) == b'\\5\\0'
s.sendall(b'\\5\\1\\0\\1' + socket.inet_aton('127.0.0.1') +
          struct.pack('>H', $PORT))
r = s.recv(10)
sys.exit(0 if r[1] == 0 and s.recv(64).startswith(b'SSH-2.0') else 1)"
stop_master

# -W with -O is refused before anything else, as Debian's ssh does.
"$BIN/ssh" -F /dev/null -O proxy -W 127.0.0.1:1 h >/dev/null 2>"$T/w.our"
st=$?
ssh -F /dev/null -O proxy -W 127.0.0.1:1 h >/dev/null 2>"$T/w.deb"
dst=$?
check "-O proxy -W: refused as Debian's ssh refuses it ($dst)" \
    [ $st -eq 255 ] && [ $dst -eq 255 ] &&
    grep -q "^Cannot specify stdio forward with -O" "$T/w.our" &&
    grep -q "^Cannot specify stdio forward with -O" "$T/w.deb"

# A fake master: what it says when it refuses, and hostile bytes where
# the plain framing starts. Each run must end (timeout: it hung) with
# 255; where Debian's ssh words a refusal, ours words it the same.
fake() { # fake MODE PROGRAM: its status; stderr in $T/f.MODE.PROGRAM-TAG
	timeout 20 "$2" -F /dev/null -o ControlPath="$T/fm.$1" -O proxy \
	    127.0.0.1 true </dev/null >/dev/null 2>"$T/f.$1.$3"
}
for mode in refuse denied rid eof badlen short padded kexinit confirm; do
	"$PY" "$SRC/tests/interop/mux_fake_master.py" "$T/fm.$mode" "$mode" \
	    >"$T/fm.$mode.out" &
	at_exit "kill $! 2>/dev/null"
done
for mode in refuse denied rid eof badlen short padded kexinit confirm; do
	wait_log "$T/fm.$mode.out" ready || fail "fake master $mode"
	fake "$mode" ssh deb
	dst=$?
	fake "$mode" "$BIN/ssh" our
	st=$?
	check "fake master, $mode: 255 as Debian's ($dst)" \
	    [ $st -eq 255 ] && [ $dst -eq 255 ]
	if grep -q "Sanitizer\|runtime error" "$T/f.$mode.our"; then
		fail "fake master, $mode: sanitizer report"
		cat "$T/f.$mode.our" >&2
	fi
done
# (Debian's log lines on stderr end in CR LF, ours in LF.)
for mode in refuse denied rid; do
	tr -d '\r' <"$T/f.$mode.deb" >"$T/f.$mode.debn"
	check "fake master, $mode: said as Debian's ssh says it" \
	    cmp -s "$T/f.$mode.debn" "$T/f.$mode.our"
done
check "fake master, kexinit: said, not silent" [ -s "$T/f.kexinit.our" ]
finish
