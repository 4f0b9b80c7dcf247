#!/bin/sh
# Host key rotation (OpenSSH's hostkeys-00 / hostkeys-prove-00 and
# UpdateHostKeys): a server with ed25519, ecdsa and rsa host keys and a
# known_hosts that knows one of them.
#  - OpenSSH 10.5's and Debian's ssh against our sshd learn all three;
#    paramiko checks the list (certificates left out) and our proofs.
#  - Our ssh against OpenSSH 10.5's sshd and against ours learns all
#    three, drops the key a restarted server no longer has, keeps hashed
#    files hashed and other lines as they were; UpdateHostKeys=no, the
#    default with another UserKnownHostsFile, a key accepted without
#    asking and a key from GlobalKnownHostsFile change nothing; ask asks
#    (through a pty, as OpenSSH 10.5 does); the default file by default.
#  - A hostile server (hostkeys_peer.py, paramiko) with bad, misplaced,
#    stale-session, SHA-1, missing or extra proofs teaches nothing.
. "$(dirname "$0")/lib.sh"
need ssh-keygen
[ -x "$PY" ] && "$PY" -c 'import paramiko' 2>/dev/null ||
    skip "needs python3-paramiko"
need_peer_openssh
HELPER=$SRC/tests/interop/hostkeys_peer.py
make_keys
write_config </dev/null
start_sshd -o LogLevel=DEBUG3
KH=$T/known_hosts

# line TYPE PORT: the known_hosts line for our host key of TYPE.
line() { echo "[127.0.0.1]:$2 $(cut -d' ' -f1,2 "$T/host_$1.pub")"; }
# seed PORT TYPE...: known_hosts holding exactly these keys.
seed() {
	p=$1; shift
	: > "$KH"
	for ty in "$@"; do line "$ty" "$p" >> "$KH"; done
}
has() { grep -qxF "$(line "$2" "$3")" "$1"; }
# entries FILE PORT: how many lines ssh-keygen -F finds for the host.
entries() { ssh-keygen -F "[127.0.0.1]:$2" -f "$1" | grep -vc '^#'; }
count_is() { [ "$(entries "$1" "$2")" = "$3" ]; }	# FILE PORT N
knows_all() {
	[ "$(entries "$1" "$2")" = 3 ] && has "$1" ed25519 "$2" &&
	    has "$1" ecdsa "$2" && has "$1" rsa "$2"
}
knows_hashed() {	# FILE PORT N: N entries, every line hashed
	[ "$(entries "$1" "$2")" = "$3" ] && ! grep -q '127\.0\.0\.1' "$1" &&
	    [ "$(grep -vc '^|1|' "$1")" = 0 ]
}
# mine|o105|deb PORT ARGS...: a client logging in and running "true".
mine() {
	p=$1; shift
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -o UserKnownHostsFile="$KH" -p "$p" "$@" \
	    "$ME@127.0.0.1" true
}
o105() {
	p=$1; shift
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -o UserKnownHostsFile="$KH" -p "$p" "$@" \
	    "$ME@127.0.0.1" true
}
deb() {
	p=$1; shift
	ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -o UserKnownHostsFile="$KH" -p "$p" "$@" \
	    "$ME@127.0.0.1" true
}
# same CLIENT DESC ARGS...: a run that must leave known_hosts as it was.
same() {
	c=$1 d=$2; shift 2
	cp "$KH" "$T/kh.before"
	"$c" "$PORT" "$@" 2>"$T/err"
	check "$d: known_hosts unchanged" cmp -s "$KH" "$T/kh.before"
}

# --- Other clients against our sshd.
seed "$PORT" ecdsa
o105 "$PORT" -o UpdateHostKeys=yes -o LogLevel=VERBOSE 2>"$T/err"
check "OpenSSH 10.5 -> our sshd: learns all three host keys" knows_all "$KH" "$PORT"
check "... it says Learned new hostkey: ED25519" \
    grep -q "^Learned new hostkey: ED25519 SHA256:" "$T/err"
