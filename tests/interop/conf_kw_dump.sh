#!/bin/sh
# sshd -T and ssh -G printed from the keyword rows (conf_kw.h): a value
# of every printer kind (number, yes/no, word of a table, string or
# "none", octal mask, log level, facility, one line per entry, entries on
# one line) compared with Debian's OpenSSH on the same file, and the
# keywords both files accept without acting on them.
. "$(dirname "$0")/lib.sh"
need ssh
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
ssh-keygen -q -t ed25519 -N '' -f "$T/hk"
cat > "$T/s.conf" <<CFG
Port 2222
AddressFamily inet
HostKey $T/hk
PermitRootLogin prohibit-password
PasswordAuthentication no
MaxAuthTries 2
LoginGraceTime 1m30s
Compression delayed
StreamLocalBindMask 022
LogLevel VERBOSE
SyslogFacility LOCAL3
AllowUsers a b
AllowUsers c
AcceptEnv LANG LC_*
SetEnv A=1 B=2
ChrootDirectory /srv/%u
Banner none
AllowTcpForwarding local
GatewayPorts clientspecified
IgnoreRhosts shosts-only
PermitTunnel point-to-point
ClientAliveInterval 2m
ClientAliveCountMax 5
X11DisplayOffset 12
PermitTTY no
MaxAuthTries 9
PermitTTY yes
CFG
for k in port addressfamily permitrootlogin passwordauthentication \
    maxauthtries logingracetime compression streamlocalbindmask loglevel \
    syslogfacility allowusers acceptenv setenv chrootdirectory banner \
    allowtcpforwarding gatewayports ignorerhosts permittunnel \
    clientaliveinterval clientalivecountmax x11displayoffset permittty \
    hostkey usedns pubkeyauthentication maxsessions x11forwarding \
    strictmodes printmotd forcecommand authorizedkeyscommand; do
	ours=$("$BIN/sshd" -T -f "$T/s.conf" | grep "^$k ")
	theirs=$(/usr/sbin/sshd -T -f "$T/s.conf" | grep "^$k ")
	check "sshd -T $k as OpenSSH (${ours:-nothing})" \
	    [ -n "$ours" -a "$ours" = "$theirs" ]
done
# The first value wins; both files' lists append.
out=$("$BIN/sshd" -T -f "$T/s.conf")
check "sshd -T: the first MaxAuthTries wins" \
    [ "$(echo "$out" | grep '^maxauthtries ')" = "maxauthtries 2" ]
check "sshd -T: AllowUsers lines append" \
    [ "$(echo "$out" | grep -c '^allowusers ')" -eq 3 ]

cat > "$T/c.conf" <<'CFG'
Host a
	Port 2200
	AddressFamily inet6
	BatchMode yes
	Compression yes
	ForwardX11Timeout 5m
	SessionType none
	ConnectionAttempts 3
	CanonicalizeHostname always
	CanonicalizeMaxDots 2
	LocalCommand echo %h
	RequiredRSASize 2048
	NumberOfPasswordPrompts 2
	ServerAliveCountMax 7
	ServerAliveInterval 1m
	HostKeyAlias alias
	PreferredAuthentications publickey,password
	BindAddress 127.0.0.1
	GlobalKnownHostsFile /g1 /g2
	UserKnownHostsFile ~/k1 ~/k2
	StreamLocalBindMask 0077
	ControlPath ~/.ssh/cm-%C
	ProxyJump j1,j2
	RemoteCommand echo hi
	Port 2201
	CompressionLevel 6
	GSSAPIAuthentication yes
	UseRoaming no
	Protocol 2
Host *
	VisualHostKey yes
CFG
for h in a b; do
	for k in port addressfamily batchmode compression forwardx11timeout \
	    sessiontype connectionattempts canonicalizehostname \
	    canonicalizemaxdots localcommand requiredrsasize \
	    numberofpasswordprompts serveralivecountmax serveraliveinterval \
	    hostkeyalias bindaddress globalknownhostsfile userknownhostsfile \
	    controlpath proxyjump remotecommand visualhostkey \
	    hashknownhosts; do
		ours=$("$BIN/ssh" -G -F "$T/c.conf" $h 2>/dev/null |
		    grep "^$k ")
		theirs=$(ssh -G -F "$T/c.conf" $h 2>/dev/null </dev/null |
		    grep "^$k ")
		check "ssh -G $h $k as OpenSSH (${ours:-nothing})" \
		    [ "$ours" = "$theirs" ]
	done
