#!/bin/sh
# server_timeouts.sh: sshd's ChannelTimeout, UnusedConnectionTimeout and
# ExposeAuthInfo, with Debian's ssh as the client and Debian's sshd
# beside ours for the same logins.
#
# ChannelTimeout session:*=2s: a command that stays silent is closed
# (status 255 at the client, OpenSSH's log line) while one fed a line
# every half second runs to its end. direct-tcpip=2s: a forwarded
# connection left idle is closed by the server. "session=2s" alone does
# not close a running command, on Debian's sshd as on ours (OpenSSH
# relabels the channel session:command once the command starts).
# UnusedConnectionTimeout: ssh -N with no channel is hung up on (without
# a DISCONNECT, "closed by remote host"), and the -L connection once its
# forward went; a silent command keeps its connection meanwhile.
# ExposeAuthInfo (in a Match block): the file SSH_USER_AUTH names holds
# what Debian's sshd writes for the same logins, byte for byte (a key;
# a key, then a password), mode 600, the user's, gone after logout; a
# user the Match leaves out has no SSH_USER_AUTH.
. "$(dirname "$0")/lib.sh"
need ssh
need setsid
[ -x /usr/sbin/sshd ] || skip "Debian's sshd is not installed"
[ "$(id -u)" = 0 ] || skip "needs root (a user with a password)"

make_keys
U=mto$$
PW="Moat-to-$$-x"
make_user "$U" "$PW"
# The user's own sshd reads authorized_keys as the user.
chmod 711 "$T"
chmod 644 "$T/authorized_keys"
KEY=$(cut -d' ' -f1,2 "$T/id_ed25519.pub")
H="$SRC/tests/interop/fwd_helper.py"
PIDS=""
at_exit 'for p in $PIDS; do kill $p 2>/dev/null; done'

# cond 'SHELL TEST': for check, when one check tests several things.
cond() { eval "$1"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# ms since $1, a now_ms
since() { echo $(($(now_ms) - $1)); }

# A password answer for U's logins (SSH_ASKPASS), as in auth_methods.inc.
printf '#!/bin/sh\necho "%s"\n' "$PW" > "$T/askpass"
chmod 755 "$T/askpass"
# pssh PORT CMD: U logs in with the ed25519 key and then the password.
pssh() {
	SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=none \
	setsid -w ssh -F /dev/null -o BatchMode=no -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -o NumberOfPasswordPrompts=1 \
	    -i "$T/id_ed25519" -p "$1" "$U@127.0.0.1" "$2" </dev/null
}
# What the sessions print of SSH_USER_AUTH: the file, then its path,
# mode and owner.
SHOW='cat "$SSH_USER_AUTH"; echo "path=$SSH_USER_AUTH"; stat -c "%a %U" "$SSH_USER_AUTH"'
# gone FILE: it disappears within 10 s (the connection's end removes it)
gone() {
	_i=0
	while [ -e "$1" ]; do
		_i=$((_i + 1)); [ $_i -gt 100 ] && return 1; sleep 0.1
	done
}
# feed FILE PATTERN: a line every 0.5 s on stdout until PATTERN shows in
# FILE (the remote command is up), then ten more; the count in FILE.n.
# Under session:*=2s a command that is slow to start is idle time
# unless input flows meanwhile, as with OpenSSH's sshd.
feed() {
	_n=0; _k=0
	while [ $_k -lt 10 ] && [ $_n -lt 200 ]; do
		echo "line $_n" || break
		_n=$((_n + 1))
		sleep 0.5
		grep -q "$2" "$1" 2>/dev/null && _k=$((_k + 1))
	done
	echo $_n >"$1.n"
}
auth_text() { sed '/^path=/,$d' "$1"; }
auth_path() { sed -n 's/^path=//p' "$1"; }

# ---- ours: session:*=2s, UnusedConnectionTimeout 2, ExposeAuthInfo ----
restart_sshd "ChannelTimeout session:*=2s direct-tcpip=2s" \
    "UnusedConnectionTimeout 2" "ExposeAuthInfo yes"

# The clients run at once; J: their jobs (a bare wait would wait for
# the servers too).
t0=$(now_ms)
{ ossh "$ME@127.0.0.1" 'sleep 12; echo done' >"$T/idle.out" 2>&1
  echo "$? $(since "$t0")" >"$T/idle.rc"; } &
J=$!
{ feed "$T/busy.out" ready 2>/dev/null |
      ossh "$ME@127.0.0.1" 'echo ready; cat' >"$T/busy.out" 2>&1
  echo $? >"$T/busy.rc"; } &
J="$J $!"
{ ossh -o LogLevel=INFO -N "$ME@127.0.0.1" >"$T/unused.out" 2>&1
  echo "$? $(since "$t0")" >"$T/unused.rc"; } &
J="$J $!"
feed "$T/pk.ours" path= 2>/dev/null | ossh "$ME@127.0.0.1" "$SHOW" \
    >"$T/pk.ours" 2>&1
wait $J

read -r rc ms <"$T/idle.rc"
check "silent command closed by session:*=2s (status $rc, ${ms} ms)" \
    cond '[ "$rc" = 255 ] && [ "$ms" -lt 11000 ] &&
    ! grep -q done "$T/idle.out"'
check "the closing is logged as OpenSSH logs it" \
    grep -q "channel 0: closing after 2 seconds of inactivity" "$T/sshd.log"
check "command fed every 0.5 s runs to its end" \
    cond '[ "$(cat "$T/busy.rc")" = 0 ] &&
    [ "$(wc -l <"$T/busy.out")" = $(($(cat "$T/busy.out.n") + 1)) ]'
read -r rc ms <"$T/unused.rc"
check "ssh -N without channels hung up on (status $rc, ${ms} ms)" \
    cond '[ "$rc" = 255 ] && grep -q "closed by remote host" "$T/unused.out"'
check "and logged as OpenSSH logs it" \
    grep -q "terminating inactive connection from user $ME 127.0.0.1 port [0-9]*\$" \
    "$T/sshd.log"
check "SSH_USER_AUTH names the key that logged in" \
    [ "$(auth_text "$T/pk.ours")" = "publickey $KEY" ]
p=$(auth_path "$T/pk.ours")
check "in /tmp/sshauth.* ($p), mode 600, the user's" \
    cond 'expr "$p" : "/tmp/sshauth\.[A-Za-z0-9]\{15\}\$" >/dev/null &&
    grep -qx "600 $ME" "$T/pk.ours"'
check "removed when the connection ends" gone "$p"

# ---- ours and Debian's at once: session=2s, unused 3, a Match ----
B="ChannelTimeout session=2s direct-tcpip=2s
UnusedConnectionTimeout 3
PasswordAuthentication yes
Match User $U
	ExposeAuthInfo yes
	AuthenticationMethods publickey,password"
restart_sshd "$B"
OURS=$PORT
sed -e "s/^Port .*/Port $(free_port)/" -e '/^LogLevel/d' "$T/sshd_config" \
    >"$T/deb_config"
DEB=$(sed -n 's/^Port //p' "$T/deb_config")
start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"

"$PY" "$H" serve echo "$T/echo.port" >/dev/null 2>&1 &
PIDS="$PIDS $!"
wait_log "$T/echo.port" .
EP=$(cat "$T/echo.port")
LP=$(free_port)

J=""
for s in ours deb; do
	[ $s = ours ] && P=$OURS || P=$DEB
	{ PORT=$P; ossh "$ME@127.0.0.1" 'sleep 5; echo "ok [$SSH_USER_AUTH]"' \
	      >"$T/sleep.$s" 2>&1; echo $? >>"$T/sleep.$s"; } &
	J="$J $!"
	pssh "$P" "$SHOW" >"$T/chain.$s" 2>"$T/chain.$s.err" &
	J="$J $!"
done
t0=$(now_ms)
{ ossh -N -L "$LP:127.0.0.1:$EP" "$ME@127.0.0.1" >/dev/null 2>&1
  echo "$? $(since "$t0")" >"$T/fwd.rc"; } &
J="$J $!"
"$PY" "$H" wait 127.0.0.1 "$LP" 20
# Through the forward: an echo, then nothing until the server closes it.
"$PY" -c '
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"hello\n")
got = b""
while not got.endswith(b"\n"):
    d = s.recv(100)
    if not d:
        break
    got += d
