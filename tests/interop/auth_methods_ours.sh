#!/bin/sh
# Authentication policy, our ssh against our sshd: AuthenticationMethods
# chains (publickey,password; publickey,keyboard-interactive:pam; two
# lists as alternatives; publickey,publickey with two different keys; the
# wrong order; a failure midway), password and keyboard-interactive
# through PAM (pam_unix, with a temporary user's password set by
# chpasswd) and a TOTP second factor with pam_oath and oathtool.
# Passwords reach ssh through SSH_ASKPASS with no terminal.
# Needs root: temporary users and PAM service files in /etc/pam.d.
. "$(dirname "$0")/lib.sh"
[ -x "$BIN/ssh" ] || skip "no $BIN/ssh"
CLIENT="$BIN/ssh"
U=moato$$
SVC=moat-unix-ours-$$
OSVC=moat-oath-ours-$$
. "$(dirname "$0")/auth_methods.inc"

# denied "LIST": the last refusal named these methods, as OpenSSH does.
denied() {
	tail -n 1 "$T/ssh.err" |
	    grep -qx "$U@127.0.0.1: Permission denied ($1)."
}

MIDWAY_CHECK="denied password"
pubkey_password_checks
order_checks

pubkey_pubkey_checks
check "publickey,publickey: the same key twice is not two keys" \
    [ -z "$(pssh ed25519 ed25519 -- -o PreferredAuthentications=publickey)" ]
check "publickey,publickey: failure midway (second key unknown)" \
    [ -z "$(pssh ed25519 rsa -- -o PreferredAuthentications=publickey)" ]
check "publickey,publickey: an unknown key first, then two good ones" \
    [ "$(pssh rsa ed25519 ecdsa -- \
    -o PreferredAuthentications=publickey)" = "$U" ]
: > "$T/ssh.err"
pssh ed25519 ecdsa -- -v -o PreferredAuthentications=publickey >/dev/null
check "partial success reported at -v" grep -q \
    'Authenticated using "publickey" with partial success' "$T/ssh.err"

# Two lists as alternatives.
serve "AuthenticationMethods publickey,publickey password"
check "alternatives: password alone (second list)" [ "$(pssh --)" = "$U" ]
check "alternatives: two keys (first list)" \
    [ "$(pssh ed25519 ecdsa -- -o PreferredAuthentications=publickey)" = "$U" ]
check "alternatives: one key then password (second list)" \
    [ "$(pssh ed25519 --)" = "$U" ]
echo wrong > "$T/answer"
check "alternatives: wrong password and one key refused" \
    [ -z "$(pssh ed25519 --)" ]
check "alternatives: after one key both lists remain" \
    denied "publickey,password"
echo "$PW" > "$T/answer"

# Alternatives that share their first step: after the key the client
# goes on with whichever second step it prefers (kbd-int before password).
serve "UsePAM yes" "PAMServiceName $SVC" "KbdInteractiveAuthentication yes" \
    "AuthenticationMethods publickey,password publickey,keyboard-interactive:pam"
: > "$T/prompts"
check "publickey then password or kbd-int: logs in" \
    [ "$(pssh ed25519 --)" = "$U" ]
check "the second step was keyboard-interactive" \
    logged "Accepted keyboard-interactive/pam for $U from 127.0.0.1"
check "password still works there" [ "$(pssh ed25519 -- \
    -o PreferredAuthentications=publickey,password)" = "$U" ]
check "and was the method used" \
    logged "Accepted password for $U from 127.0.0.1"

# keyboard-interactive through PAM; TOTP second factor with pam_oath.
kbdint_checks
oath_checks
finish
