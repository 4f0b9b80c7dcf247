#!/bin/sh
# 200 MiB each way between Debian's OpenSSH ssh and our sshd, checked with
# SHA-256 at both ends.
. "$(dirname "$0")/lib.sh"
need ssh
need sha256sum
make_keys
write_config </dev/null
start_sshd
MIB=${MOAT_BULK_MIB:-200}

head -c $((MIB * 1024 * 1024)) /dev/urandom > "$T/data"
want=$(sha256sum < "$T/data" | cut -d' ' -f1)

got=$(ossh "$ME@127.0.0.1" 'sha256sum | cut -d" " -f1' < "$T/data")
check "$MIB MiB client to server intact" [ "$got" = "$want" ]

got=$(ossh "$ME@127.0.0.1" "cat '$T/data'" | sha256sum | cut -d' ' -f1)
check "$MIB MiB server to client intact" [ "$got" = "$want" ]
finish
