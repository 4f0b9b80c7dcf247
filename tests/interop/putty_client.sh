#!/bin/sh
# PuTTY's plink (Debian's putty-tools) against our sshd: login with
# ed25519, ecdsa-p256 and rsa user keys (PPK files made by puttygen), exec
# with exit status and signal, 20 MiB each way checked by SHA-256, rekeys
# started by either side, Environment, pscp and psftp, every cipher, MAC,
# KEX and host key type the two share (our sshd offers only the one under
# test, plink's saved session puts its family first, the server log names
# what was chosen), password and keyboard-interactive (root only), a pty,
# -L, -R, -D and -nc forwarding, and a wrong user key or host key refused.
#
# plink has no -c or -o: algorithm preferences live in a saved session,
# $PH/.putty/sessions/NAME ("Key=Value" lines), loaded with -load NAME.
# HOME is $PH (under $T) for every run, so no ~/.putty is read or written.
. "$(dirname "$0")/lib.sh"
need plink
need puttygen
make_keys
for t in ed25519 ecdsa rsa; do
	puttygen "$T/id_$t" -O private -o "$T/id_$t.ppk" >/dev/null 2>&1 ||
	    skip "puttygen could not convert the $t key"
done
# A key that authorized_keys does not list.
ssh-keygen -q -t ed25519 -N '' -f "$T/id_other" -C other
puttygen "$T/id_other" -O private -o "$T/id_other.ppk" >/dev/null 2>&1
ssh-keygen -q -t ed25519 -N '' -f "$T/host_other" -C other

PH=$T/puttyhome
mkdir -p "$PH/.putty/sessions"
chmod 700 "$PH"
fp() { ssh-keygen -lf "$1.pub" | awk '{print $2}'; }
HK="-hostkey $(fp "$T/host_ed25519") -hostkey $(fp "$T/host_ecdsa") -hostkey $(fp "$T/host_rsa")"
H="$SRC/tests/interop/fwd_helper.py"
BG_PIDS=""
at_exit 'for p in $BG_PIDS; do kill $p 2>/dev/null; done'

# session NAME [Key=Value...]: a saved session plink loads with -load NAME.
session() {
	n=$1; shift
	printf '%s\n' "$@" > "$PH/.putty/sessions/$n"
}
session plain

# pl [-load NAME] plink-args...: plink in batch mode with our host keys
# pinned, as $PUSER (default: us), key $KEY unless KEY is empty.
pl() {
	ld=plain
	if [ "$1" = -load ]; then ld=$2; shift 2; fi
	k=${KEY-$T/id_ed25519.ppk}
	# shellcheck disable=SC2086
	${PL_EXEC:-} env HOME="$PH" timeout 120 plink -load "$ld" -batch -noagent -ssh \
	    -P "$PORT" -l "${PUSER:-$ME}" $HK ${k:+-i "$k"} "$@"
}
logged() { grep -q "$1" "$T/sshd.log"; }
refused() { [ "$1" -ne 0 ] && [ -z "$2" ]; }	# refused STATUS OUTPUT

write_config </dev/null
start_sshd

# --- user keys, exit status, bulk data.
for t in ed25519 ecdsa rsa; do
	out=$(KEY=$T/id_$t.ppk pl 127.0.0.1 'echo putty-$((6*7))' </dev/null 2>"$T/pl.err")
	check "$t key (PPK): login and command" [ "$out" = putty-42 ]
	[ "$out" = putty-42 ] || cat "$T/pl.err" >&2
done
check "... each key accepted in the log" sh -c \
    "grep -q 'Accepted publickey for $ME from 127.0.0.1 port [0-9]* ssh2: ED25519' '$T/sshd.log' &&
     grep -q 'Accepted publickey for $ME from 127.0.0.1 port [0-9]* ssh2: ECDSA' '$T/sshd.log' &&
     grep -q 'Accepted publickey for $ME from 127.0.0.1 port [0-9]* ssh2: RSA' '$T/sshd.log'"
pl 127.0.0.1 'exit 3' </dev/null 2>/dev/null
check "exit status 3 comes back" [ $? -eq 3 ]
pl -v 127.0.0.1 'kill -TERM $$' </dev/null 2>"$T/pl.err"
check "a command killed by a signal fails" [ $? -ne 0 ]
check "... and plink was told the signal" grep -q 'signal "TERM"' "$T/pl.err"

