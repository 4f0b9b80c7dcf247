#!/bin/sh
# keygen_krl.sh: KRLs made by our ssh-keygen -k and OpenSSH's, from the
# same spec, are read the same by both tools (-Q verdicts and exit codes,
# -Q -l listings, identical bytes apart from the date); -u updates agree;
# OpenSSH's sshd loads our KRL as RevokedKeys and refuses revoked keys and
# certificates while accepting others (as root only); and bench/krl.sh
# runs on a small size with our KRLs no larger than OpenSSH's.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
MOAT_BIN=${MOAT_BIN:-$SRC/build/bin}
. "$(dirname "$0")/keygen_lib.inc"

$O -q -t ed25519 -N '' -f ca -C ca
$O -q -t ecdsa -N '' -f ca2 -C ca2
i=1
while [ $i -le 9 ]; do
	$O -q -t ed25519 -N '' -f u$i -C "user$i"
	i=$((i + 1))
done
$O -q -t rsa -b 2048 -N '' -f r1 -C rsa1
# Certificates: serials 1..60 and key IDs, by two CAs.
for s in 1 2 3 5 8 9 10 16 17 31 32 33 40 60 0; do
	cp u1.pub c$s.pub
	$O -q -s ca -I "id$s" -n root -z $s c$s.pub
	cp u2.pub d$s.pub
	$O -q -s ca2 -I "id$s" -n root -z $s d$s.pub
done
cp u3.pub e.pub
$O -q -s ca -I "revoke me" -n root -z 77 e.pub
fp6=$($O -lf u6.pub | awk '{print $2}')
cat > spec <<EOS
# a spec with every kind of line
serial: 1-3
serial: 0x10
serial: 010
serial: 31-33
serial: 60
id: revoke me
id: id0

key: $(cat u4.pub)
sha1: $(cat u5.pub)
hash: $fp6
sha256: $(cat r1.pub)
$(cat u7.pub)
EOS
check "theirs -k" $O -k -f theirs -s ca.pub spec
check "ours -k" $K -k -f ours -s ca.pub spec
same "KRL bytes apart from the date" "tail -c +33 theirs | od -c" \
    "tail -c +33 ours | od -c"
KEYS="u1.pub u2.pub u3.pub u4.pub u5.pub u6.pub u7.pub u8.pub u9 r1.pub ca.pub e-cert.pub"
for s in 1 2 3 5 8 9 10 16 17 31 32 33 40 60 0; do
	KEYS="$KEYS c$s-cert.pub d$s-cert.pub"
done
for krl in theirs ours; do
	same "-Q -l $krl" "$O -Q -l -f $krl" "$K -Q -l -f $krl"
	for k in $KEYS; do
		same "-Q $krl $k" "$O -Q -f $krl $k" "$K -Q -f $krl $k"
	done
	same "-Q $krl all" "$O -Q -f $krl $KEYS" "$K -Q -f $krl $KEYS"
	same "-Q $krl none revoked" "$O -Q -f $krl u8.pub c40-cert.pub" \
	    "$K -Q -f $krl u8.pub c40-cert.pub"
done
# Updates with -u, a second CA and a KRL version.
printf 'serial: 2-9\nid: id17\n' > spec2
cp theirs theirs2; cp ours ours2
check "theirs -u" $O -k -u -z 42 -f theirs2 -s ca2.pub spec2 u9.pub
check "ours -u" $K -k -u -z 42 -f ours2 -s ca2.pub spec2 u9.pub
same "updated bytes" "tail -c +33 theirs2 | od -c" "tail -c +33 ours2 | od -c"
for krl in theirs2 ours2; do
	same "-Q -l $krl" "$O -Q -l -f $krl" "$K -Q -l -f $krl"
	same "-Q $krl all" "$O -Q -f $krl $KEYS" "$K -Q -f $krl $KEYS"
done
# "-s none": revocations under any CA.
printf 'id: id9\nserial: 9-10\nserial: 40\n' > specw
check "theirs -s none" $O -k -C "any CA" -f theirsw -s none specw
check "ours -s none" $K -k -C "any CA" -f oursw -s none specw
same "wildcard bytes" "tail -c +33 theirsw | od -c" "tail -c +33 oursw | od -c"
for krl in theirsw oursw; do
	same "-Q -l $krl" "$O -Q -l -f $krl" "$K -Q -l -f $krl"
	same "-Q $krl all" "$O -Q -f $krl $KEYS" "$K -Q -f $krl $KEYS"
