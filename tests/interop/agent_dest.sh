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

# --- (b) our agent, our ssh-add -h, and a forwarded hop ---------------
# Server B: another of our sshd, with host keys of its own ("hop-b").
for t in ed25519 ecdsa rsa; do
	ssh-keygen -q -t $t -N '' -f "$T/hb_$t" -C hop-b
	echo "hop-b $(cat "$T/hb_$t.pub")" >> "$T/dest_kh"
done
B_PORT=$(free_port)
sed -e "s/^Port .*/Port $B_PORT/" -e "s,$T/host_,$T/hb_," \
    "$T/sshd_config" > "$T/b_config"
"$BIN/sshd" -D -e -f "$T/b_config" -o "PerSourcePenalties no" \
    2>"$T/b.log" &
at_exit "kill $! 2>/dev/null"
wait_log "$T/b.log" "Server listening" || fail "server B did not start"
ssh-keygen -q -t ed25519 -N '' -f "$T/hop" -C key-hop
ssh-keygen -q -t ed25519 -N '' -f "$T/nohop" -C key-nohop
cat "$T/hop.pub" "$T/nohop.pub" >> "$T/authorized_keys"

start_agent "$BIN/ssh-agent" "$T/m.sock" "$T/magent.log"
madd() { SSH_AUTH_SOCK=$T/m.sock "$BIN/ssh-add" -q -H "$T/dest_kh" "$@"; }
madd -h dest-here "$T/here" 2>"$T/err" || { cat "$T/err" >&2;
    fail "our ssh-add -h dest-here to our agent"; }
madd -h dest-there "$T/there" 2>/dev/null ||
    fail "our ssh-add -h dest-there to our agent"
check "(b) our agent took both constraints" [ "$(grep -c \
    "(1 destination constraints)" "$T/magent.log")" -eq 2 ]
for port in "$OUR_PORT" "$O_PORT"; do
	out=$(SSH_AUTH_SOCK=$T/m.sock mssh -vvv -p "$port" "$ME@127.0.0.1" \
	    'echo b-ok' 2>"$T/err")
	check "(b) our agent, restricted key logs in (port $port)" \
	    [ "$out" = b-ok ]
	[ "$out" = b-ok ] || cat "$T/err" >&2
	check "... hostbound signature" grep -q \
	    "using publickey-hostbound-v00@openssh.com with ED25519" "$T/err"
	check "... only the key for this host listed" \
	    grep -q "get_agent_identities: agent returned 1 keys" "$T/err"
done
check "(b) our agent signed for user $ME on the bound connection" \
    grep -q "process_sign_request2: user=$ME" "$T/magent.log"
# The local user still sees both keys (an unbound connection).
check "(b) ssh-add -l lists both restricted keys locally" [ "$(SSH_AUTH_SOCK=\
$T/m.sock "$BIN/ssh-add" -l | grep -c 'key-here\|key-there')" -eq 2 ]
# ... but may not have one sign: ssh-keygen -Y sign through the agent.
echo data > "$T/data"
SSH_AUTH_SOCK=$T/m.sock ssh-keygen -q -Y sign -n file -f "$T/here.pub" \
    "$T/data" 2>/dev/null && fail "(b) restricted key signed a file"
check "(b) our agent refused to sign outside userauth" grep -q \
    "refusing use of destination-constrained key to sign on unbound" \
    "$T/magent.log"

# Forwarded hop: key-hop may go on from here to B, key-nohop may not.
hop_login() { # hop_login KEY: ssh -A to A, then from A to B
	SSH_AUTH_SOCK=$T/m.sock "$BIN/ssh-add" -D >/dev/null 2>&1
	madd -h dest-here -h "dest-here>hop-b" "$T/$1" 2>/dev/null ||
	    fail "ssh-add $1"
	[ "$1" = nohop ] && { SSH_AUTH_SOCK=$T/m.sock "$BIN/ssh-add" -D \
	    >/dev/null 2>&1; madd -h dest-here "$T/$1" 2>/dev/null; }
	SSH_AUTH_SOCK=$T/m.sock mssh -A -p "$OUR_PORT" "$ME@127.0.0.1" \
	    "'$BIN/ssh' -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile=$T/known_hosts_b \
	    -o StrictHostKeyChecking=accept-new -o IdentityFile=$T/none \
	    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
	    -v -p $B_PORT 127.0.0.1 'echo hop-ok' </dev/null" 2>"$T/err"
}
out=$(hop_login hop)
check "(b) 'dest-here>hop-b' lets the forwarded agent log in to B" \
    [ "$out" = hop-ok ]
