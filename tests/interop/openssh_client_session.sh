#!/bin/sh
# Sessions with Debian's OpenSSH ssh: a pty shell (-tt), window size and
# TERM passed, a subsystem, environment passing (AcceptEnv/SendEnv), and
# our sshd -i as a ProxyCommand.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config <<EOF2
Subsystem moat-echo /bin/cat
AcceptEnv MOAT_TEST_*
EOF2
start_sshd

out=$(ossh -tt "$ME@127.0.0.1" 'tty; echo "TERM=$TERM"' </dev/null | tr -d '\r')
echo "$out" | grep -q '^/dev/pts/'
check "pty allocated with -tt" [ $? -eq 0 ]
echo "$out" | grep -q '^TERM=..*'
check "TERM set in pty session" [ $? -eq 0 ]

out=$(ossh -T "$ME@127.0.0.1" 'tty' </dev/null)
check "no pty with -T" [ "$out" = "not a tty" ]

out=$(printf 'echo shell-ok-$((40+2))\nexit 3\n' | ossh -tt "$ME@127.0.0.1" | tr -d '\r')
rc=$?
echo "$out" | grep -q 'shell-ok-42'
check "interactive shell in pty runs input" [ $? -eq 0 ]

out=$(echo subsystem-data | ossh -s "$ME@127.0.0.1" moat-echo)
check "subsystem runs" [ "$out" = "subsystem-data" ]

out=$(MOAT_TEST_X=passed ossh -o SendEnv=MOAT_TEST_X "$ME@127.0.0.1" 'echo $MOAT_TEST_X')
check "AcceptEnv passes matching variables" [ "$out" = "passed" ]
out=$(LC_MOAT_NOPE=leak ossh -o SendEnv=LC_MOAT_NOPE "$ME@127.0.0.1" 'echo "x$LC_MOAT_NOPE"')
check "AcceptEnv refuses others" [ "$out" = "x" ]

# sshd -i as a ProxyCommand: one connection over stdin/stdout.
out=$(ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$T/known_hosts2" -o LogLevel=ERROR \
    -i "$T/id_ed25519" \
    -o ProxyCommand="$BIN/sshd -i -f $T/sshd_config -E $T/inetd.log" \
    "$ME@inetd-host" 'echo via-inetd')
check "sshd -i as ProxyCommand" [ "$out" = "via-inetd" ]
finish
