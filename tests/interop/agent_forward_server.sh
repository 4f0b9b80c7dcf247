#!/bin/sh
# Agent forwarding in our sshd (auth-agent-req@openssh.com): Debian's
# ssh -A, ours (and OpenSSH 10.5's, when built) logs a temporary user in with
# a key of its own while Debian's ssh-agent holds another key that only
# a second sshd of ours accepts. Inside the session SSH_AUTH_SOCK names
# a socket in a private directory of the user (/tmp/ssh-XXXXXXXXXX,
# mode 0700, socket agent.PID), ssh-add -l lists the agent's key through
# it, and Debian's ssh run there logs in to the second sshd with that
# key alone. The directory is gone once the connection ends, also when
# the client is killed, and when the server's process for the
# connection is (sshd's monitor sweeps it). AllowAgentForwarding no (globally and in a
# Match), DisableForwarding yes, the key options no-agent-forwarding
# and restrict, and a certificate without permit-agent-forwarding each
# refuse: no SSH_AUTH_SOCK, no directory, OpenSSH 9.2's debug line and
# the rule in the log; restrict,agent-forwarding allows. A client that
# refuses the agent channel only ends that one agent connection.
# (OpenSSH's ssh asks without wanting a reply, so the refusal shows on
# the server's side only, as with Debian's sshd.)
. "$(dirname "$0")/lib.sh"
need ssh
need ssh-agent
need ssh-add
[ "$(id -u)" = 0 ] || skip "needs root to log a temporary user in"
U=moataf$$
make_user "$U"
make_keys
chmod 711 "$T"			# the user reaches $T/u, nothing else
D="$T/u"
mkdir "$D"
chown "$U:" "$D"
chmod 700 "$D"
AKF="$D/ak"			# hop 1: the test's key, options per case
SSH_PID=""

# The key only the agent holds; hop 2 accepts nothing else.
ssh-keygen -q -t ed25519 -N '' -C agent-only -f "$T/agent_key" >/dev/null
FP=$(ssh-keygen -lf "$T/agent_key.pub" | awk '{print $2}')
cp "$T/agent_key.pub" "$D/ak2"
chown "$U:" "$D/ak2"
AGENT_SOCK="$T/agent.sock"
ssh-agent -a "$AGENT_SOCK" -s > "$T/agent.env" || { echo "ssh-agent failed" >&2; exit 1; }
AGENT_PID=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/agent.env")
at_exit "kill $AGENT_PID 2>/dev/null"
SSH_AUTH_SOCK="$AGENT_SOCK" ssh-add -q "$T/agent_key" 2>/dev/null ||
    { echo "ssh-add failed" >&2; exit 1; }

# The second hop's sshd (ours), with the agent's key only.
PORT2=$(free_port)
cat > "$T/sshd2_config" <<EOC
ListenAddress 127.0.0.1
Port $PORT2
HostKey $T/host_ed25519
AuthorizedKeysFile $D/ak2
PidFile none
LogLevel DEBUG1
StrictModes no
PerSourcePenalties no
EOC
start_peer_sshd "$BIN/sshd" "$T/sshd2_config" "$T/sshd2.log"

# A user certificate for hop 1, by a CA sshd trusts.
ssh-keygen -q -t ed25519 -N '' -C ca -f "$T/ca" >/dev/null
ssh-keygen -q -s "$T/ca" -I noagent -n "$U" -O clear -O permit-pty \
    "$T/id_ecdsa.pub" 2>/dev/null
cp "$T/ca.pub" "$T/trusted"

# What the session reports: the socket, its directory, the agent's keys.
PROBE='echo "SOCK=${SSH_AUTH_SOCK-unset}"
if [ -n "${SSH_AUTH_SOCK-}" ]; then
	stat -c "dir=%U %a" "${SSH_AUTH_SOCK%/*}"
	[ -S "$SSH_AUTH_SOCK" ] && stat -c "sock=%U" "$SSH_AUTH_SOCK"
fi
ssh-add -l; echo "addrc=$?"'
HOP2="ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p $PORT2 $U@127.0.0.1 \
'echo hop2-ok as \$(id -un)'"

