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

pubkey_password_checks
order_checks

pubkey_pubkey_checks

# Two lists as alternatives.
serve "AuthenticationMethods publickey,publickey password"
check "alternatives: password alone (second list)" [ "$(pssh --)" = "$U" ]
check "alternatives: two keys (first list)" \
    [ "$(pssh ed25519 ecdsa -- -o PreferredAuthentications=publickey)" = "$U" ]

# keyboard-interactive through PAM; TOTP second factor with pam_oath.
kbdint_checks
oath_checks
finish
