#!/bin/sh
# Python's paramiko against our sshd, the way its users drive it:
# SSHClient.connect with a list of key files (a refused one first), with
# a password, keyboard-interactive through PAM with a handler, auth_none
# refused with the methods offered; a pty shell, exec with an environment
# (AcceptEnv), stderr combined and apart, a signal-killed command,
# resize_pty, several channels at once; keepalives, rekeying
# mid-transfer, direct-tcpip, remote forwarding and its cancel, and
# compression asked for by the client. As root the logins use a
# temporary user with a password and a PAM service of pam_unix; as any
# other user the password and keyboard-interactive parts are skipped.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/id_other"
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null 2>&1 &&
    command -v chpasswd >/dev/null 2>&1; then
	U=moatp$$
	SVC=moat-paramiko-test-$$
	PW="Moat-pass-$$-x"
	make_user "$U" "$PW"
	pam_service "$SVC" <<EOC
auth required pam_unix.so
account required pam_unix.so
session required pam_permit.so
password required pam_unix.so
EOC
	chmod 711 "$T"
	chmod 644 "$T/authorized_keys"
	METHODS=publickey,password,keyboard-interactive
	write_config <<EOC
UsePAM yes
PAMServiceName $SVC
PasswordAuthentication yes
KbdInteractiveAuthentication yes
AcceptEnv MOAT_OK
EOC
else
	echo "note: not root: password and keyboard-interactive parts skipped" >&2
	U=$ME
	PW=-
	METHODS=publickey,password
	write_config <<EOC
PasswordAuthentication yes
KbdInteractiveAuthentication no
AcceptEnv MOAT_OK
EOC
fi
start_sshd
"$PY" "$(dirname "$0")/paramiko_more.py" 127.0.0.1 "$PORT" "$U" "$T" \
    "$PW" "$METHODS"
check "paramiko as its users drive it" [ $? -eq 0 ]
finish
