#!/bin/sh
# Our ssh with agents (Debian's ssh-agent) against Debian's sshd: agent
# forwarding (-A, -a, ForwardAgent yes|PATH|$VAR), a second hop signed
# by the forwarded agent, AllowAgentForwarding no; AddKeysToAgent
# (yes, a lifetime, confirm, ask); a certificate held by the agent
# offered to a server that takes only certificates.
. "$(dirname "$0")/lib.sh"
need ssh-agent
need ssh-add
[ "$(id -u)" = 0 ] || skip "Debian's sshd needs root"
[ -x /usr/sbin/sshd ] || skip "no /usr/sbin/sshd"
# A sanitizer build's reports (ours: ssh, ssh in the session, sshd) go
# to files, looked for at the end: the client's stderr is not kept.
if [ "$SANITIZED" = 1 ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:log_path=$T/asan"
	export ASAN_OPTIONS
fi
make_keys
for n in fwd1 fwd2 cert; do
	ssh-keygen -q -t ed25519 -N '' -f "$T/$n" -C "key-$n"
done
cat "$T/fwd1.pub" "$T/fwd2.pub" >> "$T/authorized_keys"
FP1=$(ssh-keygen -lf "$T/fwd1.pub" | cut -d' ' -f2)
FP2=$(ssh-keygen -lf "$T/fwd2.pub" | cut -d' ' -f2)

# start_agent NAME: a Debian ssh-agent on $T/NAME.sock, stopped at exit.
# AGENT_ENV: environment it runs with (e.g. an askpass for confirm).
start_agent() {
	env ${AGENT_ENV:-} ssh-agent -a "$T/$1.sock" > "$T/$1.env" ||
	    skip "ssh-agent failed"
	_pid=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/$1.env")
	[ -n "$_pid" ] || skip "no ssh-agent pid"
	at_exit "kill $_pid 2>/dev/null"
}
start_agent a1
start_agent a2
SSH_AUTH_SOCK=$T/a1.sock ssh-add -q "$T/fwd1" 2>/dev/null || fail "ssh-add 1"
SSH_AUTH_SOCK=$T/a2.sock ssh-add -q "$T/fwd2" 2>/dev/null || fail "ssh-add 2"
rm -f "$T/fwd1" "$T/fwd2"	# only the agents hold them now
SSH_AUTH_SOCK=$T/a1.sock
export SSH_AUTH_SOCK

# Debian's sshd, forwarding allowed (INFO: its debug lines would reach
# the client through the session's stderr).
write_config <<CFG
AllowAgentForwarding yes
UsePAM no
CFG
sed -i 's/^LogLevel .*/LogLevel INFO/' "$T/sshd_config"
DPORT=$PORT
start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb1.log"
# The second hop: our sshd, which knows the agents' keys only.
write_config < /dev/null
start_sshd
HOP2=$PORT

mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="$T/known_hosts" \
	    -o StrictHostKeyChecking=accept-new -o IdentityFile="$T/none" \
	    "$@" </dev/null
}
# What a session sees of the forwarded agent: its socket variable and
# the keys it lists.
LOOK='echo "sock=${SSH_AUTH_SOCK:-none}"; ssh-add -l 2>&1'

out=$(mssh -v -A -p "$DPORT" "$ME@127.0.0.1" "$LOOK" 2>"$T/err")
check "-A: the session has SSH_AUTH_SOCK" \
    sh -c 'echo "$1" | grep -q "^sock=/"' _ "$out"
check "... ssh-add -l there lists the agent's key" \
    sh -c 'echo "$1" | grep -q "$2 key-fwd1"' _ "$out" "$FP1"
check "... debug line as ssh(1)'s" \
    grep -q "^debug1: Requesting authentication agent forwarding.$" "$T/err"
[ "$(grep -c "Requesting authentication agent" "$T/err")" = 1 ]
check "... asked once" [ $? -eq 0 ]

