#!/bin/sh
# Our ssh against every server we can run here, one algorithm at a time:
# (a) our sshd, (b) Debian's OpenSSH sshd, (c) Dropbear, (d) TinySSH.
#
# For each server: each user key type it takes, then each KEX, host key
# algorithm, cipher and MAC we implement is forced alone with -o. A case
# the server does not offer ends in "no matching ..." and is logged as
# not offered; any other failure is a failure. Each case that connects
# must run `cat; exit 5` with 1 MiB of random data echoed back (so it
# crosses both ways): exit status 5 and the SHA-256 of what came back
# equal to what was sent. The -v lines "kex: algorithm: ...",
# "kex: host key algorithm: ...", "cipher: ... MAC: ..." must name the
# forced algorithm, so a case cannot pass on some other choice.
# MACs are tried under the first non-AEAD cipher the server took (an
# AEAD cipher has no separate MAC). An RSA user key is tried with each
# RSA signature; one the server leaves out of its server-sig-algs and
# then refuses counts as not offered. Then once per server
# MOAT_BULK_MIB (default 200) MiB are echoed the same way.
#
# Our sshd and OpenSSH's are configured to offer every algorithm we
# implement (so nothing is skipped there); Dropbear and TinySSH run with
# their own offer. OpenSSH's sshd and TinySSH need root (TinySSH and
# Dropbear read a real user's ~/.ssh, so a temporary user is made and
# removed); without root those parts are skipped with a message.
. "$(dirname "$0")/lib.sh"
make_keys
for b in 384 521; do
	ssh-keygen -q -t ecdsa -b $b -N '' -f "$T/host_ecdsa$b" -C host
	ssh-keygen -q -t ecdsa -b $b -N '' -f "$T/id_ecdsa$b" -C "user-ecdsa$b"
	cat "$T/id_ecdsa$b.pub" >> "$T/authorized_keys"
done
CASE_KIB=1024
BULK_MIB=${MOAT_BULK_MIB:-200}
head -c $((CASE_KIB * 1024)) /dev/urandom > "$T/case.dat"
CASE_SUM=$(sha256sum < "$T/case.dat" | cut -d' ' -f1)
head -c $((BULK_MIB * 1024 * 1024)) /dev/urandom > "$T/bulk.dat"
BULK_SUM=$(sha256sum < "$T/bulk.dat" | cut -d' ' -f1)
IS_ROOT=0
[ "$(id -u)" = 0 ] && IS_ROOT=1
NOT_OFFERED=""
SERVERS_RUN=""
SERVERS_SKIPPED=""
EXTRA_PIDS=""
TMP_USERS=""

cleanup_matrix() {
	for p in $EXTRA_PIDS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for u in $TMP_USERS; do
		userdel -r "$u" >/dev/null 2>&1
	done
	cleanup
}
trap cleanup_matrix EXIT

# stop_server: stop the server started last, by its PID.
stop_server() {
	kill "$SRV_PID" 2>/dev/null
	wait "$SRV_PID" 2>/dev/null
	SRV_PID=""
}

# wait_port PORT: until something accepts on 127.0.0.1:PORT.
wait_port() {
	i=0
	while ! "$PY" -c "import socket; socket.create_connection(('127.0.0.1', $1)).close()" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.05
	done
	return 0
}

# temp_user NAME: a throw-away account whose authorized_keys holds the
# keys listed in $USER_KEYS; prints nothing, sets SRV_USER.
temp_user() {
	useradd -m -s /bin/sh "$1" || return 1
	TMP_USERS="$TMP_USERS $1"
	usermod -p '*' "$1"
	h=$(getent passwd "$1" | cut -d: -f6)
	mkdir -p "$h/.ssh"
	for k in $USER_KEYS; do cat "$T/id_$k.pub"; done > "$h/.ssh/authorized_keys"
	chown -R "$1:" "$h/.ssh"
	chmod 700 "$h/.ssh"
	chmod 600 "$h/.ssh/authorized_keys"
	SRV_USER=$1
}

