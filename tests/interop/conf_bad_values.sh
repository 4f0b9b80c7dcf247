#!/bin/sh
# Refusals of bad values, in OpenSSH's words: each line is given to our
# sshd -t / ssh -G and to Debian's, and the first error naming the file
# must be the same line, word for word. The cases cover every kind of
# value the keyword rows check (conf_kw.c): numbers and their ranges,
# ports, times, masks, log levels and facilities, yes/no and word
# tables, and a word too many after each kind.
. "$(dirname "$0")/lib.sh"
need ssh
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
ssh-keygen -q -t ed25519 -N '' -f "$T/hk"

first() { # file stderr: its first error naming file, line ending cut
	tr -d '\r' < "$2" | grep -m1 "^$1 line"
}

same() { # ours theirs: theirs refused it, and ours said the same
	[ -n "$2" ] && [ "$1" = "$2" ] && return 0
	echo "  ours:   $1" >&2
	echo "  theirs: $2" >&2
	return 1
}

sshd_line() { # one line of sshd_config after a HostKey line
	printf 'HostKey %s\n%s\n' "$T/hk" "$1" > "$T/s.conf"
	"$BIN/sshd" -t -f "$T/s.conf" >/dev/null 2>"$T/ours"
	/usr/sbin/sshd -t -f "$T/s.conf" >/dev/null 2>"$T/theirs"
	check "sshd: $1" same "$(first "$T/s.conf" "$T/ours")" \
	    "$(first "$T/s.conf" "$T/theirs")"
}

ssh_line() { # one line of ssh_config
	printf '%s\n' "$1" > "$T/c.conf"
	"$BIN/ssh" -G -F "$T/c.conf" h >/dev/null 2>"$T/ours" </dev/null
	ssh -G -F "$T/c.conf" h >/dev/null 2>"$T/theirs" </dev/null
	check "ssh: $1" same "$(first "$T/c.conf" "$T/ours")" \
	    "$(first "$T/c.conf" "$T/theirs")"
}

for l in "MaxAuthTries -1" "MaxAuthTries x" "ClientAliveCountMax 99999999999" \
    "X11DisplayOffset -2" "Port 0" "Port 70000" "Port 22x" \
    "LoginGraceTime 1q" "ClientAliveInterval 1q" "LogLevel loud" \
    "SyslogFacility foo" "StreamLocalBindMask 9" "PermitRootLogin maybe" \
    "PasswordAuthentication maybe" "AddressFamily foo" "Compression foo" \
    "AllowTcpForwarding foo" "MaxAuthTries 3 4" "PermitTTY yes no"; do
	sshd_line "$l"
done

for l in "Port 0" "Port 22x" "Port 70000" "Port 22 23" \
    "ConnectTimeout 1q" "ConnectTimeout 1 2" "ConnectTimeout none 2" \
    "ServerAliveCountMax -1" "ServerAliveCountMax 1 2" \
    "NumberOfPasswordPrompts x y" "LogLevel loud" "LogLevel INFO x" \
    "SyslogFacility foo" "SyslogFacility USER x" "StreamLocalBindMask 9" \
    "StreamLocalBindMask 0177 x" "BatchMode maybe" "BatchMode yes no" \
    "AddressFamily foo" "RequestTTY yes x"; do
	ssh_line "$l"
done
finish
