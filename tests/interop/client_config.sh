#!/bin/sh
# ssh -G: the effective configuration, compared with Debian's ssh -G on
# the same file for the keywords both print the same way; config errors.
. "$(dirname "$0")/lib.sh"
need ssh
cat > "$T/cfg" <<'CFG'
Host web*
	HostName %h.example.net
	Port 2200
	User deploy
	StrictHostKeyChecking accept-new
	ConnectTimeout 15
	ServerAliveInterval 30
	SendEnv LANG LC_*
	ProxyCommand nc %h %p
	UserKnownHostsFile /tmp/kh1 /tmp/kh2
	HashKnownHosts yes
	BatchMode yes
	RequestTTY no
	GSSAPIAuthentication yes
Host *
	Port 22
	User other
	Ciphers aes256-ctr,aes128-ctr
	MACs hmac-sha2-256
CFG
for kw in hostname port user stricthostkeychecking connecttimeout \
    serveraliveinterval sendenv proxycommand userknownhostsfile \
    hashknownhosts batchmode requesttty ciphers macs identityfile \
    globalknownhostsfile numberofpasswordprompts escapechar \
    updatehostkeys verifyhostkeydns; do
	ours=$("$BIN/ssh" -G -F "$T/cfg" web1 | grep "^$kw ")
	theirs=$(ssh -G -F "$T/cfg" web1 2>/dev/null | grep "^$kw ")
	check "-G $kw matches OpenSSH ($ours)" [ "$ours" = "$theirs" ]
done
# UpdateHostKeys' default follows UserKnownHostsFile and VerifyHostKeyDNS.
for opt in "LogLevel=INFO" "VerifyHostKeyDNS=yes" "UpdateHostKeys=ask" \
    "UserKnownHostsFile=~/.ssh/known_hosts" "UserKnownHostsFile=/tmp/kh"; do
	ours=$("$BIN/ssh" -G -F /dev/null -o "$opt" h | grep "^updatehostkeys ")
	theirs=$(ssh -G -F /dev/null -o "$opt" h 2>/dev/null |
	    grep "^updatehostkeys ")
	check "-G -o $opt: $ours as OpenSSH" [ "$ours" = "$theirs" ]
done
out=$("$BIN/ssh" -G -F "$T/cfg" -o Port=1234 -l me db | grep -E "^(port|user) " | tr '\n' ' ')
check "-o and -l win over the file" [ "$out" = "user me port 1234 " ]
echo "NoSuchKeyword yes" > "$T/bad"
"$BIN/ssh" -G -F "$T/bad" host >/dev/null 2>"$T/err"
check "unknown keyword: exit 255" [ $? -eq 255 ]
check "... Bad configuration option with file and line, in lower case" \
    grep -q "$T/bad: line 1: Bad configuration option: nosuchkeyword" "$T/err"

# Keywords of the session and of IgnoreUnknown: -G as Debian's prints them.
cat > "$T/sess" <<'CFG'
IgnoreUnknown Foo*,bar
FooThing 1
Bar 2
Host *
	ConnectionAttempts 4
	StdinNull yes
	SessionType none
	PermitLocalCommand yes
	LocalCommand echo %h %p "%r" %%
	KnownHostsCommand /usr/bin/printf "%s\n" %H %K  %t
	RevokedHostKeys ~/revoked_%h
	NoHostAuthenticationForLocalhost yes
	FingerprintHash md5
	SyslogFacility local3
CFG
for kw in ignoreunknown connectionattempts stdinnull sessiontype \
    forkafterauthentication permitlocalcommand localcommand \
    knownhostscommand revokedhostkeys nohostauthenticationforlocalhost \
    fingerprinthash syslogfacility; do
	for cfg in "$T/sess" /dev/null; do
		ours=$("$BIN/ssh" -G -F "$cfg" h | grep "^$kw ")
		theirs=$(ssh -G -F "$cfg" h 2>/dev/null </dev/null |
		    grep "^$kw ")
		check "-G $kw as OpenSSH ($(basename $cfg): $ours)" \
		    [ "$ours" = "$theirs" ]
	done
done
for flags in "-n" "-N" "-s" "-f -N" "-n -o SessionType=subsystem" \
    "-o StdinNull=no -f -o ForkAfterAuthentication=no"; do
	ours=$("$BIN/ssh" -G -F /dev/null $flags h cmd |
	    grep -E "^(stdinnull|sessiontype|forkafterauthentication) " |
	    sort)
	theirs=$(ssh -G -F /dev/null $flags h cmd 2>/dev/null </dev/null |
	    grep -E "^(stdinnull|sessiontype|forkafterauthentication) " |
	    sort)
	check "-G $flags: as OpenSSH" [ "$ours" = "$theirs" ]
done
# Bad values: the same message, first line and exit status as Debian's
# (whose messages on stderr end in CR LF).
first() { head -1 "$1" | tr -d '\r' | sed 's/Pseudo-terminal.*//'; }
i=0
for line in "ConnectionAttempts -1" "ConnectionAttempts abc" \
    "ConnectionAttempts 3 4" "ConnectionAttempts 2147483648" \
    "StdinNull maybe" "SessionType foo" "ForkAfterAuthentication 1" \
    "PermitLocalCommand ask" "LocalCommand" "IgnoreUnknown" \
    "IgnoreUnknown a b" "IgnoreUnknown a%Bar 1" "Port" 'User ""' \
    "KnownHostsCommand" "RevokedHostKeys" "RevokedHostKeys a b" \
    "NoHostAuthenticationForLocalhost perhaps" \
    "FingerprintHash foo" "FingerprintHash sha256 x" "SyslogFacility foo" \
    "SyslogFacility AUTH x" \
    "User a b" "NumberOfPasswordPrompts x"; do
	i=$((i + 1))
	printf '%s\n' "$line" | tr % '\n' > "$T/b$i"
	"$BIN/ssh" -G -F "$T/b$i" h >/dev/null 2>"$T/e1"
	r1=$?
	ssh -G -F "$T/b$i" h </dev/null >/dev/null 2>"$T/e2"
	r2=$?
	check "bad '$line': status $r1 as OpenSSH" [ $r1 -eq $r2 ]
	check "... message as OpenSSH ($(first "$T/e1"))" \
	    [ "$(first "$T/e1")" = "$(first "$T/e2")" ]
