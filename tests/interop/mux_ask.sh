#!/bin/sh
# ControlMaster ask and autoask: the master asks through SSH_ASKPASS
# (SSH_ASKPASS_REQUIRE=force, no tty) before each client's session,
# -W, -O forward, -O proxy, -O exit and -O stop. An askpass answering "yes" lets the request
# through, "no" (or an askpass that fails) refuses it, and the client
# says "Master refused ... request: Permission denied" and exits 255;
# Debian's ssh as the client sees the same.
. "$(dirname "$0")/lib.sh"
need ssh
need setsid
make_keys
write_config </dev/null
start_sshd
S=$T/cm

# The askpass: logs each question, answers with what $T/answer holds
# ("fail": no answer at all).
cat >"$T/askpass" <<EOF
#!/bin/sh
printf '%s|%s\n' "\$SSH_ASKPASS_PROMPT" "\$1" >>"$T/asked"
a=\$(cat "$T/answer")
[ "\$a" = fail ] && exit 1
echo "\$a"
EOF
chmod 755 "$T/askpass"
answer() { echo "$1" >"$T/answer"; : >"$T/asked"; }

oursh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o ControlPath="$S" \
	    -o ControlMaster=no "$@"
}

# start_master MODE: a -N master (no tty: setsid) with ControlMaster MODE.
start_master() {
	rm -f "$S"
	(SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY= \
	    exec setsid "$BIN/ssh" -F /dev/null -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/kh" -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" -o ControlPath="$S" \
	    -o ControlMaster="$1" -N 127.0.0.1 </dev/null \
	    2>>"$T/master.err") &
	MP=$!
	at_exit "kill $MP 2>/dev/null"
	wait_master "$S" "$MP" "$T/master.err"
}

start_master ask
Q="confirm|Allow shared connection to 127.0.0.1? "

answer yes
oursh 127.0.0.1 'echo through; exit 7' >"$T/y.out" 2>"$T/y.err" </dev/null
st=$?
check "ask, askpass says yes: the session runs, its status comes back" \
    [ $st -eq 7 ] && grep -qx through "$T/y.out"
check "... the master asked as ssh(1) does" grep -qxF "$Q" "$T/asked"

answer no
oursh 127.0.0.1 'echo through' >"$T/n.out" 2>"$T/n.err" </dev/null
st=$?
check "ask, askpass says no: refused, exit 255, nothing ran" \
    [ $st -eq 255 ] && [ ! -s "$T/n.out" ]
check "... the client says why" \
    grep -q "Master refused session request: Permission denied" "$T/n.err"
check "... after the question" grep -qxF "$Q" "$T/asked"

answer fail
oursh 127.0.0.1 'echo through' >"$T/f.out" 2>"$T/f.err" </dev/null
st=$?
check "ask, askpass gives no answer: refused too" \
    [ $st -eq 255 ] && [ ! -s "$T/f.out" ]

answer no
ssh -F /dev/null -o BatchMode=yes -o ControlPath="$S" -o ControlMaster=no \
    127.0.0.1 'echo through' >"$T/d.out" 2>"$T/d.err" </dev/null
st=$?
check "Debian's ssh refused by our master: 255, its message" \
    [ $st -eq 255 ] && [ ! -s "$T/d.out" ] &&
    grep -q "Master refused session request: Permission denied" "$T/d.err"
answer yes
ssh -F /dev/null -o BatchMode=yes -o ControlPath="$S" -o ControlMaster=no \
    127.0.0.1 'exit 3' >/dev/null 2>&1 </dev/null
st=$?
check "Debian's ssh let through by our master: its status" [ $st -eq 3 ]

# -O forward and -O proxy ask too, in ssh(1)'s words.
answer no
P=$(free_port)
oursh -O forward -L "$P:127.0.0.1:$PORT" 127.0.0.1 2>"$T/fn.err"
st=$?
check "ask: -O forward answered no fails" [ $st -ne 0 ]
check "... asked as ssh(1) does" grep -qxF \
    "confirm|Open local forward LOCALHOST:$P -> 127.0.0.1:$PORT on 127.0.0.1? " \
    "$T/asked"
answer no
oursh -O proxy 127.0.0.1 true >"$T/pn.out" 2>"$T/pn.err" </dev/null
st=$?
check "ask: -O proxy answered no: 255, nothing ran" \
    [ $st -eq 255 ] && [ ! -s "$T/pn.out" ]
check "... asked as ssh(1) does" \
    grep -qxF "confirm|Allow multiplex proxy connection? " "$T/asked"

answer no
oursh -O exit 127.0.0.1 2>"$T/xn.err"
st=$?
check "ask: -O exit answered no fails, the master stays" \
    [ $st -ne 0 ] && kill -0 "$MP" 2>/dev/null
check "... asked to terminate" \
    grep -qxF "confirm|Terminate shared connection to 127.0.0.1? " "$T/asked"
answer yes
oursh -O exit 127.0.0.1 2>/dev/null
st=$?
i=0
while kill -0 "$MP" 2>/dev/null && [ $i -lt 100 ]; do
	i=$((i + 1)); sleep 0.05
done
check "ask: -O exit answered yes ends the master" \
    [ $st -eq 0 ] && ! kill -0 "$MP" 2>/dev/null

# autoask: the same questions.
start_master autoask
answer no
oursh 127.0.0.1 true >/dev/null 2>"$T/an.err" </dev/null
st=$?
check "autoask, no: refused" [ $st -eq 255 ] && grep -qxF "$Q" "$T/asked"
answer yes
oursh 127.0.0.1 'exit 5' >/dev/null 2>&1 </dev/null
st=$?
check "autoask, yes: the session's status" [ $st -eq 5 ]
answer no
oursh -O stop 127.0.0.1 2>/dev/null
check "autoask: -O stop answered no keeps the socket" [ -S "$S" ]
answer yes
oursh -O exit 127.0.0.1 2>/dev/null
i=0
while kill -0 "$MP" 2>/dev/null && [ $i -lt 100 ]; do
	i=$((i + 1)); sleep 0.05
done
check "no sanitizer report from the master" \
    sh -c "! grep -q 'ERROR: .*Sanitizer\|runtime error:' '$T/master.err'"
finish
