#!/bin/sh
# PKCS#11 tokens: a SoftHSM token in the test's directory with an RSA
# 2048 and an ECDSA P-256 key (made by pkcs11-tool). ssh-keygen -D and
# -lD print what Debian's prints; our ssh -I logs in to our sshd and to
# Debian's with each token key, asking the PIN through SSH_ASKPASS;
# IdentitiesOnly keeps the keys no IdentityFile names from being
# offered; a wrong PIN fails cleanly; ssh-add -s puts the keys in our
# agent (and Debian's), ssh logs in through it, ssh-add -e takes them
# out; ssh-agent -P refuses a module outside its allowlist. The module
# is loaded only by ssh-pkcs11-helper: never mapped by ssh-agent.
. "$(dirname "$0")/lib.sh"
need softhsm2-util
need pkcs11-tool
MOD=
for m in /usr/lib/softhsm/libsofthsm2.so \
    /usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so; do
	[ -f "$m" ] && MOD=$m && break
done
[ -n "$MOD" ] || skip "no libsofthsm2.so"
[ -x "$BIN/ssh-pkcs11-helper" ] || skip "no ssh-pkcs11-helper built"
make_keys

# --- the token ---
mkdir "$T/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' \
    "$T/tokens" > "$T/softhsm2.conf"
SOFTHSM2_CONF=$T/softhsm2.conf
export SOFTHSM2_CONF
PIN=314159
softhsm2-util --init-token --free --label moat-token --so-pin 27182818 \
    --pin $PIN >/dev/null || skip "softhsm2-util --init-token failed"
p11tool() {
	pkcs11-tool --module "$MOD" --token-label moat-token --login \
	    --pin $PIN "$@" >/dev/null 2>"$T/p11tool.err"
}
p11tool --keypairgen --key-type rsa:2048 --id 01 --label tok-rsa ||
    skip "pkcs11-tool could not make an RSA key: $(cat "$T/p11tool.err")"
p11tool --keypairgen --key-type EC:prime256v1 --id 02 --label tok-ec ||
    skip "pkcs11-tool could not make an ECDSA key"

# --- ssh-keygen -D, -lD ---
ssh-keygen -D "$MOD" > "$T/deb.pub" 2>/dev/null
"$BIN/ssh-keygen" -D "$MOD" > "$T/ours.pub" 2>"$T/err"
check "Debian's ssh-keygen -D lists both keys" [ "$(wc -l < "$T/deb.pub")" = 2 ]
check "ssh-keygen -D: the same output as Debian's" cmp -s "$T/deb.pub" "$T/ours.pub"
ssh-keygen -lD "$MOD" > "$T/deb.fp" 2>/dev/null
"$BIN/ssh-keygen" -lD "$MOD" > "$T/ours.fp" 2>"$T/err"
check "ssh-keygen -lD: the same output as Debian's" cmp -s "$T/deb.fp" "$T/ours.fp"
check "... with a line per key" grep -q "^2048 SHA256:.* RSA (PKCS11 key)$" "$T/ours.fp"
"$BIN/ssh-keygen" -lD "$MOD" -E md5 > "$T/ours.md5" 2>&1
ssh-keygen -lD "$MOD" -E md5 2>/dev/null | cmp -s - "$T/ours.md5"
check "ssh-keygen -lD -E md5 as Debian's" [ $? = 0 ]
"$BIN/ssh-keygen" -D "$T/nonexistent.so" > "$T/out" 2>"$T/err"
check "ssh-keygen -D on a missing module: exit 255" [ $? = 255 ]
check "... with OpenSSH's message" grep -q "cannot read public key from pkcs11" "$T/err"
grep tok-rsa "$T/ours.pub" > "$T/tok_rsa.pub"
grep tok-ec "$T/ours.pub" > "$T/tok_ec.pub"
RSA_FP=$(ssh-keygen -lf "$T/tok_rsa.pub" | cut -d' ' -f2)
EC_FP=$(ssh-keygen -lf "$T/tok_ec.pub" | cut -d' ' -f2)
cat "$T/ours.pub" >> "$T/authorized_keys"