check "sshd: notify_hostkeys: sent 3 hostkeys" \
    grep -q "debug3: notify_hostkeys: sent 3 hostkeys" "$T/sshd.log"
check "sshd proves the RSA key with rsa-sha2-512" grep -q \
    "server_input_hostkeys_prove: sign RSA key (index 2) using sigalg rsa-sha2-512" \
    "$T/sshd.log"
if command -v ssh >/dev/null 2>&1; then
	seed "$PORT" rsa
	deb "$PORT" -o UpdateHostKeys=yes 2>"$T/err"
	check "Debian's OpenSSH -> our sshd: learns all three" knows_all "$KH" "$PORT"
fi
seed "$PORT" ecdsa
ssh-keygen -q -H -f "$KH" >/dev/null 2>&1
o105 "$PORT" -o UpdateHostKeys=yes -o HashKnownHosts=yes 2>"$T/err"
check "OpenSSH 10.5, hashed known_hosts: three hashed entries" \
    knows_hashed "$KH" "$PORT" 3

# --- Our ssh against our sshd.
{ echo "# my hosts"; echo "other.example $(cut -d' ' -f1,2 "$T/id_rsa.pub")"; } > "$T/head"
cat "$T/head" > "$KH"
line ed25519 "$PORT" >> "$KH"
cp "$KH" "$T/kh.pre"
mine "$PORT" -o UpdateHostKeys=yes -o LogLevel=VERBOSE 2>"$T/err"
check "our ssh -> our sshd: learns all three" knows_all "$KH" "$PORT"
check "... comment and other host's line kept, in place" \
    sh -c "head -2 '$KH' | cmp -s - '$T/head'"
check "... Learned new hostkey: ECDSA" \
    grep -q "^Learned new hostkey: ECDSA SHA256:" "$T/err"
check "... Adding new key for [127.0.0.1]:$PORT to $KH: ssh-rsa" \
    grep -qF "Adding new key for [127.0.0.1]:$PORT to $KH: ssh-rsa SHA256:" "$T/err"
check "... the old file kept as known_hosts.old" cmp -s "$KH.old" "$T/kh.pre"
same mine "nothing new: a second run" -o UpdateHostKeys=yes
seed "$PORT" ed25519
same mine "UpdateHostKeys=no" -o UpdateHostKeys=no
same o105 "OpenSSH 10.5, UpdateHostKeys=no" -o UpdateHostKeys=no
same mine "default with another UserKnownHostsFile"
same o105 "OpenSSH 10.5, default with another UserKnownHostsFile"
same mine "UpdateHostKeys=ask with a command (no prompt, disabled)" \
    -o UpdateHostKeys=ask -o BatchMode=no -v
check "... UpdateHostKeys=ask is incompatible with remote command execution" \
    grep -q "UpdateHostKeys=ask is incompatible with remote command execution; disabling" "$T/err"

: > "$KH"
mine "$PORT" -o UpdateHostKeys=yes -o StrictHostKeyChecking=accept-new \
    -v 2>"$T/err"
check "first contact, accept-new: only the key of the exchange is added" \
    count_is "$KH" "$PORT" 1
check "... hostkey not known or explicitly trusted: disabling UpdateHostkeys" \
    grep -q "hostkey not known or explicitly trusted: disabling UpdateHostkeys" "$T/err"
: > "$KH"
o105 "$PORT" -o UpdateHostKeys=yes -o StrictHostKeyChecking=accept-new 2>"$T/err"
check "... the same with OpenSSH 10.5" count_is "$KH" "$PORT" 1

: > "$KH"
line ed25519 "$PORT" > "$T/global"
same mine "key from GlobalKnownHostsFile" -o UpdateHostKeys=yes \
    -o GlobalKnownHostsFile="$T/global" -o StrictHostKeyChecking=yes
same o105 "OpenSSH 10.5, key from GlobalKnownHostsFile" -o UpdateHostKeys=yes \
    -o GlobalKnownHostsFile="$T/global" -o StrictHostKeyChecking=yes

