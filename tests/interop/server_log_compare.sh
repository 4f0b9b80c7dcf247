#!/bin/sh
# Log lines as OpenSSH's, checked the way an administrator's tools read
# them: the same scripted events (a key login and its logout, a wrong
# password, an invalid user, MaxAuthTries run out, an HTTP request on
# the port, a client that reads the banner and closes, a connection
# reset before authentication) are played against Debian's sshd and
# ours, each logging through syslog to a private socket at LogLevel INFO
# and VERBOSE. With PIDs, ports and times taken out, the two sets of
# lines must be the same, and Debian's fail2ban sshd filter (normal and
# aggressive) must count the same failures in both.
#
# The test runs itself again in a private mount namespace whose /dev is
# a small tmpfs holding the usual devices and a /dev/log that points to
# a socket of the test's, so no system syslog is needed and none is
# touched.
if [ -z "${LOGCMP_NS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root" >&2; exit 77; }
	command -v unshare >/dev/null 2>&1 ||
	    { echo "SKIP: unshare not installed" >&2; exit 77; }
	LOGCMP_NS=1 exec unshare -m sh "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
need ssh
need fail2ban-regex
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
FILTER=/etc/fail2ban/filter.d/sshd.conf
[ -r "$FILTER" ] || skip "no $FILTER"

# The private /dev: a tmpfs made elsewhere, holding the usual devices
# bound one by one from the real /dev, then moved over /dev. Nothing of
# the real /dev is ever mounted under $T (whose removal at exit would
# reach into it).
mount --make-rprivate / || skip "cannot make mounts private"
NEWDEV=$(mktemp -d /tmp/moat-dev.XXXXXX)
mount -t tmpfs -o mode=755 tmpfs "$NEWDEV" ||
    { rmdir "$NEWDEV"; skip "cannot mount a tmpfs"; }
for d in null zero full random urandom tty ptmx; do
	[ -e "/dev/$d" ] || continue
	: > "$NEWDEV/$d"
	mount --bind "/dev/$d" "$NEWDEV/$d"
done
for d in pts shm; do
	[ -d "/dev/$d" ] || continue
	mkdir "$NEWDEV/$d"
	mount --rbind "/dev/$d" "$NEWDEV/$d"
done
mount --move "$NEWDEV" /dev || { umount -R "$NEWDEV"; rmdir "$NEWDEV";
    skip "cannot move a tmpfs over /dev"; }
rmdir "$NEWDEV"
ln -s /proc/self/fd /dev/fd
# The socket is in a directory of its own that every user can reach: a
# process running as the user (after login) logs through it too.
SOCKDIR=$(mktemp -d /tmp/moat-log.XXXXXX)
at_exit "rm -rf '$SOCKDIR'"
chmod 755 "$SOCKDIR"
ln -s "$SOCKDIR/log.sock" /dev/log

U=lgc$$
PW="Lc-$$-ok"
make_user "$U" "$PW"
make_keys
# OpenSSH reads authorized_keys as the user: the user's own file.
H=$(getent passwd "$U" | cut -d: -f6)
mkdir -p "$H/.ssh"
cp "$T/id_ed25519.pub" "$H/.ssh/authorized_keys"
chown -R "$U" "$H/.ssh"
chmod 700 "$H/.ssh"
AKF=.ssh/authorized_keys STRICT_MODES=yes write_config <<EOF
UsePAM yes
PasswordAuthentication yes
KbdInteractiveAuthentication no
MaxAuthTries 3
PerSourcePenalties no
EOF
# Each server's port is given on its command line. Debian's sshd has no
# PerSourcePenalties (9.2): the same file less it.
sed -i '/^Port /d' "$T/sshd_config"
grep -v PerSourcePenalties "$T/sshd_config" > "$T/sshd_config.deb"
printf '#!/bin/sh\necho wrong-password\n' > "$T/askpass"
chmod 755 "$T/askpass"

# pw_ssh USER PROMPTS: Debian's ssh with passwords only, all wrong.
pw_ssh() {
	SSH_ASKPASS="$T/askpass" SSH_ASKPASS_REQUIRE=force \
	    ssh -F /dev/null -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
	    -o PreferredAuthentications=password -o PubkeyAuthentication=no \
	    -o NumberOfPasswordPrompts="$2" -p "$PORT" -l "$1" 127.0.0.1 true \
	    </dev/null >/dev/null 2>&1
}

# raw KIND: a plain TCP client: "http" sends a request, "banner" reads
# the server's version line and closes, "reset" sends a version line,
# waits for the server's KEXINIT and resets the connection.
raw() {
	"$PY" - "$PORT" "$1" <<'EOF'
import socket, struct, sys, time
port, kind = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port), timeout=10)
if kind == "http":
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
elif kind == "banner":
    # Reads what the server sent (all of it: what is left unread turns
    # the close into a reset) and closes.
    s.recv(256)
    s.settimeout(0.3)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
elif kind == "reset":
    s.sendall(b"SSH-2.0-LogTest_1.0\r\n")
    got = b""
    while len(got) < 100:
        d = s.recv(4096)
        if not d:
            break
        got += d
    time.sleep(0.2)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
s.close()
EOF
}

