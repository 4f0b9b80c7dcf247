#!/bin/sh
# agent_add.sh: our ssh-add driving Debian's ssh-agent, side by side with
# Debian's ssh-add: every command below is run with each ssh-add in turn
# from the same agent state, and their standard output, standard error
# and exit status must be the same. Covered: adding Ed25519, ECDSA and
# RSA keys (plain, PEM, passphrase-protected through SSH_ASKPASS, from
# standard input) and the certificates beside them, -l/-L listings (and
# that what ours added lists as what Debian's adds), -d with and without
# -k, -D, -t (the key gone after its lifetime), -c (the agent's own
# askpass confirms or refuses), -h/-H destination constraints, -M, -x/-X
# on a terminal, -T, the default
# identities of ~/.ssh, and the error cases (no agent, missing or bad
# files, a wrong passphrase, a key others may read), and the requests
# both send, byte for byte, to a recording agent. Then Debian's ssh
# logs in to our sshd with keys and a certificate our ssh-add loaded.
. "$(dirname "$0")/lib.sh"
need ssh-agent
need setsid
OADD=/usr/bin/ssh-add
ADD=$BIN/ssh-add
[ -x "$OADD" ] || skip "no Debian ssh-add"
[ -x "$ADD" ] || skip "no $ADD"
unset DISPLAY WAYLAND_DISPLAY SSH_ASKPASS SSH_ASKPASS_REQUIRE
make_keys
cd "$T" || exit 1

# Keys, certificates, known_hosts files for -h and askpass programs.
ssh-keygen -q -t ed25519 -N '' -f ca -C ca
ssh-keygen -q -t ed25519 -N '' -f hk1 -C hk1
ssh-keygen -q -t ecdsa -N '' -f hk2 -C hk2
echo "hostA $(cat hk1.pub)" > kh_a
{ echo "@cert-authority hostB $(cat hk2.pub)"; echo "hostB $(cat hk1.pub)"
} > kh_b
for t in ed25519 ecdsa rsa; do
	ssh-keygen -q -s ca -I "cert-$t" -n "$ME" "id_$t.pub"
done
ssh-keygen -q -t ed25519 -N secret -f pp_ed -C "pp ed"
ssh-keygen -q -t rsa -b 2048 -m PEM -N secret -f pp_pem
ssh-keygen -q -t ecdsa -b 384 -m PEM -N '' -f pem_ec -C unused
ssh-keygen -q -t ed25519 -N '' -f nocomment -C ''
rm nocomment.pub
cp id_ed25519 open; chmod 644 open
echo garbage > junk; chmod 600 junk
: > empty; chmod 600 empty
cat > ap <<'EOT'
#!/bin/sh
echo "[$*]" >> "${AP_LOG:-/dev/null}"
echo secret
EOT
# Wrong twice, then an empty answer (giving up).
cat > ap_wrong <<'EOT'
#!/bin/sh
echo "[$*]" >> ap_wrong.log
[ "$(wc -l < ap_wrong.log)" -le 2 ] && echo wrong
exit 0
EOT
# The agent's confirmation: allowed unless the file "deny" exists.
cat > ap_confirm <<EOT
#!/bin/sh
echo "[\$*]" >> $T/confirm.log
[ -e $T/deny ] && exit 1
echo yes
EOT
chmod 755 ap ap_wrong ap_confirm

DISPLAY=:0 SSH_ASKPASS=$T/ap_confirm ssh-agent -D -a "$T/agent.sock" \
    >"$T/agent.log" 2>&1 &
AGENT_PID=$!
at_exit "kill $AGENT_PID 2>/dev/null"
i=0
while [ ! -S "$T/agent.sock" ]; do
	i=$((i + 1)); [ $i -gt 100 ] && { cat agent.log; exit 1; }; sleep 0.05
done
SSH_AUTH_SOCK=$T/agent.sock
export SSH_AUTH_SOCK

reset_agent() { "$OADD" -qD >/dev/null 2>&1; rm -f ap_wrong.log; }

# alike "what" "command using \$A": the same output and status with
# Debian's ssh-add as $A and with ours, each from an empty agent, in a
# session of its own (no terminal to prompt on).
alike() {
	for which in o m; do
		reset_agent
		if [ $which = o ]; then A=$OADD; else A=$ADD; fi
		(export A; setsid -w sh -c "$2" >"$T/out.$which" \
		    2>"$T/err.$which" < /dev/null
		    echo "rc=$?" >>"$T/out.$which")
	done
	if cmp -s out.o out.m && cmp -s err.o err.m; then
		pass "$1"
	else
		fail "$1"
		echo "--- OpenSSH:"; cat out.o err.o
		echo "--- ours:"; cat out.m err.m
	fi
}

alike "-l, -L of an empty agent" '$A -l; $A -L'
alike "add ed25519 and its certificate, list" \
    '$A id_ed25519; $A -l; $A -L; $A -E md5 -l'
alike "add ecdsa and rsa with certificates" \
    '$A id_ecdsa id_rsa; $A -l; $A -L'
