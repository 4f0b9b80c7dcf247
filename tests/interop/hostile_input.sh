#!/bin/sh
# Bad input against the listener: garbage instead of a banner, a malformed
# packet, an oversized length, a bad MAC, a client that stops mid-KEX.
# Each connection ends with a clean disconnect and a log line; the server
# does not crash and keeps serving others.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config <<EOF2
LoginGraceTime 3
EOF2
start_sshd
"$PY" "$(dirname "$0")/hostile_input.py" 127.0.0.1 "$PORT"
check "hostile clients all got a clean end" [ $? -eq 0 ]
kill -0 "$SSHD_PID"
check "listener still running" [ $? -eq 0 ]
out=$(ossh "$ME@127.0.0.1" 'echo still-serving')
check "listener still serves a real client" [ "$out" = "still-serving" ]
grep -q "Bad packet length\|padding error" "$T/sshd.log"
check "bad length logged" [ $? -eq 0 ]
grep -q "invalid protocol identifier" "$T/sshd.log"
check "garbage banner logged" [ $? -eq 0 ]
grep -q "Corrupted MAC on input" "$T/sshd.log"
check "bad MAC logged" [ $? -eq 0 ]
grep -q "Timeout before authentication" "$T/sshd.log"
check "stalled client timed out by LoginGraceTime" [ $? -eq 0 ]
finish
