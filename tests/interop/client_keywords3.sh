#!/bin/sh
# More ssh_config (and sshd_config) keywords OpenSSH has and we used to
# parse and ignore: LogVerbose (both programs), Tag and "Match tagged"
# (-P), BindInterface (-B), SmartcardDevice, the client's
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

finish
