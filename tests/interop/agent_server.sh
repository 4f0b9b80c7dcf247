#!/bin/sh
# Our ssh-agent serving real clients: Debian's ssh-add loads plain keys
# (ed25519, ecdsa, rsa) and a certificate, lists, removes (a key and its
# certificate), removes all, locks and unlocks (a wrong passphrase
# refused), adds with a lifetime (-t) and with confirmation (-c, askpass
# answering yes then no); Debian's ssh logs in to our sshd with the
# agent's keys (rsa-sha2-512 only, the certificate); paramiko lists and
# signs. The program: its output lines against Debian's ssh-agent, the
# socket's and directory's modes, -k, a command to run; another uid is
# refused at connect (root only); malformed, oversized and truncated
# requests end that connection while another client keeps working, and
# fifty clients at once are answered; our own ssh uses the agent too.
. "$(dirname "$0")/lib.sh"
need ssh-agent
need ssh-add
make_keys
A=$BIN/ssh-agent
[ -x "$A" ] || skip "no ssh-agent built"
ssh-keygen -q -t ed25519 -N '' -f "$T/ca" -C ca
ssh-keygen -q -s "$T/ca" -I cert-id -n "$ME" "$T/id_ecdsa.pub" ||
    fail "sign the user certificate"

# --- output lines, against Debian's ------------------------------------
# norm: the variable parts (paths, pids) replaced by fixed words.
norm() {
	sed -e 's#/[^ ;]*#PATH#g' -e 's/[0-9][0-9]*/N/g'
}
for fl in -s -c; do
	"$A" $fl -a "$T/fmt$fl.sock" > "$T/ours$fl" 2>&1
	pid=$(sed -n 's/.*SSH_AGENT_PID[= ]\([0-9]*\);.*/\1/p' "$T/ours$fl")
	[ -n "$pid" ] && kill "$pid"
	ssh-agent $fl -a "$T/deb$fl.sock" > "$T/deb$fl" 2>&1
	dpid=$(sed -n 's/.*SSH_AGENT_PID[= ]\([0-9]*\);.*/\1/p' "$T/deb$fl")
	[ -n "$dpid" ] && kill "$dpid"
	check "ssh-agent $fl prints Debian's lines" \
	    [ "$(norm < "$T/ours$fl")" = "$(norm < "$T/deb$fl")" ]
	check "... three lines naming the socket" \
	    grep -q "SSH_AUTH_SOCK[= ]$T/fmt$fl.sock;" "$T/ours$fl"
done
SHELL=/bin/tcsh "$A" -a "$T/csh.sock" > "$T/csh.out"
pid=$(sed -n 's/^setenv SSH_AGENT_PID \([0-9]*\);$/\1/p' "$T/csh.out")
check "SHELL ending in csh: setenv lines" [ -n "$pid" ]
[ -n "$pid" ] && kill "$pid"

# The default socket: agent.<pid> in a fresh 0700 directory in $TMPDIR.
TMPDIR=$T "$A" -s > "$T/def.out"
DPID=$(sed -n 's/^SSH_AGENT_PID=\([0-9]*\);.*/\1/p' "$T/def.out")
DSOCK=$(sed -n 's/^SSH_AUTH_SOCK=\([^;]*\);.*/\1/p' "$T/def.out")
[ -n "$DPID" ] && at_exit "kill $DPID 2>/dev/null"
check "default socket ssh-XXXXXXXXXXXX/agent.N under TMPDIR" \
    sh -c "echo '$DSOCK' | grep -q '^$T/ssh-[A-Za-z0-9]\{12\}/agent\.[0-9]*$'"
check "... socket mode 0600" [ "$(stat -c %a "$DSOCK")" = 600 ]
check "... directory mode 0700" [ "$(stat -c %a "$(dirname "$DSOCK")")" = 700 ]
SSH_AGENT_PID=$DPID "$A" -k > "$T/kill.out" 2>&1
printf 'unset SSH_AUTH_SOCK;\nunset SSH_AGENT_PID;\necho Agent pid %s killed;\n' \
    "$DPID" > "$T/kill.want"
check "-k prints Debian's unset lines" cmp -s "$T/kill.out" "$T/kill.want"
# Gone before the second -k, however slowly a sanitizer build exits.
i=0
while kill -0 "$DPID" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.1; i=$((i + 1))
done
check "... and Debian's error and status when the agent is gone" [ \
    "$(SSH_AGENT_PID=$DPID "$A" -k 2>&1; echo $?)" = \
    "$(SSH_AGENT_PID=$DPID ssh-agent -k 2>&1; echo $?)" ]