seed "$PORT" ed25519
ssh-keygen -q -H -f "$KH" >/dev/null 2>&1
mine "$PORT" -o UpdateHostKeys=yes -o HashKnownHosts=yes 2>"$T/err"
check "hashed known_hosts, HashKnownHosts=yes: three hashed entries" \
    knows_hashed "$KH" "$PORT" 3

# UpdateHostKeys=ask, through a terminal, ours and OpenSSH 10.5's.
for c in ours o105; do
	if [ $c = ours ]; then prog=$BIN/ssh; else prog=$O105/bin/ssh; fi
	for ans in no yes; do
		seed "$PORT" ed25519
		"$PY" "$HELPER" tty $ans "$T/tty.out" -- "$prog" -F /dev/null \
		    -o UserKnownHostsFile="$KH" -o UpdateHostKeys=ask \
		    -o IdentitiesOnly=yes -i "$T/id_ed25519" -p "$PORT" -tt \
		    "$ME@127.0.0.1" > "$T/tty.res" 2>&1
		check "$c, ask, answer $ans: asked" grep -qx prompted "$T/tty.res"
		check "... the changes shown first" grep -q \
		    "^Learned new hostkey: ECDSA SHA256:" "$T/tty.out"
		check "... after OpenSSH's preamble" grep -q \
		    "^These changes were verified by the server's existing trusted key." \
		    "$T/tty.out"
		if [ $ans = yes ]; then
			check "... learnt" knows_all "$KH" "$PORT"
		else
			check "... nothing learnt" count_is "$KH" "$PORT" 1
		fi
	done
done

# The default file, by default (root: a temporary user runs the client).
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null 2>&1; then
	U=hkup$$
	make_user "$U"
	H=$(getent passwd "$U" | cut -d: -f6)
	mkdir -p "$H/.ssh"
	cp "$T/id_ed25519" "$H/.ssh/id_ed25519"
	line ed25519 "$PORT" > "$H/.ssh/known_hosts"
	chown -R "$U" "$H/.ssh"
	chmod 700 "$H/.ssh"
	runuser -u "$U" -- "$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o IdentitiesOnly=yes -i "$H/.ssh/id_ed25519" -p "$PORT" \
	    "$ME@127.0.0.1" true 2>"$T/err"
	check "default ~/.ssh/known_hosts, no option: all three learnt" \
	    knows_all "$H/.ssh/known_hosts" "$PORT"
else
	echo "note: default-file case skipped (needs root and runuser)"
fi

# paramiko as the client: the list (no certificate), and our proofs.
ssh-keygen -q -t ed25519 -N '' -f "$T/ca" -C ca
ssh-keygen -q -s "$T/ca" -I host -h -n 127.0.0.1 "$T/host_ed25519.pub"
ssh-keygen -q -t ecdsa -N '' -f "$T/stranger" -C stranger
restart_sshd "HostCertificate $T/host_ed25519-cert.pub"
"$PY" "$HELPER" client "$PORT" "$ME" "$T/id_ed25519" "$T/host_ed25519.pub" \
    "$T/host_ecdsa.pub" "$T/host_rsa.pub" -- "$T/stranger.pub" \
    > "$T/pk.out" 2>"$T/pk.err"
for ty in ed25519 ecdsa rsa; do cut -d' ' -f1,2 "$T/host_$ty.pub"; done |
    sed 's/^/listed /' > "$T/want"
check "hostkeys-00 lists the three plain keys, in order, no certificate" \
    sh -c "grep '^listed' '$T/pk.out' | cmp -s - '$T/want'"