# login: a key login (paramiko) that runs a command and disconnects
# while it runs, as a client that quits does.
login() {
	"$PY" - "$PORT" "$U" "$T/id_ed25519" <<'EOF'
import sys, time, logging
import paramiko
logging.getLogger("paramiko").setLevel(logging.CRITICAL)
port, user, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
c = paramiko.SSHClient()
c.set_missing_host_key_policy(paramiko.AutoAddPolicy())
c.connect("127.0.0.1", port, username=user,
          pkey=paramiko.Ed25519Key.from_private_key_file(key),
          allow_agent=False, look_for_keys=False)
t = c.get_transport()
ch = t.open_session()
ch.exec_command("sleep 3")
time.sleep(1)
m = paramiko.Message()
m.add_byte(bytes([1]))		# SSH_MSG_DISCONNECT
m.add_int(11)			# SSH2_DISCONNECT_BY_APPLICATION
m.add_string("disconnected by user")
m.add_string("")
t._send_user_message(m)
time.sleep(0.3)
c.close()
EOF
}

# events PORT: every scripted event against the server on PORT, at once.
events() {
	PORT=$1
	{ login || echo "key login to the server on port $PORT failed" \
	    >> "$T/keyfail"; } &
	e="$!"
	pw_ssh "$U" 1 & e="$e $!"
	ID=$T/id_rsa ossh -l "nosuch$U" 127.0.0.1 true </dev/null >/dev/null 2>&1 &
	e="$e $!"
	pw_ssh "nosuch$U" 1 & e="$e $!"
	pw_ssh "$U" 5 & e="$e $!"
	raw http & e="$e $!"
	raw banner & e="$e $!"
	raw reset & e="$e $!"
	wait $e
}

# The four servers run side by side, each with its own port and syslog
# facility (LOCAL0 to LOCAL3); a line PAM logs at its own facility
# belongs to the server whose process (PID) logged it.
"$PY" "$SRC/tests/interop/syslog_sink.py" "$SOCKDIR/log.sock" "$T/all.raw" \
    > "$T/sink.ready" &
SINK=$!
at_exit "kill $SINK 2>/dev/null"
wait_log "$T/sink.ready" ready || { echo "syslog sink did not start" >&2; exit 1; }
NAMES="deb-INFO moat-INFO deb-VERBOSE moat-VERBOSE"
fac=16
for name in $NAMES; do
	case $name in
	deb-*) sshd=/usr/sbin/sshd; conf=$T/sshd_config.deb ;;
	*) sshd=$BIN/sshd; conf=$T/sshd_config ;;
	esac
	port=$(free_port)
	"$sshd" -D -f "$conf" -o "LogLevel ${name#*-}" -o "Port $port" \
	    -o "SyslogFacility LOCAL$((fac - 16))" &
	pid=$!
	at_exit "kill $pid 2>/dev/null"
	wait_log "$T/all.raw" "^$fac|.*Server listening on 127.0.0.1 port $port" ||
	    { echo "$name did not start" >&2; exit 1; }
	eval "PORT_$fac=$port PID_$fac=$pid"
	fac=$((fac + 1))
done
EV=""
for fac in 16 17 18 19; do
	eval "events \$PORT_$fac" &
	EV="$EV $!"
done
wait $EV
# Every connection process gone, every line in.
for fac in 16 17 18 19; do
	eval "pid=\$PID_$fac"
	_i=0
	while [ -n "$(ps -o pid= --ppid "$pid" 2>/dev/null)" ]; do
		_i=$((_i + 1)); [ $_i -gt 200 ] && break; sleep 0.05
	done
	kill "$pid"
done
sleep 0.5
if [ -s "$T/keyfail" ]; then
	cat "$T/keyfail" >&2
	fail "a key login failed"
fi
fac=16
for name in $NAMES; do
	awk -F'|' -v f=$fac '
	    { pid = $3; sub(/^[^[]*\[/, "", pid); sub(/\].*/, "", pid) }
	    NR == FNR { if ($1 >= 16 && $1 <= 19) owner[pid] = $1; next }
	    owner[pid] == f { sub(/^[0-9]*\|/, ""); print }' \
	    "$T/all.raw" "$T/all.raw" > "$T/$name.raw"
	fac=$((fac + 1))
done

# norm FILE: the lines without time, host and PID, ports as P.
norm() {
	sed -e 's/^\([0-9]\)|.\{15\} [^ ]* \([^ []*\)\(\[[0-9]*\]\)\{0,1\}: /\1|\2: /' \
	    -e 's/ port [0-9][0-9]*/ port P/g' \
	    -e 's/^\(.*User child is on pid\) [0-9]*$/\1 N/' "$1" | sort -u
}

# f2b FILE MODE: failures fail2ban's sshd filter counts in FILE.
f2b() {
	cut -d'|' -f2- "$1" > "$1.f2b"
	fail2ban-regex "$1.f2b" "$FILTER[mode=$2]" 2>&1 |
	    sed -n 's/^Lines: [0-9]* lines, [0-9]* ignored, \([0-9]*\) matched.*/\1/p'
}

for level in INFO VERBOSE; do
	norm "$T/deb-$level.raw" > "$T/deb-$level.n"
	norm "$T/moat-$level.raw" > "$T/moat-$level.n"
	if diff "$T/deb-$level.n" "$T/moat-$level.n" > "$T/diff-$level"; then
		pass "$level: the same lines as Debian's sshd"
	else
		fail "$level: lines differ from Debian's sshd (< Debian, > ours)"
		cat "$T/diff-$level" >&2
	fi
	for mode in normal aggressive; do
		d=$(f2b "$T/deb-$level.raw" $mode)
		m=$(f2b "$T/moat-$level.raw" $mode)
		echo "$level $mode: fail2ban counts $d (Debian) and $m (ours)"
		check "$level $mode: fail2ban finds failures" [ "${d:-0}" -gt 0 ]
		check "$level $mode: fail2ban counts the same failures" \
		    [ "${d:-x}" = "${m:-y}" ]
	done
done
finish
