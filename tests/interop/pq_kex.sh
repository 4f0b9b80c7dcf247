#!/bin/sh
# Post-quantum key exchange with real peers, every method, both ways:
# OpenSSH 10.5's ssh into our sshd and our ssh into OpenSSH 10.5's sshd
# (exec with exit status, 64 MiB each way checked with SHA-256, rekeys
# mid-transfer under the same method), Debian's OpenSSH 9.2 for sntrup761
# both ways; no post-quantum warning from OpenSSH 10.5's client against
# our server, and our client's own WarnWeakCrypto warning word for word.
# Then hostile peers: damaged C_INIT sent to our sshd and damaged S_REPLY
# sent to our ssh end the connection cleanly, with a log line.
. "$(dirname "$0")/lib.sh"
need_peer_openssh
need sha256sum
make_keys
PQ="mlkem768x25519-sha256 mlkem768nistp256-sha256 sntrup761x25519-sha512
sntrup761x25519-sha512@openssh.com"
write_config <<EOF
KexAlgorithms +mlkem768nistp256-sha256
EOF
start_sshd
MB=${PQ_MB:-64}
RL=$((MB > 4 ? MB / 4 : 1))M	# RekeyLimit: a few rekeys per upload
head -c $((MB * 1024 * 1024)) /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)
sum() { sha256sum | cut -d' ' -f1; }
count() { grep -c "$1" "$2"; }

o105() { # OpenSSH 10.5's client, configured only here
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" "$@"
}

# --- OpenSSH 10.5's ssh into our sshd.
for k in $PQ; do
	n0=$(count "kex: algorithm: $k\$" "$T/sshd.log")
	o105 -o LogLevel=ERROR -o KexAlgorithms=$k -p "$PORT" \
	    "$ME@127.0.0.1" 'exit 7'
	check "10.5 ssh -> our sshd, $k: exit status 7" [ $? -eq 7 ]
	got=$(o105 -o LogLevel=ERROR -o KexAlgorithms=$k -o RekeyLimit=$RL \
	    -p "$PORT" "$ME@127.0.0.1" sha256sum < "$T/data" | cut -d' ' -f1)
	check "... $MB MiB up intact" [ "$got" = "$want" ]
	got=$(o105 -o LogLevel=ERROR -o KexAlgorithms=$k -p "$PORT" \
	    "$ME@127.0.0.1" cat "$T/data" | sum)
	check "... $MB MiB down intact" [ "$got" = "$want" ]
	n1=$(count "kex: algorithm: $k\$" "$T/sshd.log")
	# 3 connections: one exchange each, and rekeys within the upload.
	check "... our server ran $k, rekeying ($((n1 - n0)) exchanges)" \
	    [ $((n1 - n0)) -ge 5 ]
done
# The default: OpenSSH 10.5 picks mlkem768x25519-sha256 and warns nothing.
o105 -o LogLevel=INFO -p "$PORT" "$ME@127.0.0.1" true 2>"$T/err"
check "10.5 ssh -> our sshd by default: mlkem768x25519-sha256" \
    grep -q "kex: algorithm: mlkem768x25519-sha256\$" "$T/sshd.log"
check "... and no post-quantum warning" \
    sh -c "! grep -q 'post-quantum' '$T/err'"
# It does warn over a classical method (the check above can fail): a
# server that offers nothing post-quantum. OpenSSH warns only when its
# KexAlgorithms is the default, so the server is restricted instead.
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
write_config <<EOF
KexAlgorithms curve25519-sha256,mlkem768nistp256-sha256
EOF
start_sshd
o105 -o LogLevel=INFO -p "$PORT" "$ME@127.0.0.1" true 2>"$T/err105"
check "... but warns over curve25519-sha256 (a server without PQ)" \
    grep -q "not using a post-quantum key exchange" "$T/err105"

# --- Our ssh's WarnWeakCrypto, the same way.
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" "$@"
}
mssh -p "$PORT" "$ME@127.0.0.1" true 2>"$T/errours"
grep '^\*\*' "$T/err105" | tr -d '\r' > "$T/warn105"
grep '^\*\*' "$T/errours" > "$T/warnours"
check "our ssh warns over curve25519-sha256, as OpenSSH 10.5 does" \
    [ -s "$T/warnours" ] && cmp -s "$T/warn105" "$T/warnours"
mssh -o WarnWeakCrypto=no-pq-kex -p "$PORT" "$ME@127.0.0.1" true 2>"$T/err"
check "... not with WarnWeakCrypto no-pq-kex" \
    sh -c "! grep -q 'post-quantum' '$T/err'"
mssh -o KexAlgorithms=+diffie-hellman-group14-sha256 -p "$PORT" \
    "$ME@127.0.0.1" true 2>"$T/err"
check "... nor with KexAlgorithms given (as OpenSSH 10.5)" \
    sh -c "! grep -q 'post-quantum' '$T/err'"
mssh -q -p "$PORT" "$ME@127.0.0.1" true 2>"$T/err"
check "... nor with -q" sh -c "! grep -q 'post-quantum' '$T/err'"
o105 -o LogLevel=INFO -o KexAlgorithms=+diffie-hellman-group14-sha256 \
    -p "$PORT" "$ME@127.0.0.1" true 2>"$T/err"
check "... (OpenSSH 10.5: no warning with KexAlgorithms given either)" \
    sh -c "! grep -q 'post-quantum' '$T/err'"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
write_config <<EOF
KexAlgorithms +mlkem768nistp256-sha256
EOF
start_sshd
mssh -p "$PORT" "$ME@127.0.0.1" true 2>"$T/err"
check "... nor over the default (post-quantum) method" \
    sh -c "! grep -q 'post-quantum' '$T/err'"