# mssh [OPTIONS...]: our ssh running `cat; exit 5` on the current
# server, with -v for the negotiation lines; the identity is $ID.
# (${1+"$@"}: an empty "$@" trips set -u in older dash.)
mssh() {
	"$BIN/ssh" -v -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no \
	    -o IdentitiesOnly=yes -i "$T/id_${ID:-ed25519}" -p "$PORT" \
	    ${1+"$@"} "$SRV_USER@127.0.0.1" 'cat; exit 5'
}

# sanitizer_clean FILE: no sanitizer report in our ssh's stderr.
sanitizer_clean() {
	! grep -q "ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer" "$1"
}

# run_case LABEL EXPECT-REGEX DATA SUM ARGS...: echo DATA through the
# server; "not offered" when the peer has nothing in common with us.
# Returns 0 when it ran and passed, 1 when not offered, 2 when failed.
run_case() {
	label=$1; expect=$2; data=$3; sum=$4; shift 4
	mssh ${1+"$@"} < "$data" > "$T/out" 2> "$T/err"
	st=$?
	if [ $st -eq 255 ] && grep -q "no matching .* found" "$T/err"; then
		echo "not offered by $SRV: $label ($(grep -o 'no matching [^.]* found' "$T/err" | head -1))"
		NOT_OFFERED="$NOT_OFFERED
  $SRV: $label"
		return 1
	fi
	# A user key signature the server does not list in server-sig-algs
	# (Dropbear 2022 has rsa-sha2-256 but not rsa-sha2-512).
	if [ $st -eq 255 ] && [ -n "${SIGALG:-}" ] &&
	    grep -q "Permission denied" "$T/err" &&
	    grep -q "server-sig-algs=<" "$T/err" &&
	    ! grep "server-sig-algs=<" "$T/err" | grep -q "[<,]$SIGALG[,>]"; then
		echo "not offered by $SRV: $label ($SIGALG not in its server-sig-algs)"
		NOT_OFFERED="$NOT_OFFERED
  $SRV: $label"
		return 1
	fi
	got=$(sha256sum < "$T/out" | cut -d' ' -f1)
	if [ $st -eq 5 ] && [ "$got" = "$sum" ] &&
	    { [ -z "$expect" ] || grep -q -- "$expect" "$T/err"; } &&
	    sanitizer_clean "$T/err"; then
		pass "$SRV: $label"
		return 0
	fi
	fail "$SRV: $label (exit $st, $(wc -c < "$T/out") bytes back)"
	grep -v "^debug" "$T/err" | tail -5 >&2
	[ -z "$expect" ] || grep -q -- "$expect" "$T/err" ||
	    echo "  negotiation line '$expect' missing" >&2
	return 2
}

# matrix: every case against the server now running ($SRV, $PORT,
# $SRV_USER, $USER_KEYS); RSA is tried with each RSA signature.
matrix() {
	SERVERS_RUN="$SERVERS_RUN $SRV"
	for k in $USER_KEYS; do
		if [ "$k" = rsa ]; then
			for s in rsa-sha2-512 rsa-sha2-256; do
				ID=rsa
				SIGALG=$s
				run_case "user key rsa ($s)" "" \
				    "$T/case.dat" "$CASE_SUM" \
				    -o PubkeyAcceptedAlgorithms=$s
			done
		else
			ID=$k
			run_case "user key $k" "" "$T/case.dat" "$CASE_SUM"
		fi
	done
	ID=ed25519
	SIGALG=""
	for a in $("$BIN/ssh" -Q kex); do
		run_case "kex $a" "kex: algorithm: $a\$" "$T/case.dat" \
		    "$CASE_SUM" -o KexAlgorithms=$a
	done
	for a in $("$BIN/ssh" -Q HostKeyAlgorithms); do
		run_case "host key $a" "kex: host key algorithm: $a\$" \
		    "$T/case.dat" "$CASE_SUM" -o HostKeyAlgorithms=$a
	done
	plain=""
	for a in $("$BIN/ssh" -Q cipher); do
		run_case "cipher $a" "server->client cipher: $a " \
		    "$T/case.dat" "$CASE_SUM" -o Ciphers=$a
		if [ $? -eq 0 ] && [ -z "$plain" ] &&
		    ! grep -q "server->client cipher: $a MAC: <implicit>" "$T/err"; then
			plain=$a
		fi
	done
	if [ -z "$plain" ]; then
		echo "not tested against $SRV: MACs (it took no cipher with a separate MAC)"
		NOT_OFFERED="$NOT_OFFERED
  $SRV: every MAC (no non-AEAD cipher in common)"
	else
		for a in $("$BIN/ssh" -Q mac); do
			run_case "mac $a (with $plain)" \
			    "server->client cipher: $plain MAC: $a " \
			    "$T/case.dat" "$CASE_SUM" -o Ciphers=$plain -o MACs=$a
		done
	fi
	t0=$(date +%s)
	run_case "bulk ${BULK_MIB} MiB each way" "" "$T/bulk.dat" "$BULK_SUM"
	echo "  ($SRV bulk took $(($(date +%s) - t0)) s)"
}

