#!/bin/sh
# Authentication policy against Debian's OpenSSH ssh: AuthenticationMethods
# chains (publickey,password; publickey,keyboard-interactive:pam; two
# lists as alternatives; publickey,publickey with two different keys; the
# wrong order; a failure midway), password and keyboard-interactive
# through PAM (pam_unix, with a temporary user's password set by
# chpasswd) and a TOTP second factor with pam_oath and oathtool.
# Passwords reach ssh through SSH_ASKPASS with no terminal.
# Needs root: temporary users and PAM service files in /etc/pam.d.
. "$(dirname "$0")/lib.sh"
need ssh
CLIENT=ssh
U=moatt$$
SVC=moat-unix-test-$$
OSVC=moat-oath-test-$$
. "$(dirname "$0")/auth_methods.inc"

for pam in no yes; do
	serve "UsePAM $pam" "PAMServiceName $SVC" \
	    "AuthenticationMethods publickey,password"
	check "UsePAM $pam: publickey,password: key then password" \
	    [ "$(pssh ed25519 --)" = "$U" ]
	check "UsePAM $pam: partial success logged" \
	    logged "Partial publickey for $U from 127.0.0.1"
	check "UsePAM $pam: password accepted logged" \
	    logged "Accepted password for $U from 127.0.0.1"
	echo wrong > "$T/answer"
	check "UsePAM $pam: failure midway (wrong password) refused" \
	    [ -z "$(pssh ed25519 --)" ]
	echo "$PW" > "$T/answer"
	check "UsePAM $pam: password alone is not enough" \
	    [ -z "$(pssh --)" ]
	check "UsePAM $pam: key alone is not enough" \
	    [ -z "$(pssh ed25519 -- -o PreferredAuthentications=publickey)" ]
done
order_checks

# publickey,publickey: two different keys.
serve "AuthenticationMethods publickey,publickey"
check "publickey,publickey: two keys let in" \
    [ "$(pssh ed25519 ecdsa --)" = "$U" ]
check "publickey,publickey: one key is not enough" \
    [ -z "$(pssh ed25519 -- -o PreferredAuthentications=publickey)" ]

# Two lists as alternatives.
serve "AuthenticationMethods publickey,publickey password"
check "alternatives: password alone (second list)" [ "$(pssh --)" = "$U" ]
check "alternatives: two keys (first list)" \
    [ "$(pssh ed25519 ecdsa -- -o PreferredAuthentications=publickey)" = "$U" ]

# keyboard-interactive through PAM; TOTP second factor with pam_oath.
kbdint_checks
oath_checks
finish