# --- Hostile clients against our sshd: damaged C_INIT.
hc() { # hc KEX CASE EXPECT
	out=$("$PY" "$SRC/tests/interop/pq_hostile.py" client 127.0.0.1 \
	    "$PORT" "$1" "$2")
	check "hostile C_INIT $2 ($1): $3" [ "$out" = "$3" ]
}
for k in mlkem768x25519-sha256 mlkem768nistp256-sha256 \
    sntrup761x25519-sha512; do
	for c in short long empty zero-ecdh; do
		hc $k $c closed
	done
done
hc mlkem768x25519-sha256 bad-ek closed
hc mlkem768nistp256-sha256 bad-ek closed
n=$(count "key exchange failed: invalid" "$T/sshd.log")
check "our sshd logged each refusal ($n 'key exchange failed' lines)" \
    [ "$n" -ge 14 ]
# An all-zero ML-KEM key is well formed (every coefficient < q): answered.
hc mlkem768x25519-sha256 zero-ek "reply 1120"
o105 -o LogLevel=ERROR -p "$PORT" "$ME@127.0.0.1" true
check "our sshd still serves after all that" [ $? -eq 0 ]

# --- Hostile servers against our ssh: damaged S_REPLY through a proxy.
N=0
hs() { # hs KEX CASE
	N=$((N + 1))
	pf=$T/pq_port.$N
	"$PY" "$SRC/tests/interop/pq_hostile.py" proxy "$pf" "$PORT" "$2" \
	    > "$T/proxy.$N" 2>&1 &
	pp=$!
	i=0
	while [ ! -s "$pf" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	mssh -o KexAlgorithms=$1 -o ConnectTimeout=10 -p "$(cat "$pf")" \
	    "$ME@127.0.0.1" true 2>"$T/hs.$N"
	rc=$?
	wait $pp
	check "hostile S_REPLY $2 ($1): our ssh exits 255" [ $rc -eq 255 ]
	check "... the fault was injected" grep -q "damaged S_REPLY" "$T/proxy.$N"
	check "... and said why" grep -q \
	    -e "protocol error" -e "incorrect signature" "$T/hs.$N"
}
for k in mlkem768x25519-sha256 mlkem768nistp256-sha256 \
    sntrup761x25519-sha512; do
	for c in short long zero-ct zero-ecdh; do
		hs $k $c
	done
done

# --- Our ssh into OpenSSH 10.5's sshd (root: it runs its own privsep).
if [ "$(id -u)" != 0 ]; then
	echo "note: OpenSSH 10.5's sshd part skipped (needs root)"
	finish
fi
OPORT=$(free_port)
cat > "$T/o105_config" <<CFG
ListenAddress 127.0.0.1
Port $OPORT
HostKey $T/host_ed25519
HostKey $T/host_ecdsa
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
UsePAM no
LogLevel DEBUG1
KexAlgorithms +mlkem768nistp256-sha256
CFG
start_peer_sshd "$O105/sbin/sshd" "$T/o105_config" "$T/o105.log"
for k in $PQ; do
	n0=$(count "kex: algorithm: $k" "$T/o105.log")
	mssh -o KexAlgorithms=$k -p "$OPORT" "$ME@127.0.0.1" 'exit 7' \
	    2>>"$T/merr"
	check "our ssh -> 10.5 sshd, $k: exit status 7" [ $? -eq 7 ]
	got=$(mssh -o KexAlgorithms=$k -o RekeyLimit=$RL -p "$OPORT" \
	    "$ME@127.0.0.1" sha256sum < "$T/data" 2>>"$T/merr" | cut -d' ' -f1)
	check "... $MB MiB up intact" [ "$got" = "$want" ]
	got=$(mssh -o KexAlgorithms=$k -p "$OPORT" "$ME@127.0.0.1" \
	    cat "$T/data" 2>>"$T/merr" | sum)
	check "... $MB MiB down intact" [ "$got" = "$want" ]
	n1=$(count "kex: algorithm: $k" "$T/o105.log")
	check "... OpenSSH 10.5 ran $k, rekeying ($((n1 - n0)) exchanges)" \
	    [ $((n1 - n0)) -ge 5 ]
done
mssh -p "$OPORT" "$ME@127.0.0.1" true 2>"$T/err"
check "our ssh -> 10.5 sshd by default: mlkem768x25519-sha256" \
    grep -q "kex: algorithm: mlkem768x25519-sha256" "$T/o105.log"
check "... without a warning" sh -c "! grep -q 'post-quantum' '$T/err'"

# --- Debian's OpenSSH 9.2 (sntrup761 only) both ways.
if [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null 2>&1; then
	k=sntrup761x25519-sha512@openssh.com
	got=$(ossh -o KexAlgorithms=$k "$ME@127.0.0.1" sha256sum \
	    < "$T/data" | cut -d' ' -f1)
	check "Debian's ssh -> our sshd, $k" [ "$got" = "$want" ]
	DPORT=$(free_port)
	sed -e "s/^Port .*/Port $DPORT/" -e '/^KexAlgorithms/d' \
	    "$T/o105_config" > "$T/deb_config"
	start_peer_sshd /usr/sbin/sshd "$T/deb_config" "$T/deb.log"
	got=$(mssh -p "$DPORT" "$ME@127.0.0.1" cat "$T/data" 2>>"$T/merr" | sum)
	check "our ssh -> Debian's sshd: data intact" [ "$got" = "$want" ]
	check "... over sntrup761x25519-sha512 (Debian's preference)" \
	    grep -q "kex: algorithm: sntrup761x25519-sha512" "$T/deb.log"
fi
finish
