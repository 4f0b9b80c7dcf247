#!/bin/sh
# FIDO security keys (sk-ssh-ed25519, sk-ecdsa-sha2-nistp256) with OpenSSH
# 10.5 and its software authenticator sk-dummy.so: its ssh-keygen makes
# the keys, a key without user presence (-O no-touch-required),
# certificates by a plain CA and by a security key CA, and SSHSIG
# signatures; its ssh logs in to our sshd with them. Our sshd accepts
# them with OpenSSH's log line; refuses a signature without user
# presence unless no-touch-required allows it (authorized_keys option or
# certificate extension), and refuses one without user verification
# under PubkeyAuthOptions verify-required, in OpenSSH's words; each case
# ends as it does with OpenSSH 10.5's own sshd. Our ssh-keygen -l, -e and
# -Y verify print what Debian's does, and a KRL of ours revokes an sk key.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (OpenSSH 10.5's sshd runs beside ours)"
need_peer_openssh
SKP=$O105/lib/sk-dummy.so
[ -f "$SKP" ] || skip "no sk-dummy.so in $O105"
need ssh-keygen
make_keys
export SSH_SK_PROVIDER="$SKP"
for t in ed25519-sk ecdsa-sk; do
	"$O105/bin/ssh-keygen" -q -t $t -N '' -f "$T/sk_$t" -C "u-$t" \
	    </dev/null >/dev/null || fail "10.5 ssh-keygen -t $t"
done
"$O105/bin/ssh-keygen" -q -t ed25519-sk -O no-touch-required -N '' \
    -f "$T/sk_nt" -C u-nt </dev/null >/dev/null ||
    fail "10.5 ssh-keygen -O no-touch-required"
# A security key CA, and certificates by it and by a plain CA.
"$O105/bin/ssh-keygen" -q -t ed25519-sk -N '' -f "$T/ca_sk" -C ca \
    </dev/null >/dev/null || fail "10.5 ssh-keygen: sk CA"
ssh-keygen -q -t ed25519 -N '' -f "$T/ca_plain" -C ca >/dev/null
cp "$T/sk_ecdsa-sk" "$T/byskca"
cp "$T/sk_ecdsa-sk.pub" "$T/byskca.pub"
"$O105/bin/ssh-keygen" -q -s "$T/ca_sk" -I byskca -n "$ME" \
    "$T/byskca.pub" </dev/null >/dev/null 2>&1 ||
    fail "10.5 ssh-keygen -s with an sk CA"
"$O105/bin/ssh-keygen" -q -s "$T/ca_plain" -I ed -n "$ME" \
    "$T/sk_ed25519-sk.pub" </dev/null >/dev/null 2>&1
cp "$T/sk_nt" "$T/ntx"; cp "$T/sk_nt.pub" "$T/ntx.pub"
"$O105/bin/ssh-keygen" -q -s "$T/ca_plain" -I ntx -n "$ME" \
    -O no-touch-required "$T/ntx.pub" </dev/null >/dev/null 2>&1
cat "$T/ca_plain.pub" "$T/ca_sk.pub" > "$T/user_ca"

# --- ssh-keygen on the public keys: the same output as Debian's.
for f in sk_ed25519-sk.pub sk_ecdsa-sk.pub sk_nt.pub byskca-cert.pub; do
	for op in -l -lv "-l -E md5" -e; do
		"$BIN/ssh-keygen" $op -f "$T/$f" > "$T/ours" 2>&1
		ssh-keygen $op -f "$T/$f" > "$T/deb" 2>&1
		check "ssh-keygen $op -f $f as Debian's" cmp -s "$T/ours" \
		    "$T/deb" || diff "$T/deb" "$T/ours" >&2
	done
done

