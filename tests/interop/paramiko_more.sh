#!/bin/sh
# Python's paramiko against our sshd, the way its users drive it:
# SSHClient.connect with a list of key files (a refused one first), with
# a password, with a password where only keyboard-interactive is on, with
# a key and a password where both are required; auth_interactive with a
# handler (PAM); auth_none refused with the methods offered; the Banner.
# Sessions: a pty shell, exec with a pty, exec with an environment
# (AcceptEnv), stderr combined and apart, a signal-killed command,
# resize_pty, several channels at once, a 1 KiB window with 512-byte
# packets, SFTP (our sftp-server as the subsystem). Transport:
# keepalives, rekeying by the client and by the server mid-transfer,
# direct-tcpip (and its refusal), remote forwarding and its cancel (and a
# busy port denied), and compression asked for by the client.
# As root the logins use a temporary user with a password and a PAM
# service of pam_unix; as any other user the password and
# keyboard-interactive parts are skipped.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/id_other"
echo "moat test banner: paramiko" > "$T/banner"
ROOT=no
if [ "$(id -u)" = 0 ] && command -v useradd >/dev/null 2>&1 &&
    command -v chpasswd >/dev/null 2>&1; then
	ROOT=yes
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
	chmod 644 "$T/authorized_keys" "$T/banner"
	METHODS=publickey,password,keyboard-interactive
	AUTH="UsePAM yes
PAMServiceName $SVC
KbdInteractiveAuthentication yes"
else
	echo "note: not root: password and keyboard-interactive parts skipped" >&2
	U=$ME
	PW=-
	METHODS=publickey,password
	AUTH="KbdInteractiveAuthentication no"
fi
COMMON="AcceptEnv MOAT_OK
Banner $T/banner
Subsystem sftp $BIN/sftp-server"

# more CASES [sshd_config lines...]: restart sshd so, run those cases.
more() {
	cases=$1
	shift
	restart_sshd "$AUTH" "$COMMON" "$@"
	MOAT_BIN=$BIN "$PY" "$(dirname "$0")/paramiko_more.py" 127.0.0.1 "$PORT" "$U" "$T" \
	    "$PW" "$METHODS" "$cases"
}

more "" "PasswordAuthentication yes"
check "paramiko: logins, sessions, transport features" [ $? -eq 0 ]
more server_rekey,many_channels "RekeyLimit 1M"
check "paramiko: the server rekeys every megabyte" [ $? -eq 0 ]
if [ $ROOT = yes ]; then
	more password_as_kbdint "PasswordAuthentication no"
	check "paramiko: password answered through keyboard-interactive" \
	    [ $? -eq 0 ]
	more two_steps "AuthenticationMethods publickey,password"
	check "paramiko: publickey,password" [ $? -eq 0 ]
fi
finish
