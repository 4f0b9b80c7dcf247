#!/bin/sh
# make run: our sshd in the foreground on 127.0.0.1:2222, with a host key
# and a user key in the git-ignored state/ folder.
set -e
cd "$(dirname "$0")/.."
S=$(pwd)/state
KEYGEN=ssh-keygen
mkdir -p "$S"
chmod 700 "$S"
[ -f "$S/ssh_host_ed25519_key" ] || $KEYGEN -q -t ed25519 -N '' -f "$S/ssh_host_ed25519_key" -C moat-host
[ -f "$S/ssh_host_rsa_key" ] || $KEYGEN -q -t rsa -b 3072 -N '' -f "$S/ssh_host_rsa_key" -C moat-host
[ -f "$S/id_ed25519" ] || $KEYGEN -q -t ed25519 -N '' -f "$S/id_ed25519" -C moat-user
cp "$S/id_ed25519.pub" "$S/authorized_keys"
chmod 600 "$S/authorized_keys"
cat > "$S/sshd_config" <<EOF2
ListenAddress 127.0.0.1
Port 2222
HostKey $S/ssh_host_ed25519_key
HostKey $S/ssh_host_rsa_key
AuthorizedKeysFile $S/authorized_keys
PidFile none
Subsystem sftp $(pwd)/build/bin/sftp-server
EOF2
echo "moat sshd on 127.0.0.1:2222 (Ctrl-C stops it). Connect with:"
echo "  ssh -p 2222 -i $S/id_ed25519 -o UserKnownHostsFile=$S/known_hosts $(id -un)@127.0.0.1"
exec build/bin/sshd -D -e -f "$S/sshd_config"
