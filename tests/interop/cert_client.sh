#!/bin/sh
# Our ssh and certificates: it offers a user certificate (CertificateFile
# or FILE-cert.pub) to our sshd and to Debian's OpenSSH sshd, and checks
# host certificates of both servers through @cert-authority in
# known_hosts (refusing a revoked CA, a wrong name, an unknown CA under
# strict checking).
. "$(dirname "$0")/lib.sh"
need ssh-keygen
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/uca" -C uca >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/hca" -C hca >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/other" -C other >/dev/null
: > "$T/empty_ak"
ssh-keygen -q -s "$T/uca" -I user-ed -n "$ME" -z 5 "$T/id_ed25519.pub"
ssh-keygen -q -s "$T/uca" -I user-rsa -n "$ME" "$T/id_rsa.pub"
cp "$T/id_ecdsa.pub" "$T/ec.pub"
"$BIN/ssh-keygen" -q -s "$T/uca" -I user-ec -n "$ME" "$T/ec.pub" >/dev/null
ssh-keygen -q -s "$T/hca" -I host-ed -h -n 127.0.0.1 "$T/host_ed25519.pub"
CA="@cert-authority [127.0.0.1]:* $(cat "$T/hca.pub")"

mssh() { # mssh KNOWN_HOSTS_TEXT args...
	printf '%s\n' "$1" > "$T/kh"; shift
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
	    -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes \
	    -o IdentitiesOnly=yes -p "$PORT" "$@" "$ME@127.0.0.1" 'echo in' \
	    </dev/null 2>"$T/err"
}

run_suite() { # run_suite NAME LOG
	n=$1 log=$2
	check "$n: FILE-cert.pub offered (ed25519)" \
	    [ "$(mssh "$CA" -i "$T/id_ed25519")" = in ]
	check "$n: accepted as a certificate" grep -q "ED25519-CERT SHA256:[^ ]* ID user-ed (serial 5) CA ED25519" "$log"
	check "$n: RSA cert (rsa-sha2-512-cert-v01)" \
	    [ "$(mssh "$CA" -i "$T/id_rsa")" = in ]
	check "$n: CertificateFile (our ssh-keygen's cert)" \
	    [ "$(mssh "$CA" -i "$T/id_ecdsa" -o CertificateFile="$T/ec-cert.pub")" = in ]
	check "$n: host cert checked via @cert-authority" \
	    [ "$(mssh "$CA" -i "$T/id_ed25519" \
	    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com)" = in ]
	check "$n: host CA marked @revoked refused" [ "$(mssh "$CA
@revoked * $(cat "$T/hca.pub")" -i "$T/id_ed25519")" = "" ]
	check "$n: another CA, strict checking: refused" \
	    [ "$(mssh "@cert-authority * $(cat "$T/other.pub")" \
	    -i "$T/id_ed25519" \
	    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com)" = "" ]
	check "$n: HostKeyAlias not in the principals: refused" \
	    [ "$(mssh "@cert-authority * $(cat "$T/hca.pub")" \
	    -i "$T/id_ed25519" -o HostKeyAlias=elsewhere \
	    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com)" = "" ]
	check "$n: plain host key still works without a CA line" \
	    [ "$(mssh "[127.0.0.1]:$PORT $(cat "$T/host_ed25519.pub")" \
	    -i "$T/id_ed25519")" = in ]
}

# Our sshd.
AKF="$T/empty_ak" write_config <<CFG
TrustedUserCAKeys $T/uca.pub
HostCertificate $T/host_ed25519-cert.pub
CFG
start_sshd
run_suite "our sshd" "$T/sshd.log"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# Debian's OpenSSH sshd (root only).
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	PORT=$(free_port)
	cat > "$T/openssh_config" <<CFG
ListenAddress 127.0.0.1
Port $PORT
HostKey $T/host_ed25519
HostKey $T/host_rsa
HostCertificate $T/host_ed25519-cert.pub
TrustedUserCAKeys $T/uca.pub
AuthorizedKeysFile $T/empty_ak
PidFile none
StrictModes no
UsePAM no
LogLevel VERBOSE
CFG
	mkdir -p /run/sshd
	/usr/sbin/sshd -D -e -f "$T/openssh_config" 2>"$T/openssh.log" &
	SSHD_PID=$!
	i=0
	while ! grep -q "Server listening" "$T/openssh.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { cat "$T/openssh.log" >&2; exit 1; }
		sleep 0.05
	done
	run_suite "OpenSSH sshd" "$T/openssh.log"
else
	echo "note: not root; Debian's sshd part skipped" >&2
fi
finish
