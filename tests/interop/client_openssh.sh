#!/bin/sh
# Our ssh against Debian's OpenSSH sshd: login with each key type, exit
# status, accept-new, and OpenSSH's sshd -i as a ProxyCommand.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "OpenSSH's sshd needs root here"
[ -x /usr/sbin/sshd ] || skip "OpenSSH's sshd not installed"
make_keys
PORT=$(free_port)
cat > "$T/openssh_config" <<CFG
ListenAddress 127.0.0.1
Port $PORT
HostKey $T/host_ed25519
HostKey $T/host_ecdsa
HostKey $T/host_rsa
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
UsePAM no
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
KH=$T/known_hosts
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$KH" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -p "$PORT" "$@" </dev/null
}
for t in ed25519 ecdsa rsa; do
	out=$(mssh -i "$T/id_$t" "$ME@127.0.0.1" "echo openssh-$t" 2>"$T/err")
	check "$t key login to OpenSSH's sshd" [ "$out" = "openssh-$t" ]
	[ "$out" = "openssh-$t" ] || cat "$T/err" >&2
done
check "accept-new recorded OpenSSH's host key" grep -q "^\[127.0.0.1\]:$PORT " "$KH"
mssh -i "$T/id_ed25519" "$ME@127.0.0.1" 'exit 42' 2>/dev/null
check "exit status from OpenSSH's sshd" [ $? -eq 42 ]
for alg in ssh-ed25519 ecdsa-sha2-nistp256 rsa-sha2-512; do
	out=$(mssh -i "$T/id_ed25519" -o HostKeyAlgorithms=$alg \
	    -o UserKnownHostsFile="$T/kh_$alg" "$ME@127.0.0.1" 'echo hk' 2>/dev/null)
	check "host key algorithm $alg" [ "$out" = "hk" ]
done
out=$(mssh -i "$T/id_ed25519" -o "ProxyCommand /usr/sbin/sshd -i -f $T/openssh_config" \
    "$ME@127.0.0.1" 'echo inetd' 2>"$T/err")
check "ProxyCommand running OpenSSH's sshd -i" [ "$out" = "inetd" ]
[ "$out" = "inetd" ] || cat "$T/err" >&2
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger" -C x
mssh -i "$T/stranger" -o PasswordAuthentication=no \
    -o KbdInteractiveAuthentication=no "$ME@127.0.0.1" true 2>"$T/err"
check "unknown key refused by OpenSSH (255)" [ $? -eq 255 ]
check "... Permission denied" grep -q "$ME@127.0.0.1: Permission denied" "$T/err"
finish
