#!/bin/sh
# ssh -G and ssh_config errors for IgnoreUnknown and the keywords of the
# session and of the host key check, compared with Debian's ssh -G on the
# same files: values, messages and exit statuses.
. "$(dirname "$0")/lib.sh"
need ssh
# The first line of a message (Debian's end in CR LF on stderr).
first() { head -1 "$1" | tr -d '\r' | sed 's/Pseudo-terminal.*//'; }
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
finish
