#!/bin/sh
# What PAM's account and session modules say (pam_echo, pam_motd with a
# private motd file) reaches the user as with Debian's sshd: printed
# first to a shell's output, with or without a pty, in the modules'
# order; never for a command; not at all with ~/.hushlogin. The same
# client runs the same cases against Debian's sshd (started through a
# link named after the private PAM service, since OpenSSH 9.2 takes
# the service name from its program name) and against ours
# (PAMServiceName), and the marked lines are compared.
# Needs root: a temporary user and a PAM service file in /etc/pam.d.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (temporary user, /etc/pam.d file)"
need ssh
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
find /lib /usr/lib -name pam_echo.so 2>/dev/null | grep -q . ||
    skip "pam_echo.so missing"
find /lib /usr/lib -name pam_motd.so 2>/dev/null | grep -q . ||
    skip "pam_motd.so missing"
make_keys
U=moatp$$
SVC=moat-text-$$
make_user "$U"
H=$(getent passwd "$U" | cut -d: -f6)
# Both servers read authorized_keys as the user: the user's own file.
mkdir -p "$H/.ssh"
cp "$T/id_ed25519.pub" "$H/.ssh/authorized_keys"
chown -R "$U" "$H/.ssh"
chmod 700 "$H/.ssh"
AKF=.ssh/authorized_keys
printf 'MOTD-ONE for the test\nMOTD-TWO\n' >"$T/motd"
chmod 644 "$T/motd"
chmod 755 "$T"	# pam_motd reads the motd file as the user
pam_service "$SVC" <<EOC
auth required pam_permit.so
account required pam_permit.so
account optional pam_echo.so ACCOUNT-TEXT %u
session optional pam_echo.so SESSION-TEXT %u
session optional pam_motd.so motd=$T/motd noupdate
session required pam_permit.so
EOC

COMMON="UsePAM yes
PrintMotd no
PrintLastLog no"
write_config <<EOC
$COMMON
EOC
mv "$T/sshd_config" "$T/debian_config"
ln -s /usr/sbin/sshd "$T/$SVC"
start_peer_sshd "$T/$SVC" "$T/debian_config" "$T/debian.log"
THEIRS=$PORT
write_config <<EOC
$COMMON
PAMServiceName $SVC
EOC
start_sshd
OURS=$PORT

# run NAME PORT: the cases against one server, marked lines only (and
# the shells' own output, to show where the text comes).
run() {
	o="$T/$1"
	PORT=$2
	ossh "$U@127.0.0.1" 'echo cmd-ran' </dev/null >"$o.cmd" 2>&1
	ossh -tt "$U@127.0.0.1" 'echo cmd-ran' </dev/null 2>&1 |
	    tr -d '\r' >"$o.ttycmd"
	echo 'echo shell-ran' | ossh -T "$U@127.0.0.1" >"$o.shell" 2>"$o.err"
	(sleep 1; echo 'echo shell-ran'; echo exit) |
	    ossh -tt "$U@127.0.0.1" 2>&1 | tr -d '\r' >"$o.tty"
	touch "$H/.hushlogin"
	echo 'echo shell-ran' | ossh -T "$U@127.0.0.1" >"$o.hush" 2>&1
	rm -f "$H/.hushlogin"
	for f in cmd ttycmd shell tty hush; do
		grep -a -e '-TEXT' -e '^MOTD-' -e '^shell-ran$' -e '^cmd-ran$' \
		    "$o.$f" >"$o.$f.m"
	done
	# The shell's own line on a pty comes with prompts and echo as
	# timing has it: only the text before it is compared.
	grep -v 'shell-ran' "$o.tty.m" >"$o.tty.t"
	mv "$o.tty.t" "$o.tty.m"
}
run ours "$OURS"
run debian "$THEIRS"

check "Debian's: the shell without a pty gets the text first" \
    [ "$(head -1 "$T/debian.shell.m")" = "ACCOUNT-TEXT $U" ]
check "Debian's: the pty shell too" grep -q "^SESSION-TEXT $U" "$T/debian.tty.m"
for f in cmd ttycmd shell tty hush; do
	if cmp -s "$T/ours.$f.m" "$T/debian.$f.m"; then
		pass "$f: the same text as Debian's sshd"
	else
		fail "$f: not the text Debian's sshd gives"
		diff "$T/debian.$f.m" "$T/ours.$f.m" >&2
	fi
done
check "shell: on standard output, nothing on standard error" \
    sh -c "! grep -q -e -TEXT -e MOTD- '$T/ours.err'"
check "shell: account, session, motd, then the shell's own" \
    [ "$(tr '\n' '|' <"$T/ours.shell.m")" = \
    "ACCOUNT-TEXT $U|SESSION-TEXT $U|MOTD-ONE for the test|MOTD-TWO|shell-ran|" ]
check "command: none of it" [ "$(cat "$T/ours.cmd.m")" = "cmd-ran" ]
check "command with a pty: none of it" \
    [ "$(cat "$T/ours.ttycmd.m")" = "cmd-ran" ]
check "pty shell: the shell ran" grep -q 'shell-ran' "$T/ours.tty"
check "pty shell: the text in order" [ "$(tr '\n' '|' <"$T/ours.tty.m")" = \
    "ACCOUNT-TEXT $U|SESSION-TEXT $U|MOTD-ONE for the test|MOTD-TWO|" ]
# Typed input may be echoed before it (a slow server), not the output
# (which may follow a prompt).
check "pty shell: the text before the shell's output" sh -c "
    tr -d '\r' <'$T/ours.tty' | awk '/^MOTD-TWO\$/ { m = NR }
    /shell-ran\$/ && !/echo/ { s = NR } END { exit !(m && s && m < s) }'"
check "~/.hushlogin: none of it" [ "$(cat "$T/ours.hush.m")" = "shell-ran" ]
finish
