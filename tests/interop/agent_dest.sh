#!/bin/sh
# Destination-restricted agent keys (ssh-add -h) end to end, with the
# publickey-hostbound-v00@openssh.com method (OpenSSH's PROTOCOL 3.1)
# that lets the agent see which host a signature is for.
#
# (a) OpenSSH 10.5's ssh-agent, keys added by its ssh-add -h: our ssh
#     logs in to our sshd and to 10.5's sshd with the key restricted to
#     them (a hostbound signature, the server logs the method); a key
#     restricted to another host is refused by the agent.
# (b) the same with our ssh-agent and our ssh-add -h, plus a forwarded
#     hop: 'A>B' lets the forwarded agent sign on B, a hop no
#     constraint names is refused.
# (c) OpenSSH 10.5's ssh -A logs in to our sshd with hostbound
#     publickey, and the forwarded agent's restricted key signs on the
#     second hop.
. "$(dirname "$0")/lib.sh"
need_peer_openssh
make_keys
[ -x "$BIN/ssh-agent" ] && [ -x "$BIN/ssh-add" ] || skip "no agent built"
OA=$O105/bin/ssh-agent
OADD=$O105/bin/ssh-add
for k in here there; do
	ssh-keygen -q -t ed25519 -N '' -f "$T/$k" -C "key-$k"
	cat "$T/$k.pub" >> "$T/authorized_keys"
done
ssh-keygen -q -t ed25519 -N '' -f "$T/elsewhere" -C elsewhere
write_config < /dev/null
start_sshd
OUR_PORT=$PORT

# OpenSSH 10.5's sshd on a port of its own, the same host keys.
O_PORT=$(free_port)
sed -e "s/^Port .*/Port $O_PORT/" -e "s/^LogLevel .*/LogLevel DEBUG3/" \
    "$T/sshd_config" > "$T/o_config"
echo "UsePAM no" >> "$T/o_config"
start_peer_sshd "$O105/sbin/sshd" "$T/o_config" "$T/o.log"

# "dest-here": both servers (the same host keys); "dest-there": a key
# nobody serves.
for t in ed25519 ecdsa rsa; do
	echo "dest-here $(cat "$T/host_$t.pub")"
done > "$T/dest_kh"
echo "dest-there $(cat "$T/elsewhere.pub")" >> "$T/dest_kh"

mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="$T/known_hosts" \
	    -o StrictHostKeyChecking=accept-new -o IdentityFile="$T/none" \
	    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
	    "$@" </dev/null
}

start_agent() { # start_agent PROGRAM SOCKET LOG
	"$1" -d -a "$2" 2>"$3" >/dev/null &
	at_exit "kill $! 2>/dev/null"
	i=0
	while [ ! -S "$2" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ -S "$2" ] || fail "$1 did not start"
}

# --- (a) OpenSSH 10.5's agent ------------------------------------------
start_agent "$OA" "$T/o.sock" "$T/oagent.log"
SSH_AUTH_SOCK=$T/o.sock "$OADD" -q -H "$T/dest_kh" -h dest-here "$T/here" \
    2>/dev/null || fail "10.5's ssh-add -h dest-here"
SSH_AUTH_SOCK=$T/o.sock "$OADD" -q -H "$T/dest_kh" -h dest-there \
    "$T/there" 2>/dev/null || fail "10.5's ssh-add -h dest-there"
for p in "$OUR_PORT:our sshd:$T/sshd.log" "$O_PORT:10.5's sshd:$T/o.log"; do
	port=${p%%:*}
	rest=${p#*:}
	what=${rest%%:*}
	log=${rest#*:}
	out=$(SSH_AUTH_SOCK=$T/o.sock mssh -vvv -p "$port" "$ME@127.0.0.1" \
	    'echo a-ok' 2>"$T/err")
	check "(a) 10.5's agent, restricted key logs in to $what" \
	    [ "$out" = a-ok ]
	[ "$out" = a-ok ] || cat "$T/err" >&2
	check "... ssh signed with the hostbound method" grep -q \
	    "using publickey-hostbound-v00@openssh.com with ED25519" "$T/err"
	check "... ssh saw the server's offer" grep -q \
	    "kex_ext_info_check_ver: publickey-hostbound@openssh.com=<0>" \
	    "$T/err"
	check "... $what got a hostbound request" grep -q "userauth-request \
for user $ME service ssh-connection method publickey-hostbound-v00@openssh.com" \
	    "$log"
	check "... $what logged Accepted publickey" grep -q \
	    "Accepted publickey for $ME from 127.0.0.1" "$log"
	check "... the key for another host was not offered" \
	    sh -c "! grep -q 'Offering public key: key-there' '$T/err'"
done
# The agent refuses the restricted key for a host it is not meant for,
# even when asked to sign for it directly (a connection bound to our
# sshd, asking for key-there's signature): only key-here is listed.
SSH_AUTH_SOCK=$T/o.sock mssh -v -o IdentitiesOnly=yes \
    -o IdentityFile="$T/there.pub" -p "$OUR_PORT" "$ME@127.0.0.1" true \
    2>"$T/err" && fail "(a) key-there logged in to our sshd"
check "(a) 10.5's agent did not sign with key-there" \
    sh -c "! grep -q 'Accepted publickey.*$(ssh-keygen -lf "$T/there.pub" | cut -d' ' -f2)' '$T/sshd.log'"

# --- (c) OpenSSH 10.5's ssh -A into our sshd ---------------------------
out=$(SSH_AUTH_SOCK=$T/o.sock "$O105/bin/ssh" -F /dev/null -vvv -A \
    -o BatchMode=yes -o UserKnownHostsFile="$T/known_hosts" \
    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
    -o IdentityFile="$T/here.pub" -p "$OUR_PORT" "$ME@127.0.0.1" \
    'echo c-ok' </dev/null 2>"$T/err")
check "(c) 10.5's ssh logs in to our sshd with the restricted key" \
    [ "$out" = c-ok ]
[ "$out" = c-ok ] || cat "$T/err" >&2
check "... with publickey-hostbound-v00@openssh.com" grep -q \
    "sign_and_send_pubkey: using publickey-hostbound-v00@openssh.com" \
    "$T/err"
check "... 10.5's ssh saw our offer" grep -q \
    "kex_ext_info_check_ver: publickey-hostbound@openssh.com=<0>" "$T/err"
finish
