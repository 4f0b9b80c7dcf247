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
# ForwardAgent (a path, $VAR, ~, with -A/-a) and AddKeysToAgent (a word,
# a lifetime, confirm with one) as Debian's ssh -G prints them.
for args in "-A" "-a" "-a -A" "-A -a" "-oForwardAgent=no -A" \
    "-A -oForwardAgent=no" "-oForwardAgent=$T" "-oForwardAgent=~/x.sock" \
    "-oForwardAgent=\$MY_SOCK" "-oForwardAgent=SSH_AUTH_SOCK" \
    "-oForwardAgent=$T -a" "-oForwardAgent=\${HOME}/s" \
    "-oAddKeysToAgent=yes" "-oAddKeysToAgent=no" "-oAddKeysToAgent=ask" \
    "-oAddKeysToAgent=confirm" "-oAddKeysToAgent=2s" \
    "-oAddKeysToAgent=1h30m" "-oAddKeysToAgent=0"; do
	ours=$("$BIN/ssh" -G -F /dev/null $args h 2>/dev/null |
	    grep -E "^(forwardagent|addkeystoagent) ")
	theirs=$(ssh -G -F /dev/null $args h 2>/dev/null |
	    grep -E "^(forwardagent|addkeystoagent) ")
	check "-G $args: $(echo $ours) as OpenSSH" [ "$ours" = "$theirs" ]
done
ours=$("$BIN/ssh" -G -F /dev/null -o "AddKeysToAgent confirm 5m" h |
    grep "^addkeystoagent ")
theirs=$(ssh -G -F /dev/null -o "AddKeysToAgent confirm 5m" h 2>/dev/null |
    grep "^addkeystoagent ")
check "-G AddKeysToAgent confirm 5m: $ours as OpenSSH" [ "$ours" = "$theirs" ]
for v in "confirm,5m" "yes 5" "bogus" "confirm x"; do
	"$BIN/ssh" -G -F /dev/null -o "AddKeysToAgent $v" h >/dev/null \
	    2>"$T/err"
	rc=$?
	ssh -G -F /dev/null -o "AddKeysToAgent $v" h >/dev/null 2>"$T/err2"
	check "AddKeysToAgent $v refused (255) with OpenSSH's words" \
	    [ $rc = 255 ] && [ "$(cat "$T/err")" = "$(tr -d '\r' < "$T/err2")" ]
done
"$BIN/ssh" -G -F /dev/null -o ForwardAgent=/nonexistent/s h 2>"$T/err" |
    grep -q "^forwardagent /nonexistent/s$"
check "ForwardAgent to a missing path: shown" [ $? -eq 0 ]
check "... with OpenSSH's complaint" grep -q \
    '^Cannot forward agent socket path "/nonexistent/s": No such file or directory$' "$T/err"
"$BIN/ssh" -G -F /dev/null -o ExitOnForwardFailure=yes \
    -o ForwardAgent=/nonexistent/s h >/dev/null 2>&1
check "... fatal with ExitOnForwardFailure (255)" [ $? -eq 255 ]
out=$("$BIN/ssh" -G -F "$T/cfg" -o Port=1234 -l me db | grep -E "^(port|user) " | tr '\n' ' ')
check "-o and -l win over the file" [ "$out" = "user me port 1234 " ]
echo "NoSuchKeyword yes" > "$T/bad"
"$BIN/ssh" -G -F "$T/bad" host >/dev/null 2>"$T/err"
check "unknown keyword: exit 255" [ $? -eq 255 ]
check "... Bad configuration option with file and line, in lower case" \
    grep -q "$T/bad: line 1: Bad configuration option: nosuchkeyword" "$T/err"

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