done
printf 'serial: 5-5\n' > bad6
same "-k empty range" "$O -k -f x1 -s ca.pub bad6" "$K -k -f x2 -s ca.pub bad6"
# Errors: serials or IDs without a CA, bad serials, a missing KRL,
# a corrupt KRL, a file that is not a key.
printf 'serial: 5\n' > bad1
printf 'id: x\n' > bad2
printf 'serial: 5-3\n' > bad3
printf 'serial: zz\n' > bad4
printf 'nonsense here\n' > bad5
for b in bad1 bad2; do
	same "-k $b without -s" "$O -k -f x1 $b" "$K -k -f x2 $b"
done
for b in bad3 bad4 bad5; do
	same "-k $b" "$O -k -f x1 -s ca.pub $b" "$K -k -f x2 -s ca.pub $b"
done
same "-Q missing KRL" "$O -Q -f nosuch u1.pub" "$K -Q -f nosuch u1.pub"
head -c 100 ours > trunc
same "-Q truncated KRL" "$O -Q -f trunc u1.pub" "$K -Q -f trunc u1.pub"
same "-Q not a key" "$O -Q -f ours spec" "$K -Q -f ours spec"

# OpenSSH's sshd with our KRL as RevokedKeys.
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ] && command -v ssh >/dev/null; then
	mkdir -p /run/sshd
	$O -q -t ed25519 -N '' -f hostkey
	cat u4.pub u5.pub u6.pub u7.pub u8.pub > authkeys
	. "$SRC/tests/interop/port.inc"
	port=$(free_port)
	cat > sshd_config <<EOS
ListenAddress 127.0.0.1:$port
HostKey $T/hostkey
PidFile none
AuthorizedKeysFile $T/authkeys
TrustedUserCAKeys $T/ca.pub
RevokedKeys $T/ours
PermitRootLogin prohibit-password
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
EOS
	/usr/sbin/sshd -D -e -f sshd_config 2> sshd.log &
	spid=$!
	n=0
	while ! (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1; n=$((n + 1))
	done 2>/dev/null
	sleep 0.5
	login() {	# login key [cert]: 0 when it logs in
		extra=""
		[ -n "$2" ] && extra="-o CertificateFile=$T/$2"
		ssh -F /dev/null -p "$port" -i "$T/$1" $extra -o BatchMode=yes \
		    -o IdentitiesOnly=yes -o StrictHostKeyChecking=no \
		    -o UserKnownHostsFile=/dev/null root@127.0.0.1 true \
		    </dev/null >/dev/null 2>&1
	}
	expect() {	# expect what want(0|1) key [cert]
		what=$1 want=$2; shift 2
		login "$@"; got=$?
		[ $got -ne 0 ] && got=1
		if [ "$got" = "$want" ]; then
			kg_pass=$((kg_pass + 1))
		else
			kg_fail=$((kg_fail + 1)); echo "FAIL: sshd $what"
		fi
	}
	expect "accepts unrevoked key" 0 u8
	expect "refuses explicit key" 1 u4
	expect "refuses SHA-1 key" 1 u5
	expect "refuses SHA-256 key" 1 u6
	expect "refuses plain key line" 1 u7
	expect "accepts unrevoked cert" 0 u1 c40-cert.pub
	expect "refuses cert by serial" 1 u1 c16-cert.pub
	expect "refuses cert by range" 1 u1 c32-cert.pub
	expect "refuses cert by key ID" 1 u3 e-cert.pub
	kill "$spid"; wait "$spid" 2>/dev/null
	# A corrupt KRL makes sshd refuse every key.
	sed -i "s|^RevokedKeys .*|RevokedKeys $T/trunc|" sshd_config
	/usr/sbin/sshd -D -e -f sshd_config 2>> sshd.log &
	spid=$!
	sleep 0.7
	expect "with a corrupt KRL refuses" 1 u8
	kill "$spid"; wait "$spid" 2>/dev/null
else
	echo "skipping sshd RevokedKeys checks (needs root, sshd and ssh)"
fi

# The benchmark on a small size: it fails when our KRL is larger.
if sh "$SRC/bench/krl.sh" 10000 > bench.out 2>&1; then
	kg_pass=$((kg_pass + 1))
else
	kg_fail=$((kg_fail + 1)); echo "FAIL: bench/krl.sh 10000"; cat bench.out
fi
finish