# Second hop from inside the session, signed by the forwarded agent (the
# order of -a and -A is client_config.sh's).
for hop in "$BIN/ssh"; do
	out=$(mssh -A -p "$DPORT" "$ME@127.0.0.1" "$hop -F /dev/null \
	    -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o IdentityFile=$T/none \
	    -o LogLevel=ERROR -p $HOP2 $ME@127.0.0.1 echo hop2-ok" \
	    2>"$T/err")
	check "second hop with $hop through the forwarded agent" \
	    [ "$out" = hop2-ok ]
	[ "$out" = hop2-ok ] || cat "$T/err" >&2
done
check "... our sshd accepted the forwarded key" \
    grep -q "Accepted publickey for $ME .* ED25519 $FP1" "$T/sshd.log"

# Off unless asked; -a wins over an earlier -o ForwardAgent=yes.
out=$(mssh -p "$DPORT" "$ME@127.0.0.1" "$LOOK" 2>"$T/err")
check "no -A: no SSH_AUTH_SOCK in the session" \
    sh -c 'echo "$1" | grep -q "^sock=none"' _ "$out"
out=$(mssh -v -o ForwardAgent=yes -a -p "$DPORT" "$ME@127.0.0.1" "$LOOK" \
    2>"$T/err")
check "-o ForwardAgent=yes -a: not forwarded" \
    sh -c 'echo "$1" | grep -q "^sock=none"' _ "$out"
check "... not requested" sh -c '! grep -q "Requesting authentication" "$1"' \
    _ "$T/err"

# ForwardAgent PATH and $VAR name another agent than the session's.
out=$(mssh -o ForwardAgent="$T/a2.sock" -p "$DPORT" "$ME@127.0.0.1" \
    "$LOOK" 2>"$T/err")
check "ForwardAgent PATH forwards that agent" \
    sh -c 'echo "$1" | grep -q "$2 key-fwd2"' _ "$out" "$FP2"
check "... and not the session's" \
    sh -c '! echo "$1" | grep -q "$2"' _ "$out" "$FP1"
out=$(OTHER_AGENT=$T/a2.sock mssh -o 'ForwardAgent=$OTHER_AGENT' \
    -p "$DPORT" "$ME@127.0.0.1" "$LOOK" 2>"$T/err")
check "ForwardAgent \$VAR forwards the agent it names" \
    sh -c 'echo "$1" | grep -q "$2 key-fwd2"' _ "$out" "$FP2"
out=$(env -u NO_SUCH_AGENT "$BIN/ssh" -F /dev/null -o BatchMode=yes \
    -o UserKnownHostsFile="$T/known_hosts" -o IdentityFile="$T/none" \
    -o 'ForwardAgent=$NO_SUCH_AGENT' -p "$DPORT" "$ME@127.0.0.1" "$LOOK" \
    2>"$T/err" </dev/null)
check "ForwardAgent \$VAR unset: not forwarded" \
    sh -c 'echo "$1" | grep -q "^sock=none"' _ "$out"
out=$(mssh -o IdentityAgent="$T/a2.sock" -A -p "$DPORT" "$ME@127.0.0.1" \
    "$LOOK" 2>"$T/err")
check "-A forwards the agent IdentityAgent names" \
    sh -c 'echo "$1" | grep -q "$2 key-fwd2"' _ "$out" "$FP2"
out=$(env -u SSH_AUTH_SOCK "$BIN/ssh" -F /dev/null -o BatchMode=yes \
    -o UserKnownHostsFile="$T/known_hosts" -i "$T/id_ed25519" -v -A \
    -p "$DPORT" "$ME@127.0.0.1" "$LOOK" 2>"$T/err" </dev/null)
check "-A without an agent: not requested, login goes on" \
    sh -c 'echo "$1" | grep -q "^sock=none" &&
    ! grep -q "Requesting authentication" "$2"' _ "$out" "$T/err"