# Both our sshd and OpenSSH's are told to offer everything we implement
# (that the server knows: with "openssh", less what Debian's OpenSSH
# does not implement, such as ML-KEM, which its sshd would refuse).
q() { # q QUERY [openssh]: our ssh -Q list, comma-joined
	"$BIN/ssh" -Q "$1" > "$T/q.ours"
	if [ "${2:-}" = openssh ]; then
		ssh -Q "$1" > "$T/q.theirs"
		grep -Fx -f "$T/q.theirs" "$T/q.ours" | paste -sd, -
	else
		paste -sd, - < "$T/q.ours"
	fi
}
all_algs() {
	echo "KexAlgorithms $(q kex "$@")"
	echo "HostKeyAlgorithms $(q HostKeyAlgorithms "$@")"
	echo "PubkeyAcceptedAlgorithms $(q PubkeyAcceptedAlgorithms "$@")"
	echo "Ciphers $(q cipher "$@")"
	echo "MACs $(q mac "$@")"
}

# (a) our sshd.
SRV="our sshd"
SRV_USER=$ME
USER_KEYS="ed25519 ecdsa ecdsa384 ecdsa521 rsa"
{
	echo "HostKey $T/host_ecdsa384"
	echo "HostKey $T/host_ecdsa521"
	all_algs
} > "$T/extra_config"
write_config < "$T/extra_config"	# not in a pipe: it sets PORT
start_sshd
matrix
kill "$SSHD_PID" 2>/dev/null
wait "$SSHD_PID" 2>/dev/null
SSHD_PID=""
if grep -q "ERROR: AddressSanitizer\|runtime error:" "$T/sshd.log"; then
	fail "sanitizer report in our sshd's log"
fi

# (b) Debian's OpenSSH sshd.
SRV="OpenSSH sshd"
if [ $IS_ROOT = 0 ]; then
	echo "SKIP part: $SRV needs root here"
	SERVERS_SKIPPED="$SERVERS_SKIPPED
  $SRV (not root)"
elif [ ! -x /usr/sbin/sshd ]; then
	echo "SKIP part: $SRV not installed"
	SERVERS_SKIPPED="$SERVERS_SKIPPED
  $SRV (not installed)"
else
	PORT=$(free_port)
	{
		echo "ListenAddress 127.0.0.1"
		echo "Port $PORT"
		for h in ed25519 ecdsa ecdsa384 ecdsa521 rsa; do
			echo "HostKey $T/host_$h"
		done
		echo "AuthorizedKeysFile $T/authorized_keys"
		echo "PidFile none"
		echo "StrictModes no"
		echo "UsePAM no"
		all_algs openssh
	} > "$T/openssh_config"
	mkdir -p /run/sshd
	/usr/sbin/sshd -D -e -f "$T/openssh_config" 2>"$T/openssh.log" &
	SRV_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $SRV_PID"
	i=0
	while ! grep -q "Server listening" "$T/openssh.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { cat "$T/openssh.log" >&2; exit 1; }
		sleep 0.05
	done
	SRV_USER=$ME
	matrix
	stop_server
