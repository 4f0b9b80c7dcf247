#!/bin/sh
# Connection sharing in our ssh (ControlMaster, ControlPath, -M -S -O),
# against our sshd: a -N master and 20 mux clients at once, each with
# its own exit status, on one login; -O check, forward, cancel, exit and
# stop with Debian's ssh's words and exit codes; the three OpenSSH 6.2
# behaviours: "~." in a mux client returns at once while the server is
# stopped (SIGSTOP), a -N master exits on -O stop, and a mux -L to a
# port in use is reported (the client then connects by itself, so with
# ExitOnForwardFailure it exits 255); ControlPersist.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
# 20 sessions at once on one connection.
echo "MaxSessions 32" > "$T/extra"
write_config < "$T/extra"
start_sshd -o "SetEnv SHLVL=1"
S=$T/cm

oursh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/kh" -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" -o ControlPath="$S" "$@"
}
logins() { grep -c "Accepted publickey" "$T/sshd.log"; }

# start_master [ARGS]: a -N master in the background, MP its pid.
start_master() {
	(exec "$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile="$T/kh" \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" \
	    -o ControlPath="$S" -M -N "$@" 127.0.0.1 2>>"$T/master.err") &
	MP=$!
	i=0
	while [ ! -S "$S" ]; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 "$MP" 2>/dev/null; then
			fail "the master did not start"
			cat "$T/master.err" >&2
			finish
		fi
		sleep 0.05
	done
	at_exit "kill $MP 2>/dev/null"
}

# gone PID: up to 10 s for PID to exit; its status in GONE_ST.
gone() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 200 ] && return 1; sleep 0.05
	done
	wait "$1"
	GONE_ST=$?
	return 0
}

# ---- no master ----
oursh -O check 127.0.0.1 2>"$T/e0"
st=$?
check "-O check without a master exits 255" [ $st -eq 255 ]
check "-O check without a master says why" \
    grep -qx "Control socket connect($S): No such file or directory" "$T/e0"

# ---- a -N master, 20 clients ----
start_master
check "the control socket is 0600" \
    [ "$(stat -c %a "$S")" = 600 ]
before=$(logins)
oursh -O check 127.0.0.1 2>"$T/e1"
st=$?
check "-O check exits 0" [ $st -eq 0 ]
check "-O check names the master's pid" \
    grep -q "^Master running (pid=$MP)" "$T/e1"
i=1
while [ $i -le 20 ]; do
	oursh -o ControlMaster=no 127.0.0.1 "echo out$i; echo err$i >&2; exit $i" \
	    >"$T/o.$i" 2>"$T/r.$i" </dev/null &
	eval "p$i=$!"
	i=$((i + 1))
done
bad=0
i=1
while [ $i -le 20 ]; do
	eval "wait \$p$i"
	st=$?
	if [ $st -ne $i ] || [ "$(cat "$T/o.$i")" != "out$i" ] ||
	    ! grep -qx "err$i" "$T/r.$i"; then
		bad=$((bad + 1))
		echo "client $i: status $st, out $(cat "$T/o.$i"), err $(cat "$T/r.$i")" >&2
	fi
	i=$((i + 1))
done
check "20 concurrent mux clients, each its own status and output" [ $bad -eq 0 ]
check "no new login for the mux clients" [ "$(logins)" -eq "$before" ]
echo hello | oursh -o ControlMaster=no 127.0.0.1 cat >"$T/cat.out" 2>/dev/null
check "stdin reaches the remote command through the master" \
    grep -qx hello "$T/cat.out"
oursh -o ControlMaster=no -o SetEnv=MUXVAR=shared 127.0.0.1 \
    'echo "[$MUXVAR]"' >"$T/env.out" 2>/dev/null </dev/null
check "SetEnv through the master (AcceptEnv decides)" [ -s "$T/env.out" ]

# Two pty sessions one after the other on the one connection: the
# second is usually given the pty number the first gave back, and the
# monitor must take its login record (also where the system has no
# utmp file to write).
oursh -o ControlMaster=no -tt 127.0.0.1 'tty; exit 4' >"$T/pty1.out" \
    2>&1 </dev/null
st1=$?
oursh -o ControlMaster=no -tt 127.0.0.1 'tty; exit 5' >"$T/pty2.out" \
    2>&1 </dev/null
st2=$?
check "two pty sessions in a row through the master, each its status" \
    [ $st1 -eq 4 ] && [ $st2 -eq 5 ] && grep -q /dev/pts/ "$T/pty2.out"
check "... and the master's connection lives on" \
    oursh -O check 127.0.0.1

# The master makes the stdout it is passed non-blocking; the flag is
# the open file's, shared with the shell: the client clears it.
exec 3>"$T/nb.out"
oursh -o ControlMaster=no 127.0.0.1 'echo x' >&3 2>/dev/null </dev/null
nb=$("$PY" -c 'import fcntl, os; print(fcntl.fcntl(3, fcntl.F_GETFL) & os.O_NONBLOCK)')
exec 3>&-
check "stdout is blocking again after a mux session" [ "$nb" = 0 ]

# ---- -O forward / cancel ----
FP=$(free_port)
oursh -O forward -L "$FP:127.0.0.1:$PORT" 127.0.0.1 >"$T/f1" 2>"$T/fe1"
st=$?
check "-O forward -L exits 0, silently" [ $st -eq 0 ] && [ ! -s "$T/f1" ]
"$PY" -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', $FP), 5)
sys.exit(0 if s.recv(64).startswith(b'SSH-2.0') else 1)" 2>/dev/null
check "the forwarded port reaches the server" [ $? -eq 0 ]
oursh -O cancel -L "$FP:127.0.0.1:$PORT" 127.0.0.1 2>"$T/fe2"
st=$?
check "-O cancel exits 0" [ $st -eq 0 ]
"$PY" -c "
import socket, sys
try:
    socket.create_connection(('127.0.0.1', $FP), 2)