# --- Logins by OpenSSH 10.5's ssh. SERVER: ours or 10.5's.
login() { # login KEY [CERT]: exit status of a 10.5 ssh login
	_c=""
	[ $# -gt 1 ] && _c="-o CertificateFile=$2"
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -o IdentitiesOnly=yes \
	    -o SecurityKeyProvider="$SKP" -i "$1" $_c -p "$PORT" \
	    "$ME@127.0.0.1" true </dev/null 2>/dev/null
}
# serve LABEL AUTHORIZED_KEYS [config lines]: our sshd, or OpenSSH 10.5's
# when SERVER=105, with these authorized_keys and lines.
serve() {
	_label=$1; _ak=$2; shift 2
	printf '%s\n' "$@" > "$T/extra"
	echo "TrustedUserCAKeys $T/user_ca" >> "$T/extra"
	AKF=$_ak write_config < "$T/extra"
	if [ "$SERVER" = ours ]; then
		start_sshd
		LOG=$T/sshd.log
	else
		LOG=$T/sshd105.$_label.log
		: > "$LOG"
		start_peer_sshd "$O105/sbin/sshd" "$T/sshd_config" "$LOG"
	fi
}
stop() {
	if [ "$SERVER" = ours ]; then
		kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""
	else
		kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null
	fi
}
fp() { ssh-keygen -l -f "$1" | cut -d' ' -f2; }

printf '%s\n' "$(cat "$T/sk_ed25519-sk.pub")" "$(cat "$T/sk_ecdsa-sk.pub")" \
    "$(cat "$T/sk_nt.pub")" > "$T/ak_plain"
printf 'no-touch-required %s\n' "$(cat "$T/sk_nt.pub")" > "$T/ak_nt"
: > "$T/ak_none"

# case LABEL KEY AK "config" [CERT]: records the outcome per server.
runcase() {
	_l=$1; _k=$2; _ak=$3; _cfg=$4; shift 4
	if [ -n "$_cfg" ]; then serve "$_l" "$_ak" "$_cfg"
	else serve "$_l" "$_ak"; fi
	login "$_k" "$@"
	echo $? > "$T/rc.$SERVER.$_l"
	sleep 0.1
	# OpenSSH's sshd -e ends its lines with CR LF.
	tr -d '\r' < "$LOG" > "$T/log.$SERVER.$_l"
	stop
}
for SERVER in ours 105; do
	runcase ed "$T/sk_ed25519-sk" "$T/ak_plain" ""
	runcase ec "$T/sk_ecdsa-sk" "$T/ak_plain" ""
	runcase nt "$T/sk_nt" "$T/ak_plain" ""
	runcase ntopt "$T/sk_nt" "$T/ak_nt" ""
	runcase ntforced "$T/sk_nt" "$T/ak_nt" \
	    "PubkeyAuthOptions touch-required"
	runcase verify "$T/sk_ed25519-sk" "$T/ak_plain" \
	    "PubkeyAuthOptions verify-required"
	runcase certplain "$T/sk_ed25519-sk" "$T/ak_none" "" \
	    "$T/sk_ed25519-sk-cert.pub"
	runcase certskca "$T/byskca" "$T/ak_none" "" "$T/byskca-cert.pub"
	runcase certnt "$T/ntx" "$T/ak_none" "" "$T/ntx-cert.pub"
	# The same key, certified without the extension: refused.
	"$O105/bin/ssh-keygen" -q -s "$T/ca_plain" -I ntx -n "$ME" \
	    "$T/ntx.pub" </dev/null >/dev/null 2>&1
	runcase certtouch "$T/ntx" "$T/ak_none" "" "$T/ntx-cert.pub"
	"$O105/bin/ssh-keygen" -q -s "$T/ca_plain" -I ntx -n "$ME" \
	    -O no-touch-required "$T/ntx.pub" </dev/null >/dev/null 2>&1
done
want() { # want LABEL RC: our outcome, and 10.5's the same
	check "$1: our sshd $([ "$2" = 0 ] && echo accepts || echo refuses)" \
	    [ "$(cat "$T/rc.ours.$1")" = "$2" ]
	check "$1: as OpenSSH 10.5's sshd" \
	    [ "$(cat "$T/rc.ours.$1")" = "$(cat "$T/rc.105.$1")" ]
}
want ed 0
want ec 0
want nt 255
want ntopt 0
want ntforced 255
want verify 255
want certplain 0
want certskca 0
want certnt 0
want certtouch 255
a="Accepted publickey for $ME from 127.0.0.1 port [0-9]* ssh2:"
check "the accepted line names ED25519-SK and its fingerprint" \
    grep -q "$a ED25519-SK $(fp "$T/sk_ed25519-sk.pub")\$" "$T/log.ours.ed"
check "... and ECDSA-SK" \
    grep -q "$a ECDSA-SK $(fp "$T/sk_ecdsa-sk.pub")\$" "$T/log.ours.ec"
check "... and the certificate of an sk CA" \
    grep -q "$a ECDSA-SK-CERT $(fp "$T/byskca.pub") ID byskca" \
    "$T/log.ours.certskca"
for c in nt ntforced certtouch verify; do
	case $c in
	verify) what="user verification requirement not met "
		k=ED25519-SK; f=$(fp "$T/sk_ed25519-sk.pub") ;;
	certtouch) what="user presence (authenticator touch) requirement not met "
		k=ED25519-SK-CERT; f=$(fp "$T/sk_nt.pub") ;;
	*) what="user presence (authenticator touch) requirement not met "
		k=ED25519-SK; f=$(fp "$T/sk_nt.pub") ;;
	esac
	line="public key $k $f signature for $ME from 127.0.0.1 port [0-9]* rejected: $what\$"
	check "$c: refused with OpenSSH's line" grep -q "$line" \
	    "$T/log.ours.$c"
	check "$c: OpenSSH 10.5 logs the same line" grep -q "$line" \
	    "$T/log.105.$c"
