#!/bin/sh
# Our ssh against our sshd: each key type, exit status, known_hosts
# (accept-new adds, yes refuses unknown, a changed key is refused with
# the warning, hashed entries, [host]:port), ProxyCommand, config Host
# blocks, connection errors.
. "$(dirname "$0")/lib.sh"
make_keys
write_config </dev/null
start_sshd
KH=$T/known_hosts
mssh() {
	"$BIN/ssh" -F "$T/ssh_config" -o BatchMode=yes "$@" </dev/null
}
cat > "$T/ssh_config" <<CFG
Host target
	HostName 127.0.0.1
	Port $PORT
	User $ME
	IdentityFile $T/id_ed25519
	IdentitiesOnly yes
Host *
	UserKnownHostsFile $KH
	StrictHostKeyChecking accept-new
CFG

out=$(mssh target 'echo hello-$((6*7))' 2>"$T/err")
check "ed25519 login through Host block, accept-new" [ "$out" = "hello-42" ]
check "accept-new announced the added key" grep -q "Permanently added '\[127.0.0.1\]:$PORT' (ED25519)" "$T/err"
check "known_hosts has a [host]:port line" grep -q "^\[127.0.0.1\]:$PORT ssh-ed25519 " "$KH"
for t in ecdsa rsa; do
	out=$(mssh -i "$T/id_$t" -o StrictHostKeyChecking=yes target 'echo key-ok' 2>"$T/err")
	check "$t key login with a known host key" [ "$out" = "key-ok" ]
done
mssh -o StrictHostKeyChecking=yes target 'exit 7' 2>/dev/null
check "remote exit status 7" [ $? -eq 7 ]
out=$(mssh target echo one two "three  four" 2>/dev/null)
check "command words joined with spaces" [ "$out" = "one two three four" ]

# Unknown host with StrictHostKeyChecking=yes is refused.
mssh -o UserKnownHostsFile="$T/empty_kh" -o StrictHostKeyChecking=yes \
    target true 2>"$T/err"
check "strict checking refuses an unknown host (255)" [ $? -eq 255 ]
check "... with Host key verification failed." grep -q "Host key verification failed." "$T/err"

# A changed key: another ed25519 key recorded for the host.
ssh-keygen -q -t ed25519 -N '' -f "$T/other" -C other
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$T/other.pub")" > "$T/changed_kh"
mssh -o UserKnownHostsFile="$T/changed_kh" target true 2>"$T/err"
check "changed host key refused (255)" [ $? -eq 255 ]
check "... with the loud warning" grep -q "WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!" "$T/err"
check "... naming the offending line" grep -q "Offending ED25519 key in $T/changed_kh:1" "$T/err"
out=$(mssh -o UserKnownHostsFile="$T/changed_kh" -o StrictHostKeyChecking=no target 'echo through' 2>"$T/err")
check "StrictHostKeyChecking=no connects with publickey after the warning" [ "$out" = "through" ]
check "... and says password authentication is off" grep -q "Password authentication is disabled" "$T/err"

# @revoked.
echo "@revoked [127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$T/host_ed25519.pub")" > "$T/rev_kh"
cat "$KH" >> "$T/rev_kh"
mssh -o UserKnownHostsFile="$T/rev_kh" target true 2>"$T/err"
check "revoked host key refused" [ $? -eq 255 ]
check "... loudly" grep -q "REVOKED HOST KEY" "$T/err"

# Hashed entries: HashKnownHosts yes writes |1|, and they are read back.
mssh -o UserKnownHostsFile="$T/hashed_kh" -o HashKnownHosts=yes target true 2>/dev/null
check "HashKnownHosts writes a hashed line" grep -q '^|1|' "$T/hashed_kh"
check "... without the plain name" sh -c "! grep -q 127.0.0.1 '$T/hashed_kh'"
mssh -o UserKnownHostsFile="$T/hashed_kh" -o StrictHostKeyChecking=yes target true 2>/dev/null
check "a hashed entry is found" [ $? -eq 0 ]
# Debian's ssh-keygen -H output is understood too.
cp "$KH" "$T/kg_kh"
ssh-keygen -q -H -f "$T/kg_kh" >/dev/null 2>&1
mssh -o UserKnownHostsFile="$T/kg_kh" -o StrictHostKeyChecking=yes target true 2>/dev/null
check "an entry hashed by OpenSSH's ssh-keygen -H is found" [ $? -eq 0 ]

