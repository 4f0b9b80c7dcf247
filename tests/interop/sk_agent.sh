#!/bin/sh
# Security keys into agents through ssh-add, with our test middleware
# (tests/skprov, build/tests/sk-test.so), which keeps resident keys:
# ssh-add -K loads the authenticator's resident keys into our agent and
# Debian's (each run with -P allowing the middleware), saying what
# Debian's ssh-add says; the agent then signs with them (ssh-add -T).
# A security key's certificate (key-cert.pub) goes in with the key and
# the same provider, into either agent. Our ssh with AddKeysToAgent
# hands the agent a security key with its SecurityKeyProvider, and the
# agent's signature then logs in to our sshd (as root only). -K with nothing on the authenticator fails as
# Debian's does.
. "$(dirname "$0")/lib.sh"
SKT=$(cd "$BIN/../tests" 2>/dev/null && pwd)/sk-test.so	# -P matches realpath
[ -f "$SKT" ] || skip "no test middleware at $SKT"
need /usr/bin/ssh-agent
need /usr/bin/ssh-add
need_peer_openssh	# its sk-dummy.so makes the ECDSA-SK key
SKD=$(cd "$O105/lib" && pwd -P)/sk-dummy.so
export SK_TEST_DIR="$T/authenticator"
mkdir "$SK_TEST_DIR"
unset SSH_SK_PROVIDER

"$BIN/ssh-keygen" -q -t ed25519-sk -w "$SKT" -N '' -f "$T/rk" -C rk \
    -O resident -O application=ssh:agent </dev/null >/dev/null 2>&1
check "a resident key on the test authenticator" [ -s "$T/rk.pub" ]
"$BIN/ssh-keygen" -q -t ed25519 -N '' -f "$T/ca" -C ca </dev/null >/dev/null
"$BIN/ssh-keygen" -q -s "$T/ca" -I rk-cert -n alice "$T/rk.pub" \
    >/dev/null 2>&1
check "a certificate for it" [ -s "$T/rk-cert.pub" ]
"$BIN/ssh-keygen" -q -t ecdsa-sk -w "$SKD" -N '' -f "$T/ec" -C ec \
    </dev/null >/dev/null 2>&1
"$BIN/ssh-keygen" -q -s "$T/ca" -I ec-cert -n alice "$T/ec.pub" \
    >/dev/null 2>&1
check "an ECDSA-SK key and certificate" [ -s "$T/ec-cert.pub" ]
FP=$("$BIN/ssh-keygen" -lf "$T/rk.pub" | cut -d' ' -f2)

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
agent ours "$BIN/ssh-agent" -P "$SKT,$SKD"
agent deb /usr/bin/ssh-agent -P "$SKT,$SKD"

for a in ours deb; do
	export SSH_AUTH_SOCK="$T/$a.sock"
	echo | "$BIN/ssh-add" -S "$SKT" -K >"$T/k.$a" 2>&1
	check "our ssh-add -K into the $a agent" [ $? = 0 ]
	check "... says it as OpenSSH does" grep -q \
	    "Resident identity added: ED25519-SK $FP\$" "$T/k.$a"
	"$BIN/ssh-add" -l >"$T/l.$a" 2>&1
	check "... the agent lists it with its application" \
	    grep -q "$FP ssh:agent (ED25519-SK)" "$T/l.$a"
	"$BIN/ssh-add" -T "$T/rk.pub" >/dev/null 2>&1
	check "... and signs with it" [ $? = 0 ]
	"$BIN/ssh-add" -D >/dev/null 2>&1
	echo | /usr/bin/ssh-add -S "$SKT" -K >"$T/kd.$a" 2>&1
	check "... the same words as Debian's ssh-add -K" \
	    cmp -s "$T/k.$a" "$T/kd.$a"
	"$BIN/ssh-add" -D >/dev/null 2>&1

	# Key files and their certificates.
	for k in rk ec; do
		p=$SKT; [ $k = ec ] && p=$SKD
		"$BIN/ssh-add" -S "$p" "$T/$k" >"$T/c.$a" 2>&1
		check "our ssh-add adds $k and its certificate to the $a agent" \
		    grep -q "^Certificate added: $T/$k-cert.pub ($k-cert)" \
		    "$T/c.$a"
		"$BIN/ssh-add" -T "$T/$k-cert.pub" >/dev/null 2>&1
		check "... which the agent signs with" [ $? = 0 ]
	done
	"$BIN/ssh-add" -l >"$T/l.$a" 2>&1
	check "... listed as certificates" grep -q "(ED25519-SK-CERT)" "$T/l.$a"
	check "... both" grep -q "(ECDSA-SK-CERT)" "$T/l.$a"
	"$BIN/ssh-add" -D >/dev/null 2>&1
done

# AddKeysToAgent: our ssh logs in with the key file and leaves the key
# with the agent, which then logs in without the file.
if [ "$(id -u)" = 0 ]; then
	make_keys
	cp "$T/rk.pub" "$T/authorized_keys"
	write_config </dev/null
	start_sshd
	login() { # login ARGS...: our ssh, exit status
		"$BIN/ssh" -F /dev/null -o BatchMode=yes \
		    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		    -o LogLevel=ERROR -o SecurityKeyProvider="$SKT" "$@" \
		    -p "$PORT" "$ME@127.0.0.1" true </dev/null 2>>"$T/ssh.err"
	}
	export SSH_AUTH_SOCK="$T/ours.sock"
	login -o IdentitiesOnly=yes -o AddKeysToAgent=yes -i "$T/rk"
	check "AddKeysToAgent: our ssh logs in with the key file" [ $? = 0 ]
	"$BIN/ssh-add" -l >"$T/l.add" 2>&1
	check "... and the agent holds the key" grep -q "(ED25519-SK)" \
	    "$T/l.add"
	login -o IdentitiesOnly=yes -o IdentityFile="$T/rk.pub" \
	    -o SecurityKeyProvider="$T/nonexistent.so"
	check "... which the agent signs with through the provider" [ $? = 0 ]
	"$BIN/ssh-add" -D >/dev/null 2>&1
else
	echo "not root: the AddKeysToAgent login is not run" >&2
fi

# An authenticator with no resident keys: -K fails as Debian's.
export SK_TEST_DIR="$T/empty"
mkdir "$SK_TEST_DIR"
export SSH_AUTH_SOCK="$T/ours.sock"
echo | "$BIN/ssh-add" -S "$SKT" -K >/dev/null 2>&1
rc=$?
echo | /usr/bin/ssh-add -S "$SKT" -K >/dev/null 2>&1
rcd=$?
check "-K with no resident keys fails ($rc) as Debian's ($rcd)" \
    [ $rc != 0 ] && [ $rc = $rcd ]
finish
