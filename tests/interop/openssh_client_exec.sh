#!/bin/sh
# Debian's OpenSSH ssh logs in to our sshd with each user key type, runs
# commands, gets their exit status back, and keeps stdout and stderr apart.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config </dev/null
start_sshd

for t in ed25519 ecdsa rsa; do
	out=$(ID="$T/id_$t" ossh "$ME@127.0.0.1" 'echo hello-$USER')
	check "login with $t key" [ "$out" = "hello-$ME" ]
done

ossh "$ME@127.0.0.1" 'exit 42'
check "exit status passed back" [ $? -eq 42 ]

ossh "$ME@127.0.0.1" 'echo out; echo err >&2' >"$T/o" 2>"$T/e"
check "stdout kept apart" [ "$(cat "$T/o")" = out ]
check "stderr kept apart" [ "$(cat "$T/e")" = err ]

out=$(printf 'line1\nline2\n' | ossh "$ME@127.0.0.1" 'cat; echo done')
check "stdin passed and EOF delivered" [ "$out" = "$(printf 'line1\nline2\ndone')" ]

ossh "$ME@127.0.0.1" 'kill -TERM $$'
check "signal death gives 255" [ $? -eq 255 ]

grep -q "Accepted publickey for $ME from 127.0.0.1" "$T/sshd.log"
check "OpenSSH-style accept log line" [ $? -eq 0 ]

# A key that is not authorized is refused.
ssh-keygen -q -t ed25519 -N '' -f "$T/stranger" >/dev/null
ID="$T/stranger" ossh "$ME@127.0.0.1" true 2>/dev/null
check "unauthorized key refused" [ $? -eq 255 ]
finish