except OSError:
    sys.exit(0)
sys.exit(1)"
check "the canceled port is closed" [ $? -eq 0 ]
oursh -O cancel -L "$FP:127.0.0.1:$PORT" 127.0.0.1 2>"$T/fe3"
st=$?
check "-O cancel of an unknown forward: 0, and the reason" \
    [ $st -eq 0 ] && grep -q "port not forwarded" "$T/fe3" &&
    grep -qx "muxclient: master cancel forward request failed" "$T/fe3"
oursh -O forward -R "0:127.0.0.1:$PORT" 127.0.0.1 >"$T/f4" 2>/dev/null
st=$?
check "-O forward -R 0 prints the allocated port" \
    [ $st -eq 0 ] && grep -qx "[0-9][0-9]*" "$T/f4"

# ---- bz#2055: a mux -L to a port in use ----
"$PY" -c "
import socket, sys, time
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
print(s.getsockname()[1]); sys.stdout.flush(); time.sleep(30)" >"$T/busy" &
BPID=$!
at_exit "kill $BPID 2>/dev/null"
wait_log "$T/busy" .
BP=$(cat "$T/busy")
oursh -O forward -L "127.0.0.1:$BP:127.0.0.1:22" 127.0.0.1 2>"$T/b1"
st=$?
check "-O forward to a port in use exits 255" [ $st -eq 255 ]
check "-O forward to a port in use says so" \
    grep -qx "mux_client_forward: forwarding request failed: Port forwarding failed" "$T/b1"
n0=$(logins)
oursh -o ControlMaster=no -L "127.0.0.1:$BP:127.0.0.1:22" 127.0.0.1 true \
    2>"$T/b2" </dev/null
st=$?
check "mux -L to a port in use: reported, then a connection of its own" \
    [ $st -eq 0 ] && grep -qx "muxclient: master forward request failed" "$T/b2" &&
    [ "$(logins)" -gt "$n0" ]
oursh -o ControlMaster=no -o ExitOnForwardFailure=yes \
    -L "127.0.0.1:$BP:127.0.0.1:22" 127.0.0.1 true 2>"$T/b3" </dev/null
st=$?
check "... and with ExitOnForwardFailure it exits 255" [ $st -eq 255 ]
kill $BPID 2>/dev/null

# ---- ~. while the server is stopped ----
# The server's processes for the master's connection: the children of
# the listener (one connection here), and theirs.
tree() {
	for c in $(ps -o pid= --ppid "$1"); do
		echo "$c"; tree "$c"
	done
}
STOPPED=$(tree "$SSHD_PID" | tr '\n' ' ')
at_exit "kill -CONT $STOPPED 2>/dev/null"
STOP_CMD="kill -STOP $STOPPED 2>/dev/null" "$PY" "$(dirname "$0")/mux_tty.py" "$T/tty.out" -- \
    "$BIN/ssh" -F /dev/null -o BatchMode=yes -o ControlMaster=no \
    -o ControlPath="$S" -t -p "$PORT" 127.0.0.1 'echo ready; sleep 60'
kill -CONT $STOPPED 2>/dev/null
head -1 "$T/tty.out"
st=$(sed -n 's/^status=\(-*[0-9]*\) .*/\1/p' "$T/tty.out")
secs=$(sed -n 's/.* secs=\([0-9]*\)\..*/\1/p' "$T/tty.out")
check "~. ends a mux client at once while the server is stopped" \
    [ "$st" = 255 ] && [ "$secs" -lt 3 ]
check "... saying the shared connection closed" \
    grep -q "Shared connection to 127.0.0.1 closed." "$T/tty.out"

# ---- -O stop, -O exit ----
oursh -O stop 127.0.0.1 2>"$T/s1"
st=$?
check "-O stop: 0, Debian's words" [ $st -eq 0 ] &&
    grep -qx "Stop listening request sent.$(printf '\r')" "$T/s1"
gone "$MP"
check "a -N master exits on -O stop, with 255 as Debian's" \
    [ "${GONE_ST:-x}" = 255 ]
check "... and its socket is gone" [ ! -e "$S" ]

start_master
oursh -O exit 127.0.0.1 2>"$T/x1"
st=$?
check "-O exit: 0, Debian's words" [ $st -eq 0 ] &&
    grep -qx "Exit request sent.$(printf '\r')" "$T/x1"
GONE_ST=""
gone "$MP"
check "the master exits on -O exit" [ "${GONE_ST:-x}" = 255 ]
check "... and its socket is gone" [ ! -e "$S" ]

# ---- ControlMaster auto, ControlPersist ----
n0=$(logins)
oursh -o ControlMaster=auto -o ControlPersist=4 127.0.0.1 'exit 5' </dev/null 2>/dev/null
st=$?
check "auto + ControlPersist: the first session's status" [ $st -eq 5 ]
check "... and the master stays in the background" [ -S "$S" ]
oursh -o ControlMaster=auto 127.0.0.1 'exit 6' </dev/null 2>/dev/null
st=$?
check "auto: a second ssh uses it" [ $st -eq 6 ] && [ "$(logins)" -eq $((n0 + 1)) ]
i=0
while [ -e "$S" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
check "the persisting master goes after ControlPersist" [ ! -e "$S" ]
finish
