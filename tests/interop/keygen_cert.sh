#!/bin/sh
# keygen_cert.sh: certificates signed by our ssh-keygen print the same
# under OpenSSH's -L as under ours, and theirs under ours; every key type
# as subject and as CA (RSA CAs with rsa-sha2-512 and -256).
. "$(dirname "$0")/keygen_lib.inc"

for t in ed25519 "ecdsa -b 256" "ecdsa -b 384" "ecdsa -b 521" "rsa -b 2048"; do
	n=$(echo $t | tr -d ' -')
	"$O" -q -t $t -N '' -f s_$n -C "subj $n"
	"$O" -q -t $t -N '' -f ca_$n
done
i=0
for ca in ca_ed25519 ca_ecdsab384 ca_rsab2048 ca_ecdsab521; do
	for s in s_ed25519 s_ecdsab256 s_ecdsab521 s_rsab2048; do
		i=$((i + 1))
		for who in K O; do
			eval prog=\$$who
			mkdir -p $who; cp $s.pub $who/$s.pub
			check "$who sign $s by $ca" "$prog" -q -s $ca -I "id $i" \
			    -n "alice,bob" -z $i -V 20200101:20300101 \
			    -O force-command=/bin/true -O source-address=10.0.0.0/8 \
			    -O no-pty $who/$s.pub
			same "-L $who $s $ca" "$K -L -f $who/$s-cert.pub" \
			    "$O -L -f $who/$s-cert.pub"
			same "-l $who $s $ca" "$K -l -f $who/$s-cert.pub" \
			    "$O -l -f $who/$s-cert.pub"
		done
	done
done
for opts in "-h -n host.example" "-O clear -O verify-required -O no-touch-required" \
    "-O clear -O permit-pty -O extension:a@b=c -O critical:x@y" \
    "-V +1d" "-V always:forever" "-V -1w:+1w"; do
	check "K sign $opts" "$K" -q -s ca_rsab2048 -I opt $opts -t rsa-sha2-256 K/s_ed25519.pub
	same "-L $opts" "$K -L -f K/s_ed25519-cert.pub" "$O -L -f K/s_ed25519-cert.pub"
done
# A corrupted certificate is refused by both.
sed 's/AAAA\(.\)/AAAB\1/3' K/s_ed25519-cert.pub > bad-cert.pub
same "-L corrupt" "$K -L -f bad-cert.pub >/dev/null" "$O -L -f bad-cert.pub >/dev/null"
finish