i=0
while [ -e "$DSOCK" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "... the agent removed its socket and directory" \
    [ ! -e "$(dirname "$DSOCK")" ]
check "-k without SSH_AGENT_PID: Debian's message" [ \
    "$(env -u SSH_AGENT_PID "$A" -k 2>&1; echo $?)" = \
    "$(env -u SSH_AGENT_PID ssh-agent -k 2>&1; echo $?)" ]
touch "$T/taken"
for args in "-t xyz" "-x" "-a" "-E" "-E foo" "-O foo" "-c -s" "-d -D" \
    "-k -s x" "-a $T/taken"; do
	"$A" $args > "$T/e.ours" 2>&1
	echo "status $?" >> "$T/e.ours"
	ssh-agent $args > "$T/e.deb" 2>&1
	echo "status $?" >> "$T/e.deb"
	check "ssh-agent $args: Debian's bytes and status" \
	    cmp -s "$T/e.ours" "$T/e.deb"
done

# A command: its status is ours; the agent leaves when it has gone.
out=$(TMPDIR=$T "$A" sh -c 'echo "$SSH_AUTH_SOCK $SSH_AGENT_PID"; exit 3')
rc=$?
check "a command runs with the variables set, its status returned" \
    sh -c "[ $rc = 3 ] && echo '$out' | grep -q '/agent\.[0-9]* [0-9]*\$'"
CSOCK=${out% *}
i=0
while [ -e "$CSOCK" ] && [ $i -lt 250 ]; do sleep 0.1; i=$((i + 1)); done
check "... and the agent leaves (within 10 s) once the command is gone" \
    [ -n "$CSOCK" -a ! -e "$CSOCK" ]

# --- the main agent, in the foreground of a background job -------------
# The confirmation askpass answers what $T/answer says; ssh-add's
# passphrase askpass says what $T/pass says.
cat > "$T/confirm" <<EOF
#!/bin/sh
echo "\$SSH_ASKPASS_PROMPT: \$1" >> "$T/confirm.log"
[ "\$(cat "$T/answer")" = yes ] && { echo yes; exit 0; }
exit 1
EOF
cat > "$T/askpass" <<EOF
#!/bin/sh
cat "$T/pass"
EOF
chmod 755 "$T/confirm" "$T/askpass"
SOCK=$T/agent.sock
SSH_ASKPASS=$T/confirm "$A" -D -a "$SOCK" > "$T/agent.out" 2> "$T/agent.log" &
APID=$!
at_exit "kill $APID 2>/dev/null; wait $APID 2>/dev/null"
wait_log "$T/agent.out" "Agent pid" || fail "agent did not start"
check "-D: the socket line and our pid" \
    grep -q "^echo Agent pid $APID;$" "$T/agent.out"
timeout 1 ssh-agent -D -a "$T/deb-D.sock" > "$T/deb-D.out" 2>/dev/null
check "... the lines Debian's ssh-agent -D prints" \
    [ "$(norm < "$T/agent.out")" = "$(norm < "$T/deb-D.out")" ]
check "-a socket mode 0600" [ "$(stat -c %a "$SOCK")" = 600 ]
SSH_AUTH_SOCK=$SOCK
export SSH_AUTH_SOCK
unset SSH_AGENT_PID

ssh-add "$T/id_ed25519" "$T/id_ecdsa" "$T/id_rsa" > "$T/add.out" 2>&1
check "ssh-add loads ed25519, ecdsa (and its certificate), rsa" \
    grep -q "Certificate added: $T/id_ecdsa-cert.pub" "$T/add.out"
ssh-add -l > "$T/l.out"
check "ssh-add -l lists four identities" [ "$(wc -l < "$T/l.out")" = 4 ]
check "... the certificate among them" grep -q "(ECDSA-CERT)$" "$T/l.out"
for t in ED25519 RSA; do
	check "... $t" grep -q "user-.* ($t)$" "$T/l.out"
done
ssh-add -L > "$T/L.out"
ok=1
for f in id_ed25519.pub id_ecdsa.pub id_rsa.pub id_ecdsa-cert.pub; do
	grep -qF "$(cut -d' ' -f1-2 "$T/$f")" "$T/L.out" || ok=0
done
check "ssh-add -L gives back each public key and the certificate" [ $ok = 1 ]

# Logins with the agent's keys only (no key file is named).
dssh() {
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/known_hosts" -o LogLevel=ERROR \
	    -o IdentityFile="$T/none" -p "$PORT" "$@" "$ME@127.0.0.1" \
	    'echo agent-login' </dev/null 2>>"$T/ssh.err"
}
RSA_FP=$(ssh-keygen -lf "$T/id_rsa.pub" | cut -d' ' -f2)
restart_sshd "PubkeyAcceptedAlgorithms rsa-sha2-512"
check "Debian's ssh logs in with the agent's RSA key, rsa-sha2-512 only" \
    [ "$(dssh)" = agent-login ]
check "... our sshd accepted that RSA key" \
    grep -q "Accepted publickey for $ME .* RSA $RSA_FP" "$T/sshd.log"
for t in ed25519 ecdsa; do
	restart_sshd "PubkeyAcceptedAlgorithms $(sed 's/ .*//' "$T/id_$t.pub")"
	check "Debian's ssh logs in with the agent's $t key" \
	    [ "$(dssh)" = agent-login ]
done
out=$("$BIN/ssh" -F /dev/null -o BatchMode=yes \
    -o StrictHostKeyChecking=no -o UserKnownHostsFile="$T/known_hosts" \
    -o IdentityFile="$T/none" -p "$PORT" "$ME@127.0.0.1" \
    'echo agent-login' </dev/null 2>>"$T/ssh.err")
check "our ssh logs in with our agent's ecdsa key" [ "$out" = agent-login ]
cp "$T/ca.pub" "$T/ca_keys"
: > "$T/empty_keys"
AKF=$T/empty_keys restart_sshd "TrustedUserCAKeys $T/ca_keys"
check "Debian's ssh logs in with the agent's certificate" \
    [ "$(dssh)" = agent-login ]
check "... accepted as a certificate" \
    grep -q "Accepted publickey for $ME .* ECDSA-CERT .*ID cert-id" "$T/sshd.log"
restart_sshd

# paramiko: list and sign through our agent, the signature checked.
cat > "$T/pm.py" <<'EOF'
import sys, paramiko
a = paramiko.Agent()
keys = a.get_keys()
print(len(keys))
n = 0
for k in keys:
    if "cert" in k.get_name():
        continue
    sig = k.sign_ssh_data(b"data to sign")
    blob = k.asbytes()
    pub = paramiko.PKey.from_type_string(k.get_name(), blob) \
        if hasattr(paramiko.PKey, "from_type_string") else None
    if pub is None:
        cls = {"ssh-ed25519": paramiko.Ed25519Key, "ssh-rsa": paramiko.RSAKey}
        cls = cls.get(k.get_name(), paramiko.ECDSAKey)
        pub = cls(data=blob)
    if pub.verify_ssh_sig(b"data to sign", paramiko.Message(sig)):
        n += 1
print(n)
a.close()
EOF
out=$("$PY" "$T/pm.py" 2>"$T/pm.err" | tr '\n' ' ')
check "paramiko lists 4 keys and verifies 3 signatures" [ "$out" = "4 3 " ]
[ "$out" = "4 3 " ] || cat "$T/pm.err" >&2

# Remove a key and its certificate (two requests), then everything.
ssh-add -d "$T/id_ecdsa" > "$T/d.out" 2>&1
check "ssh-add -d removes the key and its certificate" \
    [ "$(ssh-add -l | wc -l)" = 2 ]
check "... ssh-add reports both" [ "$(grep -c "removed" "$T/d.out")" = 2 ]
ssh-add -d "$T/id_ecdsa.pub" > /dev/null 2>&1
check "... removing it again fails" [ $? != 0 ]
ssh-add -D > /dev/null 2>&1
check "ssh-add -D removes all" sh -c "ssh-add -l | grep -q 'no identities'"

# Certificates of the other key types; each signs (ssh-add -T).
mkdir "$T/c2"
for t in ed25519 rsa; do
	cp "$T/id_$t" "$T/id_$t.pub" "$T/c2/"
	ssh-keygen -q -s "$T/ca" -I "c2-$t" -n "$ME" "$T/c2/id_$t.pub"
done
ssh-add "$T/c2/id_ed25519" "$T/c2/id_rsa" > "$T/c2.out" 2>&1
check "ssh-add loads ed25519 and RSA certificates" \
    [ "$(grep -c "^Certificate added" "$T/c2.out")" = 2 ]
ssh-add -T "$T/c2/id_ed25519-cert.pub" "$T/c2/id_rsa-cert.pub" \
    > /dev/null 2>&1
check "... and the agent signs with each (ssh-add -T)" [ $? = 0 ]
ssh-add -D > /dev/null 2>&1

# Lock and unlock.
ssh-add -q "$T/id_ed25519" 2>/dev/null
export SSH_ASKPASS=$T/askpass SSH_ASKPASS_REQUIRE=force
echo secret > "$T/pass"
ssh-add -x > /dev/null 2>&1
check "ssh-add -x locks" [ $? = 0 ]
check "... locked: no identities listed" \
    sh -c "ssh-add -l | grep -q 'no identities'"
ID=$T/id_ed25519.pub
check "... locked: no login with the agent" [ "$(dssh)" != agent-login ]
echo wrong > "$T/pass"
ssh-add -X > /dev/null 2>&1
check "ssh-add -X with a wrong passphrase is refused" [ $? != 0 ]
check "... still locked" sh -c "ssh-add -l | grep -q 'no identities'"
echo secret > "$T/pass"
ssh-add -X > /dev/null 2>&1
check "ssh-add -X with the passphrase unlocks" [ $? = 0 ]
check "... the key is back" [ "$(ssh-add -l | wc -l)" = 1 ]
unset SSH_ASKPASS SSH_ASKPASS_REQUIRE

# A lifetime.
ssh-add -D > /dev/null 2>&1
t0=$(date +%s)
ssh-add -q -t 2 "$T/id_rsa" 2>/dev/null
check "ssh-add -t 2: the key is there" [ "$(ssh-add -l | wc -l)" = 1 ]
while ssh-add -l > /dev/null 2>&1 && [ $(($(date +%s) - t0)) -lt 30 ]; do
	sleep 0.2
done
el=$(($(date +%s) - t0))
check "... and gone a few seconds later (took $el s)" [ $el -ge 1 -a $el -le 6 ]

# Confirmation through the askpass: yes, then no.
ssh-add -q -c "$T/id_ed25519" 2>/dev/null
echo yes > "$T/answer"
restart_sshd "PubkeyAcceptedAlgorithms ssh-ed25519"
check "ssh-add -c: login when the askpass answers yes" \
    [ "$(dssh)" = agent-login ]
check "... the askpass was asked to confirm that key" \
    grep -q "^confirm: Allow use of key user-ed25519?" "$T/confirm.log"
echo no > "$T/answer"
check "... no login when it answers no" [ "$(dssh)" != agent-login ]
check "... asked twice in all" [ "$(grep -c '^confirm:' "$T/confirm.log")" = 2 ]

# Malformed, oversized and truncated requests end that client only.
cat > "$T/bad.py" <<'EOF'
import os, socket, struct, sys
path = os.environ["SSH_AUTH_SOCK"]
def conn():
    s = socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(path); return s
def closed(s):
    try:
        return s.recv(100) == b""
    except OSError:
        return True
def recvn(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            break
        b += c
    return b
def lists(s):
    s.sendall(struct.pack(">IB", 1, 11))
    hdr = recvn(s, 4)
    if len(hdr) != 4:
        return False
    body = recvn(s, struct.unpack(">I", hdr)[0])
    return len(body) > 0 and body[0] == 12
good = conn()
res = []
for req in (struct.pack(">I", 300000) + b"\x0b" * 16,      # oversized
            struct.pack(">IB", 9, 13) + b"\0\0\0\x50abc",   # malformed sign
            struct.pack(">I", 0)):                          # empty
    s = conn(); s.sendall(req); res.append(closed(s) and lists(good))
s = conn(); s.sendall(struct.pack(">IB", 100, 17) + b"\0\0")  # truncated
s.shutdown(socket.SHUT_WR); res.append(closed(s) and lists(good))
many = [conn() for _ in range(50)]
for m in many:
    m.sendall(struct.pack(">IB", 1, 11))
res.append(all(recvn(m, 5)[4:] == b"\x0c" for m in many))
print(" ".join("1" if r else "0" for r in res))
EOF
out=$("$PY" "$T/bad.py" 2>&1)
check "bad requests close their connection; another client goes on" \
    [ "${out% *}" = "1 1 1 1" ]
check "... and fifty clients at once are all answered" [ "${out##* }" = 1 ]
check "the agent is still up" kill -0 $APID

# Another uid is refused at connect (root only: a temporary user).
if [ "$(id -u)" = 0 ]; then
	make_user moatagt$$
	PUBD=$(mktemp -d /tmp/moat-agpub.XXXXXX)
	at_exit "rm -rf '$PUBD'"
	chmod 755 "$PUBD"
	"$A" -D -a "$PUBD/sock" > /dev/null 2> "$T/agent2.log" &
	A2=$!
	at_exit "kill $A2 2>/dev/null"
	i=0
	while [ ! -S "$PUBD/sock" ] && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
	chmod 666 "$PUBD/sock"
	su -s /bin/sh moatagt$$ -c "SSH_AUTH_SOCK=$PUBD/sock ssh-add -l" \
	    > "$T/other.out" 2>&1
	check "another uid gets nothing from the agent" [ $? != 0 ]
	check "... logged as OpenSSH logs it" \
	    wait_log "$T/agent2.log" "uid mismatch: peer euid [0-9]* != uid 0"
	check "... root still gets answers" sh -c "ssh-add -l >/dev/null"
else
	echo "skipped: another uid (needs root)"
fi

# Our own ssh-add against our agent: what Debian's lists, and the 6.2
# removals, and lock/unlock.
OA=$BIN/ssh-add
ssh-add -D > /dev/null 2>&1
"$OA" "$T/id_ed25519" "$T/id_ecdsa" "$T/id_rsa" > "$T/oa.out" 2>&1
check "our ssh-add adds three keys and a certificate to our agent" \
    [ $? = 0 -a "$(ssh-add -l | wc -l)" = 4 ]
check "... our -l prints what Debian's does" \
    [ "$("$OA" -l)" = "$(ssh-add -l)" ]
check "... our -L too" [ "$("$OA" -L)" = "$(ssh-add -L)" ]
"$OA" -k -d "$T/id_ecdsa" > /dev/null 2>&1
check "our ssh-add -k -d: the plain key only" \
    [ "$(ssh-add -l | wc -l)" = 3 ]
"$OA" -d "$T/id_ecdsa" > /dev/null 2>&1
check "our ssh-add -d: then its certificate" \
    [ "$(ssh-add -l | wc -l)" = 2 ]
echo secret > "$T/pass"
SSH_ASKPASS=$T/askpass SSH_ASKPASS_REQUIRE=force "$OA" -x > /dev/null 2>&1
check "our ssh-add -x locks our agent" \
    sh -c "ssh-add -l | grep -q 'no identities'"
SSH_ASKPASS=$T/askpass SSH_ASKPASS_REQUIRE=force "$OA" -X > /dev/null 2>&1
check "our ssh-add -X unlocks it" [ "$(ssh-add -l | wc -l)" = 2 ]
"$OA" -D > /dev/null 2>&1
check "our ssh-add -D empties it" \
    sh -c "ssh-add -l | grep -q 'no identities'"

# The current OpenSSH's ssh-add too, when there is one (not a skip).
O105=$(sh "$SRC/scripts/peer_openssh.sh" -q 2>/dev/null)
if [ -n "$O105" ] && [ -x "$O105/bin/ssh-add" ]; then
	"$O105/bin/ssh-add" -D > /dev/null 2>&1
	"$O105/bin/ssh-add" "$T/id_ecdsa" "$T/id_rsa" > /dev/null 2>&1
	check "OpenSSH 10.5's ssh-add adds a key, a certificate and RSA" \
	    [ "$("$O105/bin/ssh-add" -l | wc -l)" = 3 ]
	"$O105/bin/ssh-add" -d "$T/id_ecdsa" > /dev/null 2>&1
	check "... and removes the key and its certificate" \
	    [ "$("$O105/bin/ssh-add" -l | wc -l)" = 1 ]
else
	echo "skipped: OpenSSH 10.5's ssh-add (no peer build)"
fi

kill $APID
wait $APID
check "the agent exits on SIGTERM and removes its socket" [ ! -e "$SOCK" ]
if grep -q "ERROR: AddressSanitizer\|runtime error:" "$T"/agent*.log; then
	cat "$T"/agent*.log >&2
	fail "sanitizer report in the agent's log"
fi
finish
