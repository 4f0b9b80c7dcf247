#!/bin/sh
# Descriptors the launching shell left open (fd 7 on /dev/null, fd 251 on
# a fifo) reach neither the listener nor a connection process: sshd
# closes everything above stderr when it starts, in daemon mode and with
# -i (where stdin and stdout are the connection and must stay), and the
# listener started again by SIGHUP has no more than before.
. "$(dirname "$0")/lib.sh"
need ssh
need bash
make_keys
write_config </dev/null
mkfifo "$T/fifo"

# Descriptors of process $1 above 2 that point at /dev/null or the fifo.
inherited() {
	ls -l "/proc/$1/fd" 2>/dev/null | awk -v f="$T/fifo" '
	    $(NF - 2) ~ /^[0-9]+$/ && $(NF - 2) > 2 &&
	    ($NF == "/dev/null" || index($NF, f) == 1) { print $(NF - 2) }'
}

: > "$T/sshd.log"
# bash, not sh: only bash opens a descriptor above 9 with exec.
bash -c 'exec 7</dev/null 251<>"$1"; shift; exec "$@"' sh "$T/fifo" \
    "$BIN/sshd" -D -e -f "$T/sshd_config" 2>>"$T/sshd.log" &
SSHD_PID=$!
i=0
while ! grep -q "Server listening" "$T/sshd.log" && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
check "sshd started with extra descriptors" grep -q "Server listening" "$T/sshd.log"
# The launching process really had them (the test is not vacuous).
bash -c 'exec 7</dev/null 251<>"$1"; ls /proc/$$/fd' sh "$T/fifo" > "$T/own"
check "the launcher had fd 7 and fd 251" grep -qx 251 "$T/own"

out=$(inherited "$SSHD_PID")
echo "listener's inherited descriptors: [$out]"
check "listener holds no inherited descriptor" [ -z "$out" ]

# The remote command's parent is the connection process.
conn_fds=$(ossh "$ME@127.0.0.1" 'ls -l /proc/$PPID/fd')
echo "$conn_fds" > "$T/conn_fds"
check "connection process listed" grep -q socket: "$T/conn_fds"
check "connection process holds no inherited descriptor" \
    [ -z "$(awk -v f="$T/fifo" '$(NF - 2) ~ /^[0-9]+$/ && $(NF - 2) > 2 &&
	($NF == "/dev/null" || index($NF, f) == 1)' "$T/conn_fds")" ]

kill -HUP "$SSHD_PID"
i=0
while [ "$(grep -c "Server listening" "$T/sshd.log")" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
check "restarted on SIGHUP" [ "$(grep -c "Server listening" "$T/sshd.log")" -ge 2 ]
check "restarted listener holds no inherited descriptor" \
    [ -z "$(inherited "$SSHD_PID")" ]
n_fds=$(ls "/proc/$SSHD_PID/fd" | wc -l)
echo "restarted listener has $n_fds descriptors"
ls -l "/proc/$SSHD_PID/fd"
# The fifth: the record of the configuration for its connection
# processes, a memfd (conftape.h).
n_memfd=$(ls -l "/proc/$SSHD_PID/fd" | grep -c "/memfd:sshd_config")
check "restarted listener: stdio, one listening socket, the config record" \
    [ "$n_fds" -eq 5 -a "$n_memfd" -eq 1 ]

# sshd -i: stdin/stdout are the connection; fd 7 and 251 must go.
cat > "$T/inetd.sh" <<EOF
#!/bin/bash
exec 7</dev/null 251<>"$T/fifo"
exec "$BIN/sshd" -i -e -f "$T/sshd_config" 2>>"$T/inetd.log"
EOF
chmod +x "$T/inetd.sh"
out=$(ossh -o ProxyCommand="$T/inetd.sh" "$ME@localhost" 'ls -l /proc/$PPID/fd')
echo "$out" > "$T/inetd_fds"
check "sshd -i served a session" grep -q . "$T/inetd_fds"
check "sshd -i holds no inherited descriptor" \
    [ -z "$(awk -v f="$T/fifo" '$(NF - 2) ~ /^[0-9]+$/ && $(NF - 2) > 2 &&
	($NF == "/dev/null" || index($NF, f) == 1)' "$T/inetd_fds")" ]
finish
