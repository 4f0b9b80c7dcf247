#!/bin/sh
# Hostname canonicalisation as ssh -G shows it, compared with Debian's.
. "$(dirname "$0")/lib.sh"
need ssh
first() { head -1 "$1" | tr -d '\r' | sed 's/Pseudo-terminal.*//'; }
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

finish