done
out=$("$BIN/ssh" -G -F "$T/c.conf" a 2>/dev/null)
check "ssh -G: the octal mask" \
    [ "$(echo "$out" | grep '^streamlocalbindmask ')" = \
    "streamlocalbindmask 077" ]
check "ssh -G: preferredauthentications as set" \
    [ "$(echo "$out" | grep '^preferredauthentications ')" = \
    "preferredauthentications publickey,password" ]
# Rows accepted and not acted on, noted as Debian's ssh notes them:
# Deprecated at debug level, Unsupported as an error (seen without -v,
# still exit 0), the rest quiet; GSSAPIAuthentication (in Debian's own
# ssh_config) never an error.
"$BIN/ssh" -v -G -F "$T/c.conf" a >/dev/null 2>"$T/e"
check "ssh: an accepted keyword exits 0" [ $? -eq 0 ]
check "ssh: compressionlevel Unsupported" grep -q \
    "^.*/c.conf line 26: Unsupported option \"compressionlevel\"\$" "$T/e"
check "ssh: useroaming Deprecated" grep -q \
    "^debug1: .*c.conf line 28: Deprecated option \"useroaming\"\$" "$T/e"
check "ssh: protocol, gssapiauthentication quiet" \
    [ -z "$(grep -i 'line 2[79]:.*option' "$T/e")" ]
# Without -v: the Unsupported line only, once per reading of the file
# (CanonicalizeHostname always reads it again, there as here).
"$BIN/ssh" -G -F "$T/c.conf" a >/dev/null 2>"$T/e"
ssh -G -F "$T/c.conf" a </dev/null >/dev/null 2>"$T/e2"
check "ssh: without -v only the Unsupported line(s), as OpenSSH 9.2" \
    [ "$(grep -c "line [0-9]*: [A-Za-z]* option" "$T/e")" = \
    "$(grep -c "line [0-9]*: [A-Za-z]* option" "$T/e2")" -a \
    "$(grep -c "line 26: Unsupported option" "$T/e")" -ge 1 ]
for k in CompressionLevel UseRoaming Cipher Protocol RSAAuthentication \
    UsePrivilegedPort RhostsRSAAuthentication UseRsh; do
	printf 'Host other\n\t%s x\n' "$k" > "$T/c3.conf"
	ours=$("$BIN/ssh" -v -G -F "$T/c3.conf" a 2>&1 >/dev/null |
	    tr -d "\r" | grep -i "option")
	theirs=$(ssh -v -G -F "$T/c3.conf" a 2>&1 >/dev/null </dev/null |
	    tr -d "\r" | grep -i "option")
	check "ssh: $k noted as OpenSSH 9.2 (${ours:-nothing})" \
	    [ "$ours" = "$theirs" ]
done
printf 'Tag x\n' > "$T/c2.conf"
"$BIN/ssh" -G -F "$T/c2.conf" a >/dev/null 2>"$T/e"
check "ssh: Tag accepted quietly" [ $? -eq 0 -a ! -s "$T/e" ]
printf 'NoSuchKeyword x\n' > "$T/c2.conf"
"$BIN/ssh" -G -F "$T/c2.conf" a >/dev/null 2>"$T/e"
check "ssh: an unknown keyword is refused" [ $? -eq 255 ]
printf 'HostKey %s\nUseLogin no\nProtocol 2\nRSAAuthentication no\n' \
    "$T/hk" > "$T/s2.conf"
"$BIN/sshd" -T -f "$T/s2.conf" >/dev/null 2>"$T/e"
check "sshd: deprecated keywords accepted" [ $? -eq 0 ]
check "sshd: UseLogin noted as OpenSSH does" \
    grep -q "line 2: Deprecated option UseLogin" "$T/e"
check "sshd: RSAAuthentication noted as OpenSSH does" \
    grep -q "line 4: Deprecated option RSAAuthentication" "$T/e"
# OpenSSH 10's SshdSessionPath and SshdAuthPath: a config written for it
# still starts ours, which has no such programs.
printf 'HostKey %s\nSshdSessionPath /x/sshd-session\nSshdAuthPath /x/sshd-auth\n' \
    "$T/hk" > "$T/s3.conf"
"$BIN/sshd" -t -f "$T/s3.conf" 2>"$T/e"
check "sshd: SshdSessionPath and SshdAuthPath accepted" [ $? -eq 0 ]
check "... each noted Unsupported option" \
    [ "$(grep -c 'Unsupported option Sshd\(Session\|Auth\)Path' "$T/e")" = 2 ]
finish