# hop1 SSH OUT [ssh options...] -- command: ssh -A -v as the user, with
# the test's key (IdentitiesOnly: the agent's key is never offered).
hop1() {
	_ssh=$1; _out=$2; shift 2
	SSH_AUTH_SOCK="$AGENT_SOCK" "$_ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o IdentitiesOnly=yes -i "${ID:-$T/id_ed25519}" -p "$PORT" -A -v \
	    "$@" </dev/null >"$_out" 2>"$_out.err"
}

sock_path() { sed -n 's/^SOCK=//p' "$1"; }
# wait_gone PATH: up to 5 s for PATH to disappear.
wait_gone() {
	_i=0
	while [ -e "$1" ]; do
		_i=$((_i + 1)); [ $_i -gt 100 ] && return 1; sleep 0.05
	done
}
# wait_new FILE MARK PATTERN: wait_log on what FILE gained past line MARK.
wait_new() {
	_i=0
	while ! tail -n +$(($2 + 1)) "$1" | grep -q -- "$3"; do
		_i=$((_i + 1)); [ $_i -gt 400 ] && return 1; sleep 0.05
	done
}
no_user_dirs() { [ -z "$(find /tmp -maxdepth 1 -name 'ssh-*' -user "$U")" ]; }

# allowed NAME SSH: a session with the agent forwarded, and hop 2.
allowed() {
	mark=$(wc -l < "$T/sshd2.log")
	hop1 "$2" "$T/out" "$U@127.0.0.1" "$PROBE; $HOP2"
	s=$(sock_path "$T/out")
	check "$1: SSH_AUTH_SOCK is /tmp/ssh-XXXXXXXXXX/agent.PID" \
	    sh -c "echo '$s' | grep -Eq '^/tmp/ssh-[A-Za-z0-9]{10}/agent\.[0-9]+$'"
	check "$1: all ten characters of the name are drawn" \
	    sh -c "! echo '$s' | grep -q XXXX"
	check "$1: the directory is the user's, mode 0700" \
	    grep -qx "dir=$U 700" "$T/out"
	check "$1: the socket is the user's" grep -qx "sock=$U" "$T/out"
	check "$1: ssh-add -l lists the agent's key" grep -q "$FP .*agent-only" "$T/out"
	check "$1: hop 2 logs in with the forwarded key" grep -qx "hop2-ok as $U" "$T/out"
	check "$1: hop 2 accepted the agent's key" wait_new "$T/sshd2.log" \
	    "$mark" "Accepted publickey for $U from 127.0.0.1 port [0-9]* ssh2: ED25519 $FP"
	check "$1: the directory is removed at the end" wait_gone "${s%/*}"
}

# refused NAME RULE: no socket, the lines in the log.
refused() {
	: > "$T/sshd.log"
	hop1 ssh "$T/out" "$U@127.0.0.1" "$PROBE"
	check "$1: the client asked" grep -q "Requesting authentication agent forwarding" "$T/out.err"
	check "$1: no SSH_AUTH_SOCK in the session" grep -qx "SOCK=unset" "$T/out"
	check "$1: ssh-add -l finds no agent" grep -qx "addrc=2" "$T/out"
	check "$1: OpenSSH's debug line" wait_log "$T/sshd.log" \
	    "session_auth_agent_req: agent forwarding disabled"
	check "$1: the rule in the log" wait_log "$T/sshd.log" \
	    "agent forwarding refused by $2"
	check "$1: no directory made" no_user_dirs
}

akf() { printf '%s\n' "$1" > "$AKF"; chown "$U:" "$AKF"; }

# 1. Allowed by default: Debian's ssh, ours, then OpenSSH 10.5's.
akf "$(cat "$T/id_ed25519.pub")"
restart_sshd "AuthorizedKeysFile $AKF" "TrustedUserCAKeys $T/trusted"
allowed "Debian's ssh -A" ssh
allowed "our ssh -A" "$BIN/ssh"
if O105=$(sh "$SRC/scripts/peer_openssh.sh" -q) && [ -x "$O105/bin/ssh" ]; then
	allowed "OpenSSH 10.5's ssh -A" "$O105/bin/ssh"
else
	echo "note: no OpenSSH 10.5 peer, its client is not tried" >&2
fi

