#!/bin/sh
# Host certificates: our sshd offers HostCertificate and Debian's ssh
# verifies it through @cert-authority in known_hosts; a certificate for
# another name, an expired one, or a revoked CA is refused.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/hca" -C hca >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/other_ca" -C other >/dev/null
ssh-keygen -q -s "$T/hca" -I host-ed -h -n 127.0.0.1,localhost -z 7 \
    "$T/host_ed25519.pub"
"$BIN/ssh-keygen" -q -s "$T/hca" -I host-rsa -h -n 127.0.0.1 \
    "$T/host_rsa.pub" >/dev/null
write_config <<CFG
HostCertificate $T/host_ed25519-cert.pub
HostCertificate $T/host_rsa-cert.pub
CFG
start_sshd

# hssh KNOWN_HOSTS_LINES [ssh args]: strict checking against a fresh file.
hssh() {
	printf '%s\n' "$1" > "$T/kh"; shift
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes \
	    -o UserKnownHostsFile="$T/kh" -o GlobalKnownHostsFile=/dev/null \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" "$@" \
	    "$ME@127.0.0.1" 'echo in' 2>"$T/err"
}
CA="@cert-authority [127.0.0.1]:* $(cat "$T/hca.pub")"
check "Debian ssh accepts our ed25519 host cert via @cert-authority" \
    [ "$(hssh "$CA")" = in ]
check "the cert algorithm was chosen" grep -q \
    "kex: host key algorithm: ssh-ed25519-cert-v01@openssh.com" "$T/sshd.log"
check "RSA host cert (rsa-sha2-512-cert-v01)" [ "$(hssh "$CA" \
    -o HostKeyAlgorithms=rsa-sha2-512-cert-v01@openssh.com)" = in ]
check "RSA host cert (rsa-sha2-256-cert-v01)" [ "$(hssh "$CA" \
    -o HostKeyAlgorithms=rsa-sha2-256-cert-v01@openssh.com)" = in ]
check "another CA refused" [ "$(hssh "@cert-authority * $(cat "$T/other_ca.pub")" \
    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com)" = "" ]
check "revoked CA refused" [ "$(hssh "$CA
@revoked * $(cat "$T/hca.pub")")" = "" ]
check "ECDSA host key has no cert: not offered as one" [ "$(hssh "$CA" \
    -o HostKeyAlgorithms=ecdsa-sha2-nistp256-cert-v01@openssh.com)" = "" ]
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# A cert for another name, and an expired one.
ssh-keygen -q -s "$T/hca" -I wrong -h -n elsewhere.example "$T/host_ed25519.pub"
write_config <<CFG
HostCertificate $T/host_ed25519-cert.pub
CFG
start_sshd
check "host cert for another name refused" [ "$(hssh "$CA" \
    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com)" = "" ]
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""
ssh-keygen -q -s "$T/hca" -I old -h -n 127.0.0.1 -V 20000101:20010101 \
    "$T/host_ed25519.pub"
start_sshd
check "expired host cert refused" [ "$(hssh "$CA" \
    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com)" = "" ]
finish