check "paramiko verifies our ed25519 proof" grep -qx "proof ssh-ed25519 ssh-ed25519 ok" "$T/pk.out"
check "... our ecdsa proof" grep -qx "proof ecdsa-sha2-nistp256 ecdsa-sha2-nistp256 ok" "$T/pk.out"
check "... our RSA proof, rsa-sha2-512" grep -qx "proof ssh-rsa rsa-sha2-512 ok" "$T/pk.out"
check "a key that is not ours: request refused" grep -qx "unknown refused" "$T/pk.out"
check "... sshd: server_input_hostkeys_prove: unknown host ECDSA key" \
    grep -q "server_input_hostkeys_prove: unknown host ECDSA key" "$T/sshd.log"

# --- A hostile server: only good proofs teach anything.
# hostile MODE CLIENT: run CLIENT against hostkeys_peer.py in MODE.
hostile() {
	rm -f "$T/hport"
	"$PY" "$HELPER" server "$T/hport" "$1" "$T/host_ed25519" \
	    "$T/host_ecdsa" "$T/host_rsa" > "$T/hs.out" 2>"$T/hs.err" &
	hs=$!
	i=0
	while [ ! -s "$T/hport" ] && [ $i -lt 100 ]; do
		i=$((i + 1)); sleep 0.1
	done
	HP=$(cat "$T/hport" 2>/dev/null)
	seed "$HP" ed25519
	cp "$KH" "$T/kh.before"
	"$2" "$HP" -o UpdateHostKeys=yes 2>"$T/err"
	HS=$?
	wait $hs
}
for mode in badsig session wrongkey swap trailing fail; do
	hostile $mode mine
	check "hostile server, $mode: proofs were asked and answered" \
	    grep -qx "asked 2" "$T/hs.out"
	check "... known_hosts unchanged" cmp -s "$KH" "$T/kh.before"
	case $mode in
	fail) msg="Server failed to confirm ownership of private host keys" ;;
	trailing) msg="client_global_hostkeys_prove_confirm: protocol error" ;;
	*) msg="server gave bad signature for" ;;
	esac
	check "... $msg" grep -q "$msg" "$T/err"
done
hostile good mine
check "hostile-server harness, good proofs: our ssh learns all three" \
    knows_all "$KH" "$HP"
hostile sha1 mine
check "RSA proven with ssh-rsa (SHA-1): RSA not learnt, ECDSA learnt" \
    count_is "$KH" "$HP" 2
check "... has ECDSA" has "$KH" ecdsa "$HP"
hostile twice mine
check "hostkeys-00 twice: connection ends (255)" [ "$HS" = 255 ]
check "... server already sent hostkeys" grep -q "server already sent hostkeys" "$T/err"
check "... known_hosts unchanged" cmp -s "$KH" "$T/kh.before"
hostile good o105
check "OpenSSH 10.5 against the same harness, good proofs: learns" \
    knows_all "$KH" "$HP"
hostile badsig o105
check "OpenSSH 10.5, bad signature: known_hosts unchanged too" \
    cmp -s "$KH" "$T/kh.before"

# --- A second RSA key while RSA is the exchange's algorithm: its proof
# must use that algorithm (rsa-sha2-256 here, though rsa-sha2-512 is
# offered too), or OpenSSH's client and ours refuse it.
ssh-keygen -q -t rsa -b 2048 -N '' -f "$T/host_rsa2" -C host
echo "HostKey $T/host_rsa2" > "$T/extra"
write_config < "$T/extra"
sed -i 's/^LogLevel DEBUG1$/LogLevel DEBUG3/' "$T/sshd_config"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
start_sshd
seed "$PORT" rsa
o105 "$PORT" -o UpdateHostKeys=yes -o HostKeyAlgorithms=rsa-sha2-256,rsa-sha2-512 2>"$T/err"
check "OpenSSH 10.5 over rsa-sha2-256 learns our second RSA key" \
    has "$KH" rsa2 "$PORT"
check "... and only that (other types not in HostKeyAlgorithms)" \
    count_is "$KH" "$PORT" 2
check "... proven with rsa-sha2-256" grep -q \
    "sign RSA key (index 3) using sigalg rsa-sha2-256" "$T/sshd.log"
