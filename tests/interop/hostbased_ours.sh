#!/bin/sh
# hostbased_ours.sh: our ssh logs in to our sshd with hostbased
# authentication, signing with the machine's host keys through the
# system's setuid ssh-keysign (OpenSSH's helper; its protocol is in
# src/client/clienthostbased.h).
#
# Root only. A temporary user (removed on exit) runs the client; its
# ~/.shosts names "localhost USER" and its ~/.ssh/known_hosts the
# machine's ed25519 host key for "localhost". ssh-keysign honours
# EnableSSHKeysign only from /etc/ssh/ssh_config, which on Debian
# includes /etc/ssh/ssh_config.d/*.conf: the test adds one file there for
# its run and removes it on exit. No other system file is changed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostbased.inc"

[ "$(id -u)" = 0 ] || skip "needs root (a temporary user, ssh-keysign)"
[ -x "$BIN/ssh" ] || skip "no $BIN/ssh"
KEYSIGN=/usr/lib/openssh/ssh-keysign
[ -u "$KEYSIGN" ] || skip "no setuid $KEYSIGN"
for t in ed25519 ecdsa rsa; do
	[ -r /etc/ssh/ssh_host_${t}_key.pub ] ||
	    skip "no /etc/ssh/ssh_host_${t}_key.pub (openssh-server not installed)"
done
need ssh-keygen
hb_need
# The user must be able to run our ssh.
runuser -u nobody -- "$BIN/ssh" -V >/dev/null 2>&1 ||
    skip "$BIN/ssh is not usable by other users"

hb_setup moathbo$$ hostbased-ours
hb_user_key
HB_SSH="$BIN/ssh"
server() { restart_sshd "$@"; }

# 1. The login works; the client host is the socket's name with a dot.
server "$BASE"
out=$(login)
check "hostbased login as $U with our ssh" [ "$out" = hb-ok ]
check "Accepted hostbased line" logged \
    "Accepted hostbased for $U from 127.0.0.1 port [0-9]* ssh2: ED25519 SHA256:"
check "our client sent its name with a trailing dot" logged \
    "chost localhost\. pkalg"

# 2. HostbasedAuthentication no on the client (its default): not offered.
out=$(as_user "$BIN/ssh" -F /dev/null -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
    -o LogLevel=ERROR -o PreferredAuthentications=hostbased \
    -p "$PORT" "$U@127.0.0.1" 'echo hb-ok' 2>"$T/err")
check "client default HostbasedAuthentication no: no login" [ -z "$out" ]
check "client default: nothing to try" \
    grep -q "Permission denied" "$T/err"
check "client -G shows the keywords" sh -c \
    "'$BIN/ssh' -G -F /dev/null -o HostbasedAuthentication=yes x |
    grep -qx 'hostbasedauthentication yes' &&
    '$BIN/ssh' -G -F /dev/null x | grep -qx 'enablesshkeysign no'"

# 3. The server side off: refused.
server "UseDNS yes" "IgnoreRhosts no"
out=$(login)
check "no login with the server's HostbasedAuthentication off" [ -z "$out" ]

# 4. The known_hosts entry wrong for ed25519: the ECDSA and RSA keys are
# tried next; with them listed the login goes on.
server "$BASE"
as_user sh -c "echo \"localhost \$(cat '$H/.ssh/id_ed25519.pub')\" \
    > '$H/.ssh/known_hosts'"
out=$(login)
check "no login with a wrong key in known_hosts" [ -z "$out" ]
check "each host key was tried" sh -c \
    "[ \$(grep -c 'Failed hostbased for $U' '$T/sshd.log') -ge 3 ]"
as_user sh -c "echo \"localhost \$(cat /etc/ssh/ssh_host_rsa_key.pub)\" \
    >> '$H/.ssh/known_hosts'"
out=$(login)
check "the RSA host key logs in after the others fail" [ "$out" = hb-ok ]
check "with an rsa-sha2 signature" logged \
    "Accepted hostbased for $U from 127.0.0.1 port [0-9]* ssh2: RSA SHA256:"
as_user sh -c "echo \"localhost \$(cat /etc/ssh/ssh_host_ed25519_key.pub)\" \
    > '$H/.ssh/known_hosts'"

# 5. HostbasedAcceptedAlgorithms on the client picks the key.
server "$BASE"
out=$(login -o HostbasedAcceptedAlgorithms=ecdsa-sha2-nistp256)
check "client offering ECDSA only: no login (not in known_hosts)" \
    [ -z "$out" ]
check "the ECDSA key was offered" logged "Failed hostbased for $U .*ECDSA"
check "and no other" sh -c \
    "! grep -q 'hostbased for $U.*\(ED25519\|RSA\)' '$T/sshd.log'"

# 6. AuthenticationMethods hostbased,publickey.
hb_then_pubkey_checks
out=$(login -o PreferredAuthentications=publickey,hostbased)
check "the client follows the server's order" [ "$out" = hb-ok ]

# 7. Without the helper's consent (EnableSSHKeysign gone) nothing is signed.
rm -f "$DROPIN"
server "$BASE"
out=$(login)
check "no login when ssh-keysign is not enabled" [ -z "$out" ]
check "the helper said why" grep -q "ssh-keysign not enabled" "$T/err"

finish
