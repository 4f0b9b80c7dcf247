#!/bin/sh
# LoginGraceTime is an absolute deadline from accept: clients that keep
# the connection busy without getting anywhere (a banner byte a second,
# a KEXINIT byte a second, an IGNORE a second after key exchange) are
# cut within it, and the "Timeout before authentication" line names
# them; sshd -i too. Forty such tricklers do not keep MaxStartups full:
# once they are cut, real logins get through (left uncut, most slots
# stay taken and most logins are refused) and no connection process is
# left behind. LoginGraceTime 0 and sshd -d set no limit, as OpenSSH.
. "$(dirname "$0")/lib.sh"
need ssh
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
H="$(dirname "$0")/grace_helper.py"
GRACE=3

# Whether the log names the connection from local port $1 as timed out.
timed_out() {
	grep -q "^Timeout before authentication for 127.0.0.1 port $1\$" \
	    "$T/sshd.log"
}

restart_sshd "LoginGraceTime $GRACE" "MaxStartups 10:30:30"

# (a) banner, (b) KEXINIT, (c) IGNORE after KEX, all at once; and
# alongside, sshd -i (the peer of a socketpair is "UNKNOWN").
"$PY" "$H" inetd "$GRACE" banner -- "$BIN/sshd" -i -e \
    -f "$T/sshd_config" > "$T/inetd.out" 2> "$T/inetd.log" &
INETD=$!
at_exit "kill $INETD 2>/dev/null"
"$PY" "$H" cut "$PORT" "$GRACE" banner kexinit ignore > "$T/cut.out"
rc=$?
cat "$T/cut.out"
check "tricklers cut within LoginGraceTime + 3 s" [ $rc -eq 0 ]
for kind in banner kexinit ignore; do
	lport=$(awk -v k="$kind" '$1 == k { print $3 }' "$T/cut.out")
	check "$kind trickler: timeout logged with its port ($lport)" \
	    timed_out "$lport"
done
wait "$INETD"
rc=$?
cat "$T/inetd.out"
check "sshd -i: trickler cut within LoginGraceTime + 3 s" [ $rc -eq 0 ]
check "sshd -i: timeout logged" grep -q \
    "^Timeout before authentication for UNKNOWN port 65535\$" "$T/inetd.log"

# (d) Forty banner tricklers against MaxStartups 10:30:30, then logins.
# A sanitizer build gets 8 s of slack instead of 3 for the burst.
slack=3
[ "$SANITIZED" = 1 ] && slack=8
GRACE_SLACK=$slack "$PY" "$H" flood "$PORT" "$GRACE" 40 > "$T/flood.out" &
FLOOD=$!
at_exit "kill $FLOOD 2>/dev/null"
i=0
while kill -0 "$FLOOD" 2>/dev/null && [ $i -lt $(((GRACE + slack) * 5)) ]; do
	sleep 0.2
	i=$((i + 1))
done
ok=0
for n in 1 2 3 4 5; do
	out=$(ossh -o ConnectTimeout=5 "$ME@127.0.0.1" "echo login$n" 2>&1)
	[ "$out" = "login$n" ] && ok=$((ok + 1))
done
wait "$FLOOD"
rc=$?
cat "$T/flood.out"
check "every trickler the server took was cut in time" [ $rc -eq 0 ]
check "real logins got through after the tricklers ($ok of 5)" [ $ok -eq 5 ]
n=$(grep -c "^Timeout before authentication for 127.0.0.1 port" "$T/sshd.log")
held=$(sed -n 's/.* dropped by MaxStartups, \([0-9]*\) held.*/\1/p' \
    "$T/flood.out")
check "a timeout line for each (${n} lines, ${held:-?} held + 3 earlier)" \
    [ "$n" -eq $((${held:-0} + 3)) ]
i=0
while [ -n "$(ps -o pid= --ppid "$SSHD_PID")" ] && [ $i -lt 25 ]; do
	sleep 0.2
	i=$((i + 1))
done
check "no connection process left behind" \
    [ -z "$(ps -o pid= --ppid "$SSHD_PID")" ]

# No deadline with LoginGraceTime 0, nor under sshd -d (as OpenSSH: a
# debugging session), both at once: a second server, with -d, on a
# config and port of its own.
restart_sshd "LoginGraceTime 0"
GPORT=$PORT
echo "LoginGraceTime $GRACE" > "$T/extra"
cp "$T/sshd_config" "$T/sshd_config.0"
write_config < "$T/extra"
mv "$T/sshd_config" "$T/sshd_config.d"
mv "$T/sshd_config.0" "$T/sshd_config"
"$BIN/sshd" -d -e -f "$T/sshd_config.d" 2> "$T/sshd_d.log" &
DPID=$!
at_exit "kill $DPID 2>/dev/null"
i=0
while ! grep -q "Server listening" "$T/sshd_d.log" && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
"$PY" "$H" open "$PORT" $((GRACE + 2)) banner > "$T/open_d.out" &
OPEN_D=$!
"$PY" "$H" open "$GPORT" $((GRACE + 2)) ignore
check "LoginGraceTime 0: no deadline" [ $? -eq 0 ]
wait "$OPEN_D"
rc=$?
cat "$T/open_d.out"
check "sshd -d: no deadline" [ $rc -eq 0 ]
kill "$DPID" 2>/dev/null
wait "$DPID" 2>/dev/null
# finish looks for sanitizer reports in sshd.log.
cat "$T/inetd.log" "$T/sshd_d.log" >> "$T/sshd.log"
finish