t = time.monotonic()
s.settimeout(15)
try:
    rest = "eof" if s.recv(100) == b"" else "data"
except OSError:
    rest = "timeout"
print(got.decode().strip(), rest, int((time.monotonic() - t) * 1000))
 ' "$LP" >"$T/fwd.out" 2>&1
wait $J

read -r word rest ms <"$T/fwd.out"
check "forwarded connection echoes, then is closed when idle ($rest, ${ms} ms)" \
    cond '[ "$word" = hello ] && [ "$rest" = eof ] &&
    [ "$ms" -ge 1500 ] && [ "$ms" -lt 8000 ]'
check "the forward's closing is logged" \
    grep -q "channel [0-9]*: closing after 2 seconds of inactivity" \
    "$T/sshd.log"
read -r rc ms <"$T/fwd.rc"
check "the -L connection hung up on once its forward went ($rc)" \
    cond '[ "$rc" = 255 ] &&
    [ "$(grep -c "terminating inactive connection" "$T/sshd.log")" = 1 ]'
for s in ours deb; do
	check "$s: session=2s leaves a running command alone; no Match, no SSH_USER_AUTH" \
	    [ "$(cat "$T/sleep.$s")" = "ok []
0" ]
done
check "key, then password: the same SSH_USER_AUTH file as Debian's sshd" \
    cond '[ -n "$(auth_text "$T/chain.deb")" ] &&
    [ "$(auth_text "$T/chain.ours")" = "$(auth_text "$T/chain.deb")" ]'
check "which is the key's line and a password line" \
    [ "$(auth_text "$T/chain.ours")" = "publickey $KEY
password" ]
p=$(auth_path "$T/chain.ours")
check "the user's file ($p), mode 600, removed after logout" \
    cond 'grep -qx "600 $U" "$T/chain.ours" && gone "$p"'
finish