done
# Checks made before -G prints anything.
for args in "-f h" "-o ForkAfterAuthentication=yes h" \
    "-o ConnectionAttempts=0 h true" "-f -N h"; do
	"$BIN/ssh" -G -F /dev/null $args >/dev/null 2>"$T/e1"
	r1=$?
	ssh -G -F /dev/null $args </dev/null >/dev/null 2>"$T/e2"
	r2=$?
	check "ssh -G $args: status $r1 as OpenSSH" [ $r1 -eq $r2 ]
	check "... message as OpenSSH ($(first "$T/e1"))" \
	    [ "$(first "$T/e1")" = "$(first "$T/e2")" ]
done
# Hostname canonicalisation without DNS: an address written another way,
# a name that resolves under no domain (falling back or failing), the
# second reading of the files (Host for the canonical name, Match
# canonical and final), HostName's %h and lower case.
cat > "$T/canon1" <<'CFG'
CanonicalizeHostname yes
Host 127.0.0.1
	Port 2345
CFG
cat > "$T/canon2" <<'CFG'
CanonicalizeHostname yes
CanonicalDomains example.invalid
Match canonical
	Port 2222
Match final
	User fin
CFG
cat > "$T/canon3" <<'CFG'
CanonicalizeHostname always
CanonicalizeFallbackLocal no
CanonicalDomains example.invalid
CFG
cat > "$T/canon4" <<'CFG'
CanonicalizeHostname yes
CanonicalizeMaxDots 3
CanonicalDomains a.invalid b.invalid
CanonicalizePermittedCNAMEs *.a:*.b,*.c *.d:*.e
CanonicalizeFallbackLocal yes
Host *
	HostName %h.Example.NET
CFG
for args in "-F $T/canon1 127.1" "-F $T/canon1 -o CanonicalizeHostname=no 127.1" \
    "-F $T/canon2 localhost" "-F $T/canon2 127.0.0.1" "-F $T/canon3 localhost" \
    "-F $T/canon3 -o ProxyCommand=none localhost" \
    "-F $T/canon3 -o CanonicalizeMaxDots=0 some.where" \
    "-F $T/canon4 MiXed" "-F /dev/null FOO.Example" \
    "-F /dev/null -o HostName=BAR.x FOO"; do
	"$BIN/ssh" -G $args >"$T/o1" 2>"$T/e1"
	r1=$?
	ssh -G $args >"$T/o2" 2>"$T/e2" </dev/null
	r2=$?
	ours=$(grep -iE "^(host|hostname|port|user|canonical[a-z]*) " \
	    "$T/o1" | sort)
	theirs=$(grep -iE "^(host|hostname|port|user|canonical[a-z]*) " \
	    "$T/o2" | sort)
	check "-G $args: as OpenSSH" [ "$ours" = "$theirs" ]
	check "... status and message as OpenSSH ($(first "$T/e1"))" \
	    [ $r1 -eq $r2 ] && [ "$(first "$T/e1")" = "$(first "$T/e2")" ]
done
for line in "CanonicalizeHostname maybe" "CanonicalizeMaxDots -1" \
    "CanonicalizePermittedCNAMEs foo" "CanonicalizePermittedCNAMEs a: b:c" \
    "CanonicalDomains none x" "CanonicalDomains" \
    "CanonicalizeFallbackLocal 2"; do
	printf '%s\n' "$line" > "$T/bc"
	"$BIN/ssh" -G -F "$T/bc" h >/dev/null 2>"$T/e1"
	r1=$?
	ssh -G -F "$T/bc" h </dev/null >/dev/null 2>"$T/e2"
	r2=$?
	check "bad '$line': status $r1 and message as OpenSSH" \
	    [ $r1 -eq $r2 ] && [ "$(first "$T/e1")" = "$(first "$T/e2")" ]
done

# An unknown keyword in an included file is an error as well.
echo "NoSuchKeyword yes" > "$T/inc_bad"
echo "Include $T/inc_bad" > "$T/incl"
"$BIN/ssh" -G -F "$T/incl" h >/dev/null 2>"$T/err"
check "unknown keyword in an included file: exit 255" [ $? -eq 255 ]
check "... named with its file and line" \
    grep -q "$T/inc_bad: line 1: Bad configuration option: nosuchkeyword" \
    "$T/err"
if [ -r /etc/ssh/ssh_config ]; then
	"$BIN/ssh" -G host >/dev/null 2>"$T/err"
	check "Debian's stock ssh_config parses" [ $? -eq 0 ]
fi
"$BIN/ssh" -V 2>"$T/v"
check "-V prints a version" grep -q "moat" "$T/v"
"$BIN/ssh" -Q cipher | grep -q "^aes128-ctr$"
check "-Q cipher lists ciphers" [ $? -eq 0 ]
finish
