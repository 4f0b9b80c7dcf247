#!/bin/sh
# Dropbear's client dbclient logs in to our sshd and runs a command.
. "$(dirname "$0")/lib.sh"
need dbclient
need dropbearconvert
make_keys
# dbclient wants its own key format.
dropbearconvert openssh dropbear "$T/id_ed25519" "$T/db_ed25519" >/dev/null 2>&1 ||
	dropbearconvert openssh dropbear "$T/id_ecdsa" "$T/db_ed25519" >/dev/null 2>&1 ||
	skip "dropbearconvert could not convert a key"
write_config </dev/null
start_sshd
out=$(HOME=$T dbclient -y -i "$T/db_ed25519" -p "$PORT" "$ME@127.0.0.1" 'echo dropbear-$((6*7))' </dev/null 2>"$T/db.err")
check "dbclient logs in and runs a command" [ "$out" = "dropbear-42" ]
[ "$out" = "dropbear-42" ] || cat "$T/db.err" >&2
HOME=$T dbclient -y -i "$T/db_ed25519" -p "$PORT" "$ME@127.0.0.1" 'exit 5' </dev/null 2>/dev/null
check "dbclient gets exit status" [ $? -eq 5 ]
finish
