#!/bin/sh
# sshd_config keywords that used to be accepted and ignored, now acted on
# or refused as Debian's sshd (OpenSSH 9.2) does:
# - RequiredRSASize 3072 refuses a 2048-bit RSA user key with OpenSSH's
#   log line, while a 4096-bit key logs in;
# - CASignatureAlgorithms refuses a certificate whose CA signed it with an
#   algorithm left out, with OpenSSH's log line, and takes it otherwise;
# - FingerprintHash md5 shows in the "Accepted publickey" line;
# - ~/.ssh/rc runs before the command, and PermitUserRC no skips it;
# - IPQoS marks the connection (pty sessions interactive, others bulk);
# - bad values (IPQoS, ChannelTimeout, GSSAPI flags...) fail sshd -t with
#   Debian's message, good ones pass both, and sshd -T prints the values
#   as Debian's sshd prints them;
# - RequiredRSASize leaves a smaller RSA host key out, as Debian's sshd
#   does (sshd -t: same message and status; a running sshd offers the
#   other keys).
# Debian's ssh is the client; a temporary user for ~/.ssh/rc.
. "$(dirname "$0")/lib.sh"
need ssh
need ssh-keygen
make_keys
ssh-keygen -q -t rsa -b 2048 -N '' -f "$T/id_rsa2048" -C small >/dev/null
ssh-keygen -q -t rsa -b 4096 -N '' -f "$T/id_rsa4096" -C big >/dev/null
cat "$T/id_rsa2048.pub" "$T/id_rsa4096.pub" >> "$T/authorized_keys"

# RequiredRSASize
restart_sshd "RequiredRSASize 3072"
ID=$T/id_rsa2048 ossh "$ME@127.0.0.1" true 2>/dev/null
check "RequiredRSASize 3072: a 2048-bit RSA key is refused" [ $? -ne 0 ]
check "RequiredRSASize 3072: OpenSSH's log line" \
    wait_log "$T/sshd.log" "refusing RSA key: Invalid key length"
out=$(ID=$T/id_rsa4096 ossh "$ME@127.0.0.1" echo in 2>/dev/null)
check "RequiredRSASize 3072: a 4096-bit RSA key logs in" [ "$out" = in ]
restart_sshd
out=$(ID=$T/id_rsa2048 ossh "$ME@127.0.0.1" echo in 2>/dev/null)
check "default (1024): the 2048-bit RSA key logs in" [ "$out" = in ]

# CASignatureAlgorithms, with a CA key in TrustedUserCAKeys.
ssh-keygen -q -t rsa -b 3072 -N '' -f "$T/ca" -C ca >/dev/null
ssh-keygen -q -t ed25519 -N '' -f "$T/id_cert" -C cert >/dev/null
ssh-keygen -q -s "$T/ca" -t rsa-sha2-256 -I moat-test -n "$ME" \
    "$T/id_cert.pub" 2>/dev/null
restart_sshd "TrustedUserCAKeys $T/ca.pub" \
    "CASignatureAlgorithms rsa-sha2-512,ssh-ed25519"
ID=$T/id_cert ossh -o CertificateFile="$T/id_cert-cert.pub" \
    "$ME@127.0.0.1" true 2>/dev/null
check "CASignatureAlgorithms without rsa-sha2-256: the certificate is refused" \
    [ $? -ne 0 ]
check "CASignatureAlgorithms: OpenSSH's log line" wait_log "$T/sshd.log" \
    "userauth_pubkey: certificate signature algorithm rsa-sha2-256: signature algorithm not supported"
restart_sshd "TrustedUserCAKeys $T/ca.pub" \
    "CASignatureAlgorithms rsa-sha2-256"
out=$(ID=$T/id_cert ossh -o CertificateFile="$T/id_cert-cert.pub" \
    "$ME@127.0.0.1" echo in 2>/dev/null)
check "CASignatureAlgorithms with rsa-sha2-256: the certificate logs in" \
    [ "$out" = in ]

