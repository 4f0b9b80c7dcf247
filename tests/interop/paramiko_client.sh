#!/bin/sh
# Python's paramiko (Debian's python3-paramiko) logs in to our sshd with
# ed25519, ecdsa and rsa keys over several ciphers and KEX methods, runs a
# command with exit status, and moves data both ways; and logs in with a
# second key after the first was refused, on the same connection.
. "$(dirname "$0")/lib.sh"
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko not installed"
make_keys
# paramiko reads the OpenSSH-format keys; give it PEM copies for rsa/ecdsa
# to be safe across versions.
for t in ecdsa rsa; do
	cp "$T/id_$t" "$T/pem_$t"
	ssh-keygen -q -p -N '' -m PEM -f "$T/pem_$t" >/dev/null
done
# A key that authorized_keys does not list.
ssh-keygen -q -t ed25519 -N '' -f "$T/id_other"
# paramiko's finite-field groups, off in sshd's default (OpenSSH 10.0+).
write_config <<EOF
KexAlgorithms +diffie-hellman-group14-sha256,diffie-hellman-group16-sha512,diffie-hellman-group-exchange-sha256
EOF
start_sshd
"$PY" "$(dirname "$0")/paramiko_client.py" 127.0.0.1 "$PORT" "$ME" "$T"
check "paramiko client subset" [ $? -eq 0 ]
finish
