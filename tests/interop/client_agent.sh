#!/bin/sh
# Our ssh signing publickey auth with keys held by Debian's ssh-agent,
# against our sshd and OpenSSH's: Ed25519 and RSA (rsa-sha2-512, never
# ssh-rsa) with the key files gone, IdentitiesOnly, IdentityAgent
# (none, a path, $VAR), a key the agent refuses to sign with, and a
# locked agent.
. "$(dirname "$0")/lib.sh"
need ssh-agent
need ssh-add
make_keys
for t in ed25519 rsa; do
	ssh-keygen -q -t $t -N '' -f "$T/ag_$t" -C "agent-$t"
	cat "$T/ag_$t.pub" >> "$T/authorized_keys"
done
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger" -C stranger

ssh-agent -a "$T/agent.sock" > "$T/agent.env" || skip "ssh-agent failed"
AGENT_PID=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/agent.env")
[ -n "$AGENT_PID" ] || skip "no ssh-agent pid"
at_exit 'kill "$AGENT_PID" 2>/dev/null'
SSH_AUTH_SOCK=$T/agent.sock
export SSH_AUTH_SOCK
ssh-add -q "$T/ag_ed25519" "$T/ag_rsa" 2>/dev/null || fail "ssh-add"
rm -f "$T/ag_ed25519" "$T/ag_rsa"	# only the agent has them now

write_config <<CFG
PubkeyAcceptedAlgorithms ssh-ed25519,rsa-sha2-512
CFG
start_sshd
KH=$T/known_hosts
# No key files at all: IdentityFile points at one that does not exist.
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile="$KH" \
	    -o StrictHostKeyChecking=accept-new \
	    -o IdentityFile="$T/none" -o PasswordAuthentication=no \
	    -o KbdInteractiveAuthentication=no "$@" </dev/null
}

out=$(mssh -v -p "$PORT" "$ME@127.0.0.1" 'echo agent-ok' 2>"$T/err")
check "login to our sshd with the agent's key" [ "$out" = agent-ok ]
[ "$out" = agent-ok ] || cat "$T/err" >&2
check "... offered as an agent key" grep -q "Offering public key: agent-ed25519 .* agent" "$T/err"
ED_FP=$(ssh-keygen -lf "$T/ag_ed25519.pub" | cut -d' ' -f2)
RSA_FP=$(ssh-keygen -lf "$T/ag_rsa.pub" | cut -d' ' -f2)
check "... server accepted the agent's ed25519 key" \
    grep -q "Accepted publickey for $ME .* ED25519 $ED_FP" "$T/sshd.log"

# The RSA key alone: the Ed25519 key is skipped by the server's list.
restart_sshd "PubkeyAcceptedAlgorithms rsa-sha2-512"
out=$(mssh -v -p "$PORT" "$ME@127.0.0.1" 'echo rsa-ok' 2>"$T/err")
check "RSA agent key, server takes rsa-sha2-512 only" [ "$out" = rsa-ok ]
[ "$out" = rsa-ok ] || cat "$T/err" >&2
check "... server accepted the agent's RSA key" \
    grep -q "Accepted publickey for $ME .* RSA $RSA_FP" "$T/sshd.log"

# IdentitiesOnly: only agent keys matching an IdentityFile.
out=$(mssh -p "$PORT" -o IdentitiesOnly=yes -i "$T/stranger" \
    "$ME@127.0.0.1" 'echo bad' 2>"$T/err")
rc=$?
check "IdentitiesOnly with another IdentityFile: agent key unused (255)" \
    [ $rc -eq 255 ] && [ -z "$out" ]
check "... Permission denied" grep -q "Permission denied" "$T/err"
out=$(mssh -v -p "$PORT" -o IdentitiesOnly=yes -i "$T/ag_rsa.pub" \
    "$ME@127.0.0.1" 'echo only-ok' 2>"$T/err")
check "IdentitiesOnly with the key's .pub as IdentityFile uses the agent" \
    [ "$out" = only-ok ]
check "... offered by its file name" grep -q "Offering public key: $T/ag_rsa.pub .* agent" "$T/err"

# IdentityAgent: none, a path, $VAR.
out=$(mssh -p "$PORT" -o IdentityAgent=none "$ME@127.0.0.1" 'echo bad' \
    2>"$T/err")
check "IdentityAgent none: no agent, login refused (255)" [ $? -eq 255 ]
out=$(env -u SSH_AUTH_SOCK "$BIN/ssh" -F /dev/null -o BatchMode=yes \
    -o UserKnownHostsFile="$KH" -o IdentityFile="$T/none" \
    -o IdentityAgent="$T/agent.sock" -p "$PORT" "$ME@127.0.0.1" \
    'echo path-ok' 2>"$T/err" </dev/null)
check "IdentityAgent PATH without SSH_AUTH_SOCK" [ "$out" = path-ok ]
out=$(env -u SSH_AUTH_SOCK MY_AGENT="$T/agent.sock" "$BIN/ssh" -F /dev/null \
    -o BatchMode=yes -o UserKnownHostsFile="$KH" -o IdentityFile="$T/none" \
    -o 'IdentityAgent=$MY_AGENT' -p "$PORT" "$ME@127.0.0.1" \
    'echo var-ok' 2>"$T/err" </dev/null)