MB20=$((20 * 1024 * 1024))
head -c $MB20 /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)
got=$(pl 127.0.0.1 sha256sum < "$T/data" 2>"$T/pl.err" | cut -d' ' -f1)
check "20 MiB stdin reaches the command intact" [ "$got" = "$want" ]
got=$(pl 127.0.0.1 "cat '$T/data'" </dev/null 2>"$T/pl.err" | sha256sum | cut -d' ' -f1)
check "20 MiB command output reaches plink intact" [ "$got" = "$want" ]

# Rekeying, started by plink every 1 MiB or minute, then by our sshd.
session rekey RekeyBytes=1M RekeyTime=1
got=$(pl -load rekey 127.0.0.1 sha256sum < "$T/data" 2>"$T/pl.err" | cut -d' ' -f1)
check "20 MiB in with plink rekeying every 1 MiB" [ "$got" = "$want" ]
check "... the server saw the rekeys" \
    [ "$(grep -c 'SSH2_MSG_KEXINIT received' "$T/sshd.log")" -gt 20 ]
restart_sshd "RekeyLimit 1M"
got=$(pl 127.0.0.1 "sha256sum; cat '$T/data'" < "$T/data" 2>"$T/pl.err" | sha256sum | cut -d' ' -f1)
check "20 MiB each way with our sshd rekeying every 1 MiB" \
    [ "$got" = "$(cat "$T/data" | { printf '%s  -\n' "$want"; cat; } | sha256sum | cut -d' ' -f1)" ]
# plink itself rekeys only after 1 GiB or 60 minutes here, so every
# KEXINIT after the first is our sshd's. 40 MiB at 1 MiB a key would be
# 40; what was already in flight when a rekey began pushes some keys
# past 1 MiB (Debian's sshd starts about 43, ours 31-37). Before channel
# reads paused during key exchanges ours started 24: the data read
# meanwhile went out under the next key in one burst.
check "... the server started them, about every 1 MiB" \
    [ "$(grep -c 'SSH2_MSG_KEXINIT sent' "$T/sshd.log")" -ge 28 ]

# Environment from the session: AcceptEnv lets one name through.
restart_sshd "AcceptEnv MOAT_PT"
session env Environment=MOAT_PT=putty-env,MOAT_NO=x
out=$(pl -load env 127.0.0.1 'echo "$MOAT_PT/${MOAT_NO-unset}"' </dev/null 2>/dev/null)
check "Environment: the accepted name is set, the other refused" \
    [ "$out" = putty-env/unset ]

# pscp (SFTP and scp) and psftp, with our sftp-server.
SFTPD=$BIN/sftp-server
if command -v pscp >/dev/null && command -v psftp >/dev/null && [ -x "$SFTPD" ]; then
	restart_sshd "Subsystem sftp $SFTPD"
	pc() { HOME=$PH timeout 120 "$@"; }
	pc pscp -q -batch -noagent -sftp -P "$PORT" -l "$ME" $HK -i "$T/id_ed25519.ppk" \
	    "$T/data" "127.0.0.1:$T/up.sftp" </dev/null 2>"$T/pl.err"
	check "pscp -sftp uploads 20 MiB intact" cmp -s "$T/data" "$T/up.sftp"
	pc pscp -q -batch -noagent -scp -P "$PORT" -l "$ME" $HK -i "$T/id_ed25519.ppk" \
	    "127.0.0.1:$T/data" "$T/down.scp" </dev/null 2>"$T/pl.err"
	check "pscp -scp downloads 20 MiB intact" cmp -s "$T/data" "$T/down.scp"
	printf 'get %s %s\nrm %s\nquit\n' "$T/up.sftp" "$T/down.psftp" "$T/up.sftp" > "$T/psftp.cmd"
	pc psftp -batch -noagent -P "$PORT" -l "$ME" $HK -i "$T/id_ed25519.ppk" \
	    -b "$T/psftp.cmd" 127.0.0.1 </dev/null >/dev/null 2>"$T/pl.err"
	check "psftp get and rm" sh -c "cmp -s '$T/data' '$T/down.psftp' && [ ! -e '$T/up.sftp' ]"
else
	echo "pscp/psftp cases skipped: pscp, psftp or $SFTPD missing" >&2
fi

