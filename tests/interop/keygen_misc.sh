#!/bin/sh
# keygen_misc.sh: ssh-keygen's smaller modes against OpenSSH's, with the
# same standard output, standard error and exit status: -A (host keys
# under a prefix: types, modes, comments, keys both programs load, a
# second run that makes nothing, a key without its .pub left alone, an
# empty one made again, failures), -B (bubble babble of every key type,
# from private, public, encrypted and certificate files), -r/-g (SSHFP
# records of every key type, the ways a key file is found, the errors),
# -m PEM/PKCS8 when generating a key, and -l/-E details.
. "$(dirname "$0")/keygen_lib.inc"

# Keys of every type, by OpenSSH; some without their .pub.
types="ed25519 ecdsa256 ecdsa384 ecdsa521 rsa"
for n in $types; do
	case $n in
	ed25519) t="-t ed25519" ;;
	ecdsa*) t="-t ecdsa -b ${n#ecdsa}" ;;
	rsa) t="-t rsa -b 2048" ;;
	esac
	"$O" -q $t -N '' -f k_$n -C "key $n"
	"$O" -q $t -N 'sekrit' -a 2 -f e_$n -C "enc $n"
	cp k_$n n_$n			# private, no .pub
	cp e_$n en_$n			# encrypted, no .pub
done
"$O" -q -t rsa -b 2048 -m PEM -N '' -f pem_rsa && rm pem_rsa.pub
"$O" -q -t ed25519 -N '' -C '' -f nocomment && rm nocomment.pub
"$O" -q -s k_rsa -I id k_ed25519.pub
{ echo "junk line"; echo; echo "# comment"; cat k_ecdsa256.pub; } > junk1
{ echo "-----BEGIN x"; cat k_ecdsa256.pub; } > junk2
printf 'command="x" %s\n' "$(cat k_ed25519.pub)" > opts
cat k_rsa.pub k_ed25519.pub > two
mkdir adir
: > empty

# -B, and -l where -B shares its reading of files.
for n in $types; do
	for f in k_$n k_$n.pub e_$n n_$n en_$n; do
		alike "-B $f" "\$KG -B -f $f"
		alike "-l $f" "\$KG -l -f $f"
	done
	alike "-Bv $n" "\$KG -Bv -f k_$n.pub"
done
for f in pem_rsa nocomment k_ed25519-cert.pub junk1 two opts adir empty \
    missing; do
	alike "-B $f" "\$KG -B -f $f"
	alike "-lv $f" "\$KG -lv -f $f"
done
for h in sha1 SHA384 sha512 Md5 bad; do
	alike "-lv -E $h" "\$KG -lv -E $h -f k_rsa.pub"
done

# -r: SSHFP records, plain and generic.
for n in $types; do
	for f in k_$n k_$n.pub e_$n n_$n en_$n; do
		alike "-r $f" "\$KG -r host.example -f $f"
		alike "-r -g $f" "\$KG -r host.example -g -f $f"
	done
done
for f in pem_rsa nocomment k_ed25519-cert.pub junk1 junk2 two opts adir \
    empty missing; do
	alike "-r $f" "\$KG -r h -f $f"
done
alike "-r: the host keys in /etc/ssh" "\$KG -r h"
alike "-r -l: -l wins" "\$KG -r h -l -f k_ed25519"
alike "-r -O: ignored" "\$KG -r h -O hashalg=sha1 -f k_ed25519"

# -A into a prefix: the same words, and keys each program loads.
user_host="$(id -un)@$(hostname)"
alike "-A" "rm -rf px; mkdir -p px/etc/ssh; \$KG -A -f $T/px"
cd px/etc/ssh || exit 1
for t in rsa ecdsa ed25519; do
	f=ssh_host_${t}_key
	check "-A $t: private 0600" test "$(stat -c %a $f)" = 600
	check "-A $t: public 0644" test "$(stat -c %a $f.pub)" = 644
	check "-A $t: comment" test "$(cut -d' ' -f3- $f.pub)" = "$user_host"
	check "-A $t: OpenSSH loads it" sh -c \
	    "'$O' -y -f $f | cmp -s - $f.pub"
	check "-A $t: we load it" sh -c "'$K' -y -f $f | cmp -s - $f.pub"
done
check "-A sizes: RSA 3072, ECDSA 256" sh -c \
    "'$O' -l -f ssh_host_rsa_key | grep -q '^3072 .*(RSA)$' &&
    '$O' -l -f ssh_host_ecdsa_key | grep -q '^256 .*(ECDSA)$'"
cksum ssh_host_* > ../../../sums
cd "$T" || exit 1
check "-A again: nothing to do" sh -c "[ -z \"\$('$K' -A -f $T/px)\" ]"
check "-A again: keys unchanged" sh -c \
    "cd px/etc/ssh && cksum ssh_host_* | cmp -s - $T/sums"
