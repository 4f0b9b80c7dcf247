#!/bin/sh
# keygen_convert.sh: ssh-keygen -e and -i in every -m format (RFC4716,
# PKCS8, PEM): our output is byte-identical to OpenSSH's for public keys,
# private keys and certificates of each type, including refusals and exit
# codes; each tool imports what the other exported; and export followed
# by import gives back the original key. ssh.com's private keys ("SSH2
# ENCRYPTED PRIVATE KEY", unencrypted) import to the same PEM key, and
# broken ones are refused alike (standard error and status too).
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
alike "-i headers, stderr" "\$KG -i -f hdr.txt"
grep -v END hdr.txt > noend.txt
alike "-i without an END line" "\$KG -i -f noend.txt"
{ echo junk; cat hdr.txt; } > junk_first.txt
alike "-i, junk before BEGIN" "\$KG -i -f junk_first.txt"
for f in junk rsa ed.pub; do
	alike "-i of $f, stderr" "\$KG -i -f $f"
done

# ssh.com private keys, made from an RSA key's PKCS#1 numbers: uint32
# magic, length, string type, string cipher, string (string e d n iqmp
# q p, each a bit count and its bytes), base64 between armour lines.
if command -v python3 >/dev/null && command -v openssl >/dev/null; then
	cat > sshcom.py <<'EOT'
import base64, struct, subprocess, sys
der = subprocess.run(["openssl", "rsa", "-in", sys.argv[1], "-outform",
    "DER", "-traditional"], capture_output=True, check=True).stdout
def tlv(b, i):
    tag, n = b[i], b[i + 1]; i += 2
    if n & 0x80:
        k = n & 0x7f; n = int.from_bytes(b[i:i + k], "big"); i += k
    return tag, b[i:i + n], i + n
_, seq, _ = tlv(der, 0)
ints, i = [], 0
while i < len(seq):
    _, v, i = tlv(seq, i); ints.append(int.from_bytes(v, "big"))
_, n, e, d, p, q, dp, dq, iqmp = ints
u32 = lambda x: struct.pack(">I", x)
s = lambda b: u32(len(b)) + b
def bits(x):
    return u32(x.bit_length()) + x.to_bytes((x.bit_length() + 7) // 8, "big")
v = sys.argv[2]
payload = b"".join(bits(x) for x in (e, d, n, iqmp, q, p))
inner = s(payload[:-20] if v == "trunc" else
    payload + b"\0\0\0" if v == "trail" else payload)
ktype = b"if-modn{sign{rsa-pkcs1-sha1},encrypt{rsa-pkcs1v2-oaep}}"
body = (s(b"foo" if v == "type" else ktype) +
    s(b"3des-cbc" if v == "3des" else b"none") + s(inner))
blob = u32(0x12345678 if v == "magic" else 0x3f6ff9eb) + \
    u32(8 + len(body)) + body
if v == "short": blob = b"\x3f\x6f"
b64 = base64.b64encode(blob).decode()
print("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----")
print('Comment: "rsa-key-20250101"')
for i in range(0, len(b64), 70): print(b64[i:i + 70])
print("---- END SSH2 ENCRYPTED PRIVATE KEY ----")
EOT
	$O -q -t rsa -b 2048 -m PEM -N '' -f sc_rsa
	for v in ok trunc trail type 3des magic short; do
		python3 sshcom.py sc_rsa $v > sc_$v
		alike "-i ssh.com private key: $v" "\$KG -i -f sc_$v"
	done
	check "-i ssh.com: the original key" sh -c "'$K' -i -f sc_ok |
	    cmp -s - sc_rsa"
else
	echo "python3 or openssl missing: ssh.com private keys skipped"
fi
finish
