#!/bin/sh
# User certificates in our sshd: Debian's OpenSSH ssh logs in with a
# certificate made by Debian's ssh-keygen -s and by ours, through
# TrustedUserCAKeys, AuthorizedPrincipalsFile and cert-authority lines in
# authorized_keys; the certificate's options are enforced and bad
# certificates are refused with OpenSSH's log lines.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/ca" -C ca >/dev/null
ssh-keygen -q -t ecdsa -N '' -f "$T/ca2" -C ca2 >/dev/null
: > "$T/empty_ak"

# sign KEYGEN CA OUT ARGS...: a user certificate of id_ed25519 as OUT.
sign() {
	kg=$1 ca=$2 out=$3; shift 3
	cp "$T/${KEY:-id_ed25519}.pub" "$T/$out.pub"
	"$kg" -q -s "$T/$ca" -I "id-$out" "$@" "$T/$out.pub" >/dev/null 2>&1
	mv "$T/$out-cert.pub" "$T/$out.cert"
}
# login CERT [ssh args...]: print what the command prints.
login() {
	c=$1; shift
	ossh -o CertificateFile="$T/$c.cert" "$@" "$ME@127.0.0.1" \
	    'echo in-$USER' 2>/dev/null
}

sign ssh-keygen ca deb -n "$ME" -z 42
sign "$BIN/ssh-keygen" ca ours -n "$ME" -z 43
sign ssh-keygen ca expired -n "$ME" -V 20000101:20010101
sign ssh-keygen ca wrongname -n nobody-here
sign ssh-keygen ca forced -n "$ME" -O force-command="echo forced"
sign ssh-keygen ca srcok -n "$ME" -O source-address=127.0.0.0/8
sign ssh-keygen ca srcbad -n "$ME" -O source-address=10.1.2.0/24
sign ssh-keygen ca nopty -n "$ME" -O no-pty
sign ssh-keygen ca princ -n "ops,$ME-x"
sign ssh-keygen ca2 other -n "$ME"
KEY=id_rsa sign ssh-keygen ca rsacert -n "$ME"
KEY=id_ecdsa sign "$BIN/ssh-keygen" ca2 ecdsacert -n "$ME"

# 1. TrustedUserCAKeys
cat "$T/ca.pub" "$T/ca2.pub" > "$T/trusted"
AKF="$T/empty_ak" write_config <<CFG
TrustedUserCAKeys $T/trusted
CFG
start_sshd

check "cert by Debian's ssh-keygen via TrustedUserCAKeys" \
    [ "$(login deb)" = "in-$ME" ]
check "cert by our ssh-keygen via TrustedUserCAKeys" \
    [ "$(login ours)" = "in-$ME" ]
check "accept log line names the cert and CA" \
    grep -q "Accepted publickey for $ME from 127.0.0.1 port [0-9]* ssh2: ED25519-CERT SHA256:[^ ]* ID id-deb (serial 42) CA ED25519 SHA256:" "$T/sshd.log"
check "plain key without authorized_keys refused" \
    [ "$(ossh -o CertificateFile=/dev/null "$ME@127.0.0.1" 'echo in-$USER' 2>/dev/null)" = "" ]
check "RSA cert (rsa-sha2-512-cert-v01)" \
    [ "$(ID="$T/id_rsa" login rsacert)" = "in-$ME" ]
check "RSA cert logged" grep -q "RSA-CERT SHA256:.* ID id-rsacert" "$T/sshd.log"
check "expired cert refused" [ "$(login expired)" = "" ]
check "expired cert logged" grep -q "Certificate invalid: expired" "$T/sshd.log"
check "wrong principal refused" [ "$(login wrongname)" = "" ]
check "wrong principal logged" \
    grep -q "Certificate invalid: name is not a listed principal" "$T/sshd.log"
check "ECDSA cert with an ECDSA CA (ours)" \
    [ "$(ID="$T/id_ecdsa" login ecdsacert)" = "in-$ME" ]
check "force-command applied" [ "$(login forced)" = "forced" ]
check "source-address match allowed" [ "$(login srcok)" = "in-$ME" ]
check "source-address mismatch refused" [ "$(login srcbad)" = "" ]
check "source-address mismatch logged" \
    grep -q "not from a permitted source address" "$T/sshd.log"
out=$(ossh -tt -o CertificateFile="$T/deb.cert" "$ME@127.0.0.1" \
    'tty >/dev/null && echo TTY || echo NOTTY' 2>/dev/null | tr -d '\r')
check "cert with permit-pty gets a tty" [ "$out" = "TTY" ]
out=$(ossh -tt -o CertificateFile="$T/nopty.cert" "$ME@127.0.0.1" \
    'tty >/dev/null && echo TTY || echo NOTTY' 2>/dev/null | tr -d '\r')
# OpenSSH's ssh -tt gives up when the pty is refused.
check "cert without permit-pty gets no tty" [ "$out" != "TTY" ]
check "pty refusal logged" grep -q "Pty allocation disabled" "$T/sshd.log"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# 2. AuthorizedPrincipalsFile (%u; one line with options)
printf '# principals\nops\ncommand="echo via-principals" %s-x\n' "$ME" \
    > "$T/principals_$ME"
AKF="$T/empty_ak" write_config <<CFG
TrustedUserCAKeys $T/trusted
AuthorizedPrincipalsFile $T/principals_%u
CFG
start_sshd
check "AuthorizedPrincipalsFile principal accepted" \
    [ "$(login princ)" = "in-$ME" ]
check "user name not in principals file refused" [ "$(login deb)" = "" ]
check "refusal logged" grep -q \
    "Certificate does not contain an authorized principal" "$T/sshd.log"
printf 'command="echo via-principals" %s-x\n' "$ME" > "$T/principals_$ME"
check "principals line options applied" \
    [ "$(login princ)" = "via-principals" ]
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# 3. cert-authority in authorized_keys
{
	echo "cert-authority $(cat "$T/ca.pub")"
	echo "cert-authority,principals=\"ops\",command=\"echo ca2\" $(cat "$T/ca2.pub")"
} > "$T/ak_ca"
sign ssh-keygen ca2 ops -n "ops"
AKF="$T/ak_ca" write_config </dev/null
start_sshd
check "cert-authority line accepts the cert" [ "$(login deb)" = "in-$ME" ]
check "cert-authority: wrong principal refused" [ "$(login wrongname)" = "" ]
check "cert-authority: expired refused" [ "$(login expired)" = "" ]
check "cert-authority principals= and command=" [ "$(login ops)" = "ca2" ]
check "cert-authority principals= refuses the user name" \
    [ "$(login other)" = "" ]
ssh-keygen -q -t ed25519 -N '' -f "$T/ca3" -C ca3 >/dev/null
sign ssh-keygen ca3 untrusted -n "$ME"
check "untrusted CA refused" [ "$(login untrusted)" = "" ]
check "CA key not usable as a plain user key" \
    [ "$(ID="$T/ca" ossh -o CertificateFile=/dev/null "$ME@127.0.0.1" \
    'echo in' 2>/dev/null)" = "" ]
finish