seed "$PORT" rsa
mine "$PORT" -o UpdateHostKeys=yes -o HostKeyAlgorithms=rsa-sha2-256,rsa-sha2-512 2>"$T/err"
check "our ssh over rsa-sha2-256 learns it too" has "$KH" rsa2 "$PORT"
check "... and only that" count_is "$KH" "$PORT" 2

# --- A key taken away: our sshd restarted with two of its three keys.
write_config </dev/null
sed -i "\|HostKey $T/host_ecdsa\$|d" "$T/sshd_config"
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
start_sshd
seed "$PORT" ed25519 ecdsa rsa
mine "$PORT" -o UpdateHostKeys=yes -o LogLevel=VERBOSE 2>"$T/err"
check "our ssh, key removed from our sshd: ECDSA gone, two left" \
    count_is "$KH" "$PORT" 2
check "... ECDSA line gone" sh -c "! grep -q ecdsa '$KH'"
check "... Deprecating obsolete hostkey: ECDSA" \
    grep -q "^Deprecating obsolete hostkey: ECDSA SHA256:" "$T/err"
check "... $KH:2: Removed ECDSA key for host [127.0.0.1]:$PORT" \
    grep -qF "$KH:2: Removed ECDSA key for host [127.0.0.1]:$PORT" "$T/err"
seed "$PORT" ed25519 ecdsa rsa
ssh-keygen -q -H -f "$KH" >/dev/null 2>&1
mine "$PORT" -o UpdateHostKeys=yes 2>"$T/err"
check "... hashed: two hashed entries left" knows_hashed "$KH" "$PORT" 2
seed "$PORT" ed25519 ecdsa rsa
o105 "$PORT" -o UpdateHostKeys=yes 2>"$T/err"
check "OpenSSH 10.5, key removed from our sshd: ECDSA gone" \
    sh -c "! grep -q ecdsa '$KH' && [ \"\$(wc -l < '$KH')\" = 2 ]"

# --- Our ssh against OpenSSH 10.5's sshd.
if [ "$(id -u)" != 0 ]; then
	echo "note: OpenSSH 10.5's sshd part skipped (needs root)"
	finish
fi
# o105d KEYTYPES...: (re)start OpenSSH 10.5's sshd with these host keys.
OPID=""
o105d() {
	[ -n "$OPID" ] && { kill "$OPID"; wait "$OPID" 2>/dev/null; }
	OPORT=$(free_port)
	{
		echo "ListenAddress 127.0.0.1"
		echo "Port $OPORT"
		for ty in "$@"; do echo "HostKey $T/host_$ty"; done
		echo "AuthorizedKeysFile $T/authorized_keys"
		echo "PidFile none"
		echo "StrictModes no"
		echo "UsePAM no"
		echo "LogLevel DEBUG3"
	} > "$T/o105_config"
	: > "$T/o105.log"
	"$O105/sbin/sshd" -D -e -f "$T/o105_config" 2>"$T/o105.log" &
	OPID=$!
	i=0
	while ! grep -q "Server listening" "$T/o105.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 100 ] && { cat "$T/o105.log" >&2; exit 1; }
		sleep 0.05
	done
}
at_exit '[ -n "$OPID" ] && kill $OPID 2>/dev/null'
o105d ed25519 ecdsa rsa
seed "$OPORT" ed25519
mine "$OPORT" -o UpdateHostKeys=yes -o LogLevel=VERBOSE 2>"$T/err"
check "our ssh -> OpenSSH 10.5 sshd: learns all three" knows_all "$KH" "$OPORT"
check "... OpenSSH's sshd was asked for proofs" \
    grep -q "server_input_hostkeys_prove: sign RSA key" "$T/o105.log"
o105d ed25519 rsa
seed "$OPORT" ed25519 ecdsa rsa
mine "$OPORT" -o UpdateHostKeys=yes 2>"$T/err"
check "... key removed from OpenSSH's sshd: ECDSA gone, two left" \
    sh -c "! grep -q ecdsa '$KH' && [ \"\$(wc -l < '$KH')\" = 2 ]"
finish
