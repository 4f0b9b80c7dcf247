#!/bin/sh
# make run: our sshd in the foreground on 127.0.0.1:$PORT (2222), with a
# host key, a user key and its authorized_keys in a state folder, and the
# command that logs in with the stock OpenSSH client.
#
# sshd checks StrictModes as OpenSSH does: every directory from
# authorized_keys up to the user's home (or to /) must belong to root or
# the user and be writable by no one else. The state folder is state/ in
# the clone when the clone's path passes that check; a clone under /tmp
# (world-writable) does not, so the folder is then one of the user's own,
# ${XDG_STATE_HOME:-~/.local/state}/moat/run-<checksum of the clone's
# path>, and StrictModes keeps its meaning. MOAT_STATE=DIR picks another
# (it must pass the same check).
#
# Programs: build/bin's sshd, sftp-server and ssh-keygen (make run
# builds only those).
set -e
cd "$(dirname "$0")/.."
TOP=$(pwd -P)
BIN=$TOP/build/bin
PORT=${PORT:-2222}
HOME_DIR=$(cd "${HOME:-/}" 2>/dev/null && pwd -P || echo /)

# strict_ok DIR: DIR and each directory above it, up to the home
# directory or /, belongs to root or us and is not group/world-writable.
strict_ok() {
	d=$1
	while :; do
		set -- $(stat -c '%u %a' "$d")
		[ "$1" = 0 ] || [ "$1" = "$(id -u)" ] || return 1
		[ $((0$2 & 022)) -eq 0 ] || return 1
		[ "$d" = / ] || [ "$d" = "$HOME_DIR" ] && return 0
		d=$(dirname "$d")
	done
}

if [ -n "${MOAT_STATE:-}" ]; then
	S=$MOAT_STATE
elif strict_ok "$TOP"; then
	S=$TOP/state
else
	sum=$(printf '%s' "$TOP" | cksum | cut -d' ' -f1)
	S=${XDG_STATE_HOME:-$HOME_DIR/.local/state}/moat/run-$sum
	echo "moat: $TOP is in a directory others may write to (sshd's" \
	    "StrictModes would refuse the key): the keys are in $S"
fi
mkdir -p "$S"
chmod 700 "$S"
S=$(cd "$S" && pwd -P)
if ! strict_ok "$S"; then
	echo "moat: sshd's StrictModes refuses files under $S: a directory" \
	    "above it is writable by others; set MOAT_STATE to a folder" \
	    "only you can write to" >&2
	exit 1
fi

KEYGEN=$BIN/ssh-keygen
[ -f "$S/ssh_host_ed25519_key" ] ||
    "$KEYGEN" -q -t ed25519 -N '' -f "$S/ssh_host_ed25519_key" -C moat-host
[ -f "$S/ssh_host_rsa_key" ] ||
    "$KEYGEN" -q -t rsa -b 3072 -N '' -f "$S/ssh_host_rsa_key" -C moat-host
[ -f "$S/id_ed25519" ] ||
    "$KEYGEN" -q -t ed25519 -N '' -f "$S/id_ed25519" -C moat-user
cp "$S/id_ed25519.pub" "$S/authorized_keys"
chmod 600 "$S/authorized_keys"
# The client knows the host keys already: no question at first login.
for k in ed25519 rsa; do
	printf '[127.0.0.1]:%s %s\n' "$PORT" \
	    "$(cut -d' ' -f1,2 "$S/ssh_host_${k}_key.pub")"
done > "$S/known_hosts"
cat > "$S/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $PORT
HostKey $S/ssh_host_ed25519_key
HostKey $S/ssh_host_rsa_key
AuthorizedKeysFile $S/authorized_keys
StrictModes yes
PidFile none
Subsystem sftp $BIN/sftp-server
EOF
echo "moat sshd on 127.0.0.1:$PORT, pid $$ (Ctrl-C stops it). Log in with:"
echo "  ssh -p $PORT -i $S/id_ed25519 -o IdentitiesOnly=yes" \
    "-o UserKnownHostsFile=$S/known_hosts $(id -un)@127.0.0.1"
exec "$BIN/sshd" -D -e -f "$S/sshd_config"