done

# --- SSHSIG: 10.5 signs with an sk key, our ssh-keygen -Y verify.
printf 'signed by a security key\n' > "$T/msg"
for k in sk_ed25519-sk sk_ecdsa-sk; do
	"$O105/bin/ssh-keygen" -q -Y sign -n file -f "$T/$k" "$T/msg" \
	    </dev/null >/dev/null 2>&1
	echo "alice $(cat "$T/$k.pub")" > "$T/signers"
	"$BIN/ssh-keygen" -Y verify -f "$T/signers" -I alice -n file \
	    -s "$T/msg.sig" < "$T/msg" > "$T/ours" 2>&1
	ssh-keygen -Y verify -f "$T/signers" -I alice -n file \
	    -s "$T/msg.sig" < "$T/msg" > "$T/deb" 2>&1
	check "-Y verify of a $k signature" grep -q "^Good \"file\" signature for alice with" "$T/ours"
	check "... as Debian's" cmp -s "$T/ours" "$T/deb"
	printf 'changed\n' | "$BIN/ssh-keygen" -Y verify -f "$T/signers" \
	    -I alice -n file -s "$T/msg.sig" >/dev/null 2>&1
	check "... a changed message fails" [ $? -ne 0 ]
	rm -f "$T/msg.sig"
done

# --- A KRL of ours revoking an sk key, read by our sshd and Debian's
# ssh-keygen -Q.
"$BIN/ssh-keygen" -q -k -f "$T/krl" "$T/sk_ed25519-sk.pub"
check "our KRL revokes the sk key (Debian's ssh-keygen -Q)" \
    sh -c "! ssh-keygen -Q -f '$T/krl' '$T/sk_ed25519-sk.pub' >/dev/null 2>&1"
check "... and not the other" \
    ssh-keygen -Q -f "$T/krl" "$T/sk_ecdsa-sk.pub"
SERVER=ours
serve krl "$T/ak_plain" "RevokedKeys $T/krl"
login "$T/sk_ed25519-sk"
check "our sshd refuses the revoked sk key" [ $? -ne 0 ]
check "... with OpenSSH's line" grep -q "Authentication key ED25519-SK $(fp "$T/sk_ed25519-sk.pub") revoked by file" "$T/sshd.log"
login "$T/sk_ecdsa-sk"
check "... and takes the other" [ $? -eq 0 ]
stop
finish