alike "-k adds no certificate" '$A -k id_ed25519 id_rsa; $A -l'
alike "PEM key, no comment" '$A pem_ec nocomment; $A -l'
alike "-q" '$A -q id_ecdsa; $A -q -D; $A -l'
alike "from standard input" '$A - < id_rsa; $A -L'
alike "passphrase through askpass" \
    'DISPLAY=:0 SSH_ASKPASS=./ap AP_LOG=ap.log $A pp_ed pp_pem \
    < /dev/null; cat ap.log; rm -f ap.log; $A -l'
alike "askpass forced" \
    'SSH_ASKPASS_REQUIRE=force SSH_ASKPASS=./ap $A pp_ed < /dev/null'
alike "askpass never: standard input" \
    'echo secret | SSH_ASKPASS_REQUIRE=never DISPLAY=:0 \
    SSH_ASKPASS=./ap $A pp_ed; $A -l'
alike "wrong passphrase, asked again, then given up" \
    'DISPLAY=:0 SSH_ASKPASS=./ap_wrong $A -c pp_ed < /dev/null; \
    cat ap_wrong.log; $A -l'
alike "-t and -c are announced" \
    'DISPLAY=:0 SSH_ASKPASS=./ap $A -t 1h30m -c pp_ed id_ecdsa < /dev/null'
alike "-d removes the key and its certificate" \
    '$A -q id_ed25519 id_ecdsa; $A -d id_ed25519; $A -l; \
    $A -d id_ed25519; $A -k -d id_ecdsa; $A -l'
alike "-d from standard input" \
    '$A -q id_ed25519; cat id_ed25519.pub id_ed25519-cert.pub | $A -d -; \
    printf "bad\n# c\n\n" | $A -d -; $A -l'
alike "-d of a key with no .pub" '$A -q nocomment; $A -d nocomment'
alike "-D" '$A -q id_rsa id_ecdsa; $A -D; $A -l'
alike "-T" '$A -q id_ed25519 id_rsa; $A -T id_ed25519.pub id_rsa.pub \
    id_ed25519-cert.pub id_rsa-cert.pub id_ed25519; echo $?; \
    $A -T id_ecdsa.pub; $A -T nonexistent; $A -T'
alike "errors: missing, bad, unreadable files" \
    '$A nonexistent; $A -d nonexistent; $A junk; $A empty; \
    $A id_ed25519.pub; $A open; $A id_rsa nonexistent'
alike "bad flags" '$A -E foo -l; $A -t 1x; $A -l -L; $A -x -l; $A -?; $A -t'
alike "a locked agent; lock passwords from standard input" \
    '(echo pw; echo pw) | $A -x; $A id_ed25519; $A -l; $A -D; \
    echo pw | $A -X; $A -l; printf "a\nb\n" | $A -x; $A -X'
alike "-M (the agent refuses it for these keys), -m" \
    '$A -M 5 id_ed25519; $A -m 3 -k id_ecdsa; $A -l; $A -M 0 -l; \
    $A -m x -l; $A -M " 4294967295" -l; $A -M 4294967296 -l'
alike "-h destination constraints, -H host key files" \
    '$A -H kh_a -H kh_b -h hostA -h "hostA>bob@hostB" -k id_ed25519; \
    $A -l; $A -H kh_a -h "bob@hostA>hostB" id_rsa; \
    $A -H kh_a -h nohost id_rsa; $A -H kh_a -h ">hostA" id_rsa; \
    $A -H kh_a -h "hostA>hostB>hostA" id_rsa; $A -l; \
    $A -h nohost -l; $A -h nohost -T id_ed25519.pub; $A -h nohost -D'
alike "no agent" 'SSH_AUTH_SOCK= $A -l; SSH_AUTH_SOCK=$T/none $A -l'

# Keys ours added list as keys Debian's added (the ADD_IDENTITY bytes).
same_add() {
	reset_agent
	"$OADD" -q "$@" 2>/dev/null < /dev/null
	"$OADD" -L > list.o
	reset_agent
	"$ADD" -q "$@" 2>/dev/null < /dev/null
	"$OADD" -L > list.m
	"$OADD" -T id_ed25519.pub id_ecdsa.pub id_rsa.pub \
	    id_ed25519-cert.pub id_ecdsa-cert.pub id_rsa-cert.pub 2>/dev/null &&
	    cmp -s list.o list.m && [ "$(wc -l < list.m)" -eq 6 ]
}
check "what ours adds, Debian's ssh-add lists and tests alike" \
    same_add id_ed25519 id_ecdsa id_rsa

# The requests themselves, byte for byte, as a recording agent sees them.
"$PY" "$SRC/tests/interop/agent_add_record.py" "$T/rec.sock" "$T/rec.log" &
REC_PID=$!
at_exit "kill $REC_PID 2>/dev/null"
i=0
while [ ! -S "$T/rec.sock" ]; do
	i=$((i + 1)); [ $i -gt 200 ] && break; sleep 0.05
