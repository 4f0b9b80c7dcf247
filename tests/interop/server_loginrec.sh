#!/bin/sh
# Login records of pty sessions, seen through the system's own tools and
# Debian's OpenSSH client: while a session runs, who(1) and utmpdump show
# the user on its pts from 127.0.0.1 (ut_id its last four characters,
# ut_pid the session's child); after it ends, the utmp entry is dead and
# wtmp holds the login and a logout for that line, last(1) shows it
# ended; lastlog has the login; the next shell prints "Last login: <ctime>
# from 127.0.0.1" from the record as it was before, an exec with a pty
# does not, and with PrintLastLog no a shell does not.
#
# Needs root (the records are root's files). It adds lines to the
# machine's wtmp and lastlog for the current user. A missing utmp, wtmp
# or lastlog file is created for the test and removed afterwards. Other
# tests may log in at the same time, so each check looks for this test's
# own line or process rather than the latest record. Debian's sshd passes
# it too (MOAT_BIN set to a directory holding a link to it).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root"
need ssh
need who
need last
need lastlog
need utmpdump
need od

UTMP=/var/run/utmp
WTMP=/var/log/wtmp
LASTLOG=/var/log/lastlog
MADE=""
for f in "$UTMP" "$WTMP" "$LASTLOG"; do
	[ -e "$f" ] && continue
	: > "$f" && chmod 664 "$f" && MADE="$MADE $f"
	chgrp utmp "$f" 2>/dev/null
done
trap 'cleanup; for f in $MADE; do rm -f "$f"; done' EXIT

MY_UID=$(id -u)
# sizeof(struct lastlog) on Linux with glibc: 32-bit time, 32 + 256 chars.
LL_SIZE=292
ll_time() {
	od -A n -t u4 -j $((MY_UID * LL_SIZE)) -N 4 "$LASTLOG" | tr -d ' '
}
# The epoch seconds of a "Last login:" line's date, or nothing.
msg_time() {
	sed -n 's/^Last login: \(.*\) from 127\.0\.0\.1$/\1/p' "$1" |
	    head -1 | { read -r d && date -d "$d" +%s; }
}
# between LOW HIGH VALUE: LOW <= VALUE <= HIGH (VALUE may be empty).
between() { [ -n "$3" ] && [ "$3" -ge "$1" ] && [ "$3" -le "$2" ]; }
# session_child PID: the session's child, under the connection's
# process that runs as the user, under its monitor, under the listener
# (OpenSSH's tree too).
session_child() {
	pp=$(ps -o ppid= -p "$1" | tr -d ' ')
	[ -n "$pp" ] && pp=$(ps -o ppid= -p "$pp" | tr -d ' ')
	[ -n "$pp" ] && [ "$(ps -o ppid= -p "$pp" | tr -d ' ')" = "$SSHD_PID" ]
}
LL_RE='^Last login: [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 123][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9][0-9][0-9][0-9] from 127\.0\.0\.1$'

make_keys
write_config </dev/null
start_sshd

# A pty session that runs a while: who and utmp see it.
t_a=$(date +%s)
ossh -tt "$ME@127.0.0.1" 'tty; sleep 3' </dev/null >"$T/a.out" 2>&1 &
A=$!
i=0
while ! grep -q '^/dev/pts/' "$T/a.out" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
TTY=$(tr -d '\r' <"$T/a.out" | sed -n 's|^/dev/\(pts/[0-9]*\)$|\1|p')
check "the session has a pty ($TTY)" [ -n "$TTY" ]
[ -n "$TTY" ] || TTY=pts/none
UTID=$(printf '%s' "$TTY" | tail -c 4)
who >"$T/who"
check "who shows $ME on $TTY from 127.0.0.1" \
    grep -q "^$ME  *$TTY .*(127\.0\.0\.1)" "$T/who"
utmpdump "$UTMP" 2>/dev/null >"$T/utmp.live"
REC=$(grep "^\[7\] \[[0-9]*\] \[$UTID *\] \[$ME *\] \[$TTY *\] \[127\.0\.0\.1 *\] \[127\.0\.0\.1 *\]" \
    "$T/utmp.live")
check "utmp: USER_PROCESS, id $UTID, $ME, $TTY, host and address" \
    [ -n "$REC" ]