# FingerprintHash
restart_sshd "FingerprintHash md5"
ossh "$ME@127.0.0.1" true
md5=$(ssh-keygen -l -E md5 -f "$T/id_ed25519.pub" | cut -d' ' -f2)
check "FingerprintHash md5: the Accepted line shows the MD5 fingerprint" \
    wait_log "$T/sshd.log" "Accepted publickey for $ME .*ED25519 $md5"
check "FingerprintHash md5: so does the authorized_keys match line" \
    wait_log "$T/sshd.log" "matching key found: ssh-ed25519 $md5"

# ~/.ssh/rc and PermitUserRC, as a temporary user.
if [ "$(id -u)" = 0 ]; then
	U=moatk$$
	make_user "$U"
	H=$(getent passwd "$U" | cut -d: -f6)
	mkdir -p "$H/.ssh"
	cp "$T/id_ed25519.pub" "$H/.ssh/authorized_keys"
	printf 'echo "rc ran as $(id -un) in $(pwd)" > "$HOME/rc.out"\n' \
	    > "$H/.ssh/rc"
	chown -R "$U:" "$H/.ssh"
	chmod 700 "$H/.ssh"
	chmod 711 "$T"
	AKF=.ssh/authorized_keys restart_sshd
	ossh "$U@127.0.0.1" true
	check "~/.ssh/rc runs as the user in the home directory" \
	    grep -qx "rc ran as $U in $H" "$H/rc.out"
	rm -f "$H/rc.out"
	AKF=.ssh/authorized_keys restart_sshd "PermitUserRC no"
	ossh "$U@127.0.0.1" true
	check "PermitUserRC no: ~/.ssh/rc is skipped" [ ! -e "$H/rc.out" ]
	rm -f "$H/rc.out"
	AKF=.ssh/authorized_keys restart_sshd "Match User $U" \
	    "PermitUserRC no"
	ossh "$U@127.0.0.1" true
	check "PermitUserRC no in a Match block: skipped" [ ! -e "$H/rc.out" ]
	printf 'no-user-rc %s\n' "$(cat "$T/id_ed25519.pub")" \
	    > "$H/.ssh/authorized_keys"
	AKF=.ssh/authorized_keys restart_sshd
	ossh "$U@127.0.0.1" true
	check "no-user-rc key option: skipped" [ ! -e "$H/rc.out" ]
else
	echo "not root: ~/.ssh/rc checks skipped"
fi

# IPQoS: the server's end of the connection is marked with the
# interactive value once a pty session starts, with the bulk value for
# other sessions, and not at all before (what Debian's sshd does).
# tos_during ARGS...: the tos ss shows on the server's socket while
# "ossh ARGS... sleep 2" runs, in $tos.
tos_during() {
	ossh "$@" "$ME@127.0.0.1" sleep 2 </dev/null >/dev/null 2>&1 &
	cpid=$!
	tos=""
	i=0
	while [ -z "$tos" ] && [ $i -lt 100 ]; do
		grep -q "Starting session" "$T/sshd.log" &&
		    tos=$(ss -tn --tos state established "( sport = :$PORT )" |
		    grep -o "tos:0x[0-9a-f]*" | head -1)
		i=$((i + 1))
		sleep 0.05
	done
	wait $cpid
	: > "$T/sshd.log"
}
if command -v ss >/dev/null && ss -h 2>&1 | grep -q -- --tos; then
	restart_sshd "IPQoS af11 cs1"
	tos_during -T
	check "IPQoS af11 cs1: a session without a pty is marked cs1 ($tos)" \
	    [ "$tos" = tos:0x20 ]
	tos_during -tt
	check "IPQoS af11 cs1: a pty session is marked af11 ($tos)" \
	    [ "$tos" = tos:0x28 ]
	restart_sshd
	tos_during -tt
	check "IPQoS default: a pty session is marked lowdelay ($tos)" \
	    [ "$tos" = tos:0x10 ]
	tos_during -T
	check "IPQoS default: other sessions are marked throughput ($tos)" \
	    [ "$tos" = tos:0x8 ]