check "IdentityAgent \$MY_AGENT" [ "$out" = var-ok ]
g=$("$BIN/ssh" -G -o IdentityAgent=none x | grep '^identityagent')
g2=$(ssh -G -o IdentityAgent=none x 2>/dev/null | grep '^identityagent')
check "ssh -G identityagent as OpenSSH's ($g)" [ "$g" = "$g2" ]
g=$("$BIN/ssh" -G -o 'IdentityAgent=~/a' x | grep '^identityagent')
g2=$(ssh -G -o 'IdentityAgent=~/a' x 2>/dev/null | grep '^identityagent')
check "ssh -G identityagent ~ expanded ($g)" [ "$g" = "$g2" ]
g=$("$BIN/ssh" -G x | grep -c '^identityagent')
check "ssh -G prints no identityagent when unset" [ "$g" = 0 ]

# A key the agent will not sign with is skipped: a second agent whose
# confirmation (ssh-add -c) is always refused, then a key file.
restart_sshd "LogLevel DEBUG1"
SSH_ASKPASS=/bin/false SSH_ASKPASS_REQUIRE=force DISPLAY=none \
    ssh-agent -a "$T/agent2.sock" > "$T/agent2.env"
AGENT2_PID=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/agent2.env")
at_exit 'kill "$AGENT2_PID" 2>/dev/null'
ssh-keygen -q -t ed25519 -N '' -f "$T/confirm" -C confirm-key
cat "$T/confirm.pub" >> "$T/authorized_keys"
SSH_AUTH_SOCK=$T/agent2.sock ssh-add -q -c "$T/confirm" 2>/dev/null
rm -f "$T/confirm"
out=$(SSH_AUTH_SOCK=$T/agent2.sock "$BIN/ssh" -F /dev/null -v \
    -o BatchMode=yes -o UserKnownHostsFile="$KH" \
    -o StrictHostKeyChecking=accept-new -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" 'echo file-ok' \
    2>"$T/err" </dev/null)
check "agent refuses to sign: key skipped, the file key logs in" \
    [ "$out" = file-ok ]
check "... debug line for the refusal" grep -q "agent refused to sign" "$T/err"
[ "$out" = file-ok ] || cat "$T/err" >&2

# Locked agent: no keys listed, login refused cleanly.
cat > "$T/askpass" <<'SH'
#!/bin/sh
echo lockpass
SH
chmod 700 "$T/askpass"
SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=none \
    ssh-add -x </dev/null >/dev/null 2>&1
check "ssh-add -x locked the agent" sh -c '! ssh-add -l >/dev/null 2>&1'
out=$(mssh -v -p "$PORT" "$ME@127.0.0.1" 'echo bad' 2>"$T/err")
rc=$?
check "locked agent: exit 255" [ $rc -eq 255 ] && [ -z "$out" ]
check "... Permission denied, no crash" grep -q "Permission denied" "$T/err"
SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=none \
    ssh-add -X </dev/null >/dev/null 2>&1

# OpenSSH's sshd, logging the algorithm of each key offered.
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	OPORT=$(free_port)
	cat > "$T/openssh_config" <<CFG
ListenAddress 127.0.0.1
Port $OPORT
HostKey $T/host_ed25519
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
UsePAM no
LogLevel DEBUG1
CFG
	mkdir -p /run/sshd
	/usr/sbin/sshd -D -e -f "$T/openssh_config" 2>"$T/openssh.log" &
	OSSHD_PID=$!
	at_exit 'kill "$OSSHD_PID" 2>/dev/null'
	i=0
	while ! grep -q "Server listening" "$T/openssh.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { cat "$T/openssh.log" >&2; exit 1; }
		sleep 0.05
	done
	out=$(mssh -p "$OPORT" "$ME@127.0.0.1" 'echo o-ed' 2>"$T/err")
	check "OpenSSH's sshd: agent ed25519 login" [ "$out" = o-ed ]
	check "... Accepted publickey ED25519" \
	    grep -q "Accepted publickey for $ME .* ED25519 $ED_FP" "$T/openssh.log"
	out=$(mssh -p "$OPORT" -o IdentitiesOnly=yes -i "$T/ag_rsa.pub" \
	    "$ME@127.0.0.1" 'echo o-rsa' 2>"$T/err")
	check "OpenSSH's sshd: agent RSA login" [ "$out" = o-rsa ]
	[ "$out" = o-rsa ] || cat "$T/err" >&2
	check "... Accepted publickey RSA" \
	    grep -q "Accepted publickey for $ME .* RSA $RSA_FP" "$T/openssh.log"
	check "... signed with rsa-sha2-512" \
	    grep -q "pkalg rsa-sha2-512" "$T/openssh.log"
	check "... never ssh-rsa" sh -c "! grep -q 'pkalg ssh-rsa' '$T/openssh.log'"
else
	echo "note: OpenSSH's sshd part skipped (needs root and /usr/sbin/sshd)"
fi
finish