PID=$(printf '%s\n' "$REC" | sed -n '1s/^\[7\] \[0*\([0-9]*\)\].*/\1/p')
check "ut_pid ($PID) is the session's child" session_child "$PID"
wait $A
t_a_end=$(date +%s)

# After it ends: utmp entry dead, wtmp login and logout, last, lastlog.
utmpdump "$UTMP" 2>/dev/null >"$T/utmp.after"
check "utmp: the entry is no longer a live login" \
    sh -c "! grep -q '^\[7\] \[0*$PID\]' '$T/utmp.after'"
check "utmp: $TTY's entry is a DEAD_PROCESS with no user" \
    grep -q "^\[8\] \[0*$PID\] \[$UTID *\] \[ *\] \[$TTY *\] \[ *\]" \
    "$T/utmp.after"
utmpdump "$WTMP" 2>/dev/null >"$T/wtmp"
awk -v pid="$PID" -v tty="$TTY" '
	index($0, "[7] [") == 1 && $2 ~ "^\\[0*" pid "\\]$" &&
	    index($0, "[" tty " ") { login = 1; next }
	login && index($0, "[8] [") == 1 && index($0, "[" tty " ") &&
	    index($0, "[        ]") { found = 1 }
	END { exit !found }' "$T/wtmp"
check "wtmp: the login on $TTY, then a logout for it" [ $? -eq 0 ]
last -w "$ME" 2>/dev/null | grep " $TTY " | head -1 >"$T/last"
check "last -w: $ME on $TTY from 127.0.0.1, ended" \
    sh -c "grep -q '127\.0\.0\.1' '$T/last' &&
    ! grep -q 'still logged in' '$T/last'"
LLT=$(ll_time)
check "lastlog: the login's time ($LLT in $t_a..$t_a_end or later)" \
    between "$t_a" "$(date +%s)" "$LLT"
lastlog -u "$ME" >"$T/lastlog"
check "lastlog -u: a pts from 127.0.0.1" \
    grep -q "^$ME  *pts/[0-9]*  *127\.0\.0\.1 " "$T/lastlog"

# A shell prints the previous login first.
t_b=$(date +%s)
(sleep 1; echo 'echo marker-$((40+2))'; echo exit) |
    ossh -tt "$ME@127.0.0.1" 2>&1 | tr -d '\r' >"$T/b.out"
check "shell: the session ran" grep -q 'marker-42$' "$T/b.out"
check "shell: 'Last login: <ctime> from 127.0.0.1'" \
    grep -q "$LL_RE" "$T/b.out"
MT=$(msg_time "$T/b.out")
check "shell: the time is the earlier login's ($MT in $t_a..$t_b)" \
    between "$t_a" "$t_b" "$MT"
check "shell: printed once" [ "$(grep -c '^Last login:' "$T/b.out")" = 1 ]
if [ -s /etc/motd ]; then
	first=$(grep -v '^$' /etc/motd | head -1)
	check "shell: the line comes before the motd" sh -c "
	    grep -n -e '^Last login:' -e '^$first\$' '$T/b.out' | head -1 |
	    grep -q ':Last login:'"
fi

# A command with a pty is a login too but prints no message.
ossh -tt "$ME@127.0.0.1" 'echo cmd-ran' </dev/null 2>&1 | tr -d '\r' \
    >"$T/c.out"
check "exec with a pty: ran" grep -q '^cmd-ran$' "$T/c.out"
check "exec with a pty: no Last login line" \
    sh -c "! grep -q 'Last login' '$T/c.out'"

# PrintLastLog no: a shell without the line, still recorded.
kill "$SSHD_PID"
wait "$SSHD_PID" 2>/dev/null
SSHD_PID=""
write_config <<EOF
PrintLastLog no
EOF
start_sshd
t_d=$(date +%s)
(sleep 1; echo 'echo marker-$((40+3))'; echo exit) |
    ossh -tt "$ME@127.0.0.1" 2>&1 | tr -d '\r' >"$T/d.out"
check "PrintLastLog no: the shell ran" grep -q 'marker-43$' "$T/d.out"
check "PrintLastLog no: no Last login line" \
    sh -c "! grep -q 'Last login' '$T/d.out'"
LLT=$(ll_time)
check "PrintLastLog no: the login is still recorded in lastlog" \
    between "$t_d" "$(date +%s)" "$LLT"

finish
