#!/bin/sh
# Refused requests are logged at a bounded rate per connection: a client
# (paramiko) that opens 300 sessions past MaxSessions and asks for 300
# port forwards AllowTcpForwarding forbids gets the first 10 refusals
# logged one by one, and the rest counted in one line naming it when the
# connection ends; a second connection has its own first 10.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
write_config <<EOF
MaxSessions 1
AllowTcpForwarding no
EOF
start_sshd -o LogLevel=INFO

# refuse N: one connection, one session held, then N refused session
# opens and N refused direct-tcpip opens; prints the client's port.
refuse() {
	"$PY" - "$PORT" "$T/id_ed25519" "$ME" "$1" <<'EOF'
import sys
import logging
import paramiko
logging.getLogger("paramiko").setLevel(logging.CRITICAL)
port, key, user, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
c = paramiko.SSHClient()
c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
c.connect("127.0.0.1", port, username=user, key_filename=key,
          allow_agent=False, look_for_keys=False)
t = c.get_transport()
held = t.open_session(timeout=10)
refused = 0
for i in range(n):
    for kind in ("session", "direct-tcpip"):
        try:
            if kind == "session":
                t.open_session(timeout=10)
            else:
                t.open_channel("direct-tcpip", ("127.0.0.1", 9), ("127.0.0.1", 1000), timeout=10)
        except paramiko.ChannelException:
            refused += 1
print(t.sock.getsockname()[1])
sys.stderr.write("refused %d of %d\n" % (refused, 2 * n))
c.close()
sys.exit(0 if refused == 2 * n else 1)
EOF
}

# Refusal lines of the connection from client port $1 (the connections
# run one after the other: a line belongs to the last login before it).
refusals() {
	awk -v p="$1" '
	    /^Accepted publickey/ {
		for (i = 1; i < NF; i++) if ($i == "port") cur = $(i + 1) }
	    cur == p && /no more sessions|session open refused|refused local port forward/' \
	    "$T/sshd.log"
}

P1=$(refuse 300)
check "300 session and 300 forward opens refused" [ $? -eq 0 ] && [ -n "$P1" ]
sleep 0.5
n=$(refusals "$P1" | wc -l)
echo "connection 1 (port $P1): $n refusal lines"
check "first 10 refusals logged one by one" [ "$n" -eq 10 ]
check "the rest counted in one line at the end" \
    grep -q "^Refused 590 more requests from 127\.0\.0\.1 port $P1, not logged one by one$" \
    "$T/sshd.log"
check "MaxSessions refusal worded as OpenSSH's" grep -q "^no more sessions$" "$T/sshd.log"

P2=$(refuse 3)
sleep 0.5
n=$(refusals "$P2" | wc -l)
echo "connection 2 (port $P2): $n refusal lines"
check "a new connection logs its own refusals" [ "$n" -eq 6 ]
check "no count line for a connection under the limit" \
    [ "$(grep -c "^Refused .* port $P2, not logged" "$T/sshd.log")" -eq 0 ]
total=$(grep -c "no more sessions\|session open refused\|refused local port forward" "$T/sshd.log")
echo "refusal lines in all: $total"
finish