# --- algorithms: one offered by our sshd, its family first in plink's list.
# alg KIND NAME FAMILY LOGPATTERN [sshd_config lines...]
alg() {
	kind=$1 name=$2 fam=$3 pat=$4; shift 4
	restart_sshd "$@"
	session alg "$kind=$fam,WARN"
	out=$(pl -load alg 127.0.0.1 'echo alg-ok' </dev/null 2>"$T/pl.err")
	if [ "$out" = alg-ok ] && logged "$pat"; then
		pass "$kind $name"
	else
		fail "$kind $name"
		tail -5 "$T/pl.err" >&2
	fi
}
for c in chacha20-poly1305@openssh.com:chacha20 aes128-ctr:aes aes192-ctr:aes \
    aes256-ctr:aes aes128-gcm@openssh.com:aesgcm aes256-gcm@openssh.com:aesgcm; do
	n=${c%:*}
	alg Cipher "$n" "${c##*:}" "kex: client->server cipher: $n " "Ciphers $n"
done
for m in hmac-sha2-256 hmac-sha2-256-etm@openssh.com hmac-sha1 hmac-sha1-etm@openssh.com; do
	alg Cipher "aes128-ctr with MAC $m" aes "cipher: aes128-ctr MAC: $m " \
	    "Ciphers aes128-ctr" "MACs $m"
done
# PuTTY's KEX families: "ecdh" holds curve25519 and the NIST curves,
# "dh-gex-sha1" both group exchanges, "dh-group14-sha1" both group14s.
for k in curve25519-sha256:ecdh curve25519-sha256@libssh.org:ecdh \
    ecdh-sha2-nistp256:ecdh ecdh-sha2-nistp384:ecdh ecdh-sha2-nistp521:ecdh \
    diffie-hellman-group-exchange-sha256:dh-gex-sha1 \
    diffie-hellman-group-exchange-sha1:dh-gex-sha1 \
    diffie-hellman-group18-sha512:dh-group18-sha512 \
    diffie-hellman-group16-sha512:dh-group16-sha512 \
    diffie-hellman-group14-sha256:dh-group14-sha1 \
    diffie-hellman-group14-sha1:dh-group14-sha1 \
    diffie-hellman-group1-sha1:dh-group1-sha1; do
	n=${k%:*}
	alg KEX "$n" "${k##*:}" "kex: algorithm: $n\$" "KexAlgorithms $n"
done
for h in ssh-ed25519:ed25519 ecdsa-sha2-nistp256:ecdsa rsa-sha2-256:rsa \
    rsa-sha2-512:rsa; do
	n=${h%:*}
	alg HostKey "$n" "${h##*:}" "kex: host key algorithm: $n\$" \
	    "HostKeyAlgorithms $n"
done

# --- refusals.
restart_sshd
out=$(KEY=$T/id_other.ppk pl 127.0.0.1 'echo in' </dev/null 2>"$T/pl.err")
rc=$?
check "a key not in authorized_keys is refused, plink exits non-zero" \
    refused $rc "$out"
check "... and the server logs no login" sh -c \
    "! grep -q 'Accepted publickey.*ssh2: ED25519 $(fp "$T/id_other")' '$T/sshd.log'"
out=$(HOME=$PH timeout 60 plink -load plain -batch -noagent -ssh -P "$PORT" \
    -l "$ME" -hostkey "$(fp "$T/host_other")" -i "$T/id_ed25519.ppk" \
    127.0.0.1 'echo in' </dev/null 2>/dev/null)
check "an unexpected host key is refused by plink" refused $? "$out"

# --- a pty.
session tty TermWidth=100 TermHeight=37 TerminalType=xterm-256color
out=$(pl -load tty -t 127.0.0.1 'tty; stty size; echo "$TERM"' </dev/null 2>"$T/pl.err" | tr -d '\r')
check "-t: the command has a pty" sh -c "echo '$out' | sed -n 1p | grep -q '^/dev/pts/[0-9]*$'"
check "-t: the pty has the session's size" [ "$(echo "$out" | sed -n 2p)" = "37 100" ]
check "-t: TERM from the session" [ "$(echo "$out" | sed -n 3p)" = xterm-256color ]
pl 127.0.0.1 'tty' </dev/null >"$T/notty" 2>/dev/null
check "without -t there is no pty" grep -q "not a tty" "$T/notty"

