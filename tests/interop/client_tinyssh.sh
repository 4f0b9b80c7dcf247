#!/bin/sh
# Our ssh against TinySSH (tinysshd under ucspi-tcp's tcpserver): login
# with an ed25519 key (the only user key type TinySSH takes), a command's
# output and exit status, and stdin passed through. A temporary user is
# created (TinySSH reads ~/.ssh/authorized_keys) and removed.
. "$(dirname "$0")/lib.sh"
need tinysshd
need tinysshd-makekey
need tcpserver
[ "$(id -u)" = 0 ] || skip "needs root to create a temporary user for tinysshd"
U=moatt$$
cleanup_user() { userdel -r "$U" >/dev/null 2>&1; cleanup; }
trap cleanup_user EXIT
useradd -m -s /bin/sh "$U" || skip "useradd failed"
usermod -p '*' "$U"
H=$(getent passwd "$U" | cut -d: -f6)
make_keys
mkdir -p "$H/.ssh"
cp "$T/id_ed25519.pub" "$H/.ssh/authorized_keys"
chown -R "$U:" "$H/.ssh"
chmod 700 "$H/.ssh"
chmod 600 "$H/.ssh/authorized_keys"
tinysshd-makekey "$T/tinykeys" >/dev/null 2>&1 || skip "tinysshd-makekey failed"
PORT=$(free_port)
tcpserver -HRDl0 127.0.0.1 "$PORT" tinysshd -v "$T/tinykeys" 2>"$T/tiny.log" &
SSHD_PID=$!
i=0
while ! "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PORT)).close()" 2>/dev/null; do
	i=$((i + 1)); [ $i -gt 50 ] && break; sleep 0.1
done
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" "$U@127.0.0.1" "$@"
}
out=$(mssh 'echo tiny-$((6*7))' </dev/null 2>"$T/err")
check "login to tinysshd and run a command" [ "$out" = "tiny-42" ]
[ "$out" = "tiny-42" ] || cat "$T/err" "$T/tiny.log" >&2
mssh 'exit 7' </dev/null 2>/dev/null
check "exit status from tinysshd" [ $? -eq 7 ]
out=$(printf 'abc\n' | mssh 'cat; echo end' 2>/dev/null)
check "stdin passed and EOF delivered" [ "$out" = "$(printf 'abc\nend')" ]
finish
