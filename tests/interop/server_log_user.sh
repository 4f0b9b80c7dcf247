#!/bin/sh
# A client-chosen user name cannot push the source address off a log
# line, and cannot forge one: as OpenSSH does, the name is cut to 100
# characters where it is logged and bytes that are not printable ASCII
# are written as \ooo octal escapes, so fail2ban-style rules still find
# "from ADDR port N". Debian's ssh sends a 2000-character name;
# paramiko sends names with control characters, a newline and UTF-8.
. "$(dirname "$0")/lib.sh"
need ssh
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
write_config <<EOF
PasswordAuthentication yes
KbdInteractiveAuthentication no
MaxAuthTries 3
EOF
start_sshd -o LogLevel=INFO	# no debug lines, which name no address
LONG=$("$PY" -c 'print("a" * 2000)')

# Debian's ssh: publickey refused (invalid user), then it gives up.
ossh -l "$LONG" 127.0.0.1 true 2>/dev/null
# paramiko: a password for the long name until MaxAuthTries ends it, and
# names that try to end the log line early.
"$PY" - "$PORT" <<'EOF'
import socket, sys
import paramiko
port = int(sys.argv[1])
names = ["b" * 2000, "ev\x01il\nx from 10.9.9.9 port 1\x1b[31m\u00e9\\"]
for name in names:
    t = paramiko.Transport(socket.create_connection(("127.0.0.1", port)))
    t.start_client(timeout=10)
    for _ in range(4):
        try:
            t.auth_password(name, "wrong")
        except paramiko.AuthenticationException:
            pass
        except Exception:
            break
    t.close()
EOF
sleep 0.5

# Every line that names the long user also names the source address.
for who in a b; do
	grep "${who}${who}${who}${who}${who}" "$T/sshd.log" > "$T/lines.$who"
	n=$(wc -l < "$T/lines.$who")
	echo "lines naming the long user $who: $n"
	check "long user $who logged" [ "$n" -ge 2 ]
	bad=$(grep -vc " 127\.0\.0\.1 port [0-9]" "$T/lines.$who")
	check "long user $who: every line keeps the address ($bad do not)" \
	    [ "$bad" -eq 0 ]
	longest=$(grep -o "${who}*" "$T/lines.$who" | awk '{ print length }' |
	    sort -n | tail -n 1)
	check "long user $who: name cut to 100 characters ($longest)" \
	    [ "$longest" -eq 100 ]
done
check "Invalid user line for the long name" \
    grep -q "^Invalid user a\{100\} from 127\.0\.0\.1 port [0-9]*$" "$T/sshd.log"
check "Failed password line for the long name" \
    grep -q "^Failed password for invalid user b\{100\} from 127\.0\.0\.1 port [0-9]* ssh2$" \
    "$T/sshd.log"

# The hostile name: one line each, escaped, the real address at the end.
grep 'ev\\001il' "$T/sshd.log" > "$T/lines.evil"
cat "$T/lines.evil"
check "hostile name logged, escaped" [ -s "$T/lines.evil" ]
check "no line starts with the forged tail" \
    [ "$(grep -c '^x from 10\.9\.9\.9' "$T/sshd.log")" -eq 0 ]
check "Invalid user line: octal escapes, real address last" \
    grep -q '^Invalid user ev\\001il\\012x from 10\.9\.9\.9 port 1\\033\[31m\\303\\251\\\\ from 127\.0\.0\.1 port [0-9]*$' \
    "$T/sshd.log"
finish
