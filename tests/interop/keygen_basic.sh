#!/bin/sh
# keygen_basic.sh: keys made by our ssh-keygen are read the same by
# OpenSSH's and the other way round: -y, -l (sha256/md5, randomart),
# -p and -c, for every key type, encrypted and not.
. "$(dirname "$0")/keygen_lib.inc"

for spec in "ed25519 0" "ecdsa 256" "ecdsa 384" "ecdsa 521" "rsa 2048"; do
	set -- $spec
	t=$1; b=$2
	barg=""; [ "$b" != 0 ] && barg="-b $b"
	for who in K O; do
		eval prog=\$$who
		f=$who-$t-$b
		check "$who gen $t $b" "$prog" -q -t $t $barg -f $f -N '' -C "c $f"
		check "$who gen enc $t" "$prog" -q -t $t $barg -f $f.enc -N sekrit -a 2
		same "-y $f" "$K -y -f $f" "$O -y -f $f"
		same "-y enc $f" "$K -y -P sekrit -f $f.enc" "$O -y -P sekrit -f $f.enc"
		same "-l $f" "$K -l -f $f" "$O -l -f $f"
		same "-lv $f.pub" "$K -lv -f $f.pub" "$O -lv -f $f.pub"
		same "-lv md5 $f" "$K -lv -E md5 -f $f.pub" "$O -lv -E md5 -f $f.pub"
		same "wrong pass $f" "$K -y -P wrong -f $f.enc" "$O -y -P wrong -f $f.enc"
	done
	# Passphrase and comment changes by one, read by the other.
	check "K -p" "$K" -p -f O-$t-$b.enc -P sekrit -N other -a 2
	same "O reads K -p" "$O -y -P other -f O-$t-$b.enc" "$K -y -P other -f O-$t-$b.enc"
	check "K -c" "$K" -c -f K-$t-$b -C "new comment"
	same "O reads K -c" "$O -y -f K-$t-$b" "cat K-$t-$b.pub"
	check "O -c" "$O" -c -f O-$t-$b -C "theirs"
	same "K reads O -c" "$K -l -f O-$t-$b" "$O -l -f O-$t-$b"
done

# Lists of keys: authorized_keys with options, known_hosts with markers.
{
	echo "# comment"
	echo "host1,10.0.0.1 $(cut -d' ' -f1,2 K-ed25519-0.pub)"
	echo "@cert-authority *.example $(cut -d' ' -f1,2 O-rsa-2048.pub) ca"
	echo "command=\"echo a b\",no-pty $(cat O-ecdsa-384.pub)"
	echo "[h]:2222 $(cut -d' ' -f1,2 K-ecdsa-521.pub)"
	cat K-rsa-2048.pub
} > list
same "-l list" "$K -l -f list" "$O -l -f list"
same "-lv list" "$K -lv -f list" "$O -lv -f list"
echo junk > junk
same "-l junk" "$K -l -f junk" "$O -l -f junk"
same "-l missing" "$K -l -f missing" "$O -l -f missing"
same "bad rsa bits" "$K -q -t rsa -b 512 -N '' -f x" "$O -q -t rsa -b 512 -N '' -f x"
same "bad type" "$K -q -t foo -N '' -f x" "$O -q -t foo -N '' -f x"
finish
