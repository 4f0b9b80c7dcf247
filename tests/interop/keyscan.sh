#!/bin/sh
# ssh-keyscan against Debian's: the same command lines run through both,
# scanning our sshd, Debian's OpenSSH sshd (with a DSA key too), OpenSSH
# 10.5's and Dropbear, and the output compared byte for byte (lines
# sorted: both print keys as their connections finish; Debian's \r at
# the end of its error lines dropped) with the exit statuses: each key
# type, -c with host certificates, -D, -H (checked with ssh-keygen -F:
# its salt is random), -f with several targets and name lists, CIDR
# ranges, port 22's one-field name lists, servers that hang up, and the
# errors. Then 200 targets at once, live, closed and silent, done within
# the timeout.
#
# Addresses, all on one port: 127.0.0.1-10 our sshd, 11-20 Debian's,
# 21 OpenSSH 10.5's, 22 Dropbear, 23 security keys and bad signatures
# (keyscan_fake.py), 25 a server that hangs up at once,
# 31-50 silent, 51-60 a version line then silence; the rest closed.
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/ssh-keyscan ] || skip "Debian's ssh-keyscan not installed"
KS=$BIN/ssh-keyscan
[ -x "$KS" ] || skip "no $KS"
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/hca" -C hca
for t in ed25519 rsa; do
	ssh-keygen -q -s "$T/hca" -I "host-$t" -h -n 127.0.0.1 \
	    "$T/host_$t.pub"
done
PORT=$(free_port)

