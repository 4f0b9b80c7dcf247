#!/bin/sh
# hostbased_keysign.sh: our ssh logs in to our sshd with hostbased
# authentication through OUR ssh-keysign (src/keysign), not OpenSSH's.
#
# Root only; the set-up is hostbased.inc's: a temporary user (removed
# on exit) with ~/.shosts and ~/.ssh/known_hosts, and one drop-in file in
# /etc/ssh/ssh_config.d saying EnableSSHKeysign yes (removed on exit).
# ssh looks for the helper beside itself, so our ssh and a setuid-root
# copy of our ssh-keysign go into a temporary directory (removed on
# exit); the client's debug line names the helper it runs, which proves
# which one signed. The helper is also run directly with hand-made
# requests (a small Python driver), to see it refuse what it must.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostbased.inc"

[ "$(id -u)" = 0 ] || skip "needs root (a temporary user, a setuid helper)"
[ -x "$BIN/ssh" ] || skip "no $BIN/ssh"
[ -x "$BIN/ssh-keysign" ] || skip "no $BIN/ssh-keysign"
for t in ed25519 ecdsa rsa; do
	[ -r /etc/ssh/ssh_host_${t}_key ] ||
	    skip "no /etc/ssh/ssh_host_${t}_key (openssh-server not installed)"
done
need ssh-keygen
hb_need
# An installed helper in the build's prefix would be found first.
PREFIX=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BIN/../CMakeCache.txt" \
    2>/dev/null)
[ -n "$PREFIX" ] && [ -e "$PREFIX/libexec/ssh-keysign" ] &&
    skip "$PREFIX/libexec/ssh-keysign is installed and would be used"

# The other hostbased tests change /etc/ssh/ssh_config.d too, and a
# "yes" or "no" of theirs would decide for ours: wait until they are done.
i=0
while ls /etc/ssh/ssh_config.d/zz-moat-* >/dev/null 2>&1; do
	i=$((i + 1))
	[ $i -gt 600 ] && skip "another test keeps a file in /etc/ssh/ssh_config.d"
	sleep 0.5
done

D=$(mktemp -d /tmp/moat-keysign.XXXXXX)
at_exit "rm -rf '$D'"
chmod 755 "$D"
cp "$BIN/ssh" "$BIN/ssh-keysign" "$D/"
chown root:root "$D/ssh" "$D/ssh-keysign"
chmod 755 "$D/ssh"
chmod 4755 "$D/ssh-keysign"
runuser -u nobody -- "$D/ssh" -V >/dev/null 2>&1 ||
    skip "$D/ssh is not usable by other users"

hb_setup moathbk$$ hostbased-keysign
restart_sshd "HostbasedAuthentication yes" "UseDNS yes" "IgnoreRhosts no"

# login [ssh options...]: the temporary user runs $D/ssh "echo hb-ok" with
# debug output in $T/err; the options given come first, so they win.
login() {
	as_user "$D/ssh" -F /dev/null "$@" -o LogLevel=DEBUG1 \
	    -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile=/dev/null \
	    -o HostbasedAuthentication=yes -o EnableSSHKeysign=yes \
	    -o PreferredAuthentications=hostbased \
	    -p "$PORT" "$U@127.0.0.1" 'echo hb-ok' 2>"$T/err"
}
said() { grep -q "$1" "$T/err"; }

# 1. Our helper signs with each host key type.
out=$(login)
check "hostbased login through our ssh-keysign" [ "$out" = hb-ok ]
check "the client ran our helper" said \
    "hostbased: using ssh-keysign $D/ssh-keysign\$"
check "Accepted hostbased ED25519" logged \
    "Accepted hostbased for $U from 127.0.0.1 port [0-9]* ssh2: ED25519 SHA256:"
known ecdsa
out=$(login)
check "ECDSA host key through our helper" [ "$out" = hb-ok ]
check "Accepted hostbased ECDSA" logged "Accepted hostbased for $U .*ECDSA"
known rsa
for alg in rsa-sha2-512 rsa-sha2-256; do
	: > "$T/sshd.log"
	out=$(login -o HostbasedAcceptedAlgorithms=$alg)
	check "RSA host key with $alg through our helper" [ "$out" = hb-ok ]
	check "the server checked $alg" logged "pkalg $alg"
done
known ed25519

