#!/bin/sh
# Users and privileges: run as root, our sshd logs a user in as that user
# (uid, groups, HOME, shell, working directory) with the key in the
# user's own ~/.ssh/authorized_keys under StrictModes, and with a
# password from /etc/shadow; a wrong password fails. Run as an ordinary
# user, it logs in only the user it runs as. A temporary user is created
# and removed.
. "$(dirname "$0")/lib.sh"
need ssh
[ "$(id -u)" = 0 ] || skip "needs root to create a temporary user"
need useradd
U=moatu$$
cleanup_user() { userdel -r "$U" >/dev/null 2>&1; cleanup; }
trap cleanup_user EXIT
useradd -m -s /bin/sh "$U" || skip "useradd failed"
H=$(getent passwd "$U" | cut -d: -f6)
make_keys
mkdir -p "$H/.ssh"
cp "$T/id_ed25519.pub" "$H/.ssh/authorized_keys"
chown -R "$U:" "$H/.ssh"
chmod 700 "$H/.ssh"
chmod 600 "$H/.ssh/authorized_keys"
PW="moat-Pw-$$-x"
echo "$U:$PW" | chpasswd
chmod 711 "$T"	# the user's sshd below must reach its host keys' folder

AKF=.ssh/authorized_keys STRICT_MODES=yes write_config </dev/null
start_sshd

out=$(ossh "$U@127.0.0.1" 'id -un; id -u; echo "$HOME"; pwd; echo "$SHELL"; echo "$USER"')
want=$(printf '%s\n%s\n%s\n%s\n%s\n%s' "$U" "$(id -u "$U")" "$H" "$H" /bin/sh "$U")
check "root sshd runs the session as the user" [ "$out" = "$want" ]
out=$(ossh "$U@127.0.0.1" 'id -G')
check "supplementary groups are the user's" [ "$out" = "$(id -G "$U")" ]

# StrictModes: a group-writable authorized_keys is refused.
chmod 664 "$H/.ssh/authorized_keys"
ossh "$U@127.0.0.1" true 2>/dev/null
check "StrictModes refuses a group-writable authorized_keys" [ $? -eq 255 ]
grep -q "Authentication refused: bad ownership or modes" "$T/sshd.log"
check "StrictModes refusal logged" [ $? -eq 0 ]
chmod 600 "$H/.ssh/authorized_keys"

# Password authentication against /etc/shadow, answered through askpass.
cat > "$T/askpass" <<EOF2
#!/bin/sh
echo "\$MOAT_PW"
EOF2
chmod 755 "$T/askpass"
pwlogin() {
	MOAT_PW=$1 SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=none \
	    setsid ssh -F /dev/null -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
	    -o PreferredAuthentications=password -o PubkeyAuthentication=no \
	    -o NumberOfPasswordPrompts=1 -p "$PORT" "$U@127.0.0.1" 'id -un' </dev/null
}
out=$(pwlogin "$PW")
check "password login against /etc/shadow" [ "$out" = "$U" ]
grep -q "Accepted password for $U from 127.0.0.1" "$T/sshd.log"
check "Accepted password logged" [ $? -eq 0 ]
out=$(pwlogin "wrong-$PW" 2>/dev/null)
check "wrong password refused" [ -z "$out" ]
grep -q "Failed password for $U from 127.0.0.1" "$T/sshd.log"
check "Failed password logged" [ $? -eq 0 ]

kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# ChrootDirectory: a jail with just /bin/sh and its libraries, under /run
# (every component must be root-owned and not group/world-writable).
J=/run/moat-jail.$$
cleanup_jail() { rm -rf "$J"; cleanup_user; }
trap cleanup_jail EXIT
mkdir -p "$J/bin"
chmod 755 "$J"
cp /bin/sh "$J/bin/sh"
for lib in $(ldd /bin/sh | grep -o '/[^ ]*'); do
	mkdir -p "$J$(dirname "$lib")"
	cp "$lib" "$J$lib"
done
AKF=.ssh/authorized_keys STRICT_MODES=yes write_config <<EOF2
Match User $U
	ChrootDirectory $J
EOF2
start_sshd
out=$(ossh "$U@127.0.0.1" 'echo /*; [ -e /etc/passwd ] && echo escaped' 2>/dev/null)
jailed=no
case "$out" in "/bin /lib /lib64" | "/bin /lib") jailed=yes ;; esac
check "ChrootDirectory confines the session (saw: $out)" [ $jailed = yes ]
grep -q "Changed root directory to \"$J\"" "$T/sshd.log"
check "chroot logged" [ $? -eq 0 ]
chmod 777 "$J"
out=$(ossh "$U@127.0.0.1" 'echo inside' 2>/dev/null)
check "a world-writable jail is refused" [ -z "$out" ]
grep -q "bad ownership or modes for chroot directory" "$T/sshd.log"
check "unsafe jail logged" [ $? -eq 0 ]
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# Our sshd run as the ordinary user: only that user may log in.
cp "$T"/host_* "$H/"
chown "$U:" "$H"/host_*
PORT=$(free_port)
cat > "$H/sshd_config" <<EOF2
ListenAddress 127.0.0.1
Port $PORT
HostKey $H/host_ed25519
AuthorizedKeysFile .ssh/authorized_keys
PidFile none
LogLevel DEBUG1
EOF2
chown "$U:" "$H/sshd_config"
# Empty the log first: it still holds the previous server's lines, and
# the wait below must see this server's "Server listening".
: > "$T/sshd.log"
# The build tree may sit in a folder the user cannot enter: run a copy.
cp "$BIN/sshd" "$H/sshd"
chown "$U:" "$H/sshd"
su -s /bin/sh "$U" -c "exec $H/sshd -D -e -f $H/sshd_config" 2>>"$T/sshd.log" &
SSHD_PID=$!
i=0
while ! grep -q "Server listening" "$T/sshd.log" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
out=$(ossh "$U@127.0.0.1" 'id -un')
check "unprivileged sshd logs in its own user" [ "$out" = "$U" ]
ossh "root@127.0.0.1" true 2>/dev/null
check "unprivileged sshd refuses another user" [ $? -eq 255 ]
# The su wrapper's child is the sshd; stop it through its parent's PID.
stop_children() { for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do kill "$c" 2>/dev/null; done; }
stop_children "$SSHD_PID"
finish