else
	echo "no ss with --tos: IPQoS marking not checked"
fi

# sshd -t: the same verdict and message as Debian's sshd for each line.
[ -x /usr/sbin/sshd ] || { finish; }
mkdir -p /run/sshd
same_t() {
	printf 'HostKey %s\n%s\n' "$T/host_ed25519" "$1" > "$T/t_config"
	/usr/sbin/sshd -t -f "$T/t_config" > "$T/deb.out" 2>&1
	deb=$?
	"$BIN/sshd" -t -f "$T/t_config" > "$T/our.out" 2>&1
	our=$?
	[ $deb -ne 0 ] && deb=1
	[ $our -ne 0 ] && our=1
	d=$(tr -d '\r' < "$T/deb.out" | grep -v terminating | head -1)
	o=$(grep -v "terminating\|Unsupported option" "$T/our.out" | head -1)
	if [ $deb = $our ] && [ "$d" = "$o" ]; then
		pass "sshd -t as Debian's: $1"
	else
		fail "sshd -t: $1: Debian's ($deb) [$d], ours ($our) [$o]"
	fi
}
for line in "IPQoS af11" "IPQoS af11 cs1" "IPQoS lowdelay throughput" \
    "IPQoS none" "IPQoS 0x10" "IPQoS 010" "IPQoS 255" "IPQoS AF21 CS1" \
    "IPQoS banana" "IPQoS 256" "IPQoS -1" "IPQoS 08" "IPQoS 1x" \
    "IPQoS va" "IPQoS cs0 banana" "IPQoS af11 cs1 ef" \
    "RequiredRSASize banana" "RequiredRSASize -1" "RequiredRSASize 2048" \
    "RequiredRSASize 99999999999" "FingerprintHash banana" \
    "FingerprintHash md5" "PermitUserRC banana" "ExposeAuthInfo banana" \
    "DebianBanner no" "DebianBanner banana" "ChannelTimeout session=5m" \
    "ChannelTimeout banana" "ChannelTimeout none session=5" \
    "UnusedConnectionTimeout 5m" "UnusedConnectionTimeout banana" \
    "PubkeyAuthOptions touch-required verify-required" \
    "PubkeyAuthOptions banana" "CASignatureAlgorithms banana" \
    "CASignatureAlgorithms -rsa-sha2-512" "GSSAPIAuthentication banana" \
    "GSSAPIAuthentication no" "KerberosAuthentication banana" \
    "X11DisplayOffset -1" "X11UseLocalhost banana" "XAuthLocation a b" \
    "MaxAuthTries -3" "PermitTTY banana" "GSSAPIKeyExchange no" \
    "GSSAPICleanupCredentials no" "GSSAPIStrictAcceptorCheck banana" \
    "GSSAPIStoreCredentialsOnRekey yes" "GSSAPIKexAlgorithms banana" \
    "GSSAPIKexAlgorithms gss-group14-sha256-,gss-curve25519-sha256-"; do
	same_t "$line"
done

# RequiredRSASize and host keys: a smaller RSA host key is left out with
# Debian's error (once, with or without its .pub beside it); sshd starts
# on the keys left, or not at all when none is.
ssh-keygen -q -t rsa -b 1024 -N '' -f "$T/host_rsa1024" -C small >/dev/null
mkdir -p "$T/nopub"
cp "$T/host_rsa1024" "$T/nopub/host_rsa1024"
same_hk() {
	printf '%s\n' "$@" > "$T/hk_config"
	/usr/sbin/sshd -t -f "$T/hk_config" > "$T/deb.out" 2>&1
	deb=$?
	"$BIN/sshd" -t -f "$T/hk_config" > "$T/our.out" 2>&1
	our=$?
	check "host keys [$*]: sshd -t exits $our as Debian's" [ $deb = $our ]
	check "... and prints what Debian's prints ($(head -1 "$T/our.out"))" \
	    [ "$(tr -d '\r' < "$T/deb.out")" = "$(cat "$T/our.out")" ]
}
same_hk "HostKey $T/host_rsa1024" "RequiredRSASize 2048"
same_hk "HostKey $T/nopub/host_rsa1024" "RequiredRSASize 2048"
same_hk "HostKey $T/host_rsa1024" "HostKey $T/host_ed25519" \
    "RequiredRSASize 2048"
