#!/bin/sh
# Each connection process is sshd executed anew (sshd -R), not a mere
# fork of the listener: two connections that sit before the version
# exchange are served by processes whose program, libc, stack and heap
# each start at an address of their own, different from each other's
# and from the listener's (with ASLR on, as
# /proc/sys/kernel/randomize_va_space 2 has it; a fork would copy the
# listener's layout). They run the listener's program, hold only
# stdio, the socket (fd 3) and the startup pipe (fd 4), and a real
# login through them works. In daemon mode with a relative -f, the
# connection process still finds the configuration, then runs from "/"
# as its listener does.
#
# In the sanitizer build, AddressSanitizer's allocator sits at a fixed
# address in every process, forked or executed, and there is no brk
# heap to compare; the program, libc and the stack are still placed
# anew by the kernel at each exec (and copied by a fork), so the
# comparison means the same there for them.
. "$(dirname "$0")/lib.sh"
need ssh
need ps
[ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" = 2 ] ||
    skip "ASLR is not fully on (randomize_va_space is not 2)"
make_keys
write_config </dev/null
start_sshd

# children PID: the processes whose parent is PID.
children() { ps -o pid= --ppid "$1" | tr -d ' '; }

# region PID NAME: the start address of the first mapping of NAME in
# PID: "exe" (the program's file), "libc", "[stack]" or "[heap]".
region() {
	exe=$(readlink "/proc/$1/exe")
	awk -v n="$2" -v exe="$exe" '
	    { path = $6 }
	    (n == "exe" && path == exe) ||
	    (n == "libc" && path ~ /\/libc[-.][^\/]*$/) ||
	    (n == path) { split($1, a, "-"); print a[1]; exit }' \
	    "/proc/$1/maps"
}

# Two connections that send nothing, held open until killed.
"$PY" -c '
import socket, sys, time
s = [socket.create_connection(("127.0.0.1", int(sys.argv[1])))
     for _ in range(2)]
time.sleep(120)
' "$PORT" &
HOLD=$!
at_exit "kill $HOLD 2>/dev/null"

# Both connection processes have executed sshd and read their config.
i=0
while [ "$(grep -c "^Connection from 127.0.0.1" "$T/sshd.log")" -lt 2 ] &&
    [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
check "two connection processes started" \
    [ "$(grep -c "^Connection from 127.0.0.1" "$T/sshd.log")" -eq 2 ]
kids=$(children "$SSHD_PID" | tr "\n" " ")
set -- $kids
check "the listener has two children ($kids)" [ $# -eq 2 ]
C1=${1:-0} C2=${2:-0}

L_EXE=$(readlink "/proc/$SSHD_PID/exe")
for c in "$C1" "$C2"; do
	check "connection $c runs the listener's program" \
	    [ "$(readlink "/proc/$c/exe")" = "$L_EXE" ]
	check "connection $c was started with -R" \
	    sh -c "tr '\\0' '\\n' < /proc/$c/cmdline | grep -qx -- -R"
	# 0-2, the client (3), the startup pipe (4), the socketpair to
	# its pre-authentication child (privilege separation, 5) and the
	# monitor's event loop (6).
	fds=$(ls "/proc/$c/fd" | sort -n | tr '\n' ' ')
	check "connection $c holds fds 0-6 only ($fds)" \
	    [ "$fds" = "0 1 2 3 4 5 6 " ]
	check "connection $c: fd 6 is the monitor's epoll instance" \
	    sh -c "readlink /proc/$c/fd/6 | grep -qx 'anon_inode:\[eventpoll\]'"
	check "connection $c: fd 5 is a socket" \
	    sh -c "readlink /proc/$c/fd/5 | grep -q '^socket:'"
	check "connection $c: fd 3 is the socket" \
	    sh -c "readlink /proc/$c/fd/3 | grep -q '^socket:'"
	check "connection $c: fd 4 is the startup pipe" \
	    sh -c "readlink /proc/$c/fd/4 | grep -q '^pipe:'"
done
check "the listener was not started with -R" \
    sh -c "! tr '\\0' '\\n' < /proc/$SSHD_PID/cmdline | grep -qx -- -R"

for r in exe libc "[stack]" "[heap]"; do
	l=$(region "$SSHD_PID" "$r")
	a=$(region "$C1" "$r")
	b=$(region "$C2" "$r")
	echo "$r: listener $l, connections $a $b"
	if [ "$r" = "[heap]" ] && { [ -z "$l" ] || [ -z "$a" ] || [ -z "$b" ]; }
	then
		echo "($r is not in every process: not compared)"
		continue
	fi
	check "$r found in all three" [ -n "$l" ] && [ -n "$a" ] && [ -n "$b" ]
	check "$r: the connections' start addresses differ" [ "$a" != "$b" ]
	check "$r: the first connection's differs from the listener's" \
	    [ "$a" != "$l" ]
	check "$r: the second connection's differs from the listener's" \
	    [ "$b" != "$l" ]
done

# They go once the client does; a real login still works.
kill "$HOLD" 2>/dev/null
wait "$HOLD" 2>/dev/null
i=0
while [ -n "$(children "$SSHD_PID")" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
check "the idle connection processes ended with their clients" \
    [ -z "$(children "$SSHD_PID")" ]
check "a login through a re-executed connection process" \
    [ "$(ossh "$ME@127.0.0.1" 'echo in')" = in ]

# Daemon mode, relative -f: the connection process reads the config
# from sshd's start directory, then runs from "/".
write_config </dev/null
: > "$T/daemon.log"
(cd "$T" && exec "$BIN/sshd" -f sshd_config -E "$T/daemon.log" \
    -o "PidFile $T/daemon.pid" -o "PerSourcePenalties no")
i=0
while ! [ -s "$T/daemon.pid" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
DPID=$(cat "$T/daemon.pid" 2>/dev/null)
at_exit "kill $DPID 2>/dev/null"
check "daemon started (pid ${DPID:-none})" [ -n "$DPID" ]
check "daemon mode, relative -f: a login" \
    [ "$(ossh "$ME@127.0.0.1" 'readlink /proc/$PPID/cwd')" = / ]
kill "$DPID" 2>/dev/null
cat "$T/daemon.log" >> "$T/sshd.log"
finish
