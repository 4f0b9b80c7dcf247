#!/bin/sh
# The legacy algorithms that OpenSSH still implements but leaves off by
# default (CBC ciphers, hmac-md5, the -96 MACs, SHA-1 key exchange), for
# old routers and switches: enabled with "+" on both ends, each carries
# data intact between Debian's OpenSSH and ours in both directions, and
# none of them is negotiated unless asked for.
. "$(dirname "$0")/lib.sh"
need ssh
need sha256sum
make_keys
CIPHERS="3des-cbc aes128-cbc aes192-cbc aes256-cbc"
MACS="hmac-md5 hmac-md5-96 hmac-sha1-96 hmac-md5-etm@openssh.com
hmac-md5-96-etm@openssh.com hmac-sha1-96-etm@openssh.com"
KEXES="diffie-hellman-group1-sha1 diffie-hellman-group14-sha1
diffie-hellman-group-exchange-sha1"
list() { echo $* | tr ' ' ','; }

head -c 200000 /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)
KNOWN=/dev/null

# Off by default: Debian's ssh asking only for a CBC cipher gets nothing.
write_config </dev/null
start_sshd
ossh -c aes128-cbc "$ME@127.0.0.1" true 2>"$T/err"
check "aes128-cbc not offered by default (255)" [ $? -eq 255 ]
check "... our server: no matching cipher" wait_log "$T/sshd.log" \
    "Unable to negotiate with 127.0.0.1 port [0-9]*: no matching cipher found. Their offer: aes128-cbc"

# Debian's ssh into our sshd, everything enabled with "+".
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
write_config <<EOF
Ciphers +$(list $CIPHERS)
MACs +$(list $MACS)
KexAlgorithms +$(list $KEXES)
EOF
start_sshd
try() { # try description ssh-options...
	desc=$1; shift
	got=$(ossh "$@" "$ME@127.0.0.1" cat < "$T/data" |
	    sha256sum | cut -d' ' -f1)
	check "$desc" [ "$got" = "$want" ]
}
for c in $CIPHERS; do
	try "Debian's ssh, cipher $c" -c $c -m hmac-sha2-256
	check "... our server negotiated $c" \
	    grep -q "client->server cipher: $c MAC: hmac-sha2-256 " "$T/sshd.log"
done
for m in $MACS; do
	try "Debian's ssh, MAC $m" -c aes128-ctr -m $m
	check "... our server negotiated $m" \
	    grep -q "client->server cipher: aes128-ctr MAC: $m " "$T/sshd.log"
done
for k in $KEXES; do
	try "Debian's ssh, kex $k" -o KexAlgorithms=$k -c aes256-cbc -m hmac-md5
	check "... our server negotiated $k" \
	    grep -q "kex: algorithm: $k" "$T/sshd.log"
done

# Our ssh into Debian's sshd, with the same lists enabled there.
if [ "$(id -u)" != 0 ] || [ ! -x /usr/sbin/sshd ]; then
	echo "note: our ssh against OpenSSH's sshd skipped (needs root and /usr/sbin/sshd)"
	finish
fi
OPORT=$(free_port)
cat > "$T/openssh_config" <<CFG
ListenAddress 127.0.0.1
Port $OPORT
HostKey $T/host_ed25519
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
UsePAM no
LogLevel DEBUG1
Ciphers +$(list $CIPHERS)
MACs +$(list $MACS)
KexAlgorithms +$(list $KEXES)
CFG
start_peer_sshd /usr/sbin/sshd "$T/openssh_config" "$T/openssh.log"
mtry() { # mtry description ssh-options...
	desc=$1; shift
	got=$("$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -o IdentitiesOnly=yes -i "$T/id_ed25519" \
	    -p "$OPORT" "$@" "$ME@127.0.0.1" cat < "$T/data" 2>>"$T/merr" |
	    sha256sum | cut -d' ' -f1)
	check "$desc" [ "$got" = "$want" ]
}
for c in $CIPHERS; do
	mtry "our ssh, cipher $c" -c $c -m hmac-sha2-256
	check "... OpenSSH's server negotiated $c" \
	    grep -q "kex: client->server cipher: $c MAC: hmac-sha2-256 " \
	    "$T/openssh.log"
done
for m in $MACS; do
	mtry "our ssh, MAC $m" -c aes128-ctr -m $m
	check "... OpenSSH's server negotiated $m" \
	    grep -q "kex: client->server cipher: aes128-ctr MAC: $m " \
	    "$T/openssh.log"
done
for k in $KEXES; do
	mtry "our ssh, kex $k" -o KexAlgorithms=$k -c 3des-cbc -m hmac-sha1-96
	check "... OpenSSH's server negotiated $k" \
	    grep -q "kex: algorithm: $k" "$T/openssh.log"
done
# As people reach old equipment: one option on the command line.
mtry "our ssh -c aes128-cbc -oKexAlgorithms=+diffie-hellman-group1-sha1" \
    -c aes128-cbc -oKexAlgorithms=+diffie-hellman-group1-sha1
finish
