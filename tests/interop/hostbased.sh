#!/bin/sh
# hostbased.sh: Debian's OpenSSH client logs in to our sshd with hostbased
# authentication, signing with the machine's host keys through its setuid
# ssh-keysign.
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
KEYSIGN=/usr/lib/openssh/ssh-keysign
[ -u "$KEYSIGN" ] || skip "no setuid $KEYSIGN"
for t in ed25519 ecdsa rsa; do
	[ -r /etc/ssh/ssh_host_${t}_key ] ||
	    skip "no /etc/ssh/ssh_host_${t}_key (openssh-server not installed)"
done
need ssh
hb_need

hb_setup moathb$$ hostbased-test
# A key of the user's own for the publickey steps.
hb_user_key
HB_SSH=ssh

# server [sshd_config lines...]: (re)start our sshd with these lines.
server() { restart_sshd "$@"; }

# 1. The login works, logged in OpenSSH's words.
server "$BASE"
out=$(login)
check "hostbased login as $U" [ "$out" = hb-ok ]
check "Accepted hostbased line with key type and fingerprint" logged \
    "Accepted hostbased for $U from 127.0.0.1 port [0-9]* ssh2: ED25519 SHA256:"
check "the client sent its name with a trailing dot" logged \
    "chost localhost\. pkalg"
check "the key logged as OpenSSH does" logged \
    "Accepted ED25519 public key SHA256:.* from $U@localhost"

# 2. HostbasedAuthentication no (the default): hostbased is not offered.
server "UseDNS yes" "IgnoreRhosts no"
out=$(login)
check "no login with HostbasedAuthentication off" [ -z "$out" ]

# 3. A wrong key in known_hosts refuses.
cp "$H/.ssh/known_hosts" "$T/kh.good"
as_user sh -c "echo \"localhost \$(cat '$H/.ssh/id_ed25519.pub')\" \
    > '$H/.ssh/known_hosts'"
server "$BASE"
out=$(login)
check "no login with a wrong key in known_hosts" [ -z "$out" ]
check "no Accepted line then" sh -c "! grep -q 'Accepted hostbased' '$T/sshd.log'"
check "Failed line names the client user and host" logged \
    "Failed hostbased for $U from 127.0.0.1 port [0-9]* ssh2: ED25519 SHA256:.*, client user \"$U\", client host \"localhost\""
cat "$T/kh.good" > "$H/.ssh/known_hosts"	# the file stays the user's

# IgnoreUserKnownHosts yes: the user's known_hosts is not read.
server "$BASE" "IgnoreUserKnownHosts yes"
out=$(login)
check "no login with IgnoreUserKnownHosts yes" [ -z "$out" ]

# 4. IgnoreRhosts yes (and the default) refuses; shosts-only allows .shosts.
server "HostbasedAuthentication yes" "UseDNS yes" "IgnoreRhosts yes"
out=$(login)
check "no login with IgnoreRhosts yes" [ -z "$out" ]
server "HostbasedAuthentication yes" "UseDNS yes"
out=$(login)
check "no login with IgnoreRhosts left at its default" [ -z "$out" ]
server "HostbasedAuthentication yes" "UseDNS yes" "IgnoreRhosts shosts-only"
out=$(login)
check "login with IgnoreRhosts shosts-only" [ "$out" = hb-ok ]

# 5. A group-writable .shosts refuses under StrictModes.
chmod 620 "$H/.shosts"
server "$BASE"
out=$(login)
check "no login with a group-writable .shosts" [ -z "$out" ]
check "bad modes logged" logged \
    "Rhosts authentication refused for $U: bad modes for $H/.shosts"
STRICT_MODES=no
server "$BASE"
out=$(login)
check "StrictModes no accepts it" [ "$out" = hb-ok ]
STRICT_MODES=yes
chmod 600 "$H/.shosts"

# A "-" entry for the user denies.
as_user sh -c "echo 'localhost -$U' > '$H/.shosts'"
server "$BASE"
out=$(login)
check "no login with a negated .shosts entry" [ -z "$out" ]
as_user sh -c "echo 'localhost $U' > '$H/.shosts'"

# 6. The name: without UseDNS the address is used, so "localhost" in
# .shosts does not match, unless the packet's name is trusted.
server "HostbasedAuthentication yes" "UseDNS no" "IgnoreRhosts no"
out=$(login)
check "no login by name without UseDNS" [ -z "$out" ]
check "mismatch logged" logged \
    "userauth_hostbased mismatch: client sends localhost, but we resolve 127.0.0.1 to 127.0.0.1"
server "HostbasedAuthentication yes" "UseDNS no" "IgnoreRhosts no" \
    "HostbasedUsesNameFromPacketOnly yes"
out=$(login)
check "login with HostbasedUsesNameFromPacketOnly yes" [ "$out" = hb-ok ]

# HostbasedAcceptedAlgorithms without ed25519: only the ECDSA and RSA
# keys are offered, and known_hosts has neither.
server "$BASE" "HostbasedAcceptedAlgorithms -ssh-ed25519"
out=$(login)
check "no login when ssh-ed25519 is not accepted" [ -z "$out" ]
check "refusal logged" logged \
    "signature algorithm ssh-ed25519 not in HostbasedAcceptedAlgorithms"

# 7. AuthenticationMethods hostbased,publickey needs both, in order.
hb_then_pubkey_checks

finish