# An existing key without its .pub is left alone; an empty one is made.
alike "-A: key without .pub, empty key" "rm -rf px; mkdir -p px/etc/ssh;
    cp k_ed25519 px/etc/ssh/ssh_host_ed25519_key; : > px/etc/ssh/ssh_host_rsa_key
    \$KG -A -f $T/px; ls px/etc/ssh"
check "-A: RSA key made again" test -s px/etc/ssh/ssh_host_rsa_key.pub
check "-A: Ed25519 key kept" cmp k_ed25519 px/etc/ssh/ssh_host_ed25519_key
# Failures: no etc/ssh (the temporary names are random), a file as the
# prefix, a directory where a .pub goes.
alike "-A: no etc/ssh" "rm -rf px; mkdir px; \$KG -A -f $T/px 2>&1 |
    sed 's/_key\\.[A-Za-z0-9]\\{10\\}:/_key.TMP:/'"
alike "-A: prefix is a file" "\$KG -A -f $T/empty"
alike "-A: .pub is a directory" "rm -rf px;
    mkdir -p px/etc/ssh/ssh_host_ecdsa_key.pub; \$KG -A -f $T/px"
# (OpenSSH leaves its temporary files there; we remove ours.)
check "-A: no temporary files left" test \
    "$(ls px/etc/ssh | grep -c ssh_host_ecdsa)" = 1
alike "-A with an operand" "\$KG -A -f $T/px x 2>&1 | head -1"
# -m PEM applies; the umask does not touch the .pub.
rm -rf px; mkdir -p px/etc/ssh
(umask 077; "$K" -A -m PEM -f "$T/px" > /dev/null)
# A PEM key has no comment: compare the key fields only.
pub2() { cut -d' ' -f1,2 "$1.pub" > "$1.pub2"; }
for t in rsa ecdsa ed25519; do
	f=px/etc/ssh/ssh_host_${t}_key
	[ $t = ed25519 ] && cp $f.pub $f.pub2 || pub2 $f
	check "-A -m PEM $t: OpenSSH loads it" sh -c \
	    "'$O' -y -f $f | cmp -s - $T/$f.pub2"
	check "-A umask 077 $t: public 0644" test "$(stat -c %a $f.pub)" = 644
done
check "-A -m PEM: RSA in PEM" grep -q "BEGIN RSA PRIVATE KEY" \
    px/etc/ssh/ssh_host_rsa_key
check "-A -m PEM: ECDSA in PEM" grep -q "BEGIN EC PRIVATE KEY" \
    px/etc/ssh/ssh_host_ecdsa_key

# -m when generating a key: the same file format, keys both programs load.
# form FILE: the header lines, and the algorithms of a PKCS#8 file (its
# lengths vary with the key).
form() {
	head -1 "$1"
	sed -n '2,3p' "$1" | grep : | cut -d, -f1
	case $(head -1 "$1") in
	*"BEGIN ENCRYPTED"*)
		openssl asn1parse -in "$1" | grep OBJECT | sed 's/.*://' ;;
	esac
}
for m in PEM PKCS8 RFC4716 pem; do
	for t in rsa ecdsa ed25519; do
		b=; [ $t = rsa ] && b="-b 2048"
		for who in K O; do
			eval prog=\$$who
			"$prog" -q -t $t $b -m $m -N '' -f g_${who}_${t}_$m
			"$prog" -q -t $t $b -m $m -N 'abcdef' \
			    -f ge_${who}_${t}_$m
		done
		same "-m $m $t: file format" "head -1 g_K_${t}_$m" \
		    "head -1 g_O_${t}_$m"
		form ge_K_${t}_$m > form_K; form ge_O_${t}_$m > form_O
		check "-m $m $t: encrypted format" cmp form_K form_O
		f=g_K_${t}_$m; e=ge_K_${t}_$m
		case $m$t in
		RFC4716*|*ed25519) cp $f.pub $f.pub2; cp $e.pub $e.pub2 ;;
		*) pub2 $f; pub2 $e ;;
		esac
		check "-m $m $t: OpenSSH loads ours" sh -c \
		    "'$O' -y -f $f | cmp -s - $f.pub2"
		check "-m $m $t: OpenSSH loads ours, encrypted" sh -c \
		    "'$O' -y -P abcdef -f $e | cmp -s - $e.pub2"
	done
done
alike "-m PEM: short passphrase" "\$KG -q -t ecdsa -m PEM -N abcd -f s1;
    ls s1*"
alike "-m PKCS8: short passphrase" "\$KG -q -t rsa -b 2048 -m PKCS8 -N ab \
    -f s2; ls s2*"
alike "-m unknown" "\$KG -q -t ed25519 -m foo -N '' -f s3; ls s3*"
alike "-m unknown with -l" "\$KG -l -m foo -f k_rsa"
finish
