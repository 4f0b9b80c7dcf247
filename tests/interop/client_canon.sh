#!/bin/sh
# Hostname canonicalisation as ssh -G shows it, compared with Debian's.
. "$(dirname "$0")/lib.sh"
need ssh
first() { head -1 "$1" | tr -d '\r' | sed 's/Pseudo-terminal.*//'; }
# Hostname canonicalisation without DNS: an address written another way,
# a name that resolves under no domain (falling back or failing), the
# second reading of the files (Host for the canonical name, Match
# canonical and final), HostName's %h and lower case; Match final asking
# for the second reading without canonicalisation.
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
# Match final without canonicalisation: a second reading all the same
# ("canonical" then matches too), Host lines for the HostName; a config
# with only "Match canonical" gets no second reading.
cat > "$T/final1" <<'CFG'
Match final
	User finaluser
Match canonical
	Port 2201
Match !final
	Compression yes
Host *
	User plain
CFG
cat > "$T/final2" <<'CFG'
Host foo
	HostName Bar
Host bar
	User baruser
Match final host nomatch
CFG
cat > "$T/final3" <<'CFG'
Match canonical
	User canonuser
Match host bar
	Port 2202
Host foo
	HostName bar
CFG
cat > "$T/final4" <<'CFG'
Match !final
	User early
Match final host bar
	Port 2203
	User late
Match canonical originalhost foo
	Compression yes
Host foo
	HostName bar
CFG
cat > "$T/final5" <<'CFG'
CanonicalizeHostname yes
CanonicalDomains example.invalid
Match final host localhost
	User fin
Host localhost
	Port 2204
CFG
for args in "-F $T/final1 localhost" "-F $T/final2 foo" \
    "-F $T/final3 foo" "-F $T/final4 foo" "-F $T/final4 -l cmd foo" \
    "-F $T/final5 LocalHost"; do
	"$BIN/ssh" -G $args >"$T/o1" 2>"$T/e1"
	r1=$?
	ssh -G $args >"$T/o2" 2>"$T/e2" </dev/null
	r2=$?
	ours=$(grep -iE "^(host|hostname|port|user|compression) " "$T/o1" |
	    sort)
	theirs=$(grep -iE "^(host|hostname|port|user|compression) " \
	    "$T/o2" | sort)
	check "Match final: -G $args: as OpenSSH" [ "$ours" = "$theirs" ]
	check "... status $r1 as OpenSSH" [ $r1 -eq $r2 ]
done
# The debug lines that say why the files are read again.
"$BIN/ssh" -v -G -F "$T/final1" localhost >/dev/null 2>"$T/e1"
ssh -v -G -F "$T/final1" localhost >/dev/null 2>"$T/e2" </dev/null
check "Match final: -v says the configuration asks for the pass" \
    grep -q "^debug1: configuration requests final Match pass" "$T/e1"
check "... as OpenSSH says it" \
    grep -q "^debug1: configuration requests final Match pass" "$T/e2"
"$BIN/ssh" -v -G -F "$T/final3" foo >/dev/null 2>"$T/e1"
check "Match canonical alone: no second reading" \
    sh -c "! grep -q 're-parsing configuration' '$T/e1'"
ssh -v -G -F "$T/final3" foo >/dev/null 2>"$T/e2" </dev/null
check "... nor in OpenSSH" sh -c "! grep -q 're-parsing configuration' '$T/e2'"

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
