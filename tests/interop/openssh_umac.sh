#!/bin/sh
# Debian's OpenSSH ssh against our sshd with each UMAC MAC (umac-64,
# umac-128, and their -etm forms): the server's log must show the MAC
# negotiated both ways, and MOAT_BULK_MIB (default 200) MiB go each way,
# checked with SHA-256 at both ends. The cipher is aes128-ctr, since the
# AEAD ciphers carry no separate MAC. A run with a client-side RekeyLimit
# checks that fresh UMAC keys take over after each rekey.
#
# Only the server direction is tested: there is no moat ssh client yet to
# run against Debian's /usr/sbin/sshd. When there is, the same loop with
# our ssh and Debian's sshd (started as root on a free port, stopped by
# its PID) completes the pair.
. "$(dirname "$0")/lib.sh"
need ssh
need sha256sum
make_keys
write_config </dev/null
start_sshd
MIB=${MOAT_BULK_MIB:-200}

head -c $((MIB * 1024 * 1024)) /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)

for m in umac-64@openssh.com umac-128@openssh.com \
    umac-64-etm@openssh.com umac-128-etm@openssh.com; do
	got=$(ossh -c aes128-ctr -m $m "$ME@127.0.0.1" \
	    'sha256sum | cut -d" " -f1' < "$T/data")
	check "$m: $MIB MiB client to server intact" [ "$got" = "$want" ]
	got=$(ossh -c aes128-ctr -m $m "$ME@127.0.0.1" "cat '$T/data'" |
	    sha256sum | cut -d' ' -f1)
	check "$m: $MIB MiB server to client intact" [ "$got" = "$want" ]
	for d in "client->server" "server->client"; do
		grep -q "kex: $d cipher: aes128-ctr MAC: $m " "$T/sshd.log"
		check "server negotiated $m $d" [ $? -eq 0 ]
	done
done

# Rekeying every 1 MiB under traffic: new UMAC contexts each time.
head -c $((8 * 1024 * 1024)) "$T/data" > "$T/small"
want=$(sha256sum < "$T/small" | cut -d' ' -f1)
for m in umac-64-etm@openssh.com umac-128@openssh.com; do
	got=$(ossh -c aes128-ctr -m $m -o RekeyLimit=1M "$ME@127.0.0.1" \
	    'sha256sum | cut -d" " -f1' < "$T/small")
	check "$m: rekey every 1 MiB, data intact" [ "$got" = "$want" ]
done

# A MAC the client does not offer is refused, not fallen back from.
ossh -c aes128-ctr -m umac-32@openssh.com "$ME@127.0.0.1" true \
    2>/dev/null
check "unknown umac-32@openssh.com refused" [ $? -ne 0 ]
finish
