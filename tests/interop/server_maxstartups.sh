#!/bin/sh
# MaxStartups start:rate:full: with "2:100:2", two connections that sit
# before authentication use up the allowance, a third is dropped at once
# and logged; once they go away, a real client logs in again.
# Timeouts are generous: the point is served or dropped, not how fast,
# and a sanitizer build beside a flood of other connections can take
# seconds to start a connection process.
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
    s.settimeout(30)
    assert s.recv(4).startswith(b"SSH-")   # served: banner arrives
time.sleep(0.3)
third = socket.create_connection(("127.0.0.1", port))
third.settimeout(30)
data = third.recv(100)
print("third connection got", repr(data))
sys.exit(0 if data == b"" else 1)
EOF2
check "third pre-auth connection dropped past MaxStartups" [ $? -eq 0 ]
grep -q "past MaxStartups" "$T/sshd.log"
check "drop logged" [ $? -eq 0 ]
# The slots free up when the listener has reaped the held connections'
# processes: try for a while rather than once after a fixed pause.
i=0
out=
while [ "$out" != served ] && [ $i -lt 20 ]; do
	sleep 0.5
	out=$(ossh "$ME@127.0.0.1" 'echo served' 2>/dev/null)
	i=$((i + 1))
done
check "served again once the held connections closed" [ "$out" = served ]
finish
