#!/bin/sh
# Debian's OpenSSH ssh against our sshd with every KEX method, host key
# algorithm, cipher and MAC we implement; each negotiated one is checked
# in our server's log and carries data intact both ways.
. "$(dirname "$0")/lib.sh"
need ssh
need sha256sum
make_keys
# ssh-rsa (SHA-1) is off by default, as in OpenSSH 8.8 and later.
# Finite-field DH is off in sshd's default (OpenSSH 10.0+).
write_config <<EOF2
HostKeyAlgorithms +ssh-rsa
KexAlgorithms +diffie-hellman-group-exchange-sha256,diffie-hellman-group16-sha512,diffie-hellman-group18-sha512,diffie-hellman-group14-sha256
EOF2
start_sshd
KNOWN=/dev/null

head -c 300000 /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)

try() { # try description ssh-options...
	desc=$1; shift
	got=$(ossh "$@" "$ME@127.0.0.1" cat \
	    < "$T/data" | sha256sum | cut -d' ' -f1)
	check "$desc" [ "$got" = "$want" ]
}

for k in sntrup761x25519-sha512@openssh.com \
    curve25519-sha256 curve25519-sha256@libssh.org ecdh-sha2-nistp256 \
    ecdh-sha2-nistp384 ecdh-sha2-nistp521 diffie-hellman-group14-sha256 \
    diffie-hellman-group16-sha512 diffie-hellman-group18-sha512 \
    diffie-hellman-group-exchange-sha256; do
	try "kex $k" -o KexAlgorithms=$k
	grep -q "kex: algorithm: $k" "$T/sshd.log"
	check "server negotiated $k" [ $? -eq 0 ]
done

for h in ssh-ed25519 ecdsa-sha2-nistp256 rsa-sha2-512 rsa-sha2-256 ssh-rsa; do
	try "host key $h" -o HostKeyAlgorithms=$h
	grep -q "kex: host key algorithm: $h" "$T/sshd.log"
	check "server used host key $h" [ $? -eq 0 ]
done

for c in chacha20-poly1305@openssh.com aes128-ctr aes192-ctr aes256-ctr \
    aes128-gcm@openssh.com aes256-gcm@openssh.com; do
	for m in umac-64-etm@openssh.com umac-128-etm@openssh.com \
	    hmac-sha2-256-etm@openssh.com hmac-sha2-512-etm@openssh.com \
	    hmac-sha1-etm@openssh.com umac-64@openssh.com umac-128@openssh.com \
	    hmac-sha2-256 hmac-sha2-512 hmac-sha1; do
		try "cipher $c mac $m" -c $c -m $m
	done
	grep -q "client->server cipher: $c" "$T/sshd.log"
	check "server negotiated $c" [ $? -eq 0 ]
done
for m in umac-64-etm@openssh.com umac-128-etm@openssh.com \
    hmac-sha2-256-etm@openssh.com hmac-sha2-512-etm@openssh.com \
    hmac-sha1-etm@openssh.com umac-64@openssh.com umac-128@openssh.com \
    hmac-sha2-256 hmac-sha2-512 hmac-sha1; do
	grep -q "client->server cipher: aes128-ctr MAC: $m " "$T/sshd.log"
	check "server negotiated MAC $m" [ $? -eq 0 ]
done

# Group exchange picks its group from Debian's /etc/ssh/moduli.
if [ -f /etc/ssh/moduli ]; then
	grep -q "WARNING: could not open /etc/ssh/moduli" "$T/sshd.log"
	check "group exchange read /etc/ssh/moduli" [ $? -ne 0 ]
	grep -q "GEX_REQUEST received: .*sending a [0-9]*-bit group" "$T/sshd.log"
	check "group exchange sent a group" [ $? -eq 0 ]
fi

# Server-side rekeying: RekeyLimit in our sshd_config (64K and 1s).
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null
write_config <<EOF2
RekeyLimit 64K 1s
EOF2
start_sshd
head -c 2000000 /dev/urandom > "$T/data2"
want2=$(sha256sum < "$T/data2" | cut -d' ' -f1)
got2=$(ossh "$ME@127.0.0.1" 'sleep 1.5; cat' < "$T/data2" | sha256sum | cut -d' ' -f1)
check "data intact across server-initiated rekeys" [ "$got2" = "$want2" ]
n=$(grep -c "SSH2_MSG_KEXINIT sent" "$T/sshd.log")
check "server rekeyed by RekeyLimit volume ($n KEXINITs sent)" [ "$n" -ge 3 ]
# An idle session: the time limit alone starts rekeys.
before=$(grep -c "SSH2_MSG_KEXINIT sent" "$T/sshd.log")
ossh "$ME@127.0.0.1" 'sleep 3.5'
after=$(grep -c "SSH2_MSG_KEXINIT sent" "$T/sshd.log")
check "server rekeyed an idle session by time ($((after - before)) KEXINITs)" [ $((after - before)) -ge 2 ]

# Defaults: OpenSSH's order, umac-64-etm@openssh.com first.
ossh -o Ciphers=aes128-ctr "$ME@127.0.0.1" true
grep "client->server cipher: aes128-ctr MAC:" "$T/sshd.log" | tail -1 | \
    grep -q "umac-64-etm@openssh.com"
check "umac-64-etm preferred by default" [ $? -eq 0 ]

# Strict KEX is agreed with a client that offers it (OpenSSH 9.2 from
# Debian carries the Terrapin fix).
ssh -V 2>&1 | grep -q OpenSSH && \
    ossh -vv "$ME@127.0.0.1" true 2>&1 | grep -q "kex-strict-s-v00@openssh.com"
check "server offers strict KEX" [ $? -eq 0 ]

# Rekeying under traffic (RekeyLimit on the client side).
try "rekey every 64K" -o RekeyLimit=64K
finish