# The server forbids it: the login works, no agent in the session.
write_config <<CFG
AllowAgentForwarding no
UsePAM no
CFG
sed -i 's/^LogLevel .*/LogLevel INFO/' "$T/sshd_config"
start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb2.log"
out=$(mssh -v -A -p "$PORT" "$ME@127.0.0.1" "$LOOK" 2>"$T/err")
check "AllowAgentForwarding no: logged in, no SSH_AUTH_SOCK" \
    sh -c 'echo "$1" | grep -q "^sock=none"' _ "$out"
check "... though it was requested" \
    grep -q "Requesting authentication agent forwarding" "$T/err"

# ---- AddKeysToAgent ----
# An askpass that says yes and leaves a mark, for the agent's confirm
# and for ssh's "ask".
cat > "$T/askpass" <<SH
#!/bin/sh
echo "\${SSH_ASKPASS_PROMPT:-}:\$1" >> "$T/asked"
echo yes
SH
chmod 755 "$T/askpass"
AGENT_ENV="SSH_ASKPASS=$T/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=none"
start_agent a3
AGENT_ENV=""
A3=$T/a3.sock
DFP=$(ssh-keygen -lf "$T/id_ed25519.pub" | cut -d' ' -f2)
addkeys() { # addkeys VALUE: log in with the file key, AddKeysToAgent VALUE
	SSH_AUTH_SOCK=$A3 ssh-add -D >/dev/null 2>&1
	SSH_AUTH_SOCK=$A3 "$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="$T/known_hosts" -i "$T/id_ed25519" \
	    -o "AddKeysToAgent=$1" -v -p "$DPORT" "$ME@127.0.0.1" \
	    "${2:-echo in}" 2>"$T/err" </dev/null
}
listed() { SSH_AUTH_SOCK=$A3 ssh-add -l 2>/dev/null | grep -q "$DFP"; }
out=$(addkeys no)
check "AddKeysToAgent no: login, the agent stays empty" \
    sh -c '[ "$1" = in ] && ! SSH_AUTH_SOCK=$2 ssh-add -l >/dev/null 2>&1' \
    _ "$out" "$A3"
out=$(addkeys yes)
check "AddKeysToAgent yes: the key is in the agent after login" listed
check "... debug line" grep -q "identity added to agent: $T/id_ed25519" "$T/err"
# The list is taken from inside the session, seconds after the key was
# added, then the key is waited for to go.
out=$(addkeys 10s "SSH_AUTH_SOCK=$A3 ssh-add -l")
check "AddKeysToAgent 10s: in the agent at first" \
    sh -c 'echo "$1" | grep -q "$2"' _ "$out" "$DFP"
i=0
while listed && [ $i -lt 250 ]; do i=$((i + 1)); sleep 0.1; done
if listed; then fail "... gone after its lifetime"; else
	pass "... gone once its lifetime is over"; fi
rm -f "$T/asked"
out=$(addkeys confirm)
check "AddKeysToAgent confirm: added" listed
out=$(SSH_AUTH_SOCK=$A3 mssh -p "$DPORT" "$ME@127.0.0.1" echo signed \
    2>"$T/err")
check "... the agent asks before it signs with it" \
    sh -c '[ "$1" = signed ] && [ -s "$2" ]' _ "$out" "$T/asked"
rm -f "$T/asked"
# BatchMode allows no question: asked with it off.
SSH_AUTH_SOCK=$A3 ssh-add -D >/dev/null 2>&1
out=$(SSH_AUTH_SOCK=$A3 SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force \
    DISPLAY=none "$BIN/ssh" -F /dev/null \
    -o UserKnownHostsFile="$T/known_hosts" -i "$T/id_ed25519" \
    -o AddKeysToAgent=ask -p "$DPORT" "$ME@127.0.0.1" echo in \
    2>"$T/err" </dev/null)
