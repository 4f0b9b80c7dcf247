#!/bin/sh
# Our ssh against Dropbear's server: login and exit status.
. "$(dirname "$0")/lib.sh"
need dropbear
need dropbearkey
make_keys
PORT=$(free_port)
dropbearkey -t ed25519 -f "$T/db_host" >/dev/null 2>&1 ||
	dropbearkey -t ecdsa -f "$T/db_host" >/dev/null 2>&1 ||
	skip "dropbearkey could not make a host key"
# Dropbear reads the user's ~/.ssh/authorized_keys: log in as a temporary
# user rather than touch a real account's file.
[ "$(id -u)" = 0 ] || skip "needs root to create a temporary user for dropbear"
U=moatd$$
cleanup_user() { userdel -r "$U" >/dev/null 2>&1; cleanup; }
trap cleanup_user EXIT
useradd -m -s /bin/sh "$U" || skip "useradd failed"
usermod -p '*' "$U"
H=$(getent passwd "$U" | cut -d: -f6)
mkdir -p "$H/.ssh"
cp "$T/id_ed25519.pub" "$H/.ssh/authorized_keys"
chown -R "$U:" "$H/.ssh"
chmod 700 "$H/.ssh"
chmod 600 "$H/.ssh/authorized_keys"
ME=$U
dropbear -F -E -r "$T/db_host" -p "127.0.0.1:$PORT" 2>"$T/db.log" &
SSHD_PID=$!
sleep 0.5
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$T/kh" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" "$@" </dev/null
}
out=$(mssh 'echo dropbear-ok' 2>"$T/err")
check "login to Dropbear and run a command" [ "$out" = "dropbear-ok" ]
[ "$out" = "dropbear-ok" ] || { cat "$T/err" "$T/db.log" >&2; }
mssh 'exit 9' 2>/dev/null
st=$?
# Dropbear sends exit-status after its EOF: the client must not close
# the channel before it arrives.
check "exit status from Dropbear (sent after its EOF)" [ $st -eq 9 ]
finish
