#!/bin/sh
# keygen_convert.sh: ssh-keygen -e and -i in every -m format (RFC4716,
# PKCS8, PEM): our output is byte-identical to OpenSSH's for public keys,
# private keys and certificates of each type, including refusals and exit
# codes; each tool imports what the other exported; and export followed
# by import gives back the original key.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
MOAT_BIN=${MOAT_BIN:-$SRC/build/bin}
. "$(dirname "$0")/keygen_lib.inc"

$O -q -t ed25519 -N '' -f ed -C "ed comment"
$O -q -t ecdsa -N '' -f ec256 -C ec256
$O -q -t ecdsa -b 384 -N '' -f ec384 -C ec384
$O -q -t ecdsa -b 521 -N '' -f ec521 -C ec521
$O -q -t rsa -b 2048 -N '' -f rsa -C rsa
$O -q -t rsa -b 3072 -N '' -f rsa3 -C rsa3
cp rsa.pub rsac.pub
$O -q -s ed -I cert -z 3 rsac.pub
cp ed.pub edc.pub
$O -q -s rsa -I cert -z 4 edc.pub
FILES="ed.pub ed ec256.pub ec384.pub ec521.pub ec521 rsa.pub rsa rsa3.pub rsac-cert.pub edc-cert.pub"
for m in RFC4716 PKCS8 PEM rfc4716 BOGUS; do
	for f in $FILES; do
		same "-e -m $m $f" "$O -e -m $m -f $f" "$K -e -m $m -f $f"
	done
done
same "-e default format" "$O -e -f rsa.pub" "$K -e -f rsa.pub"
for m in RFC4716 PKCS8 PEM; do
	for f in $FILES; do
		$O -e -m $m -f $f > "x.$m.$f" 2>/dev/null || continue
		$K -e -m $m -f $f > "y.$m.$f" 2>/dev/null
		for g in "x.$m.$f" "y.$m.$f"; do
			same "-i -m $m $g" "$O -i -m $m -f $g" "$K -i -m $m -f $g"
		done
		# Round trip: the import is the original key (RFC4716
		# keeps certificates; -i -m PEM reads RSA only).
		case "$m:$f" in
		PKCS8:*-cert.pub|PEM:*-cert.pub|PEM:ec*) continue ;;
		esac
		want=$(awk '{print $1, $2}' "${f%.pub}.pub")
		got=$($K -i -m $m -f "y.$m.$f" 2>/dev/null)
		if [ "$got" = "$want" ]; then
			kg_pass=$((kg_pass + 1))
		else
			kg_fail=$((kg_fail + 1)); echo "FAIL: round trip $m $f"
		fi
	done
done
# Cross formats and junk.
same "-i -m PKCS8 of PKCS#1" "$O -i -m PKCS8 -f x.PEM.rsa.pub" \
    "$K -i -m PKCS8 -f x.PEM.rsa.pub"
same "-i -m PEM of SPKI" "$O -i -m PEM -f x.PKCS8.rsa.pub" \
    "$K -i -m PEM -f x.PKCS8.rsa.pub"
same "-i -m PEM of ECDSA" "$O -i -m PEM -f x.PEM.ec256.pub" \
    "$K -i -m PEM -f x.PEM.ec256.pub"
echo junk > junk
for m in RFC4716 PKCS8 PEM; do
	same "-i -m $m junk" "$O -i -m $m -f junk" "$K -i -m $m -f junk"
done
# An RFC 4716 file with a continued header and other tags.
{
	echo "---- BEGIN SSH2 PUBLIC KEY ----"
	echo "Subject: someone"
	echo "Comment: \"a long comment that goes on \\"
	echo "and on\""
	$O -e -f ec384.pub | sed -n '3,$p'
} > hdr.txt
same "-i headers" "$O -i -f hdr.txt" "$K -i -f hdr.txt"
finish