# 2. A copy that is not setuid cannot read the host keys: the client
# passes it by for the system's helper (when there is one).
chmod 755 "$D/ssh-keysign"
out=$(login)
check "a non-setuid helper is not used" sh -c \
    "! grep -q 'using ssh-keysign $D/ssh-keysign' '$T/err'"
chmod 4755 "$D/ssh-keysign"

# 3. Hand-made requests, run as the user with a connection at fd 3.
cat > "$T/drive.py" <<'PYEOF'
import base64, os, socket, struct, subprocess, sys

helper, port, keyfile, user, host, alg, version, fd3 = sys.argv[1:9]

def s(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b

blob = base64.b64decode(open(keyfile).read().split()[1])
data = (s(b"\x11" * 32) + b"\x32" + s(user) + s("ssh-connection") +
        s("hostbased") + s(alg) + s(blob) + s(host) + s(user))
body = bytes([int(version)]) + struct.pack(">I", 3) + s(data)
conn = socket.create_connection(("127.0.0.1", int(port)))
a, b = socket.socketpair()
if fd3 == "socket":
    third = conn.fileno()
else:
    third = os.open("/dev/null", os.O_RDONLY)
os.dup2(third, 3, inheritable=True)
p = subprocess.Popen([helper], stdin=b, stdout=b, stderr=subprocess.PIPE,
                     pass_fds=(3,))
b.close()
reply = b""
try:
    # The helper may refuse (and go) before it reads the request.
    a.sendall(struct.pack(">I", len(body)) + body)
    while True:
        chunk = a.recv(65536)
        if not chunk:
            break
        reply += chunk
except (BrokenPipeError, ConnectionResetError):
    pass
err = p.stderr.read().decode(errors="replace")
rc = p.wait()
sys.stderr.write(err)
if rc == 0 and len(reply) > 9 and reply[4] == 2:
    print("signed")
else:
    print("refused %d" % rc)
PYEOF
chmod 644 "$T/drive.py"
cp "$T/drive.py" "$T/id_ed25519.pub" "$D/"
chmod 644 "$D/id_ed25519.pub"
drive() {	# drive KEYFILE USER HOST ALG VERSION FD3
	as_user "$PY" "$D/drive.py" "$D/ssh-keysign" "$PORT" "$@" 2>"$T/err"
}
ED=/etc/ssh/ssh_host_ed25519_key.pub
out=$(drive $ED "$U" localhost. ssh-ed25519 2 socket)
check "a good request is signed" [ "$out" = signed ]
out=$(drive $ED root localhost. ssh-ed25519 2 socket)
check "another user's name: refused" [ "$out" = "refused 1" ]
check "not a valid request" said "ssh-keysign: not a valid request"
out=$(drive $ED "$U" otherhost. ssh-ed25519 2 socket)
check "another host name: refused" [ "$out" = "refused 1" ]
out=$(drive "$D/id_ed25519.pub" "$U" localhost. ssh-ed25519 2 socket)
check "a key that is not a host key: refused" [ "$out" = "refused 1" ]
check "no matching hostkey" said "no matching hostkey found"
out=$(drive $ED "$U" localhost. ssh-ed25519 1 socket)
check "version 1: refused" [ "$out" = "refused 1" ]
check "bad version said" said "bad version: received 1, expected 2"
out=$(drive $ED "$U" localhost. ssh-ed25519 2 devnull)
check "fd 3 not a socket: refused" [ "$out" = "refused 1" ]
check "not a socket said" said "fd 3 is not a socket"
out=$(drive /etc/ssh/ssh_host_rsa_key.pub "$U" localhost. ssh-rsa 2 socket)
check "SHA-1 ssh-rsa: refused" [ "$out" = "refused 1" ]

# 4. EnableSSHKeysign no: the helper refuses and says why.
echo "EnableSSHKeysign no" > "$DROPIN"
out=$(login)
check "no login with EnableSSHKeysign no" [ -z "$out" ]
check "our helper said why" said \
    "ssh-keysign not enabled in /etc/ssh/ssh_config"
check "and it was ours" said "using ssh-keysign $D/ssh-keysign\$"
rm -f "$DROPIN"
out=$(drive $ED "$U" localhost. ssh-ed25519 2 socket)
check "no EnableSSHKeysign at all: refused" [ "$out" = "refused 1" ]
check "not enabled said" said "ssh-keysign not enabled in /etc/ssh/ssh_config"

finish