# 2. The key options.
akf "no-agent-forwarding $(cat "$T/id_ed25519.pub")"
refused "no-agent-forwarding" "no-agent-forwarding"
akf "restrict $(cat "$T/id_ed25519.pub")"
refused "restrict" "restrict"
akf "restrict,agent-forwarding $(cat "$T/id_ed25519.pub")"
hop1 ssh "$T/out" "$U@127.0.0.1" "$PROBE"
check "restrict,agent-forwarding: ssh-add -l lists the agent's key" \
    grep -q "$FP .*agent-only" "$T/out"
check "restrict,agent-forwarding: the directory is removed" \
    wait_gone "$(dirname "$(sock_path "$T/out")")"

# 3. A certificate without permit-agent-forwarding.
akf ""
ID="$T/id_ecdsa" refused "certificate" "no-agent-forwarding"

# 4. The server's configuration.
akf "$(cat "$T/id_ed25519.pub")"
restart_sshd "AuthorizedKeysFile $AKF" "AllowAgentForwarding no"
refused "AllowAgentForwarding no" "AllowAgentForwarding"
restart_sshd "AuthorizedKeysFile $AKF" "Match User $U" \
    "	AllowAgentForwarding no"
refused "AllowAgentForwarding no in Match" "AllowAgentForwarding"
restart_sshd "AuthorizedKeysFile $AKF" "DisableForwarding yes"
refused "DisableForwarding yes" "DisableForwarding"

# 5. A client that refuses the agent channel (its agent is a path with
# nothing there): that agent connection ends, the session goes on.
restart_sshd "AuthorizedKeysFile $AKF"
hop1 ssh "$T/out5" -o ForwardAgent="$T/nothing.sock" "$U@127.0.0.1" \
    "$PROBE; ssh-add -l; echo second=\$?; echo still-here"
check "refused channel: the socket was there" grep -q "^sock=$U" "$T/out5"
# ssh-add -l connected, then met the closed socket: status 1, or 141
# (SIGPIPE) when its request was still on the way; 2 would be "cannot
# connect".
check "refused channel: ssh-add -l fails" grep -Eqx "addrc=(1|141)" "$T/out5"
check "refused channel: a second try fails alike" \
    grep -Eqx "second=(1|141)" "$T/out5"
check "refused channel: the session goes on" grep -qx "still-here" "$T/out5"
check "refused channel: the directory is removed" \
    wait_gone "$(dirname "$(sock_path "$T/out5")")"

# 6. The client killed mid-session: the directory goes with the
# connection.
mkfifo "$T/in"
SSH_AUTH_SOCK="$AGENT_SOCK" ssh -F /dev/null -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" -A \
    "$U@127.0.0.1" 'echo "SOCK=$SSH_AUTH_SOCK"; cat >/dev/null' \
    <"$T/in" >"$T/out6" 2>&1 &
SSH_PID=$!
exec 3>"$T/in"
at_exit "kill $SSH_PID 2>/dev/null"
wait_log "$T/out6" "^SOCK=/" || { cat "$T/out6"; tail -20 "$T/sshd.log"; } >&2
s=$(sock_path "$T/out6")
check "killed client: the socket exists during the session" test -S "$s"
kill -9 "$SSH_PID"
wait "$SSH_PID" 2>/dev/null
exec 3>&-
check "killed client: the directory is removed" wait_gone "${s%/*}"

# 7. The connection's process (the user's, agent.PID) killed: sshd's
# monitor has the socket and directory removed.
SSH_AUTH_SOCK="$AGENT_SOCK" ssh -F /dev/null -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" -A \
    "$U@127.0.0.1" 'echo "SOCK=$SSH_AUTH_SOCK"; cat >/dev/null' \
    <"$T/in" >"$T/out7" 2>&1 &
SSH_PID=$!
exec 3>"$T/in"
wait_log "$T/out7" "^SOCK=/" || { cat "$T/out7"; tail -20 "$T/sshd.log"; } >&2
s=$(sock_path "$T/out7")
check "killed server process: the socket exists during the session" test -S "$s"
kill -9 "${s##*.}"
wait "$SSH_PID" 2>/dev/null
exec 3>&-
check "killed server process: logged" wait_log "$T/sshd.log" \
    "post-authentication process ${s##*.} killed by signal 9"
check "killed server process: the directory is removed" wait_gone "${s%/*}"
check "killed server process: the sweep logged" wait_log "$T/sshd.log" \
    "removed $s, left by a process that died"
check "no directory of the user left in /tmp" no_user_dirs
finish
