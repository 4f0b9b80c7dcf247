#!/bin/sh
# keygen_cert.sh: certificates signed by our ssh-keygen print the same
# under OpenSSH's -L as under ours, and theirs under ours; every key type
# as subject and as CA (RSA CAs with rsa-sha2-512 and -256). -s's
# refusals and messages alike; -s with -U, the CA key in an agent.
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
# -s: the subject found as OpenSSH finds a public key; refusals.
cut -d' ' -f1,2 s_ed25519.pub > nocomment.pub
cp s_ed25519 privonly
{ echo junk; cat s_ed25519.pub; } > junk.pub
for f in nocomment.pub junk.pub missing.pub K/s_ed25519-cert.pub; do
	alike "-s: subject $f" "rm -f x*; cp $f x.pub 2>/dev/null;
	    \$KG -s ca_ed25519 -I x -n a x.pub; cut -d' ' -f3- x-cert.pub"
done
# (OpenSSH writes "(null)" as the comment of a key read from a private
# key file alone; we write none.)
check "-s: subject a private key file" sh -c "'$K' -q -s ca_ed25519 -I x \
    privonly && '$O' -L -f privonly-cert.pub"
for t in rsa-sha2-256 ssh-rsa rsa RSA ed25519 ssh-ed25519 ecdsa \
    ecdsa-sha2-nistp521 ecdsa-sha2-nistp384 foo dsa \
    ssh-ed25519-cert-v01@openssh.com; do
	for ca in ca_rsab2048 ca_ed25519 ca_ecdsab521; do
		alike "-s $ca -t $t" "cp s_ed25519.pub u.pub; rm -f u-cert.pub
		    \$KG -s $ca -t $t -I x u.pub; \$KG -L -f u-cert.pub |
		    grep Signing"
	done
done
alike "-s: bad serial" "\$KG -s ca_ed25519 -I x -z abc s_ed25519.pub"
alike "-s: bad option" "\$KG -s ca_ed25519 -I x -O foo s_ed25519.pub"
alike "-s: bad validity" "\$KG -s ca_ed25519 -I x -V junk s_ed25519.pub"
alike "-s: CA missing" "\$KG -s missing -I x s_ed25519.pub"
alike "-s: CA public key, no -U" "\$KG -s ca_ed25519.pub -I x s_ed25519.pub"

# -U: the agent holding the CA's key signs.
if command -v ssh-agent >/dev/null 2>&1 &&
    command -v ssh-add >/dev/null 2>&1; then
	eval "$(ssh-agent -s)" >/dev/null
	trap 'kill "$SSH_AGENT_PID" 2>/dev/null; rm -rf "$T" "$kg_out"' EXIT
	ssh-add -q ca_ed25519 ca_rsab2048 ca_ecdsab521 2>/dev/null
	for ca in ca_ed25519 ca_rsab2048 ca_ecdsab521; do
		hows="$ca.pub $ca"
		[ $ca = ca_rsab2048 ] && hows="$hows $ca.pub-t-rsa-sha2-256"
		for how in $hows; do
			how=$(echo "$how" | sed 's/-t-/ -t /')
			alike "-U -s $how" "cp s_ecdsab384.pub u.pub; rm -f u-cert.pub
			    \$KG -s $how -U -I agent -n a,b -z 7 u.pub;
			    \$KG -L -f u-cert.pub"
			check "-U -s $how: OpenSSH checks our signature" \
			    "$O" -L -f u-cert.pub
		done
	done
	alike "-U, CA not in the agent" "\$KG -s ca_ecdsab384.pub -U -I x \
	    s_ed25519.pub"
	alike "-U, no CA key" "\$KG -s missing.pub -U -I x s_ed25519.pub"
	kill "$SSH_AGENT_PID"
	alike "-U, agent gone" "\$KG -s ca_ed25519.pub -U -I x s_ed25519.pub"
	unset SSH_AUTH_SOCK
	alike "-U, no agent" "\$KG -s ca_ed25519.pub -U -I x s_ed25519.pub"
else
	echo "ssh-agent not installed: agent cases skipped"
fi

# A corrupted certificate is refused by both.
sed 's/AAAA\(.\)/AAAB\1/3' K/s_ed25519-cert.pub > bad-cert.pub
same "-L corrupt" "$K -L -f bad-cert.pub >/dev/null" "$O -L -f bad-cert.pub >/dev/null"
finish