printf '#!/bin/sh\necho %s\n' "$PIN" > "$T/askpass"
printf '#!/bin/sh\necho 000000\n' > "$T/askpass_bad"
chmod 755 "$T/askpass" "$T/askpass_bad"
KH=$T/known_hosts
# Our ssh with the token; no key files (IdentityFile names none).
mssh() {
	SSH_ASKPASS=${ASKPASS:-$T/askpass} SSH_ASKPASS_REQUIRE=force \
	DISPLAY=none "$BIN/ssh" -F /dev/null -o UserKnownHostsFile="$KH" \
	    -o StrictHostKeyChecking=accept-new -o IdentityAgent=none \
	    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
	    -p "$PORT" "$@" </dev/null
}

# --- our ssh -I into our sshd, each key ---
write_config <<CFG
PubkeyAcceptedAlgorithms ecdsa-sha2-nistp256
CFG
start_sshd
out=$(mssh -v -o IdentityFile="$T/none" -I "$MOD" "$ME@127.0.0.1" \
    'echo ec-ok' 2>"$T/err")
check "ssh -I: login to our sshd with the token's ECDSA key" [ "$out" = ec-ok ]
[ "$out" = ec-ok ] || cat "$T/err" >&2
check "... server accepted it" \
    grep -q "Accepted publickey for $ME .* ECDSA $EC_FP" "$T/sshd.log"
restart_sshd "PubkeyAcceptedAlgorithms rsa-sha2-256,rsa-sha2-512"
out=$(mssh -o IdentityFile="$T/none" -o PKCS11Provider="$MOD" \
    -o PubkeyAcceptedAlgorithms=rsa-sha2-256 \
    "$ME@127.0.0.1" 'echo rsa-ok' 2>"$T/err")
check "PKCS11Provider: login with the token's RSA key (rsa-sha2-256)" \
    [ "$out" = rsa-ok ]
[ "$out" = rsa-ok ] || cat "$T/err" >&2
check "... server accepted it" \
    grep -q "Accepted publickey for $ME .* RSA $RSA_FP" "$T/sshd.log"
restart_sshd "PubkeyAcceptedAlgorithms rsa-sha2-512"
out=$(mssh -o IdentityFile="$T/none" -I "$MOD" "$ME@127.0.0.1" \
    'echo rsa512-ok' 2>"$T/err")
check "... and with rsa-sha2-512" [ "$out" = rsa512-ok ]

# --- IdentitiesOnly: only the key an IdentityFile names ---
restart_sshd
out=$(mssh -o IdentitiesOnly=yes -i "$T/tok_ec.pub" -I "$MOD" \
    "$ME@127.0.0.1" 'echo only-ok' 2>"$T/err")
check "IdentitiesOnly + IdentityFile tok_ec.pub: login" [ "$out" = only-ok ]
check "... the server saw the ECDSA key" grep -q "$EC_FP" "$T/sshd.log"
check "... and never the RSA key" eval "! grep -q '$RSA_FP' '$T/sshd.log'"
restart_sshd
out=$(mssh -o IdentitiesOnly=yes -i "$T/id_ed25519" -I "$MOD" \
    -o PubkeyAcceptedAlgorithms=ecdsa-sha2-nistp256,rsa-sha2-512 \
    "$ME@127.0.0.1" 'echo bad' 2>"$T/err")
check "IdentitiesOnly with another IdentityFile: no token key offered" \
    [ "$out" != bad ]
check "... the server saw neither" \
    eval "! grep -q '$RSA_FP\\|$EC_FP' '$T/sshd.log'"

# --- a wrong PIN ---
restart_sshd
out=$(ASKPASS=$T/askpass_bad mssh -o IdentityFile="$T/none" -I "$MOD" \
    "$ME@127.0.0.1" 'echo bad' 2>"$T/err")
rc=$?
check "wrong PIN: no login, exit 255" [ "$rc" = 255 -a "$out" != bad ]
check "... ssh says why" grep -q "Permission denied (publickey" "$T/err"

