#!/bin/sh
# Our ssh binds its agent connection to the server before it lists the
# agent's keys (session-bind@openssh.com, PROTOCOL.agent): our ssh-agent
# (-d) records the binding for a login to our sshd and to Debian's, and
# on a forwarded agent connection (is_forwarding set). Debian's
# ssh-agent takes the binding too: logins work, ssh-add -l still lists,
# and a key restricted with ssh-add -h to this server's host keys is
# listed to our ssh while one restricted to another host's key is not
# (Debian's agent checks the bound host key against the restriction).
. "$(dirname "$0")/lib.sh"
need ssh-agent
need ssh-add
make_keys
A=$BIN/ssh-agent
[ -x "$A" ] || skip "no ssh-agent built"
ssh-keygen -q -t ed25519 -N '' -f "$T/ag" -C agent-key
cat "$T/ag.pub" >> "$T/authorized_keys"
write_config < /dev/null
start_sshd
OUR_PORT=$PORT

# Debian's sshd on a port of its own, same keys.
DEB_PORT=$(free_port)
sed -e "s/^Port .*/Port $DEB_PORT/" "$T/sshd_config" > "$T/deb_config"
start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"

mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="$T/known_hosts" \
	    -o StrictHostKeyChecking=accept-new -o IdentityFile="$T/none" \
	    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
	    "$@" </dev/null
}

# --- our ssh-agent, in debug mode --------------------------------------
"$A" -d -a "$T/ours.sock" 2>"$T/agent.log" >/dev/null &
OA_PID=$!
at_exit "kill $OA_PID 2>/dev/null"
i=0
while [ ! -S "$T/ours.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
SSH_AUTH_SOCK=$T/ours.sock ssh-add -q "$T/ag" 2>/dev/null ||
    fail "ssh-add to our agent"

for p in "$OUR_PORT:our sshd" "$DEB_PORT:Debian's sshd"; do
	port=${p%%:*}
	what=${p#*:}
	n=$(grep -c "process_ext_session_bind: recorded" "$T/agent.log")
	out=$(SSH_AUTH_SOCK=$T/ours.sock mssh -v -p "$port" "$ME@127.0.0.1" \
	    'echo bind-ok' 2>"$T/err")
	check "our agent's key logs in to $what" [ "$out" = bind-ok ]
	[ "$out" = bind-ok ] || cat "$T/err" >&2
	check "... ssh: bound agent to hostkey" \
	    grep -q "get_agent_identities: bound agent to hostkey" "$T/err"
	n2=$(grep -c "process_ext_session_bind: recorded" "$T/agent.log")
	check "... our agent recorded one more binding ($n -> $n2)" \
	    [ "$n2" -eq $((n + 1)) ]
done
# The host key recorded is the server's: its type, from the kex.
check "... our agent verified the host key signature" \
    sh -c "! grep -q 'sshkey_verify for .* failed' '$T/agent.log'"

# Forwarded: our ssh -A to Debian's sshd, where ssh-add -l goes back
# through the channel; the forwarded connection is bound with
# is_forwarding set, so our agent records a second, forwarded binding.
n=$(grep -c "process_ext_session_bind: recorded" "$T/agent.log")
out=$(SSH_AUTH_SOCK=$T/ours.sock mssh -v -A -p "$DEB_PORT" "$ME@127.0.0.1" \
    'ssh-add -l' 2>"$T/err")
check "forwarded agent lists the key (ssh-add -l over -A)" \
    sh -c "echo '$out' | grep -q agent-key"
check "... ssh: forwarded connection bound" \
    grep -q "client_request_agent: bound agent to hostkey" "$T/err"
n2=$(grep -c "process_ext_session_bind: recorded" "$T/agent.log")
check "... our agent recorded two more bindings ($n -> $n2)" \
    [ "$n2" -eq $((n + 2)) ]

# --- Debian's ssh-agent ------------------------------------------------
ssh-agent -a "$T/deb.sock" > "$T/deb.env" || skip "ssh-agent failed"
DA_PID=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/deb.env")
at_exit "kill $DA_PID 2>/dev/null"
SSH_AUTH_SOCK=$T/deb.sock
export SSH_AUTH_SOCK
ssh-add -q "$T/ag" 2>/dev/null || fail "ssh-add to Debian's agent"
for port in "$OUR_PORT" "$DEB_PORT"; do
	out=$(mssh -v -p "$port" "$ME@127.0.0.1" 'echo deb-ok' 2>"$T/err")
	check "Debian's agent: login to port $port" [ "$out" = deb-ok ]
	check "... bound agent to hostkey" \
	    grep -q "get_agent_identities: bound agent to hostkey" "$T/err"
done
check "Debian's agent still lists after the bindings" \
    sh -c "ssh-add -l | grep -q agent-key"

# Destination-restricted keys: a key usable only at this server's host
# keys, another only at a host key nobody serves. The agent lists a
# restricted key only to a connection bound to a permitted host. (It
# signs with one over a publickey-hostbound-v00@openssh.com request:
# agent_dest.sh shows the signing, listing is what shows the binding
# here.)
ssh-keygen -q -t ed25519 -N '' -f "$T/elsewhere" -C elsewhere
for t in ed25519 ecdsa rsa; do
	echo "restricted-here $(cat "$T/host_$t.pub")"
done > "$T/dest_kh"
echo "restricted-there $(cat "$T/elsewhere.pub")" >> "$T/dest_kh"
ssh-keygen -q -t ed25519 -N '' -f "$T/here" -C key-here
ssh-keygen -q -t ed25519 -N '' -f "$T/there" -C key-there
ssh-add -D 2>/dev/null
ssh-add -q -H "$T/dest_kh" -h restricted-here "$T/here" 2>/dev/null ||
    fail "ssh-add -h restricted-here"
ssh-add -q -H "$T/dest_kh" -h restricted-there "$T/there" 2>/dev/null ||
    fail "ssh-add -h restricted-there"
check "ssh-add -l shows both restricted keys" \
    [ "$(ssh-add -l | grep -c 'key-here\|key-there')" -eq 2 ]
for port in "$OUR_PORT" "$DEB_PORT"; do
	mssh -v -p "$port" "$ME@127.0.0.1" true 2>"$T/err"
	check "restricted key for this host offered (port $port)" \
	    grep -q "Offering public key: key-here" "$T/err"
	check "... the one for another host is not listed" \
	    sh -c "! grep -q 'key-there' '$T/err'"
	check "... agent returned 1 keys" \
	    grep -q "get_agent_identities: agent returned 1 keys" "$T/err"
done
finish
