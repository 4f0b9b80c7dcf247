#!/bin/sh
# Unix-domain socket forwarding in our ssh, against Debian's OpenSSH
# sshd (root only; skipped otherwise) and against our sshd: each form
# of -L and -R with a socket path carries data both ways intact
# (SHA-256 through echo servers): -L path:host:port, -L port:path,
# -L path:path, -R path:host:port, -R path:path, -R port:path. Then:
# the socket's mode follows StreamLocalBindMask (0177 by default); a
# stale socket file makes -L fail in ssh(1)'s words (exit 255 with
# ExitOnForwardFailure) and StreamLocalBindUnlink replaces it; a server
# that refuses streamlocal-forward is reported as ssh(1) reports it;
# ssh -G prints path forwardings and the two options as Debian's does.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/forward.inc"
UH="$SRC/tests/interop/fwd_unix_helper.py"
MB4=$((4 * 1024 * 1024))
"$PY" "$H" serve echo "$T/echo.port" & SRV_PIDS="$SRV_PIDS $!"
"$PY" "$UH" serve "$T/echo.sock" 600 & SRV_PIDS="$SRV_PIDS $!"
i=0; while [ ! -s "$T/echo.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
EP=$(cat "$T/echo.port")
"$PY" "$UH" wait "$T/echo.sock" 10 || { echo "echo server did not start" >&2; exit 1; }

# bg_mssh LOG args...: our ssh -N in the background, ssh itself (not a
# subshell running mssh) in SSH_PID, so that stop_ssh stops it.
bg_mssh() {
	log=$1; shift
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=INFO \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" -N "$@" \
	    "$ME@127.0.0.1" </dev/null >"$log" 2>&1 &
	SSH_PID=$!
}

# forms TAG NAME: every form at once through one ssh to the server on
# PORT; TAG names the sockets.
forms() {
	t=$1; shift; n=$*
	LP=$(free_port); RP=$(free_port)
	bg_mssh "$T/$t.log" -o ExitOnForwardFailure=yes \
	    -L "$T/$t-l1.sock:127.0.0.1:$EP" \
	    -L "127.0.0.1:$LP:$T/echo.sock" \
	    -L "$T/$t-l3.sock:$T/echo.sock" \
	    -R "$T/$t-r1.sock:127.0.0.1:$EP" \
	    -R "$T/$t-r2.sock:$T/echo.sock" \
	    -R "$RP:$T/echo.sock"
	for s in l1 l3 r1 r2; do "$PY" "$UH" wait "$T/$t-$s.sock" 10; done
	"$PY" "$H" wait 127.0.0.1 "$LP" 10
	"$PY" "$H" wait 127.0.0.1 "$RP" 10
	check "$n: -L path:host:port carries 4 MiB both ways" \
	    "$PY" "$UH" echo "$T/$t-l1.sock" $MB4
	check "$n: -L port:path carries 4 MiB both ways" \
	    "$PY" "$H" echo 127.0.0.1 "$LP" $MB4
	check "$n: -L path:path carries 4 MiB both ways" \
	    "$PY" "$UH" echo "$T/$t-l3.sock" $MB4
	check "$n: -R path:host:port carries 4 MiB both ways" \
	    "$PY" "$UH" echo "$T/$t-r1.sock" $MB4
	check "$n: -R path:path carries 4 MiB both ways" \
	    "$PY" "$UH" echo "$T/$t-r2.sock" $MB4
	check "$n: -R port:path carries 4 MiB both ways" \
	    "$PY" "$H" echo 127.0.0.1 "$RP" $MB4
	check "$n: -L socket has mode 0600 (StreamLocalBindMask 0177)" \
	    [ "$(stat -c %a "$T/$t-l1.sock")" = 600 ]
	check "$n: ssh still up" kill -0 "$SSH_PID"
	stop_ssh
}

if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	start_osshd "AllowStreamLocalForwarding yes"
	forms o "OpenSSH sshd"
	stop_osshd
	start_osshd "AllowStreamLocalForwarding local"
	mssh -R "$T/refused.sock:127.0.0.1:$EP" "$ME@127.0.0.1" 'sleep 1; echo ran' \
	    </dev/null >"$T/ref.out" 2>"$T/ref.log"
	check "OpenSSH sshd refuses -R path: reported as ssh(1) words it" \
	    grep -q "^Warning: remote port forwarding failed for listen path $T/refused.sock" "$T/ref.log"
	check "OpenSSH sshd refuses -R path: session runs" [ "$(cat "$T/ref.out")" = ran ]
	stop_osshd
else
	echo "note: not root; the OpenSSH sshd part is skipped"
fi

write_config </dev/null
start_sshd
forms m "our sshd"

# StreamLocalBindMask gives the socket's mode.
bg_mssh "$T/mask.log" -o StreamLocalBindMask=0022 \
    -L "$T/mask.sock:127.0.0.1:$EP"
"$PY" "$UH" wait "$T/mask.sock" 10
check "StreamLocalBindMask 0022: socket mode 0755" \
    [ "$(stat -c %a "$T/mask.sock")" = 755 ]
stop_ssh

# A stale socket file in the way.
"$PY" "$UH" stale "$T/stale.sock"
mssh -o ExitOnForwardFailure=yes -L "$T/stale.sock:127.0.0.1:$EP" \
    "$ME@127.0.0.1" 'echo ran' </dev/null >"$T/st1.out" 2>"$T/st1.log"
check "socket path in use with ExitOnForwardFailure exits 255" [ $? -eq 255 ]
check "no command ran" [ ! -s "$T/st1.out" ]
check "socket path in use reported as ssh(1) words it" grep -q \
    "^unix_listener: cannot bind to path $T/stale.sock: Address already in use" "$T/st1.log"
mssh -L "$T/stale.sock:127.0.0.1:$EP" "$ME@127.0.0.1" 'echo ran' \
    </dev/null >"$T/st2.out" 2>"$T/st2.log"
check "socket path in use without ExitOnForwardFailure: session runs" \
    [ "$(cat "$T/st2.out")" = ran ]
check "socket path in use: Could not request local forwarding" \
    grep -q "^Could not request local forwarding" "$T/st2.log"
bg_mssh "$T/st3.log" -o StreamLocalBindUnlink=yes \
    -L "$T/stale.sock:127.0.0.1:$EP"
"$PY" "$UH" wait "$T/stale.sock" 10
check "StreamLocalBindUnlink replaces a stale socket" \
    "$PY" "$UH" echo "$T/stale.sock" 100000
stop_ssh

# Our sshd refusing streamlocal-forward.
restart_sshd "AllowStreamLocalForwarding local"
mssh -o ExitOnForwardFailure=yes -R "$T/refused.sock:127.0.0.1:$EP" \
    "$ME@127.0.0.1" 'sleep 2; echo ran' </dev/null >"$T/rf.out" 2>"$T/rf.log"
check "refused -R path with ExitOnForwardFailure exits 255" [ $? -eq 255 ]
check "refused -R path reported as ssh(1) words it" grep -q \
    "^Error: remote port forwarding failed for listen path $T/refused.sock" "$T/rf.log"

# ssh -G prints path forwardings as Debian's does.
gfwd() { "$1" -G -F /dev/null -o StreamLocalBindMask=0077 \
    -o StreamLocalBindUnlink=yes -L /tmp/a.sock:h:22 -L 1234:/tmp/r.sock \
    -L /tmp/a:/tmp/b -L '[/tmp/c]:h:22' -R /tmp/r:/tmp/l -R lo:5:/tmp/l \
    -R /tmp/s x 2>&1 | grep -i "forward \|^streamlocal" | sort; }
gfwd ssh > "$T/g.deb"
gfwd "$BIN/ssh" > "$T/g.our"
check "ssh -G prints path forwardings and the options as OpenSSH's" \
    cmp -s "$T/g.deb" "$T/g.our"
for s in /tmp/a:1234 1234/h/22 0:/tmp/x /tmp/a:h:0 '\/a:h:22'; do
	"$BIN/ssh" -G -L "$s" x >/dev/null 2>"$T/bad.log"
	check "bad spec '$s' refused as ssh(1) words it" grep -qF \
	    "Bad local forwarding specification '$s'" "$T/bad.log"
done
finish