# A free 127.0.0.X:22 for the port-22 forms (root, nothing on *:22).
P22=""
if [ "$(id -u)" = 0 ]; then
	P22=$("$PY" -c '
import random, socket
for _ in range(20):
    a = "127.0.0.%d" % random.randint(100, 250)
    s = socket.socket()
    try:
        s.bind((a, 22))
    except OSError:
        continue
    finally:
        s.close()
    print(a)
    break
')
fi

{
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "ListenAddress 127.0.0.$i:$PORT"
	done
	[ -n "$P22" ] && echo "ListenAddress $P22:22"
	for t in ed25519 ecdsa rsa; do echo "HostKey $T/host_$t"; done
	echo "HostCertificate $T/host_ed25519-cert.pub"
	echo "HostCertificate $T/host_rsa-cert.pub"
	echo "AuthorizedKeysFile $T/authorized_keys"
	echo "PidFile none"
	echo "LogLevel VERBOSE"
	echo "StrictModes no"
	echo "MaxStartups 1000"
} > "$T/sshd_config"
start_sshd

# Debian's sshd: keys of its own, DSA among them.
DEB=""
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	for t in ed25519 ecdsa rsa dsa; do
		ssh-keygen -q -t $t -N '' -f "$T/deb_$t" -C deb
	done
	ssh-keygen -q -s "$T/hca" -I deb -h -n 127.0.0.11 "$T/deb_rsa.pub"
	{
		for i in 11 12 13 14 15 16 17 18 19 20; do
			echo "ListenAddress 127.0.0.$i:$PORT"
		done
		for t in ed25519 ecdsa rsa dsa; do
			echo "HostKey $T/deb_$t"
		done
		echo "HostCertificate $T/deb_rsa-cert.pub"
		echo "HostKeyAlgorithms +ssh-dss"
		echo "PidFile none"
		echo "UsePAM no"
		echo "MaxStartups 1000"
	} > "$T/deb_config"
	start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"
	DEB=127.0.0.11
else
	echo "note: Debian's sshd part skipped (needs root and openssh-server)"
fi

O105=$(sh "$SRC/scripts/peer_openssh.sh" -q 2>/dev/null) || O105=""
NEW=""
if [ -n "$O105" ] && [ -x "$O105/sbin/sshd" ] && [ "$(id -u)" = 0 ]; then
	cat > "$T/o105_config" <<CFG
ListenAddress 127.0.0.21:$PORT
HostKey $T/host_ed25519
HostKey $T/host_ecdsa
HostKey $T/host_rsa
PidFile none
UsePAM no
MaxStartups 1000
PerSourcePenalties no
CFG
	start_peer_sshd "$O105/sbin/sshd" "$T/o105_config" "$T/o105.log"
	NEW=127.0.0.21
else
	echo "note: OpenSSH 10.5's sshd part skipped"
fi

DB=""
if command -v dropbear >/dev/null 2>&1 && command -v dropbearkey >/dev/null 2>&1
then
	for t in ed25519 ecdsa rsa; do
		dropbearkey -t $t -f "$T/db_$t" >/dev/null 2>&1
	done
	dropbear -F -E -r "$T/db_ed25519" -r "$T/db_ecdsa" -r "$T/db_rsa" \
	    -p "127.0.0.22:$PORT" 2>"$T/db.log" &
	DB_PID=$!
	at_exit "kill $DB_PID 2>/dev/null"
	DB=127.0.0.22
else
	echo "note: Dropbear part skipped (not installed)"
fi

# listen KIND ADDR...: a keyscan_listen.py server, stopped at exit.
listen() {
	kind=$1; shift
	"$PY" "$(dirname "$0")/keyscan_listen.py" "$PORT" "$kind" "$@" \
	    > "$T/listen_$kind" 2>&1 &
	at_exit "kill $! 2>/dev/null"
	i=0
	until grep -qs ready "$T/listen_$kind"; do
		i=$((i + 1))
		[ $i -gt 200 ] && { cat "$T/listen_$kind" >&2; exit 1; }
		sleep 0.05
	done
}
listen closer 127.0.0.25
# addrs FIRST LAST: 127.0.0.FIRST ... 127.0.0.LAST
addrs() { i=$1; while [ $i -le $2 ]; do echo 127.0.0.$i; i=$((i + 1)); done; }
listen silent $(addrs 31 50)
listen banner $(addrs 51 60)
[ -n "$DB" ] && sleep 0.5	# Dropbear says nothing when it listens

# run NAME PROGRAM ARGS...: stdout and stderr sorted into $T/NAME.out
# and .err (without \r; an input file in $STDIN, if set), status in .rc.
run() {
	n=$1; p=$2; shift 2
	"$p" "$@" < "${STDIN:-/dev/null}" > "$T/$n.raw" 2> "$T/$n.rawerr"
	echo $? > "$T/$n.rc"
	sort "$T/$n.raw" > "$T/$n.out"
	tr -d '\r' < "$T/$n.rawerr" | sort > "$T/$n.err"
}

# same DESC ARGS...: Debian's ssh-keyscan and ours agree, and print keys.
# same0: the same, where nothing may be found.
same0() {
	desc=$1; shift
	run deb /usr/bin/ssh-keyscan "$@"
	run ours "$KS" "$@"
	if cmp -s "$T/deb.out" "$T/ours.out" &&
	    cmp -s "$T/deb.err" "$T/ours.err" &&
	    cmp -s "$T/deb.rc" "$T/ours.rc" &&
	    { [ -z "${WANT_KEYS:-}" ] || [ -s "$T/ours.out" ]; }; then
		pass "$desc"
	else
		fail "$desc (ssh-keyscan $*)"
		diff "$T/deb.out" "$T/ours.out" | cut -c1-150 >&2
		diff "$T/deb.err" "$T/ours.err" >&2
		echo "status: Debian's $(cat "$T/deb.rc")," \
		    "ours $(cat "$T/ours.rc")" >&2
	fi
}
same() { WANT_KEYS=1 same0 "$@"; }

# -H: hashed names the salt makes differ; ssh-keygen -F must find each
# line under one of NAMES (each name at least once), and the keys must
# be Debian's.
hashed() {
	desc=$1; names=$2; shift 2
	run deb /usr/bin/ssh-keyscan -H "$@"
	run ours "$KS" -H "$@"
	cut -d' ' -f2- "$T/deb.out" | sort > "$T/deb.keys"
	cut -d' ' -f2- "$T/ours.out" | sort > "$T/ours.keys"
	found=0
	for name in $names; do
		n=$(ssh-keygen -F "$name" -f "$T/ours.raw" | grep -vc '^#')
		[ "$n" -gt 0 ] || found=-1000
		found=$((found + n))
	done
	if [ -s "$T/ours.keys" ] && cmp -s "$T/deb.keys" "$T/ours.keys" &&
	    [ "$found" -eq "$(wc -l < "$T/ours.raw")" ] &&
	    ! grep -v '^|1|' "$T/ours.raw" >/dev/null &&
	    cmp -s "$T/deb.err" "$T/ours.err"; then
		pass "$desc"
	else
		fail "$desc"
		cat "$T/ours.raw" "$T/ours.err" >&2
	fi
}

for s in "our sshd=127.0.0.1" "Debian's sshd=$DEB" "OpenSSH 10.5=$NEW" \
    "Dropbear=$DB"; do
	srv=${s#*=}
	[ -n "$srv" ] || continue
	srv_name=${s%%=*}
	same "$srv_name: default key types" -p "$PORT" "$srv"
	for t in rsa ecdsa ed25519; do
		same "$srv_name: -t $t" -t $t -p "$PORT" "$srv"
	done
	for t in dsa ecdsa-sk ed25519-sk; do
		same0 "$srv_name: -t $t" -t $t -p "$PORT" "$srv"
	done
	same "$srv_name: -t by full names" \
	    -t ssh-ed25519,rsa-sha2-512,ecdsa-sha2-nistp384 -p "$PORT" "$srv"
	same "$srv_name: -D" -D -p "$PORT" "$srv"
	same "$srv_name: -D -t rsa,ed25519" -D -t rsa,ed25519 -p "$PORT" "$srv"
done
same "our sshd: -c (host certificates)" -c -p "$PORT" 127.0.0.1
same "our sshd: -c -t ed25519" -c -t ed25519 -p "$PORT" 127.0.0.1
same0 "our sshd: -c -t ecdsa (no certificate)" -c -t ecdsa -p "$PORT" 127.0.0.1
same0 "our sshd: -D -c (no SSHFP for certificates)" -D -c -p "$PORT" 127.0.0.1
if [ -n "$DEB" ]; then
	same "Debian's sshd: -t dsa" -t dsa -p "$PORT" $DEB
	same "Debian's sshd: -D -t dsa" -D -t dsa -p "$PORT" $DEB
	same "Debian's sshd: -c" -c -p "$PORT" $DEB
	same "Debian's sshd: -t dsa,ed25519,rsa -T 2" -t dsa,ed25519,rsa -T 2 \
	    -p "$PORT" $DEB
fi

# Security keys, which no OpenSSH sshd serves, from a server that signs
# the exchange with them as an authenticator would: printed by both
# (ours once the signature verifies).
if "$PY" -c 'import cryptography' 2>/dev/null; then
	"$PY" "$(dirname "$0")/keyscan_fake.py" "$PORT" 127.0.0.23 \
	    > "$T/fake" 2>&1 &
	at_exit "kill $! 2>/dev/null"
	i=0
	until grep -qs ready "$T/fake"; do
		i=$((i + 1))
		[ $i -gt 200 ] && { cat "$T/fake" >&2; exit 1; }
		sleep 0.05
	done
	same "security keys" -t ecdsa-sk,ed25519-sk -p "$PORT" 127.0.0.23
	same0 "security keys: no SSHFP type" -D -t ecdsa-sk,ed25519-sk \
	    -p "$PORT" 127.0.0.23
	hashed "security keys: -H" "[127.0.0.23]:$PORT" -t ed25519-sk \
	    -p "$PORT" 127.0.0.23
	# Deliberate: a key we can check is printed only once its
	# signature on the exchange verifies.
	run deb /usr/bin/ssh-keyscan -t ed25519 -p "$PORT" 127.0.0.23
	run ours "$KS" -t ed25519 -p "$PORT" 127.0.0.23
	check "a bad exchange signature: Debian's prints the key" \
	    grep -q " ssh-ed25519 " "$T/deb.out"
	check "a bad exchange signature: ours does not" \
	    sh -c "[ ! -s '$T/ours.out' ] && [ \$(cat '$T/ours.rc') = 1 ]"
else
	echo "note: security-key part skipped (no python3-cryptography)"
fi

# -f: several targets, comments, name lists, an address list.
cat > "$T/hosts" <<EOF
# targets, one a line
127.0.0.1
127.0.0.2 Alpha.Example,beta    # printed under these names

127.0.0.3,127.0.0.4 gamma
127.0.0.25
${DEB:-127.0.0.5} Debian-Box
EOF
same "-f with several targets" -p "$PORT" -f "$T/hosts"
same "-f with -t ed25519 -H -D" -t ed25519 -H -D -p "$PORT" -f "$T/hosts"
STDIN=$T/hosts same "-f - (standard input)" -t ecdsa -p "$PORT" -f -
STDIN=""
same "two -f files and arguments" -t ed25519 -p "$PORT" -f "$T/hosts" \
    -f "$T/hosts" 127.0.0.6 "127.0.0.7 seven"
same "CIDR ranges" -t ed25519 -p "$PORT" 127.0.0.0/29 127.0.0.8/31 \
    127.0.0.10/32
same0 "a range with host bits set is a host name" -t ed25519 -p "$PORT" \
    127.0.0.1/29
same0 "a server that hangs up before its version line" -t rsa,ed25519 \
    -p "$PORT" 127.0.0.25
same0 "nothing listening" -p "$PORT" 127.0.0.199 127.0.0.200
same0 "-4 with an IPv6 address" -4 -t ed25519 -p "$PORT" ::1
same0 "-6 with an IPv4 address" -6 -t ed25519 -p "$PORT" 127.0.0.1
same0 "an IPv6 range" -t ed25519 -p "$PORT" ::/127
same0 "a mask longer than the address is a host name" -t ed25519 \
    -p "$PORT" 127.0.0.1/33
same0 "a server that sends its version line, then nothing" -t ed25519 \
    -T 2 -p "$PORT" 127.0.0.52

hashed "-H: hashed [host]:port lines" "[127.0.0.1]:$PORT" -p "$PORT" 127.0.0.1
printf '127.0.0.1 Mixed.Case.Example\n' > "$T/hhosts"
hashed "-H: a name from -f, lower-cased before hashing" \
    "[mixed.case.example]:$PORT" -p "$PORT" -f "$T/hhosts"

# -O hashalg (OpenSSH 9.3 and later; Debian's 9.2 prints both types).
run deb /usr/bin/ssh-keyscan -D -p "$PORT" 127.0.0.1
for h in 1:sha1 2:sha256; do
	run ours "$KS" -D -O "hashalg=${h#*:}" -p "$PORT" 127.0.0.1
	awk -v n="${h%%:*}" '$5 == n' "$T/deb.out" > "$T/want"
	check "-D -O hashalg=${h#*:}" sh -c \
	    "[ -s '$T/want' ] && cmp -s '$T/want' '$T/ours.out'"
done

# Port 22: a name list is one field (lower-cased; kept as given by -D).
if [ -n "$P22" ]; then
	printf '%s\n%s Name1,NAME2\n%s,127.0.0.199 a,b,c\n' "$P22" "$P22" \
	    "$P22" > "$T/hosts22"
	same "port 22: name lists" -f "$T/hosts22"
	same "port 22: -D" -D -f "$T/hosts22"
	same "port 22: -D -H" -D -H -f "$T/hosts22"
	same "port 22: -c" -c -f "$T/hosts22"
	hashed "port 22: -H" "$P22 name1 name2 a b c" -f "$T/hosts22"
	same "port 22: -p ssh" -t ed25519 -p ssh "$P22"
else
	echo "note: port-22 part skipped (no free 127.0.0.X:22)"
fi

# Errors: the first line said (a usage line's start: ours lists -O) and
# the status.
first_line() {
	head -1 "$1" | tr -d '\r' | sed 's/^\(usage: ssh-keyscan\).*/\1/'
}
same_err() {
	desc=$1; shift
	run deb /usr/bin/ssh-keyscan "$@"
	run ours "$KS" "$@"
	if [ "$(first_line "$T/deb.rawerr")" = \
	    "$(first_line "$T/ours.rawerr")" ] &&
	    cmp -s "$T/deb.rc" "$T/ours.rc"; then
		pass "$desc"
	else
		fail "$desc"
		cat "$T/deb.rawerr" "$T/ours.rawerr" >&2
	fi
}
same_err "unknown key type" -t rsa,bogus 127.0.0.1
same_err "a certificate type is not a -t type" \
    -t ssh-ed25519-cert-v01@openssh.com 127.0.0.1
same_err "bad port" -p 0 127.0.0.1
same_err "bad port name" -p no-such-service 127.0.0.1
same_err "bad timeout" -T 0 127.0.0.1
same_err "missing file" -f "$T/nonexistent"
same_err "unknown flag" -Z 127.0.0.1
same_err "missing argument" -p
same_err "no target" -v
same_err "too many -v" -vvvv 127.0.0.1
run ours "$KS" -O hashalg=md5 127.0.0.1
check "-O hashalg=md5 refused" grep -q "Unsupported hash algorithm" \
    "$T/ours.err"
run ours "$KS" -vvv -t ed25519 -p "$PORT" 127.0.0.1
check "-vvv says what the transport does" grep -q \
    "debug1: kex: host key algorithm: ssh-ed25519" "$T/ours.err"

# Deliberate: an address that refuses is followed by the next of the
# list (OpenSSH's tries the next only when connect() fails at once).
"$KS" -t ed25519 -p "$PORT" "127.0.0.199,127.0.0.1 fallback" > "$T/fb" 2>&1
check "an address list goes on past a refusal" \
    grep -q "^\[fallback\]:$PORT ssh-ed25519 " "$T/fb"

# 200 targets at once with -T 3: the silent ones cost the timeout, not
# a timeout each; every live one is printed with its own key. Only five
# of our sshd's addresses are among them: each of its connections is a
# freshly executed sshd, slow to answer under AddressSanitizer on a
# busy machine, and the timeout is the scanner's to keep, not sshd's.
i=1
: > "$T/many"
: > "$T/want"
while [ $i -le 205 ]; do
	[ $i -gt 5 ] && [ $i -le 10 ] && { i=$((i + 1)); continue; }
	echo "127.0.0.$i" >> "$T/many"
	key=""
	if [ $i -le 5 ]; then
		key=$T/host_ed25519.pub
	elif [ $i -le 20 ] && [ -n "$DEB" ]; then
		key=$T/deb_ed25519.pub
	elif [ $i = 21 ] && [ -n "$NEW" ]; then
		key=$T/host_ed25519.pub
	fi
	[ -n "$key" ] &&
	    echo "[127.0.0.$i]:$PORT $(cut -d' ' -f1,2 "$key")" >> "$T/want"
	i=$((i + 1))
done
if [ -n "$DB" ]; then
	dropbearkey -y -f "$T/db_ed25519" | grep '^ssh-ed25519' |
	    sed "s/^/[127.0.0.22]:$PORT /" | cut -d' ' -f1-3 >> "$T/want"
fi
sort -o "$T/want" "$T/want"
start=$(date +%s.%N)
"$KS" -T 3 -t ed25519 -p "$PORT" -f "$T/many" > "$T/many.out" 2> "$T/many.err"
rc=$?
took=$(echo "$(date +%s.%N) - $start" | bc)
sort -o "$T/many.out" "$T/many.out"
check "200 targets: every live one printed, nothing else" \
    cmp -s "$T/want" "$T/many.out"
cmp -s "$T/want" "$T/many.out" || diff "$T/want" "$T/many.out" >&2
check "200 targets: exit status 0" [ "$rc" = 0 ]
n=$(grep -c "^# 127\.0\.0\.[56][0-9]:$PORT SSH-2.0-Tarpit_1.0\$" "$T/many.err")
check "200 targets: the version-only servers reported ($n of 10)" \
    [ "$n" = 10 ]
check "200 targets: done within twice the timeout (${took} s)" \
    [ "$(echo "$took < 7" | bc)" = 1 ]
check "200 targets: the server that hangs up reported" grep -qx \
    "127.0.0.25: Connection closed by remote host" "$T/many.err"
check "200 targets: nothing else on stderr" sh -c \
    "! grep -v -e '^# ' -e '^127.0.0.25: Connection closed' '$T/many.err'"
finish
