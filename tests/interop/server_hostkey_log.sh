#!/bin/sh
# What sshd logs while its host keys load, and where, against Debian's
# sshd: a HostKey that is not a key, one that is missing, one others may
# read, and a good one. Until the keys are loaded OpenSSH logs at the
# command line's level (-q, -d, -o LogLevel; INFO otherwise), whatever
# the file's LogLevel says, on stderr (a connection's re-executed
# process: to syslog); the file's LogLevel and syslog apply after. Run
# with sshd -t and with a daemon in the foreground (-D, no -e) that
# serves one connection, at LogLevel QUIET and DEBUG3, the stderr and
# the syslog lines of both compared.
#
# Like server_log_compare.sh, the test runs itself again in a private
# mount namespace whose /dev/log is a socket of the test's.
if [ -z "${HKLOG_NS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root" >&2; exit 77; }
	command -v unshare >/dev/null 2>&1 ||
	    { echo "SKIP: unshare not installed" >&2; exit 77; }
	HKLOG_NS=1 exec unshare -m sh "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
[ -x /usr/sbin/sshd ] || skip "Debian's sshd not installed"
need ssh

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
SOCKDIR=$(mktemp -d /tmp/moat-log.XXXXXX)
at_exit "rm -rf '$SOCKDIR'"
chmod 755 "$SOCKDIR"
ln -s "$SOCKDIR/log.sock" /dev/log
"$PY" "$SRC/tests/interop/syslog_sink.py" "$SOCKDIR/log.sock" "$T/all.raw" \
    > "$T/sink.out" &
SINK=$!
at_exit "kill $SINK 2>/dev/null"
wait_log "$T/sink.out" ready || { echo "no syslog sink" >&2; exit 1; }
mkdir -p /run/sshd

make_keys
K=$T/keys
mkdir "$K"
cp "$T/host_ed25519" "$K/good"
printf 'not a key\n' > "$K/bad"
chmod 600 "$K/bad"
cp "$T/host_ecdsa" "$K/open"
chmod 644 "$K/open"
# conf LEVEL: the configuration, listening on $PORT.
conf() {
	PORT=$(free_port)
	printf '%s\n' "HostKey $K/bad" "HostKey $K/missing" "HostKey $K/open" \
	    "HostKey $K/good" "LogLevel $1" "ListenAddress 127.0.0.1" \
	    "Port $PORT" "PidFile none" "StrictModes no" \
	    "AuthorizedKeysFile $T/authorized_keys" > "$T/cfg"
}
# Syslog lines since mark: facility|severity|text, without the date,
# host and PID.
mark() { wc -l < "$T/all.raw"; }
syslines() {
	tail -n +$(($1 + 1)) "$T/all.raw" |
	    sed 's/^\([0-9]*|[0-9]*\)|.\{15\} [^ ]* [^:]*: /\1|/'
}
# Lines about the host keys (a -d or DEBUG3 run says much else too).
keylines() {
	grep 'load host key\|private host key #\|no hostkeys\|@@@\|UNPROTECTED\|are too open\|accessible by others\|will be ignored' "$@"
}
# same DESC FILE-OURS FILE-DEBIAN (line ends aside: OpenSSH ends its
# stderr lines with \r\n even in a file, a difference the README lists)
same() {
	tr -d '\r' < "$2" > "$2.n"
	tr -d '\r' < "$3" > "$3.n"
	if cmp -s "$2.n" "$3.n"; then
		pass "$1"
	else
		fail "$1"
		diff "$3.n" "$2.n" | sed 's/^/    /' >&2
	fi
}

# sshd -t, the configuration's level and the command line's.
for lv in QUIET DEBUG3; do
	conf $lv
	for who in debian ours; do
		[ $who = ours ] && prog=$BIN/sshd || prog=/usr/sbin/sshd
		m=$(mark)
		"$prog" -t -f "$T/cfg" 2>"$T/t.$who"
		echo "status $?" >> "$T/t.$who"
		sleep 0.2
		syslines "$m" > "$T/ts.$who"
	done
	same "sshd -t, LogLevel $lv: stderr as Debian's" "$T/t.ours" "$T/t.debian"
	same "sshd -t, LogLevel $lv: nothing in syslog, as Debian's" \
	    "$T/ts.ours" "$T/ts.debian"
done
check "... and that says something (the key that is not one)" \
    grep -q 'Unable to load host key "'"$K"'/bad"' "$T/t.ours"
conf INFO
for flags in "-q" "-o LogLevel=QUIET" "-o LogLevel=DEBUG3" "-d"; do
	for who in debian ours; do
		[ $who = ours ] && prog=$BIN/sshd || prog=/usr/sbin/sshd
		# shellcheck disable=SC2086
		"$prog" -t $flags -f "$T/cfg" 2>&1 | keylines > "$T/f.$who"
	done
	same "sshd -t $flags: the host key lines as Debian's" \
	    "$T/f.ours" "$T/f.debian"
done

# A daemon in the foreground, no -e, serving one connection.
listening() {
	"$PY" -c 'import socket,sys
s=socket.socket(); s.settimeout(1)
sys.exit(s.connect_ex(("127.0.0.1", int(sys.argv[1]))) != 0)' "$PORT"
}
for lv in QUIET DEBUG3; do
	conf $lv
	for who in debian ours; do
		[ $who = ours ] && prog=$BIN/sshd || prog=/usr/sbin/sshd
		m=$(mark)
		"$prog" -D -f "$T/cfg" 2>"$T/d.$who" &
		pid=$!
		i=0
		until listening; do
			i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.1
		done
		ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
		    -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes \
		    -i "$T/id_ed25519" -p "$PORT" "$ME@127.0.0.1" true \
		    </dev/null >/dev/null 2>&1
		sleep 0.5
		kill "$pid"; wait "$pid" 2>/dev/null
		syslines "$m" | keylines > "$T/ds.$who"
	done
	same "sshd -D, LogLevel $lv: stderr as Debian's" "$T/d.ours" "$T/d.debian"
	same "sshd -D, LogLevel $lv: host key lines in syslog as Debian's" \
	    "$T/ds.ours" "$T/ds.debian"
done
finish
