#!/bin/sh
# X11 forwarding under Xvfb: xdpyinfo run on the server side reaches
# the display through our ssh -X into our sshd, our ssh into Debian's
# sshd, and Debian's ssh into our sshd. Trusted and untrusted cookies
# (ForwardX11Trusted yes / no) differ as with Debian's ssh: an
# untrusted client is shown fewer X extensions (the SECURITY
# extension's restrictions), counted first with Debian's ssh and
# sshd. An X client using another cookie than the fake one is refused;
# X11Forwarding no and the no-X11-forwarding key option are refused
# with Debian's client message; DISPLAY is set only with forwarding,
# the listener is gone once the session ends, untrusted X11
# connections are refused after ForwardX11Timeout, and ssh -G prints
# the keywords as Debian's.
. "$(dirname "$0")/lib.sh"
need_xvfb
make_keys

# A display of the test's own (from number 40).
start_xvfb 40
LOCAL_EXT=$(xdpyinfo | sed -n 's/^number of extensions: *//p')

# The servers add the session's cookie to a file of the test's own.
write_config <<CFG
X11Forwarding yes
SetEnv XAUTHORITY=$T/server.auth
CFG
cp "$T/sshd_config" "$T/deb_config"
DEB_PORT=$(free_port)
sed -i "s/^Port .*/Port $DEB_PORT/" "$T/deb_config"
start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"
start_sshd

KH=$T/known_hosts
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$KH" \
	    -o StrictHostKeyChecking=no -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" "$@" </dev/null
}
REMOTE='echo "D=$DISPLAY"; xdpyinfo | sed -n "s/^number of extensions: */E=/p"'
# run NAME CLIENT PORT ARGS...: REMOTE through the client; sets D, E
# and R: what the X server made of the client: the extensions it
# showed, or the refusal it gave.
run() {
	_n=$1 _c=$2 _p=$3
	shift 3
	# A client that does not end is a failure here, not a hung test.
	$_c -p "$_p" "$@" "$ME@127.0.0.1" "$REMOTE" >"$T/$_n.out" \
	    2>"$T/$_n.err" </dev/null &
	_pid=$!
	( sleep 20; kill "$_pid" 2>/dev/null ) &
	_w=$!
	wait "$_pid"
	kill "$_w" 2>/dev/null
	D=$(sed -n 's/^D=//p' "$T/$_n.out")
	E=$(sed -n 's/^E=//p' "$T/$_n.out")
	R="extensions:$E"
	grep -q "Invalid MIT-MAGIC-COOKIE-1 key" "$T/$_n.err" &&
	    R="refused:invalid cookie"
}

# Debian's ssh and sshd first: what trusted and untrusted look like.
run deb_t ossh "$DEB_PORT" -X -o ForwardX11Trusted=yes
DEB_T=$E
run deb_u ossh "$DEB_PORT" -X -o ForwardX11Trusted=no
DEB_U=$R
check "Debian: trusted client sees the display's $LOCAL_EXT extensions" \
    [ -n "$DEB_T" ] && [ "$DEB_T" = "$LOCAL_EXT" ]
# Xvfb may show an untrusted client fewer extensions, or refuse the
# generated cookie outright; either way not what a trusted one gets.
check "Debian: untrusted client treated otherwise ($DEB_U)" \
    [ "$DEB_U" != "extensions:$DEB_T" ] && [ "$DEB_U" != "extensions:" ]

# (a) ours into ours.
run a_t mssh "$PORT" -X
check "ours -> ours: -X (Debian's default: trusted) reaches the display" \
    [ "$E" = "$DEB_T" ]
[ "$E" = "$DEB_T" ] || cat "$T/a_t.err" >&2
check "... DISPLAY is localhost:N.0 from offset 10" \
    expr "$D" : 'localhost:[0-9][0-9]*\.0$' >/dev/null
OURD=$D
run a_u mssh "$PORT" -X -o ForwardX11Trusted=no
check "ours -> ours: untrusted treated as Debian's untrusted ($R)" \
    [ "$R" = "$DEB_U" ]
check "... D set all the same" expr "$D" : 'localhost:' >/dev/null
run a_y mssh "$PORT" -Y -o ForwardX11Trusted=no
check "ours -> ours: -Y is trusted whatever ForwardX11Trusted says" \
    [ "$E" = "$DEB_T" ]
check "... server logged the X11 connection" \
    grep -q "X11 connection requested" "$T/sshd.log"

# The listener goes with the session.
LPORT=$((6000 + $(expr "$OURD" : 'localhost:\([0-9]*\)')))
check "listener on port $LPORT closed after the session" \
    sh -c "! ss -ltnH 'sport = :$LPORT' | grep -q LISTEN"