same_hk "HostKey $T/host_rsa1024" "RequiredRSASize 1024"
check "... (that one says nothing)" [ ! -s "$T/our.out" ]
same_hk "HostKey $T/host_rsa" "RequiredRSASize 3072"
# A host key file that is not there: left out in Debian's words.
same_hk "HostKey $T/no_such_key" "HostKey $T/host_ed25519"
same_hk "HostKey $T/no_such_key"
# Running (the test's usual host keys, RSA 3072 among them, and the
# 1024-bit one): neither RSA key is offered, the others are.
restart_sshd "HostKey $T/host_rsa1024" "RequiredRSASize 4096"
check "small RSA host keys beside others: sshd starts, and says why" \
    grep -q "^main: Host key $T/host_rsa1024: Invalid key length" \
    "$T/sshd.log"
check "... for each" \
    grep -q "^main: Host key $T/host_rsa: Invalid key length" "$T/sshd.log"
ossh -o HostKeyAlgorithms=rsa-sha2-512,rsa-sha2-256 "$ME@127.0.0.1" true \
    </dev/null 2>"$T/err"
check "... the RSA host keys are not offered" [ $? -eq 255 ]
check "... (sshd: no matching host key type)" \
    wait_log "$T/sshd.log" "no matching host key type found"
out=$(ossh "$ME@127.0.0.1" echo in </dev/null 2>/dev/null)
check "... the others are" [ "$out" = in ]

# GSSAPI asked for: Debian's sshd has it, ours has not and does not
# start; "no" is quiet, as with Debian's.
for line in "GSSAPIAuthentication yes" "GSSAPIKeyExchange yes" \
    "Match User nobody
	GSSAPIAuthentication yes"; do
	printf 'HostKey %s\n%s\n' "$T/host_ed25519" "$line" > "$T/t_config"
	"$BIN/sshd" -t -f "$T/t_config" > "$T/our.out" 2>&1
	check "sshd -t refuses $line" [ $? -ne 0 ]
	check "sshd -t says why: $line" grep -q \
	    "line [23]: GSSAPI[A-Za-z]* yes: this sshd has no GSSAPI support" \
	    "$T/our.out"
done
printf 'HostKey %s\nGSSAPIAuthentication no\nGSSAPICleanupCredentials yes\n' \
    "$T/host_ed25519" > "$T/t_config"
"$BIN/sshd" -t -f "$T/t_config" > "$T/our.out" 2>&1
check "sshd -t: GSSAPI off is accepted" [ $? -eq 0 ]
check "sshd -t: GSSAPI off, nothing printed" [ ! -s "$T/our.out" ]

# sshd -T: the same lines as Debian's for the values set.
printf '%s\n' "HostKey $T/host_ed25519" "IPQoS af21 0x0a" \
    "RequiredRSASize 2048" "FingerprintHash md5" "PermitUserRC no" \
    "UnusedConnectionTimeout 1h30m" "ChannelTimeout session=5m" \
    "PubkeyAuthOptions touch-required" > "$T/T_config"
keys='^ipqos \|^requiredrsasize \|^fingerprinthash \|^permituserrc \|^unusedconnectiontimeout \|^channeltimeout \|^pubkeyauthoptions \|^exposeauthinfo '
"$BIN/sshd" -T -f "$T/T_config" 2>/dev/null | grep "$keys" | sort > "$T/our.T"
/usr/sbin/sshd -T -f "$T/T_config" 2>/dev/null | grep "$keys" | sort > "$T/deb.T"
check "sshd -T prints eight lines" [ "$(wc -l < "$T/our.T")" -eq 8 ]
check "sshd -T as Debian's sshd" cmp -s "$T/our.T" "$T/deb.T" || diff "$T/deb.T" "$T/our.T"
finish
