#!/bin/sh
# FIDO security keys made and used by us, with OpenSSH 10.5's software
# authenticator sk-dummy.so as the middleware (run by our ssh-sk-helper):
# our ssh-keygen makes ed25519-sk and ecdsa-sk keys (plain,
# no-touch-required, verify-required, resident); our ssh logs in with
# them (and a certificate of one) to our sshd and Debian's; OpenSSH
# 10.5's ssh logs in with a key our ssh-keygen made and ours with one
# 10.5's made; the private files read the same in both ssh-keygen -y;
# our ssh-keygen -Y sign is verified by 10.5's; our ssh-add puts a key
# into our ssh-agent (which honours -P) and Debian's, and the agents
# sign through the middleware; a provider that is not one fails
# cleanly.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (Debian's sshd runs beside ours)"
need_peer_openssh
SKP=$O105/lib/sk-dummy.so
[ -f "$SKP" ] || skip "no sk-dummy.so in $O105"
[ -x "$BIN/ssh-sk-helper" ] || skip "no ssh-sk-helper in $BIN"
[ -x /usr/sbin/sshd ] || skip "no Debian sshd"
make_keys

# --- Keys made by our ssh-keygen through sk-dummy.
gen() { # gen NAME TYPE [-O opt]...
	_n=$1; _t=$2; shift 2
	"$BIN/ssh-keygen" -q -t "$_t" -w "$SKP" -N '' -f "$T/$_n" \
	    -C "c-$_n" "$@" </dev/null >"$T/gen.$_n" 2>&1
	check "our ssh-keygen -t $_t $* (sk-dummy)" [ -s "$T/$_n.pub" ] ||
	    cat "$T/gen.$_n" >&2
}
gen ed ed25519-sk
gen ec ecdsa-sk
gen nt ed25519-sk -O no-touch-required
gen vr ecdsa-sk -O verify-required
gen rk ed25519-sk -O resident -O application=ssh:moat -O user=alice
check "the keys are sk types" sh -c "grep -q '^sk-ssh-ed25519@openssh.com ' '$T/ed.pub' &&
    grep -q '^sk-ecdsa-sha2-nistp256@openssh.com ' '$T/ec.pub'"
check "an unknown -O is refused" sh -c "! '$BIN/ssh-keygen' -q -t ed25519-sk \
    -w '$SKP' -N '' -f '$T/bad' -O frobnicate </dev/null >/dev/null 2>&1"
check "application= must begin with ssh:" sh -c "! '$BIN/ssh-keygen' -q \
    -t ed25519-sk -w '$SKP' -N '' -f '$T/bad' -O application=x \
    </dev/null >/dev/null 2>&1"
SSH_SK_PROVIDER=$SKP "$BIN/ssh-keygen" -q -t ecdsa-sk -N '' -f "$T/env" \
    </dev/null >/dev/null 2>&1
check "SSH_SK_PROVIDER names the middleware" [ -s "$T/env.pub" ]
"$BIN/ssh-keygen" -q -t ed25519-sk -w "$T/nonexistent.so" -N '' \
    -f "$T/nolib" </dev/null >/dev/null 2>"$T/nolib.err"
check "a missing provider fails, no key written" [ ! -e "$T/nolib" ]
check "... saying the enrollment failed" grep -q "Key enrollment failed" \
    "$T/nolib.err"

# --- Keys made by OpenSSH 10.5's ssh-keygen.
"$O105/bin/ssh-keygen" -q -t ed25519-sk -w "$SKP" -N '' -f "$T/o_ed" \
    -C o-ed </dev/null >/dev/null 2>&1 || fail "10.5 ssh-keygen ed25519-sk"
"$O105/bin/ssh-keygen" -q -t ecdsa-sk -w "$SKP" -N '' -f "$T/o_ec" \
    -O no-touch-required -C o-ec </dev/null >/dev/null 2>&1 ||
    fail "10.5 ssh-keygen ecdsa-sk"

