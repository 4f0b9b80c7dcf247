#!/bin/sh
# MaxStartups start:rate:full: with "2:100:2", two connections that sit
# before authentication use up the allowance, a third is dropped at once
# and logged; once they go away, a real client logs in again.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config <<EOF2
MaxStartups 2:100:2
EOF2
start_sshd
"$PY" - "$PORT" <<'EOF2'
import socket, sys, time
port = int(sys.argv[1])
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
for s in held:
    s.settimeout(5)
    assert s.recv(4).startswith(b"SSH-")   # served: banner arrives
time.sleep(0.3)
third = socket.create_connection(("127.0.0.1", port))
third.settimeout(5)
data = third.recv(100)
print("third connection got", repr(data))
sys.exit(0 if data == b"" else 1)
EOF2
check "third pre-auth connection dropped past MaxStartups" [ $? -eq 0 ]
grep -q "past MaxStartups" "$T/sshd.log"
check "drop logged" [ $? -eq 0 ]
sleep 0.5
out=$(ossh "$ME@127.0.0.1" 'echo served')
check "served again once the held connections closed" [ "$out" = served ]
finish
