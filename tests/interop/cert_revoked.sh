#!/bin/sh
# RevokedKeys in our sshd: Debian's ssh is refused when its key, or its
# certificate's serial, is in a KRL made by Debian's ssh-keygen -k, or the
# key is in a plain revoked-keys file; a corrupt KRL refuses every key.
# Keys not revoked still log in.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
# The ecdsa key logs in only through its certificate.
cat "$T/id_ed25519.pub" "$T/id_rsa.pub" > "$T/authorized_keys"
ssh-keygen -q -t ed25519 -N '' -f "$T/ca" -C ca >/dev/null
cp "$T/ca.pub" "$T/trusted"
cp "$T/id_ecdsa.pub" "$T/u.pub"
ssh-keygen -q -s "$T/ca" -I user-cert -n "$ME" -z 77 "$T/u.pub"
ssh-keygen -q -k -f "$T/krl_key" "$T/id_ed25519.pub"
printf 'serial: 77\n' > "$T/spec"
ssh-keygen -q -k -f "$T/krl_serial" -s "$T/ca.pub" "$T/spec"
cp "$T/id_rsa.pub" "$T/plain_revoked"
printf 'SSHKRL\n\0\0\0\1garbage' > "$T/krl_corrupt"

login() { # login ID [ssh args]: what the command prints
	i=$1; shift
	ID="$T/$i" ossh "$@" "$ME@127.0.0.1" 'echo in' 2>/dev/null
}
with_revoked() { # with_revoked FILE
	[ -n "$SSHD_PID" ] && { kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; }
	SSHD_PID=""
	write_config <<CFG
RevokedKeys $T/$1
TrustedUserCAKeys $T/trusted
CFG
	start_sshd
}

with_revoked krl_key
check "KRL (ssh-keygen -k) listing the key refuses it" \
    [ "$(login id_ed25519)" = "" ]
check "key not in the KRL logs in" \
    [ "$(login id_rsa)" = in ]
with_revoked krl_key
check "the certificate logs in when its serial is not revoked" \
    [ "$(login id_ecdsa -o CertificateFile="$T/u-cert.pub")" = in ]
with_revoked krl_serial
check "KRL listing the cert's serial refuses the cert" \
    [ "$(login id_ecdsa -o CertificateFile="$T/u-cert.pub")" = "" ]
check "certificate revocation logged" grep -q \
    "Authentication key ECDSA-CERT SHA256:[^ ]* revoked by file $T/krl_serial" \
    "$T/sshd.log"
check "plain key beside it still logs in" \
    [ "$(login id_ed25519)" = in ]
with_revoked plain_revoked
check "plain revoked-keys file refuses the key" [ "$(login id_rsa)" = "" ]
check "a key not in the list logs in" \
    [ "$(login id_ed25519)" = in ]
check "revocation logged as OpenSSH" grep -q \
    "Authentication key RSA SHA256:[^ ]* revoked by file $T/plain_revoked" \
    "$T/sshd.log"
with_revoked krl_corrupt
check "corrupt KRL refuses every key" [ "$(login id_ed25519)" = "" ]
check "corrupt KRL: ecdsa too" [ "$(login id_ecdsa)" = "" ]
check "refusal of an unreadable KRL logged" grep -q \
    "revoked keys file $T/krl_corrupt" "$T/sshd.log"
finish