# --- The private files: each ssh-keygen -y reads the other's.
for k in ed ec nt rk o_ed o_ec; do
	"$O105/bin/ssh-keygen" -y -f "$T/$k" > "$T/y105" 2>&1
	"$BIN/ssh-keygen" -y -f "$T/$k" > "$T/yours" 2>&1
	check "ssh-keygen -y $k: 10.5's prints the .pub's key" \
	    [ "$(cut -d' ' -f1-2 "$T/y105")" = "$(cut -d' ' -f1-2 "$T/$k.pub")" ]
	check "... and ours" \
	    [ "$(cut -d' ' -f1-2 "$T/yours")" = "$(cut -d' ' -f1-2 "$T/$k.pub")" ]
done

# A certificate of our ed25519-sk key by a plain CA (Debian's ssh-keygen).
ssh-keygen -q -t ed25519 -N '' -f "$T/ca" -C ca >/dev/null
cp "$T/ed" "$T/edc"; cp "$T/ed.pub" "$T/edc.pub"
ssh-keygen -q -s "$T/ca" -I edc -n "$ME" "$T/edc.pub" >/dev/null 2>&1

{
	for k in ed ec rk o_ed vr; do cat "$T/$k.pub"; done
	for k in nt o_ec; do printf 'no-touch-required %s\n' "$(cat "$T/$k.pub")"; done
} > "$T/authorized_keys"
cat "$T/nt.pub" > "$T/ak_touch"
echo "@cert-authority * $(cat "$T/ca.pub")" > "$T/known_ca"

ours() { # ours KEY [ssh options]: exit status of our ssh's login
	_k=$1; shift
	# The first value of an option wins: the caller's, then these.
	"$BIN/ssh" -F /dev/null "$@" -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -o IdentitiesOnly=yes \
	    -o SecurityKeyProvider="$SKP" -i "$_k" \
	    -p "$PORT" "$ME@127.0.0.1" true </dev/null 2>>"$T/ssh.err"
}
theirs() { # theirs KEY: OpenSSH 10.5's ssh
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -o IdentitiesOnly=yes \
	    -o SecurityKeyProvider="$SKP" -i "$1" -p "$PORT" \
	    "$ME@127.0.0.1" true </dev/null 2>/dev/null
}

# --- Our sshd.
write_config <<EOF
TrustedUserCAKeys $T/ca.pub
EOF
start_sshd
for k in ed nt vr o_ec; do
	ours "$T/$k"
	check "our ssh logs in to our sshd with $k" [ $? = 0 ]
done
ours "$T/edc" -o CertificateFile="$T/edc-cert.pub"
check "... and with a certificate of an sk key" [ $? = 0 ]
check "... which our sshd logs as ED25519-SK-CERT" \
    grep -q "Accepted publickey for $ME from 127.0.0.1 port [0-9]* ssh2: ED25519-SK-CERT" \
    "$T/sshd.log"
SSH_SK_PROVIDER=$SKP ours "$T/ed" -o SecurityKeyProvider='$SSH_SK_PROVIDER'
check "SecurityKeyProvider \$SSH_SK_PROVIDER" [ $? = 0 ]
ours "$T/ed" -o SecurityKeyProvider="$T/nonexistent.so"
check "a provider that cannot load: the login fails" [ $? != 0 ]
for k in ed ec; do
	theirs "$T/$k"
	check "OpenSSH 10.5's ssh logs in to our sshd with our $k" [ $? = 0 ]
