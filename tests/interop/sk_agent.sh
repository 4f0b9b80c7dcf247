#!/bin/sh
# Security keys into agents through ssh-add, with our test middleware
# (tests/skprov, build/tests/sk-test.so), which keeps resident keys:
# ssh-add -K loads the authenticator's resident keys into our agent and
# Debian's (each run with -P allowing the middleware), saying what
# Debian's ssh-add says; the agent then signs with them (ssh-add -T).
# -K with nothing on the authenticator fails as
# Debian's does.
. "$(dirname "$0")/lib.sh"
SKT=$(cd "$BIN/../tests" 2>/dev/null && pwd)/sk-test.so	# -P matches realpath
[ -f "$SKT" ] || skip "no test middleware at $SKT"
need /usr/bin/ssh-agent
need /usr/bin/ssh-add
export SK_TEST_DIR="$T/authenticator"
mkdir "$SK_TEST_DIR"
unset SSH_SK_PROVIDER

"$BIN/ssh-keygen" -q -t ed25519-sk -w "$SKT" -N '' -f "$T/rk" -C rk \
    -O resident -O application=ssh:agent </dev/null >/dev/null 2>&1
check "a resident key on the test authenticator" [ -s "$T/rk.pub" ]
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
agent ours "$BIN/ssh-agent" -P "$SKT"
agent deb /usr/bin/ssh-agent -P "$SKT"

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

done

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