fi

# (c) Dropbear, as a temporary user (it reads ~/.ssh/authorized_keys).
SRV="Dropbear"
if ! command -v dropbear >/dev/null 2>&1 ||
    ! command -v dropbearkey >/dev/null 2>&1; then
	echo "SKIP part: $SRV not installed"
	SERVERS_SKIPPED="$SERVERS_SKIPPED
  $SRV (not installed)"
elif [ $IS_ROOT = 0 ]; then
	echo "SKIP part: $SRV needs root for a temporary user"
	SERVERS_SKIPPED="$SERVERS_SKIPPED
  $SRV (not root)"
else
	USER_KEYS="ed25519 ecdsa ecdsa384 ecdsa521 rsa"
	temp_user "moatm$$" || skip "useradd failed"
	# Dropbear loads at most four host keys: the nistp521 one is
	# served by a second instance afterwards.
	hk=""
	for spec in "ed25519" "ecdsa 256" "ecdsa 384" "rsa 3072" "ecdsa 521"; do
		set -- $spec
		f="$T/db_$1${2:-}"
		dropbearkey -t "$1" ${2:+-s "$2"} -f "$f" >/dev/null 2>&1 ||
			echo "dropbearkey could not make a $spec host key"
		[ "$spec" = "ecdsa 521" ] || hk="$hk -r $f"
	done
	PORT=$(free_port)
	# shellcheck disable=SC2086
	dropbear -F -E $hk -p "127.0.0.1:$PORT" 2>"$T/db.log" &
	SRV_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $SRV_PID"
	wait_port "$PORT" || { cat "$T/db.log" >&2; exit 1; }
	matrix
	stop_server
	PORT=$(free_port)
	dropbear -F -E -r "$T/db_ecdsa521" -p "127.0.0.1:$PORT" 2>"$T/db2.log" &
	SRV_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $SRV_PID"
	wait_port "$PORT" || { cat "$T/db2.log" >&2; exit 1; }
	SRV="Dropbear (second instance, nistp521 key only)"
	a=ecdsa-sha2-nistp521
	run_case "host key $a" "kex: host key algorithm: $a\$" \
	    "$T/case.dat" "$CASE_SUM" -o HostKeyAlgorithms=$a
	stop_server
fi

# (d) TinySSH under tcpserver, as a temporary user; ed25519 keys only.
SRV="TinySSH"
if ! command -v tinysshd >/dev/null 2>&1 ||
    ! command -v tinysshd-makekey >/dev/null 2>&1 ||
    ! command -v tcpserver >/dev/null 2>&1; then
	echo "SKIP part: $SRV (tinysshd, tinysshd-makekey, tcpserver) not installed"
	SERVERS_SKIPPED="$SERVERS_SKIPPED
  $SRV (not installed)"
elif [ $IS_ROOT = 0 ]; then
	echo "SKIP part: $SRV needs root for a temporary user"
	SERVERS_SKIPPED="$SERVERS_SKIPPED
  $SRV (not root)"
else
	echo "$SRV takes ed25519 user keys only: ecdsa and rsa user keys not tried"
	USER_KEYS="ed25519"
	temp_user "moatn$$" || skip "useradd failed"
	tinysshd-makekey "$T/tinykeys" >/dev/null 2>&1 || skip "tinysshd-makekey failed"
	PORT=$(free_port)
	tcpserver -HRDl0 127.0.0.1 "$PORT" tinysshd "$T/tinykeys" 2>"$T/tiny.log" &
	SRV_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $SRV_PID"
	wait_port "$PORT" || { cat "$T/tiny.log" >&2; exit 1; }
	matrix
	stop_server
fi

echo "servers run:$SERVERS_RUN"
[ -z "$SERVERS_SKIPPED" ] || echo "servers skipped:$SERVERS_SKIPPED"
[ -z "$NOT_OFFERED" ] || echo "cases the server did not offer:$NOT_OFFERED"
[ -n "$SERVERS_RUN" ] || skip "no server could be run"
finish