done
for which in o m; do
	if [ $which = o ]; then A=$OADD; else A=$ADD; fi
	rm -f rec.log
	(export A; SSH_AUTH_SOCK=$T/rec.sock setsid -w sh -c '
	    $A -c -t 5 id_ed25519 id_ecdsa id_rsa pem_ec; $A id_rsa
	    $A -H kh_a -H kh_b -h hostA -h "hostA>u@hostB" -M 3 id_ecdsa
	    $A -d id_ed25519 id_rsa; $A -k -d id_ecdsa; $A -D
	    (echo pw; echo pw) | $A -x; echo pw | $A -X; $A -l' \
	    >/dev/null 2>&1 < /dev/null)
	mv rec.log "rec.$which" 2>/dev/null
done
check "the agent is sent the same bytes by both (21 requests)" \
    sh -c "cmp -s rec.o rec.m && [ \$(wc -l < rec.m) -eq 21 ]"

# -t: gone once the lifetime is over.
reset_agent
"$ADD" -q -t 2 id_ecdsa
check "-t 2: listed at once" sh -c "'$OADD' -l | grep -q ECDSA"
sleep 3
check "-t 2: gone after 3 s" sh -c "'$OADD' -l | grep -q 'no identities'"

# -c: each use asks the agent's askpass.
reset_agent
rm -f confirm.log deny
"$ADD" -q -c -k id_ed25519
check "-c: a confirmed use signs" "$OADD" -T id_ed25519.pub
check "-c: the agent asked" grep -q "Allow use of key" confirm.log
touch deny
check "-c: a refused use does not" \
    sh -c "! '$OADD' -T id_ed25519.pub 2>/dev/null"
rm -f deny

# -x/-X on a terminal.
tty_run() { # tty_run TRANSCRIPT ANSWER... -- ssh-add args
	"$PY" "$SRC/tests/interop/agent_add_tty.py" "$@"
}
for which in o m; do
	reset_agent
	if [ $which = o ]; then A=$OADD; else A=$ADD; fi
	"$OADD" -q id_ed25519
	{
		tty_run x1 pw pw -- "$A" -x
		tty_run x2 pw pw -- "$A" -x
		"$OADD" -l
		tty_run x3 a b -- "$A" -x
		tty_run x4 bad -- "$A" -X
		tty_run x5 pw -- "$A" -X
		"$OADD" -l | cut -d' ' -f1
		tty_run x6 secret -- "$A" pp_ed
		tty_run x7 wrong '' -- "$A" pp_ed
		cat x1 x2 x3 x4 x5 x6 x7
	} > tty.$which 2>&1
done
check "-x/-X and passphrases on a terminal" cmp -s tty.o tty.m
grep -q "Agent locked" tty.m || fail "ours never locked the agent"

# The default identities, in a home of our own.
home=$(getent passwd "$(id -u)" | cut -d: -f6)
if [ -n "$home" ] && unshare -m sh -c "mount -t tmpfs none '$home'" \
    2>/dev/null; then
	alike "default identities" "unshare -m sh -c \"mount -t tmpfs none \
	    '$home' && mkdir -m 700 '$home/.ssh' && \
	    cp id_ecdsa id_ecdsa-cert.pub id_ed25519 pp_ed '$home/.ssh' && \
	    mv '$home/.ssh/pp_ed' '$home/.ssh/id_rsa' && \
	    DISPLAY=:0 SSH_ASKPASS=./ap \\\$A < /dev/null; \\\$A -l; \
	    \\\$A -d; \\\$A -l\""
	alike "no default identities" "unshare -m sh -c \"mount -t tmpfs \
	    none '$home' && \\\$A; \\\$A -d\""
else
	echo "no mount namespace: default identities not tried" >&2
fi

# Debian's ssh logs in to our sshd with what our ssh-add loaded.
ssh-keygen -q -t ed25519 -N '' -f certonly -C certonly
ssh-keygen -q -s ca -I certonly-id -n "$ME" certonly.pub
write_config <<EOT
TrustedUserCAKeys $T/ca.pub
EOT
start_sshd
login() { # login PUBFILE: with the agent's key for it
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
	    -o IdentitiesOnly=yes -i "$1" -p "$PORT" "$ME@127.0.0.1" \
	    echo in 2>/dev/null | grep -q '^in$'
}
for t in ed25519 ecdsa rsa; do
	reset_agent
	"$ADD" -q -k "id_$t"
	cp "id_$t.pub" "only_$t.pub"
	check "Debian's ssh logs in with the $t key ours added" login \
	    "only_$t.pub"
done
# -h: the key signs for a host whose key the constraint names, and for
# no other (Debian's ssh binds its agent connection to the host key).
cat host_*.pub | sed 's/^/dest /' > kh_dest
reset_agent
"$ADD" -q -k -H kh_dest -h dest id_ed25519
check "-h: Debian's ssh logs in to the host it names" login only_ed25519.pub
reset_agent
"$ADD" -q -k -H kh_a -h hostA id_ed25519
no_login() { ! login "$@"; }
check "-h: but not to another host" no_login only_ed25519.pub
reset_agent
"$ADD" -q certonly
cp certonly-cert.pub only-cert.pub
check "Debian's ssh logs in with the certificate ours added" \
    login only-cert.pub
check "our sshd accepted the certificate" \
    wait_log "$T/sshd.log" "Accepted publickey.*ED25519-CERT"
reset_agent
finish