# ForwardX11Timeout: untrusted X11 connections refused after it.
mssh -v -p "$PORT" -X -o ForwardX11Trusted=no -o ForwardX11Timeout=1 \
    "$ME@127.0.0.1" 'sleep 2; xdpyinfo >/dev/null 2>&1; echo rc=$?' \
    >"$T/tmo.out" 2>"$T/tmo.err"
check "ForwardX11Timeout: a later X11 connection is refused" \
    grep -q "Rejected X11 connection after ForwardX11Timeout expired" \
    "$T/tmo.err"
check "... and the X client fails" grep -q "rc=1" "$T/tmo.out"

# An X client with its own cookie, not the fake one, is refused.
mssh -p "$PORT" -X "$ME@127.0.0.1" \
    'XAUTHORITY=/dev/null xdpyinfo >/dev/null 2>&1; echo rc=$?' \
    >"$T/wrong.out" 2>"$T/wrong.err"
check "a cookie other than the fake one is refused" \
    grep -q "rc=1" "$T/wrong.out"
check "... with ssh's message" \
    grep -q "X11 connection rejected because of wrong authentication" \
    "$T/wrong.err"

# (b) ours into Debian's sshd.
run b_t mssh "$DEB_PORT" -X
check "ours -> Debian's sshd: trusted reaches the display" \
    [ "$E" = "$DEB_T" ]
run b_u mssh "$DEB_PORT" -X -o ForwardX11Trusted=no
check "ours -> Debian's sshd: untrusted as Debian's" [ "$R" = "$DEB_U" ]

# (c) Debian's ssh into ours.
run c_t ossh "$PORT" -X -o ForwardX11Trusted=yes
check "Debian's ssh -> ours: trusted reaches the display" \
    [ "$E" = "$DEB_T" ]
run c_u ossh "$PORT" -X -o ForwardX11Trusted=no
check "Debian's ssh -> ours: untrusted as with Debian's sshd" \
    [ "$R" = "$DEB_U" ]

# Refusals: X11Forwarding no, then the key option.
MSG="X11 forwarding request failed on channel 0"
restart_sshd "X11Forwarding no"
run r1 mssh "$PORT" -x -X
check "X11Forwarding no: no DISPLAY (ours)" [ -z "$D" ] && [ -z "$E" ]
check "... our ssh says: $MSG" grep -q "^$MSG" "$T/r1.err"
run r2 ossh "$PORT" -o LogLevel=INFO -X
check "... Debian's ssh says the same" grep -q "^$MSG" "$T/r2.err"
check "... logged as Debian's sshd does" \
    grep -q "X11 forwarding disabled in server configuration file" \
    "$T/sshd.log"
sed "s/^/no-X11-forwarding /" "$T/id_ed25519.pub" > "$T/authorized_keys"
restart_sshd "X11Forwarding yes" "SetEnv XAUTHORITY=$T/server.auth"
run r3 mssh "$PORT" -X -x -X
check "no-X11-forwarding: no DISPLAY" [ -z "$D" ] && [ -z "$E" ]
check "... our ssh says: $MSG" grep -q "^$MSG" "$T/r3.err"
# The client is told why, in an SSH_MSG_DEBUG, as Debian's sshd tells
# it (ssh -v prints it as "Remote: ...", ending in CR LF).
run r4 ossh "$PORT" -v -X
check "... Debian's ssh -v shows the server's debug message" grep -q \
    "^debug1: Remote: X11 forwarding disabled by key options\..\{0,1\}\$" "$T/r4.err"
cp "$T/id_ed25519.pub" "$T/authorized_keys"
restart_sshd "X11Forwarding yes" "XAuthLocation $T/no-such-xauth"
run r5 ossh "$PORT" -v -X
check "no xauth program: no DISPLAY" [ -z "$D" ] && [ -z "$E" ]
check "... Debian's ssh -v shows why, from the server" grep -q \
    "^debug1: Remote: No xauth program; cannot forward X11\..\{0,1\}\$" "$T/r5.err"

# ssh -G as Debian's.
for a in "" "-X" "-Y" "-X -x" "-X -o ForwardX11Trusted=no -o ForwardX11Timeout=5m"; do
	# shellcheck disable=SC2086
	"$BIN/ssh" -F /dev/null -G $a h 2>/dev/null |
	    grep -E '^(forwardx11|xauthlocation)' | sort >"$T/g1"
	# shellcheck disable=SC2086
	ssh -F /dev/null -G $a h 2>/dev/null |
	    grep -E '^(forwardx11|xauthlocation)' | sort >"$T/g2"
	check "ssh -G $a: X11 lines as Debian's" cmp -s "$T/g1" "$T/g2"
done
finish