# HostKeyAlias: looked up under the alias, without the port.
echo "myalias $(cut -d' ' -f1,2 "$T/host_ed25519.pub")" > "$T/alias_kh"
mssh -o UserKnownHostsFile="$T/alias_kh" -o HostKeyAlias=myalias -o StrictHostKeyChecking=yes target true 2>/dev/null
check "HostKeyAlias names the known_hosts entry" [ $? -eq 0 ]

# ProxyCommand: our sshd in inetd mode on the command's stdio.
out=$(mssh -o "ProxyCommand $BIN/sshd -i -f $T/sshd_config" -o StrictHostKeyChecking=yes target 'echo via-proxy' 2>"$T/err")
check "ProxyCommand (sshd -i) carries the session" [ "$out" = "via-proxy" ]
[ "$out" = "via-proxy" ] || cat "$T/err" >&2
out=$(mssh -o "ProxyCommand sh -c 'echo %h %p %r %n %% >$T/tokens; exec $BIN/sshd -i -f $T/sshd_config'" target true 2>/dev/null; cat "$T/tokens")
check "ProxyCommand tokens %h %p %r %n %%" [ "$out" = "127.0.0.1 $PORT $ME target %" ]

# ssh://user@host:port and [user@]host with -p after the destination.
out=$("$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$KH" \
    -i "$T/id_ed25519" "ssh://$ME@127.0.0.1:$PORT" 'echo uri' </dev/null 2>/dev/null)
check "ssh://user@host:port" [ "$out" = "uri" ]
out=$("$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$KH" \
    "$ME@127.0.0.1" -p "$PORT" -i "$T/id_ed25519" 'echo late-opts' </dev/null 2>/dev/null)
check "options after the destination" [ "$out" = "late-opts" ]

# Permission denied: a key the server does not know.
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger" -C x
"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$KH" \
    -o IdentitiesOnly=yes -i "$T/stranger" -p "$PORT" "$ME@127.0.0.1" true </dev/null 2>"$T/err"
check "unknown key: exit 255" [ $? -eq 255 ]
check "... Permission denied" grep -q "Permission denied" "$T/err"

# Connection errors in OpenSSH's words.
DEAD=$(free_port)
"$BIN/ssh" -F /dev/null -o BatchMode=yes -p "$DEAD" 127.0.0.1 true </dev/null 2>"$T/err"
check "refused connection: 255" [ $? -eq 255 ]
check "... connect to host ... Connection refused" grep -q "ssh: connect to host 127.0.0.1 port $DEAD: Connection refused" "$T/err"
"$BIN/ssh" -F /dev/null -o BatchMode=yes no-such-host.invalid true </dev/null 2>"$T/err"
check "unresolvable name: 255" [ $? -eq 255 ]
check "... Could not resolve hostname" grep -q "ssh: Could not resolve hostname no-such-host.invalid" "$T/err"
"$BIN/ssh" -F /dev/null -L 1:a 127.0.0.1 true </dev/null 2>"$T/err"
check "a bad -L is refused clearly" grep -q "Bad local forwarding specification '1:a'" "$T/err"

# ProxyJump: one and two hops through our own sshd (the inner ssh is this
# same binary, reading the same -F file); -W with a bracketed host.
out=$(mssh -J target target 'echo one-hop')
check "ProxyJump through one host" [ "$out" = one-hop ]
out=$(mssh -J "target,target" target 'echo two-hops')
check "ProxyJump through two hosts" [ "$out" = two-hops ]
out=$(mssh -W "[127.0.0.1]:$PORT" target </dev/null 2>/dev/null | head -c 8)
check "-W [host]:port reaches the target (its banner)" [ "$out" = "SSH-2.0-" ]
"$BIN/ssh" -F /dev/null -J 'a@:x' target true </dev/null 2>"$T/err"
check "a bad ProxyJump is refused" grep -q "bad ProxyJump specification" "$T/err"
finish