# --- a hostile module costs only its helper: ssh goes on with a file key ---
if command -v cc >/dev/null 2>&1 &&
    cc -shared -fPIC -I "$SRC/src/pkcs11-helper" -o "$T/hostile.so" \
    "$SRC/tests/interop/data/p11_hostile.c" 2>"$T/cc.err"; then
	P11_HOSTILE=none "$BIN/ssh-keygen" -D "$T/hostile.so" \
	    > "$T/hostile.pub" 2>/dev/null
	check "the hostile module lists its key" grep -q bad-ec "$T/hostile.pub"
	cat "$T/hostile.pub" >> "$T/authorized_keys"
	ED_FP=$(ssh-keygen -lf "$T/id_ed25519.pub" | cut -d' ' -f2)
	for m in crash garbage huge badkey bigattr; do
		restart_sshd
		out=$(P11_HOSTILE=$m mssh -v -i "$T/id_ed25519" \
		    -I "$T/hostile.so" "$ME@127.0.0.1" "echo $m-ok" 2>"$T/err")
		check "hostile module ($m): login with the file key" \
		    [ "$out" = "$m-ok" ]
		[ "$out" = "$m-ok" ] || cat "$T/err" >&2
		check "... accepted as the ED25519 key" \
		    grep -q "Accepted publickey for $ME .* ED25519 $ED_FP" "$T/sshd.log"
	done
	check "... a crashing module: the token refused, ssh went on" \
	    eval "P11_HOSTILE=crash mssh -v -i '$T/id_ed25519' -I '$T/hostile.so' \
	    '$ME@127.0.0.1' true 2>&1 | grep -q 'token refused to sign'"
else
	fail "could not build the hostile module: $(cat "$T/cc.err")"
fi

# --- into Debian's sshd ---
if [ -x /usr/sbin/sshd ]; then
	DPORT=$(free_port)
	sed "s/^Port .*/Port $DPORT/" "$T/sshd_config" > "$T/deb_config"
	start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"
	for alg in ecdsa-sha2-nistp256 rsa-sha2-512; do
		out=$(PORT=$DPORT mssh -o IdentityFile="$T/none" -I "$MOD" \
		    -o PubkeyAcceptedAlgorithms=$alg "$ME@127.0.0.1" \
		    "echo deb-$alg" 2>"$T/err")
		check "ssh -I: login to Debian's sshd ($alg)" \
		    [ "$out" = "deb-$alg" ]
		[ "$out" = "deb-$alg" ] || cat "$T/err" >&2
	done
	check "... Debian's sshd accepted the ECDSA key" \
	    grep -q "Accepted publickey for $ME .* ECDSA $EC_FP" "$T/deb.log"
	check "... and the RSA key" \
	    grep -q "Accepted publickey for $ME .* RSA $RSA_FP" "$T/deb.log"
fi

