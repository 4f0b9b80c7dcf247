#!/bin/sh
# More ssh_config (and sshd_config) keywords OpenSSH has and we used to
# parse and ignore: LogVerbose (both programs; sshd's in Match too), Tag
# and "Match tagged" (-P), BindInterface (-B), SmartcardDevice, the client's
# ChannelTimeout, ProxyUseFdpass and ObscureKeystrokeTiming. Run time
# against our sshd; -G and -T lines compared with Debian's and with
# OpenSSH 10.5's where Debian's has not the keyword.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config < /dev/null
# LogVerbose names one function of ours: its debug line is logged at
# LogLevel INFO, with its place; other debug lines are not.
start_sshd -o LogLevel=INFO -o "LogVerbose=kex.c:kex_send_kexinit:*"
printf '%s\n' "BatchMode yes" "IdentitiesOnly yes" \
    "UserKnownHostsFile $T/kh" "StrictHostKeyChecking no" > "$T/cfg"
mssh() {
	"$BIN/ssh" -F "$T/cfg" "$@"
}
out=$(mssh -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
check "LogVerbose: logged in" [ "$out" = "in" ]
check "sshd LogVerbose: the named debug line at INFO, with its place" \
    wait_log "$T/sshd.log" \
    '^debug1: kex.c:kex_send_kexinit():[0-9]* (pid=[0-9]*): SSH2_MSG_KEXINIT sent'
check "... and no other debug line" [ "$(grep -c '^debug' "$T/sshd.log")" = 1 ]
# The client: LogLevel ERROR, the same function named.
out=$(mssh -i "$T/id_ed25519" -o LogLevel=ERROR \
    -o "LogVerbose=kex.c:kex_send_kexinit:*" -p "$PORT" "$ME@127.0.0.1" \
    'echo in' </dev/null 2>"$T/err")
check "ssh LogVerbose: logged in" [ "$out" = "in" ]
check "ssh LogVerbose: the named debug line on stderr" grep -q \
    '^debug1: kex.c:kex_send_kexinit():[0-9]* (pid=[0-9]*): SSH2_MSG_KEXINIT sent' \
    "$T/err"
check "... and nothing else" [ "$(wc -l < "$T/err")" = 1 ]
out=$(mssh -i "$T/id_ed25519" -o LogLevel=ERROR -o "LogVerbose=nomatch.c:*:*" \
    -p "$PORT" "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/err")
check "ssh LogVerbose naming nothing of ours: quiet" [ ! -s "$T/err" ]

# sshd -T: the same line as Debian's sshd.
tline() {
	ours=$("$BIN/sshd" -T -f /dev/null -h "$T/host_ed25519" "$@" 2>&1 |
	    grep '^logverbose')
	theirs=$(/usr/sbin/sshd -T -f /dev/null -h "$T/host_ed25519" "$@" \
	    2>&1 | grep '^logverbose')
	check "sshd -T $* as OpenSSH ($ours)" [ "$ours" = "$theirs" ]
}
if [ -x /usr/sbin/sshd ]; then
	mkdir -p /run/sshd
	tline -o "LogVerbose=kex.c:*:* auth.c:*:1,x"
	tline -o "LogVerbose=a" -o "LogVerbose=b"
fi

# LogVerbose in a Match block: the connection logs as the block says
# once its user is known (the monitor's "User child" line, named by its
# file, comes out at INFO); a block that does not match changes nothing.
# sshd -T -C shows the block's value as Debian's sshd does.
printf '%s\n' "Match User $ME" "	LogVerbose privsep.c:*:*" \
    "Match User nosuchuser" "	LogVerbose kex.c:*:*" > "$T/mv_extra"
write_config < "$T/mv_extra"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
start_sshd -o LogLevel=INFO
out=$(mssh -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
check "Match LogVerbose: logged in" [ "$out" = "in" ]
check "Match LogVerbose: the block's file logged at INFO, with its place" \
    wait_log "$T/sshd.log" \
    '^privsep.c:[a-z_]*():[0-9]* (pid=[0-9]*): User child is on pid'
check "... not another block's" sh -c "! grep -q '^debug1: kex.c' '$T/sshd.log'"
if [ -x /usr/sbin/sshd ]; then
	for spec in "user=$ME,host=h,addr=127.0.0.1" \
	    "user=nosuchuser,host=h,addr=127.0.0.1" "user=x,host=h,addr=1.2.3.4"; do
		ours=$("$BIN/sshd" -T -C "$spec" -f "$T/sshd_config" 2>&1 |
		    grep '^logverbose')
		theirs=$(/usr/sbin/sshd -T -C "$spec" -f "$T/sshd_config" 2>&1 |
		    grep '^logverbose')
		check "sshd -T -C $spec: logverbose as Debian's ($ours)" \
		    [ "$ours" = "$theirs" ]
	done
	ours=$("$BIN/sshd" -T -C "user=$ME,host=h,addr=127.0.0.1" \
	    -f "$T/sshd_config" 2>&1 | grep -c '^logverbose privsep.c')
	check "... the block's value for a user it matches" [ "$ours" = 1 ]
fi

# LogLevel in a Match block: from the user lookup on, the connection
# logs at the block's level, as Debian's sshd does; another block's
# level does not apply.
printf '%s\n' "Match User $ME" "	LogLevel DEBUG1" \
    "Match User nosuchuser" "	LogLevel DEBUG3" > "$T/ml_extra"
write_config < "$T/ml_extra"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
start_sshd -o LogLevel=INFO
out=$(mssh -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
check "Match LogLevel: logged in" [ "$out" = "in" ]
check "Match LogLevel DEBUG1: the connection's debug lines logged" \
    wait_log "$T/sshd.log" '^debug1: '
check "... not another block's level" sh -c "! grep -q '^debug3: ' '$T/sshd.log'"

# -G KEYWORD CONFIG-LINES...: our line for it as the reference ssh
# prints it ($REF: Debian's, or 10.5's for keywords newer than 9.2).
REF=ssh
gcheck() {
	kw=$1
	shift
	printf '%s\n' "$@" > "$T/gcfg"
	ours=$("$BIN/ssh" -G -F "$T/gcfg" h 2>&1 | grep "^$kw ")
	theirs=$("$REF" -G -F "$T/gcfg" h 2>/dev/null </dev/null | grep "^$kw ")
	check "-G $kw as OpenSSH ($*: $ours)" [ -n "$theirs" ] &&
	    [ "$ours" = "$theirs" ]
}
# bad CONFIG-LINE: refused with the reference's first line and status.
bad() {
	printf '%s\n' "$1" > "$T/bcfg"
	"$BIN/ssh" -G -F "$T/bcfg" h >/dev/null 2>"$T/bours"
	so=$?
	"$REF" -G -F "$T/bcfg" h >/dev/null 2>"$T/btheirs" </dev/null
	st=$?
	o=$(head -1 "$T/bours" | tr -d '\r')
	t=$(head -1 "$T/btheirs" | tr -d '\r' | sed 's/Pseudo-terminal.*//')
	check "bad '$1': as OpenSSH ($so: $o)" [ "$so" = "$st" ] &&
	    [ "$o" = "$t" ]
}
gcheck logverbose
gcheck logverbose "LogVerbose kex.c:*:1000,foo"
gcheck logverbose "LogVerbose a.c:*:* b.c:f:1,c" "LogVerbose z"
bad "LogVerbose"

# SmartcardDevice is PKCS11Provider (Debian's -G shows it so).
gcheck pkcs11provider "SmartcardDevice /usr/lib/x.so"
gcheck pkcs11provider "SmartcardDevice /a.so" "PKCS11Provider /b.so"
gcheck proxyusefdpass
gcheck proxyusefdpass "ProxyUseFdpass yes"
bad "ProxyUseFdpass maybe"
gcheck bindinterface "BindInterface lo"
bad "BindInterface a b"

# BindInterface and -B: the connection leaves from the interface's
# address; one with none fails as OpenSSH's does.
out=$(mssh -i "$T/id_ed25519" -B lo -p "$PORT" "$ME@127.0.0.1"     'echo $SSH_CLIENT' </dev/null 2>"$T/err")
check "-B lo: from lo's address ($out)" [ "${out%% *}" = 127.0.0.1 ]
out=$(mssh -i "$T/id_ed25519" -o BindInterface=nosuchif0 -p "$PORT"     "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/err")
st=$?
ssh -F /dev/null -o BatchMode=yes -B nosuchif0 -p "$PORT" 127.0.0.1 true     </dev/null 2>"$T/err2"
check "BindInterface with no address: refused (exit $st)" [ -z "$out" ] &&
    [ "$st" = 255 ]
tr -d '\r' < "$T/err2" > "$T/err2n"
tr -d '\r' < "$T/err" > "$T/errn"
check "... with OpenSSH's lines" diff "$T/err2n" "$T/errn"

# ProxyUseFdpass: the dialer passes a connected socket back and exits.
dial="$PY $SRC/tests/interop/fdpass_proxy.py"
out=$(mssh -i "$T/id_ed25519" -o "ProxyCommand=$dial %h %p" \
    -o ProxyUseFdpass=yes -v -p "$PORT" "$ME@127.0.0.1" 'echo $SSH_CLIENT' \
    </dev/null 2>"$T/err")
check "ProxyUseFdpass: logged in over the passed socket ($out)" \
    [ "${out%% *}" = 127.0.0.1 ]
check "... the dialer named as OpenSSH names it" \
    grep -q "Executing proxy dialer command" "$T/err"
out=$(mssh -i "$T/id_ed25519" -o "ProxyCommand=$dial none 0" \
    -o ProxyUseFdpass=yes -p "$PORT" "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
st=$?
check "ProxyUseFdpass, nothing passed: fails ($st)" [ -z "$out" ] &&
    [ "$st" = 255 ]
check "... with OpenSSH's message" \
    grep -q "proxy dialer did not pass back a connection" "$T/err"

# ChannelTimeout on our side: the session channel is named by what it
# runs (session:command here), as OpenSSH's ssh names it, so "session"
# alone does not match it.
start=$(date +%s)
out=$(mssh -i "$T/id_ed25519" -o "ChannelTimeout=session:command=2" \
    -p "$PORT" "$ME@127.0.0.1" 'sleep 12; echo done' </dev/null 2>"$T/err")
st=$?
el=$(($(date +%s) - start))
check "ChannelTimeout session:command=2: closed idle ($st, ${el}s)" \
    [ -z "$out" ] && [ "$st" = 255 ] && [ "$el" -lt 12 ]
out=$(mssh -i "$T/id_ed25519" -o "ChannelTimeout=session=1 global=0" \
    -p "$PORT" "$ME@127.0.0.1" 'sleep 3; echo done' </dev/null 2>"$T/err")
check "ChannelTimeout session=1: not the command's channel" [ "$out" = done ]
out=$(mssh -i "$T/id_ed25519" -o "ChannelTimeout=x=1 global=2" \
    -p "$PORT" "$ME@127.0.0.1" 'sleep 12; echo done' </dev/null 2>"$T/err")
check "ChannelTimeout global=2: closed idle" [ -z "$out" ]

# Keywords newer than Debian's 9.2: compared with OpenSSH 10.5's -G.
if sh "$SRC/scripts/peer_openssh.sh" -q >/dev/null 2>&1; then
	need_peer_openssh
	REF=$O105/bin/ssh
	gcheck tag "Tag web"
	gcheck tag "Tag a" "Tag b"
	bad "Tag"
	bad "Tag a b"
	for args in "-P x" "-P x -o Tag=y"; do
		# shellcheck disable=SC2086
		ours=$("$BIN/ssh" -G -F /dev/null $args h | grep '^tag ')
		# shellcheck disable=SC2086
		theirs=$("$REF" -G -F /dev/null $args h </dev/null 2>/dev/null |
		    grep '^tag ')
		check "-G $args: as OpenSSH ($ours)" [ -n "$ours" ] &&
		    [ "$ours" = "$theirs" ]
	done
	printf '%s\n' "Match tagged web*" "  User tu" "Match !tagged *" \
	    "  Port 2" > "$T/tcfg"
	for args in "" "-P webby" "-P other"; do
		# shellcheck disable=SC2086
		ours=$("$BIN/ssh" -G -F "$T/tcfg" $args h | grep -E '^(user|port) ')
		# shellcheck disable=SC2086
		theirs=$("$REF" -G -F "$T/tcfg" $args h </dev/null 2>/dev/null |
		    grep -E '^(user|port) ')
		check "Match tagged with '$args': as OpenSSH ($ours)" \
		    [ "$ours" = "$theirs" ]
	done
	gcheck channeltimeout
	gcheck channeltimeout "ChannelTimeout none"
	gcheck channeltimeout "ChannelTimeout session=5m agent-connection=1h x11-connection=3 direct-tcpip=4 global=5"
	gcheck channeltimeout "ChannelTimeout *=1 global=3" "ChannelTimeout x=2"
	bad "ChannelTimeout session"
	bad "ChannelTimeout session=x"
	bad "ChannelTimeout none session=1"
	gcheck obscurekeystroketiming
	for v in yes true no interval:7 interval:1000; do
		gcheck obscurekeystroketiming "ObscureKeystrokeTiming $v"
	done
	for v in maybe interval:0 interval:1001 interval:; do
		bad "ObscureKeystrokeTiming $v"
	done
else
	echo "no OpenSSH 10.5 peer: Tag, ChannelTimeout and" \
	    "ObscureKeystrokeTiming not compared" >&2
fi

# PubkeyAuthentication unbound|host-bound (OpenSSH 8.9+): -G as Debian's;
# unbound signs plain publickey where the server offers the host-bound
# form, yes and host-bound sign the host-bound form.
REF=ssh
for v in unbound host-bound yes no; do
	gcheck pubkeyauthentication "PubkeyAuthentication $v"
done
bad "PubkeyAuthentication maybe"
# KbdInteractiveDevices: the submethods of keyboard-interactive.
check "-G: no kbdinteractivedevices line when unset, as OpenSSH" sh -c \
    "! '$BIN/ssh' -G -F /dev/null h 2>&1 | grep -q kbdinteractivedevices"
gcheck kbdinteractivedevices "KbdInteractiveDevices pam,bsdauth"
# ... sent as the request's submethods: the server logs them.
restart_sshd "LogLevel DEBUG1" "KbdInteractiveAuthentication yes"
mssh -o PreferredAuthentications=keyboard-interactive \
    -o KbdInteractiveDevices=pam,bsdauth -p "$PORT" "$ME@127.0.0.1" true \
    </dev/null >/dev/null 2>&1
check "KbdInteractiveDevices reaches the server as submethods" \
    grep -q 'keyboard-interactive devs pam,bsdauth' "$T/sshd.log"
for v in unbound host-bound yes; do
	out=$(mssh -vvv -i "$T/id_ed25519" -o PubkeyAuthentication=$v \
	    -p "$PORT" "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/pk.$v")
	check "PubkeyAuthentication $v: logged in" [ "$out" = "in" ]
done
check "unbound: plain publickey" sh -c \
    "! grep -q 'using publickey-hostbound-v00@openssh.com' '$T/pk.unbound'"
check "... and it was accepted" \
    grep -q 'Authentication succeeded (publickey)' "$T/pk.unbound"
for v in host-bound yes; do
	check "$v: the host-bound form" \
	    grep -q 'using publickey-hostbound-v00@openssh.com' "$T/pk.$v"
done

finish