[ "$out" = hop-ok ] || cat "$T/err" >&2
check "... B accepted key-hop" grep -q "Accepted publickey for $ME .*\
$(ssh-keygen -lf "$T/hop.pub" | cut -d' ' -f2)" "$T/b.log"
out=$(hop_login nohop)
check "(b) a hop no constraint names is refused" [ "$out" != hop-ok ]
check "... by B, the forwarded agent listing nothing for it" sh -c \
    "grep -q 'Permission denied (publickey' '$T/err' &&
    ! grep -q 'Offering public key: key-nohop' '$T/err'"
check "... though it was offered to A" grep -q "Accepted publickey for $ME \
.*$(ssh-keygen -lf "$T/nohop.pub" | cut -d' ' -f2)" "$T/sshd.log"
check "... B saw no key-nohop login" sh -c "! grep -q 'Accepted publickey.*\
$(ssh-keygen -lf "$T/nohop.pub" | cut -d' ' -f2)' '$T/b.log'"

# Each ssh-add's constraints in the other's agent: our ssh-add -h into
# 10.5's agent, 10.5's ssh-add -h into ours; the key then logs in.
for pair in "$BIN/ssh-add:$T/o.sock:our ssh-add into 10.5's agent" \
    "$OADD:$T/m.sock:10.5's ssh-add into our agent"; do
	prog=${pair%%:*}
	rest=${pair#*:}
	sock=${rest%%:*}
	what=${rest#*:}
	SSH_AUTH_SOCK=$sock "$prog" -D >/dev/null 2>&1
	SSH_AUTH_SOCK=$sock "$prog" -q -H "$T/dest_kh" -h dest-there \
	    -h dest-here "$T/here" 2>/dev/null || fail "-h: $what"
	out=$(SSH_AUTH_SOCK=$sock mssh -p "$OUR_PORT" "$ME@127.0.0.1" \
	    'echo x-ok' 2>"$T/err")
	check "(b) -h, $what: the key logs in" [ "$out" = x-ok ]
	[ "$out" = x-ok ] || cat "$T/err" >&2
done

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

# And through our sshd as the forwarding hop: 10.5's agent holds a key
# for A (our sshd) and A > B (our other sshd), 10.5's ssh on both hops.
SSH_AUTH_SOCK=$T/o.sock "$OADD" -D >/dev/null 2>&1
SSH_AUTH_SOCK=$T/o.sock "$OADD" -q -H "$T/dest_kh" -h dest-here \
    -h "dest-here>hop-b" "$T/hop" 2>/dev/null || fail "10.5's ssh-add A>B"
o_ssh() {
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=accept-new -o IdentityFile="$T/none" \
	    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
	    "$@" </dev/null
}
out=$(SSH_AUTH_SOCK=$T/o.sock o_ssh -A -o UserKnownHostsFile="$T/known_hosts" \
    -p "$OUR_PORT" "$ME@127.0.0.1" "'$O105/bin/ssh' -F /dev/null \
    -o BatchMode=yes -o StrictHostKeyChecking=accept-new \
    -o UserKnownHostsFile=$T/known_hosts_b -o IdentityFile=$T/none \
    -p $B_PORT 127.0.0.1 'echo c-hop-ok' </dev/null" 2>"$T/err")
check "(c) 10.5's ssh -A through our sshd: 'A>B' signs on B" \
    [ "$out" = c-hop-ok ]
[ "$out" = c-hop-ok ] || cat "$T/err" >&2
finish