# --- our agent: ssh-add -s, login through it, ssh-add -e ---
"$BIN/ssh-agent" -d -a "$T/agent.sock" > /dev/null 2>"$T/agent.log" &
AGENT_PID=$!
at_exit 'kill $AGENT_PID 2>/dev/null'
i=0
while [ ! -S "$T/agent.sock" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
export SSH_AUTH_SOCK="$T/agent.sock"
addp() { # ssh-add with the PIN from askpass
	SSH_ASKPASS=${ASKPASS:-$T/askpass} SSH_ASKPASS_REQUIRE=force \
	DISPLAY=none "$BIN/ssh-add" "$@" </dev/null
}
ASKPASS=$T/askpass_bad addp -s "$MOD" > "$T/out" 2>&1
check "ssh-add -s with a wrong PIN: refused" \
    grep -q "Could not add card \"$MOD\": agent refused operation" "$T/out"
addp -s "$MOD" > "$T/out" 2>&1
check "ssh-add -s: Card added" grep -q "^Card added: $MOD" "$T/out"
"$BIN/ssh-add" -l > "$T/list" 2>&1
check "ssh-add -l lists both token keys" \
    eval "grep -q '$EC_FP tok-ec (ECDSA)' '$T/list' && grep -q '$RSA_FP tok-rsa (RSA)' '$T/list'"
check "the agent never maps the module" \
    eval "! grep -q libsofthsm2 /proc/$AGENT_PID/maps"
restart_sshd
out=$(SSH_AUTH_SOCK=$T/agent.sock "$BIN/ssh" -F /dev/null \
    -o UserKnownHostsFile="$KH" -o StrictHostKeyChecking=accept-new \
    -o BatchMode=yes -o IdentityFile="$T/none" -p "$PORT" \
    -o PubkeyAcceptedAlgorithms=rsa-sha2-512 "$ME@127.0.0.1" \
    'echo agent-ok' </dev/null 2>"$T/err")
check "ssh through our agent with the token's RSA key" [ "$out" = agent-ok ]
[ "$out" = agent-ok ] || cat "$T/err" >&2
check "... server accepted it" \
    grep -q "Accepted publickey for $ME .* RSA $RSA_FP" "$T/sshd.log"
ssh-add -T "$T/tok_ec.pub" > /dev/null 2>&1
check "Debian's ssh-add -T: our agent signs with the ECDSA token key" [ $? = 0 ]
"$BIN/ssh-add" -e "$MOD" > "$T/out" 2>&1
check "ssh-add -e: Card removed" grep -q "^Card removed: $MOD" "$T/out"
"$BIN/ssh-add" -l > "$T/list" 2>&1
check "... the agent holds no key" grep -q "The agent has no identities" "$T/list"
"$BIN/ssh-add" -e "$MOD" > "$T/out" 2>&1
check "ssh-add -e again: refused" grep -q "Could not remove card" "$T/out"

# --- ssh-agent -P: a module outside the allowlist ---
cp "$MOD" "$T/copy.so"
addp -s "$T/copy.so" > "$T/out" 2>&1
check "default allowlist: a module in /tmp refused" \
    grep -q "Could not add card" "$T/out"
check "... with OpenSSH's log line" grep -q \
    "refusing PKCS#11 add of \"$T/copy.so\": provider not allowed" "$T/agent.log"
kill $AGENT_PID 2>/dev/null
wait $AGENT_PID 2>/dev/null
"$BIN/ssh-agent" -D -P "$T/*" -a "$T/agent2.sock" > /dev/null 2>"$T/agent2.log" &
AGENT_PID=$!
i=0
while [ ! -S "$T/agent2.sock" ] && [ $i -lt 100 ]; do i=$((i + 1)); sleep 0.05; done
SSH_AUTH_SOCK=$T/agent2.sock addp -s "$T/copy.so" > "$T/out" 2>&1
check "ssh-agent -P allowing it: Card added" grep -q "^Card added" "$T/out"
SSH_AUTH_SOCK=$T/agent2.sock addp -s "$MOD" > "$T/out" 2>&1
check "... and the system module, outside -P, refused" \
    grep -q "Could not add card" "$T/out"
check "... the agent never maps the module" \
    eval "! grep -q 'copy.so\|softhsm' /proc/$AGENT_PID/maps"

# --- Debian's agent takes our ssh-add -s ---
ssh-agent -a "$T/deb-agent.sock" > "$T/deb-agent.env" 2>/dev/null &&
    DEB_AGENT=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/deb-agent.env")
if [ -n "${DEB_AGENT:-}" ]; then
	at_exit 'kill $DEB_AGENT 2>/dev/null'
	SSH_AUTH_SOCK=$T/deb-agent.sock addp -s "$MOD" > "$T/out" 2>&1
	check "ssh-add -s into Debian's agent" grep -q "^Card added" "$T/out"
	SSH_AUTH_SOCK=$T/deb-agent.sock "$BIN/ssh-add" -l > "$T/list" 2>&1
	check "... which lists the token keys" grep -q "$EC_FP" "$T/list"
fi

finish
