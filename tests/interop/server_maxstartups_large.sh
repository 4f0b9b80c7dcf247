#!/bin/sh
# MaxStartups above 256 is honoured, not capped by a fixed table: with
# "MaxStartups 300", 300 connections that sit before authentication are
# all served (each gets the server's banner), the 301st is dropped and
# logged, and once they go away a real client logs in.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config <<EOF2
MaxStartups 300
EOF2
start_sshd -o LogLevel=INFO
"$PY" - "$PORT" <<'EOF2'
import socket, sys, time
port = int(sys.argv[1])
held = []
for _ in range(300):
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    held.append(s)
served = 0
for s in held:
    try:
        if s.recv(4).startswith(b"SSH-"):
            served += 1
    except OSError:
        pass
print("served %d of 300 held connections" % served)
time.sleep(0.3)
extra = socket.create_connection(("127.0.0.1", port))
extra.settimeout(20)
data = extra.recv(100)
print("connection 301 got", repr(data))
for s in held:
    s.close()
sys.exit(0 if served == 300 and data == b"" else 1)
EOF2
check "300 pre-auth connections served, the 301st dropped" [ $? -eq 0 ]
n=$(grep -c "past MaxStartups" "$T/sshd.log")
echo "drops logged: $n"
check "exactly one drop logged" [ "$n" -eq 1 ]
check "the drop came at connection #300" grep -q "drop connection #300 " "$T/sshd.log"
i=0
while [ $i -lt 50 ] && [ "$(ps -o pid= --ppid "$SSHD_PID" | wc -l)" -gt 0 ]; do
	sleep 0.1; i=$((i + 1))
done
out=$(ossh "$ME@127.0.0.1" 'echo served')
check "served again once the held connections closed" [ "$out" = served ]
finish
