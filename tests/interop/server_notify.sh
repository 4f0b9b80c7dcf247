#!/bin/sh
# sshd tells a service manager its state through $NOTIFY_SOCKET, as
# systemd's Type=notify units expect (sd_notify(3)): READY=1 once it
# listens; on SIGHUP, RELOADING=1 with MONOTONIC_USEC= (the clock
# systemd compares) before it executes itself again, then READY=1 when
# it listens anew; STOPPING=1 on SIGTERM. Every message comes from the
# listener's own PID (systemd's NotifyAccess=main), none from a
# connection process, nor from sshd -i. The manager's end is
# notify_helper.py: a path socket, then an abstract one ('@'). A name
# sshd cannot use is logged and changes nothing else.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
write_config < /dev/null

N=$T/notify.log
# start_notify ADDR: the manager's socket at ADDR, stopped at exit.
start_notify() {
	rm -f "$N" "$N.bound"
	"$PY" "$SRC/tests/interop/notify_helper.py" "$1" "$N" &
	NOTIFY_PID=$!
	at_exit "kill $NOTIFY_PID 2>/dev/null"
	i=0
	while [ ! -f "$N.bound" ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && { echo "notify_helper did not start" >&2; exit 1; }
		sleep 0.05
	done
}
# count MSG: how many datagrams were exactly MSG.
count() { grep -c " $1\$" "$N" 2>/dev/null; }
# wait_count MSG N: up to 20 s for N datagrams that were MSG.
wait_count() {
	_i=0
	while [ "$(count "$1")" -lt "$2" ]; do
		_i=$((_i + 1)); [ $_i -gt 400 ] && return 1; sleep 0.05
	done
}

# --- a path socket: the whole life of a server ---
start_notify "$T/notify.sock"
NOTIFY_SOCKET=$T/notify.sock
export NOTIFY_SOCKET
start_sshd
unset NOTIFY_SOCKET
check "READY=1 once listening" wait_count "READY=1" 1
check "no other message yet" [ "$(wc -l < "$N")" -eq 1 ]
check "READY=1 from the listener's PID" \
    grep -q "^pid=$SSHD_PID .* READY=1\$" "$N"

ossh "$ME@127.0.0.1" true
check "a login meanwhile" [ $? -eq 0 ]
sleep 0.5
check "a connection process sends nothing" [ "$(wc -l < "$N")" -eq 1 ]

kill -HUP "$SSHD_PID"
check "RELOADING=1 on SIGHUP" wait_log "$N" "RELOADING=1|MONOTONIC_USEC="
check "READY=1 again once listening anew" wait_count "READY=1" 2
check "RELOADING before the second READY" [ "$(sed -n 2p "$N" |
    grep -c 'RELOADING=1|MONOTONIC_USEC=[0-9][0-9]*$')" -eq 1 ]
check "READY=1 after the reload from the same PID" \
    [ "$(grep -c "^pid=$SSHD_PID " "$N")" -eq 3 ]
# MONOTONIC_USEC: CLOCK_MONOTONIC in microseconds when sent, at most
# the receipt time and not long before it.
line=$(grep "RELOADING=1" "$N" | head -1)
now=$(echo "$line" | sed 's/^pid=[0-9]* now=\([0-9]*\) .*/\1/')
sent=$(echo "$line" | sed 's/.*MONOTONIC_USEC=\([0-9]*\)$/\1/')
recent() { [ "$sent" -le "$now" ] && [ $((now - sent)) -lt 5000000 ]; }
check "MONOTONIC_USEC is the monotonic clock in microseconds" recent
ossh "$ME@127.0.0.1" true
check "a login after the reload" [ $? -eq 0 ]

kill -TERM "$SSHD_PID"
check "STOPPING=1 on SIGTERM" wait_count "STOPPING=1" 1
check "from the listener, last" [ "$(tail -1 "$N" |
    grep -c "^pid=$SSHD_PID now=[0-9]* STOPPING=1\$")" -eq 1 ]
wait "$SSHD_PID"
SSHD_PID=""
check "four messages in all" [ "$(wc -l < "$N")" -eq 4 ]
kill "$NOTIFY_PID" 2>/dev/null

# --- an abstract socket ---
NOTIFY_SOCKET=@moat-notify-$$-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
start_notify "$NOTIFY_SOCKET"
export NOTIFY_SOCKET
start_sshd
unset NOTIFY_SOCKET
check "abstract socket: READY=1" wait_count "READY=1" 1
kill -TERM "$SSHD_PID"
check "abstract socket: STOPPING=1" wait_count "STOPPING=1" 1
wait "$SSHD_PID"
SSHD_PID=""
kill "$NOTIFY_PID" 2>/dev/null

# --- sshd -i (inetd, here a ProxyCommand) serves one connection and
# never speaks for a service ---
start_notify "$T/notify2.sock"
NOTIFY_SOCKET=$T/notify2.sock ossh \
    -o ProxyCommand="$BIN/sshd -i -f $T/sshd_config -E $T/inetd.log" \
    "$ME@127.0.0.1" true
check "sshd -i: a login" [ $? -eq 0 ]
sleep 0.3
check "sshd -i: no message" [ ! -s "$N" ]
kill "$NOTIFY_PID" 2>/dev/null

# --- a name sshd cannot use: logged, the server works all the same ---
NOTIFY_SOCKET=relative/name
export NOTIFY_SOCKET
start_sshd
unset NOTIFY_SOCKET
check "an unusable NOTIFY_SOCKET logged" \
    wait_log "$T/sshd.log" 'NOTIFY_SOCKET "relative/name" is not'
ossh "$ME@127.0.0.1" true
check "and the server serves" [ $? -eq 0 ]
finish