# --- forwarding: an echo server; -L, -R, -D with -N, and -nc.
"$PY" "$H" serve echo "$T/echo.port" & BG_PIDS="$BG_PIDS $!"
i=0; while [ ! -s "$T/echo.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
EP=$(cat "$T/echo.port")
MB5=$((5 * 1024 * 1024))
# bg_pl LOG plink-args...: plink -N in the background; PL_PID is its
# timeout, which passes a TERM on to plink.
bg_pl() {
	log=$1; shift
	(PL_EXEC=exec; pl -N "$@" 127.0.0.1 </dev/null >"$log" 2>&1) &
	PL_PID=$!
	BG_PIDS="$BG_PIDS $PL_PID"
}
stop_pl() { kill "$PL_PID" 2>/dev/null; wait "$PL_PID" 2>/dev/null; }

L=$(free_port)
bg_pl "$T/pl-L.log" -L "$L:127.0.0.1:$EP"
"$PY" "$H" wait 127.0.0.1 "$L" 10
check "-L carries 5 MiB both ways" "$PY" "$H" echo 127.0.0.1 "$L" $MB5
check "-L: 30 connections at once" "$PY" "$H" parallel 127.0.0.1 "$L" 30 300000
stop_pl
R=$(free_port)
bg_pl "$T/pl-R.log" -R "$R:127.0.0.1:$EP"
"$PY" "$H" wait 127.0.0.1 "$R" 10
check "-R carries 5 MiB both ways" "$PY" "$H" echo 127.0.0.1 "$R" $MB5
stop_pl
D=$(free_port)
bg_pl "$T/pl-D.log" -D "$D"
"$PY" "$H" wait 127.0.0.1 "$D" 10
check "-D (SOCKS5) carries 5 MiB both ways" \
    "$PY" "$SRC/tests/interop/putty_socks.py" "$D" "$EP" $MB5
stop_pl
head -c $MB5 "$T/data" > "$T/data5"
got=$(pl -nc "127.0.0.1:$EP" 127.0.0.1 < "$T/data5" 2>"$T/pl.err" | sha256sum | cut -d' ' -f1)
check "-nc carries 5 MiB both ways" [ "$got" = "$(sha256sum < "$T/data5" | cut -d' ' -f1)" ]

# --- password and keyboard-interactive, for a temporary user (root only).
if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null 2>&1; then
	echo "password and keyboard-interactive cases skipped: need root" >&2
	finish
fi
U=moatpt$$
PW="Putty-pass-$$-x"
SVC=moat-putty-test-$$
make_user "$U" "$PW"
pam_service "$SVC" <<EOC
auth required pam_unix.so
account required pam_unix.so
session required pam_permit.so
EOC
chmod 711 "$T"
printf '%s\n' "$PW" > "$PH/pw"
printf '%s\n' wrong > "$PH/badpw"
for pam in no yes; do
	restart_sshd "UsePAM $pam" "PAMServiceName $SVC" \
	    "KbdInteractiveAuthentication no" "PasswordAuthentication yes"
	out=$(PUSER=$U KEY='' pl -pwfile "$PH/pw" 127.0.0.1 'id -un' </dev/null 2>"$T/pl.err")
	check "UsePAM $pam: password login" [ "$out" = "$U" ]
	check "UsePAM $pam: password accepted logged" \
	    logged "Accepted password for $U from 127.0.0.1"
	out=$(PUSER=$U KEY='' pl -pwfile "$PH/badpw" 127.0.0.1 'id -un' </dev/null 2>/dev/null)
	check "UsePAM $pam: wrong password refused" refused $? "$out"
done
# keyboard-interactive through PAM: plink answers the one prompt from -pwfile.
restart_sshd "UsePAM yes" "PAMServiceName $SVC" \
    "KbdInteractiveAuthentication yes" "PasswordAuthentication no"
out=$(PUSER=$U KEY='' pl -pwfile "$PH/pw" 127.0.0.1 'id -un' </dev/null 2>"$T/pl.err")
check "keyboard-interactive login" [ "$out" = "$U" ]
check "keyboard-interactive accepted logged" \
    logged "Accepted keyboard-interactive/pam for $U from 127.0.0.1"
out=$(PUSER=$U KEY='' pl -pwfile "$PH/badpw" 127.0.0.1 'id -un' </dev/null 2>/dev/null)
check "keyboard-interactive: wrong answer refused" refused $? "$out"
finish