done
# --- ssh-add: the key handle into an agent, which signs through the
# middleware. Our ssh's own provider is then one that cannot load, so
# only the agent can have signed. Ours refuses a library outside -P.
agent() { # agent NAME PROG [flags]: an agent on $T/NAME.sock
	_n=$1; _p=$2; shift 2
	"$_p" -D -a "$T/$_n.sock" "$@" >/dev/null 2>"$T/$_n.log" &
	_pid=$!
	at_exit "kill $_pid 2>/dev/null"
	i=0
	while [ ! -S "$T/$_n.sock" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
agent ours_strict "$BIN/ssh-agent"
SSH_AUTH_SOCK=$T/ours_strict.sock "$BIN/ssh-add" -S "$SKP" "$T/ed" \
    >/dev/null 2>&1
check "our agent refuses a provider outside its -P list" [ $? != 0 ]
agent ours_agent "$BIN/ssh-agent" -P "$SKP"
agent deb_agent /usr/bin/ssh-agent -P "$SKP"
for a in ours_agent deb_agent; do
	SSH_AUTH_SOCK=$T/$a.sock "$BIN/ssh-add" -S "$SKP" "$T/ed" \
	    >"$T/add.out" 2>&1
	check "our ssh-add -S adds an sk key to $a" \
	    grep -q "^Identity added: $T/ed (c-ed)" "$T/add.out"
	SSH_AUTH_SOCK=$T/$a.sock SSH_SK_PROVIDER=$SKP "$BIN/ssh-add" \
	    "$T/ec" >/dev/null 2>&1
	check "... and with SSH_SK_PROVIDER" [ $? = 0 ]
	SSH_AUTH_SOCK=$T/$a.sock ssh-add -l > "$T/list" 2>&1
	check "... which lists them" grep -q "(ECDSA-SK)" "$T/list"
	SSH_AUTH_SOCK=$T/$a.sock ours "$T/ed.pub" \
	    -o SecurityKeyProvider="$T/nonexistent.so" -o IdentitiesOnly=no
	check "our ssh logs in with the sk key signed by $a" [ $? = 0 ]
done
# No provider named: the built-in one ("internal"), which our agent
# takes without -P, as Debian's ssh-add (built with libfido2) does.
env -u SSH_SK_PROVIDER SSH_AUTH_SOCK=$T/ours_agent.sock "$BIN/ssh-add" \
    "$T/nt" >"$T/noprov" 2>&1
rc=$?
env -u SSH_SK_PROVIDER SSH_AUTH_SOCK=$T/ours_agent.sock /usr/bin/ssh-add \
    "$T/nt" >"$T/noprov.deb" 2>&1
check "ssh-add without a provider adds an sk key as Debian's does" \
    [ $rc = 0 ] && grep -q "^Identity added: $T/nt" "$T/noprov" &&
    cmp -s "$T/noprov" "$T/noprov.deb"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

# --- Debian's sshd (9.2): our keys and our ssh.
write_config <<EOF
TrustedUserCAKeys $T/ca.pub
EOF
start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb.log"
for k in ec rk o_ed; do
	ours "$T/$k"
	check "our ssh logs in to Debian's sshd with $k" [ $? = 0 ]
done
ours "$T/edc" -o CertificateFile="$T/edc-cert.pub"
check "... and with the certificate" [ $? = 0 ]
kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null
# Without the no-touch-required option, Debian's refuses the key that
# signs without a touch: the flags our helper passed were the key's.
AKF=$T/ak_touch write_config </dev/null
start_peer_sshd /usr/sbin/sshd "$T/sshd_config" "$T/deb2.log"
ours "$T/nt"
check "Debian's sshd refuses a no-touch signature without the option" [ $? != 0 ]
check "... for want of user presence" grep -q "user presence" "$T/deb2.log"
kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null

# --- SSHSIG: our -Y sign, 10.5's -Y verify.
printf 'signed through sk-dummy\n' > "$T/msg"
for k in ed ec; do
	rm -f "$T/msg.sig"
	SSH_SK_PROVIDER=$SKP "$BIN/ssh-keygen" -Y sign -n file -f "$T/$k" \
	    "$T/msg" </dev/null >/dev/null 2>"$T/sign.err"
	check "our ssh-keygen -Y sign with $k" [ -s "$T/msg.sig" ]
	check "... says to confirm user presence" \
	    grep -q "^Confirm user presence for key" "$T/sign.err"
	echo "alice $(cat "$T/$k.pub")" > "$T/signers"
	"$O105/bin/ssh-keygen" -Y verify -f "$T/signers" -I alice -n file \
	    -s "$T/msg.sig" < "$T/msg" > "$T/v105" 2>&1
	check "... verified by OpenSSH 10.5" grep -q '^Good "file" signature for alice' "$T/v105"
done

# --- -K: sk-dummy keeps no resident keys; ours fails as 10.5's does.
(cd "$T" && echo | "$BIN/ssh-keygen" -K -w "$SKP" >/dev/null 2>"$T/k.err")
rc=$?
(cd "$T" && echo | "$O105/bin/ssh-keygen" -K -w "$SKP" >/dev/null 2>&1)
rc105=$?
check "-K with a provider without resident keys fails as 10.5's" \
    [ $rc != 0 ] && [ $rc105 != 0 ]
check "... with its message" grep -q "Unable to load resident keys" "$T/k.err"
finish
