#!/bin/sh
# Security keys through a test middleware of ours (tests/skprov, built
# as build/tests/sk-test.so) that keeps resident keys and can misbehave.
# ssh-keygen -K saves the resident keys as OpenSSH 10.5's does (the same
# file names, the same keys), and our ssh logs in with one saved. A
# middleware that returns a malformed key, a huge or a wrong signature,
# or crashes, costs only ssh-sk-helper: ssh-keygen fails with a message,
# ssh goes on to its next key.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (sshd)"
SKT=$BIN/../tests/sk-test.so
[ -f "$SKT" ] || skip "no test middleware at $SKT"
need_peer_openssh
make_keys
export SK_TEST_DIR="$T"

gen() { # gen FILE [-O opt]...: exit status of our ssh-keygen
	_f=$1; shift
	"$BIN/ssh-keygen" -q -t ed25519-sk -w "$SKT" -N '' -f "$_f" -C rk \
	    "$@" </dev/null >/dev/null 2>"$_f.err"
}
gen "$T/rk1" -O resident
check "a resident key" [ -s "$T/rk1.pub" ]
gen "$T/rk2" -O resident -O application=ssh:moat -O user=alice
check "a resident key with application and user" [ -s "$T/rk2.pub" ]
gen "$T/plain"
check "a key that is not resident" [ -s "$T/plain.pub" ]

# -K: ours and 10.5's, each in a directory of its own.
mkdir "$T/ours" "$T/theirs"
(cd "$T/ours" && echo | "$BIN/ssh-keygen" -K -w "$SKT" -N '' \
    >"$T/k.out" 2>&1)
check "our ssh-keygen -K" [ $? = 0 ]
(cd "$T/theirs" && echo | "$O105/bin/ssh-keygen" -K -w "$SKT" -N '' \
    >/dev/null 2>&1)
check "OpenSSH 10.5's ssh-keygen -K" [ $? = 0 ]
check "the same files as 10.5's" [ "$(ls "$T/ours")" = "$(ls "$T/theirs")" ]
check "... named as OpenSSH names them" [ -f "$T/ours/id_ed25519_sk_rk" ] &&
    [ -f "$T/ours/id_ed25519_sk_rk_moat_alice" ]
for f in $(cd "$T/theirs" && ls *.pub); do
	check "$f: the same key as 10.5's" \
	    [ "$(cut -d' ' -f1-2 "$T/ours/$f")" = "$(cut -d' ' -f1-2 "$T/theirs/$f")" ]
done
check "id_ed25519_sk_rk holds the first key" \
    [ "$(cut -d' ' -f1-2 "$T/ours/id_ed25519_sk_rk.pub")" = "$(cut -d' ' -f1-2 "$T/rk1.pub")" ]
check "... and its private file reads in 10.5's ssh-keygen -y" \
    [ "$(SK_TEST_DIR= "$O105/bin/ssh-keygen" -y -f "$T/ours/id_ed25519_sk_rk_moat_alice" | cut -d' ' -f1-2)" = "$(cut -d' ' -f1-2 "$T/rk2.pub")" ]
check "the saved line says where" grep -q "^Saved ED25519-SK key ssh:moat to id_ed25519_sk_rk_moat_alice" "$T/k.out"

# Misbehaving middleware at key generation.
for m in badkey crash; do
	SK_TEST_MODE=$m gen "$T/bad_$m"
	check "$m: ssh-keygen fails" [ $? != 0 ] && [ ! -e "$T/bad_$m" ]
	check "... saying so" grep -q "Key enrollment failed" "$T/bad_$m.err"
done

cat "$T/ours/id_ed25519_sk_rk.pub" "$T/id_ed25519.pub" > "$T/authorized_keys"
write_config </dev/null
start_sshd
ours() { # ours: our ssh with the downloaded key, then a plain one
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -o SecurityKeyProvider="$SKT" \
	    -i "$T/ours/id_ed25519_sk_rk" "$@" -p "$PORT" "$ME@127.0.0.1" \
	    true </dev/null 2>>"$T/ssh.err"
}
ours
check "our ssh logs in with the downloaded resident key" [ $? = 0 ]
check "... the sk key" grep -q "Accepted publickey for $ME .* ED25519-SK " "$T/sshd.log"
for m in hugesig badsig crash; do
	: > "$T/sshd.log.mark"
	n=$(grep -c "Accepted publickey for $ME .* ED25519 " "$T/sshd.log")
	SK_TEST_MODE=$m ours -i "$T/id_ed25519"
	check "$m: ssh goes on to its next key and logs in" [ $? = 0 ]
	check "... with the plain key" [ "$(grep -c "Accepted publickey for $ME .* ED25519 " "$T/sshd.log")" = $((n + 1)) ]
done
[ "$FAILS" = 0 ] || cat "$T/ssh.err" >&2
finish
