#!/bin/sh
# internal-sftp: sshd serves SFTP itself, in the session's child, so an
# SFTP-only jail needs nothing installed in it. The classic setup
# (Match Group / ChrootDirectory %h-style / ForceCommand internal-sftp)
# and `Subsystem sftp internal-sftp`, with Debian's sftp as the client:
# 1. the jail's view: pwd is /, ls / lists only the jail, `..`, an
#    absolute path and a symlink pointing out of the jail stay in it;
#    put/get work in the user's writable directory; the same batch
#    against Debian's sshd with the same config gives the same
#    transcript;
# 2. a shell or command under ForceCommand internal-sftp is refused with
#    OpenSSH's message and exit status, as by Debian's sshd;
# 3. internal-sftp flags (-R read-only) act;
# 4. a chroot directory the user owns is refused, as OpenSSH refuses it.
# Needs root: a temporary user and group, a jail owned by root.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (temporary user, root-owned jail)"
need sftp
need groupadd
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"

make_keys
chmod 711 "$T"
chmod 644 "$T/authorized_keys"
U=moatj$$
G=moatsftp$$
groupadd "$G" || skip "groupadd failed"
at_exit "groupdel '$G' 2>/dev/null"
make_user "$U"
usermod -a -G "$G" "$U"

# The jail: every component root's and not writable by others (/tmp is
# world-writable, so not there).
base=/srv
[ -d "$base" ] || base=/opt
JAIL=$(mktemp -d "$base/moat-jail.XXXXXX") || skip "no jail directory"
at_exit "rm -rf '$JAIL'"
chmod 755 "$JAIL"
mkdir "$JAIL/upload"
chown "$U" "$JAIL/upload"
echo "inside the jail" > "$JAIL/inside.txt"
ln -s /etc "$JAIL/etc-link"
echo "secret $$" > "$T/outside.txt"
chmod 644 "$T/outside.txt"
head -c 1048576 /dev/urandom > "$T/blob"
chmod 644 "$T/blob"

jail_config() { # jail_config FORCE-LINE [CHROOT]
	cat <<EOC
Subsystem sftp internal-sftp
Match Group $G
	ChrootDirectory ${2:-$JAIL}
	$1
EOC
}

cat > "$T/batch" <<EOB
pwd
ls /
cd ..
pwd
ls
-get /etc/hostname $T/got_etc
-get $T/outside.txt $T/got_outside
-ls etc-link/
get inside.txt $T/got_inside
cd upload
put $T/blob blob
get blob $T/got_blob
ls
rm blob
EOB

# sftp_as DIR: Debian's sftp through the current server, transcript in
# DIR/out, status in DIR/rc.
sftp_as() {
	mkdir -p "$1"
	sftp -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" -P "$PORT" \
	    -b "$T/batch" "$U@127.0.0.1" > "$1/out" 2>&1
	echo $? > "$1/rc"
	rm -f "$T"/got_*
}

shell_as() { # shell_as DIR: a command where only sftp is allowed
	mkdir -p "$1"
	ossh "$U@127.0.0.1" 'echo ran' > "$1/out" 2>&1
	echo $? > "$1/rc"
}

# 1, 2: our sshd, then Debian's, with the same jail.
jail_config "ForceCommand internal-sftp" > "$T/extra"; write_config < "$T/extra"
start_sshd
sftp_as "$T/ours"
check "ours: the batch ran to its end" [ "$(cat "$T/ours/rc")" = 0 ]
check "ours: pwd in the jail is /" \
    [ "$(grep -c '^Remote working directory: /$' "$T/ours/out")" = 2 ]
check "ours: ls / lists the jail" grep -q 'inside.txt' "$T/ours/out"
check "ours: ls / is the jail and nothing else" \
    grep -qE '^/etc-link +/inside.txt +/upload +$' "$T/ours/out"
check "ours: /etc/hostname is not reached" sh -c \
    "grep -q 'not found' '$T/ours/out'"
cp "$T/batch" "$T/batch.keep"
shell_as "$T/ours_shell"
check "ours: a command is refused with OpenSSH's words" \
    grep -qx 'This service allows sftp connections only.' \
    "$T/ours_shell/out"
check "ours: and exit status 1" [ "$(cat "$T/ours_shell/rc")" = 1 ]
check "ours: the command did not run" sh -c "! grep -q ran '$T/ours_shell/out'"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# The same config under Debian's sshd (its own port and log).
jail_config "ForceCommand internal-sftp" > "$T/extra"; write_config < "$T/extra"
start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb.log"
sftp_as "$T/deb"
shell_as "$T/deb_shell"
kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null
# Transcripts alike but for ls's column layout, which follows sizes.
norm() { tr -s ' \t' '\n\n' < "$1" | grep -v '^$' | sort; }
norm "$T/ours/out" > "$T/ours.norm"
norm "$T/deb/out" > "$T/deb.norm"
check "the jail's transcript matches Debian's sshd" \
    cmp -s "$T/ours.norm" "$T/deb.norm"
[ -s "$T/deb.norm" ] && ! cmp -s "$T/ours.norm" "$T/deb.norm" &&
    diff "$T/deb/out" "$T/ours/out" >&2
check "the refusal matches Debian's sshd" \
    cmp -s "$T/ours_shell/out" "$T/deb_shell/out"
check "the refusal's status matches Debian's sshd" \
    [ "$(cat "$T/ours_shell/rc")" = "$(cat "$T/deb_shell/rc")" ]

# 3. Subsystem internal-sftp with flags, no ForceCommand: read-only.
write_config <<EOC
Subsystem sftp internal-sftp -R
Match Group $G
	ChrootDirectory $JAIL
EOC
start_sshd
cat > "$T/batch" <<EOB
cd upload
put $T/blob blob
EOB
sftp_as "$T/ro"
check "internal-sftp -R: a put is refused" [ "$(cat "$T/ro/rc")" != 0 ]
check "internal-sftp -R: nothing written" [ ! -e "$JAIL/upload/blob" ]
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# 4. A chroot directory the user owns, or below a directory others may
# write: no session at all, and the same log line as Debian's sshd.
cp "$T/batch.keep" "$T/batch"
refusal() { tr -d '\r' < "$1" | grep -o 'bad ownership or modes for chroot.*' | head -n 1; }
refused_alike() { # refused_alike WHAT CHROOT
	jail_config "ForceCommand internal-sftp" "${2:-}" > "$T/extra"
	write_config < "$T/extra"
	start_sshd
	sftp_as "$T/owned"
	kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""
	write_config < "$T/extra"
	: > "$T/deb4.log"
	start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb4.log"
	sftp_as "$T/deb_owned"
	kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null
	check "$1: refused" [ "$(cat "$T/owned/rc")" != 0 ]
	check "$1: Debian's sshd refuses it too" \
	    [ "$(cat "$T/deb_owned/rc")" != 0 ]
	ours_line=$(refusal "$T/sshd.log")
	deb_line=$(refusal "$T/deb4.log")
	check "$1: logged as by Debian's sshd" \
	    [ "$ours_line" = "${deb_line:-(Debian logged nothing)}" ]
	[ "$ours_line" = "$deb_line" ] ||
	    echo "ours: $ours_line; Debian's: $deb_line" >&2
}
chown "$U" "$JAIL"
refused_alike "a jail owned by the user"
chown root "$JAIL"
mkdir "$JAIL/inner"
chmod 775 "$JAIL"
refused_alike "a jail below a group-writable directory" "$JAIL/inner"
chmod 755 "$JAIL"
finish