check "AddKeysToAgent ask: asked through SSH_ASKPASS" \
    grep -q "^confirm:Add key $T/id_ed25519 (user-ed25519) to agent?" \
    "$T/asked"
check "... and added on yes" listed
printf '#!/bin/sh\necho no\n' > "$T/askpass-no"
chmod 755 "$T/askpass-no"
SSH_AUTH_SOCK=$A3 ssh-add -D >/dev/null 2>&1
out=$(SSH_AUTH_SOCK=$A3 SSH_ASKPASS="$T/askpass-no" \
    SSH_ASKPASS_REQUIRE=force DISPLAY=none "$BIN/ssh" -F /dev/null \
    -o UserKnownHostsFile="$T/known_hosts" -i "$T/id_ed25519" \
    -o AddKeysToAgent=ask -p "$DPORT" "$ME@127.0.0.1" echo in \
    2>"$T/err" </dev/null)
check "... not added on no, the login goes on" \
    sh -c '[ "$1" = in ] && ! SSH_AUTH_SOCK=$2 ssh-add -l >/dev/null 2>&1' \
    _ "$out" "$A3"

# ---- a certificate held by the agent ----
ssh-keygen -q -t ed25519 -N '' -f "$T/uca" -C uca
ssh-keygen -q -s "$T/uca" -I cert-id -n "$ME" "$T/cert.pub" 2>/dev/null
start_agent a4
start_agent a5
SSH_AUTH_SOCK=$T/a4.sock ssh-add -q "$T/cert" 2>/dev/null	# key and cert
SSH_AUTH_SOCK=$T/a5.sock ssh-add -q -k "$T/cert" 2>/dev/null	# the key alone
mv "$T/cert-cert.pub" "$T/the-cert.pub"
rm -f "$T/cert"
check "agent holds the key and its certificate" \
    [ "$(SSH_AUTH_SOCK=$T/a4.sock ssh-add -l | wc -l)" = 2 ]
write_config <<CFG
AuthorizedKeysFile none
TrustedUserCAKeys $T/uca.pub
UsePAM no
CFG
sed -i 's/^LogLevel .*/LogLevel VERBOSE/' "$T/sshd_config"
start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb3.log"
out=$(SSH_AUTH_SOCK=$T/a4.sock mssh -v -p "$PORT" "$ME@127.0.0.1" \
    echo cert-ok 2>"$T/err")
check "certificate from the agent: login where only certificates count" \
    [ "$out" = cert-ok ]
[ "$out" = cert-ok ] || cat "$T/err" >&2
check "... Debian's sshd accepted the certificate" \
    grep -q "Accepted publickey for $ME .* ED25519-CERT" "$T/deb3.log"
# CertificateFile names the certificate, the agent holds only its key:
# the certificate is offered first, the agent signs.
check "second agent holds the plain key only" \
    [ "$(SSH_AUTH_SOCK=$T/a5.sock ssh-add -l | wc -l)" = 1 ]
out=$(SSH_AUTH_SOCK=$T/a5.sock mssh -v -o CertificateFile="$T/the-cert.pub" \
    -p "$PORT" "$ME@127.0.0.1" echo certfile-ok 2>"$T/err")
check "CertificateFile, key in the agent: login" [ "$out" = certfile-ok ]
[ "$out" = certfile-ok ] || cat "$T/err" >&2
check "... the certificate offered first" sh -c 'grep "Offering public key" \
    "$1" | head -1 | grep -q "the-cert.pub .*-cert-v01@openssh.com .* agent"' \
    _ "$T/err"
out=$(SSH_AUTH_SOCK=$T/a5.sock mssh -p "$PORT" "$ME@127.0.0.1" echo bad \
    2>"$T/err")
check "... and without CertificateFile the plain key is refused (255)" \
    [ $? -eq 255 ]
if ls "$T"/asan.* >/dev/null 2>&1; then
	cat "$T"/asan.* >&2
	fail "sanitizer reports"
fi
finish
