#!/bin/sh
# mkseeds.sh: make the seeds of the upper-layer fuzz targets (fuzz_userauth,
# fuzz_session, fuzz_fwd, fuzz_ttymodes) in tests/fuzz/corpus/TARGET/, and
# fuzz_readconf's "keywords" seed (mkseeds_readconf.py: every ssh_config
# keyword of the client's table; its other seeds are written by hand).
#
# usage: sh tests/fuzz/mkseeds.sh          (after make build)
#        sh tests/fuzz/mkseeds.sh keys     (new fuzz_keys.h; see below)
#        sh tests/fuzz/mkseeds.sh readconf (only fuzz_readconf's seed)
#
# Two kinds of seed, both rewritten by every run:
#
#  rec_*    recorded from real sessions. An sshd built from our sources
#           with msgdump.c wrapped around the transport's message calls
#           records every message it receives, after decryption, as the
#           targets read them. Debian's OpenSSH client (ssh, sftp; under
#           script(1) where it needs a terminal, so pty-req carries real
#           modes) and paramiko then talk to it on 127.0.0.1 as the user
#           running this script: a command with a pty, a command fed from
#           stdin, a shell, an sftp batch, ssh -W (direct-tcpip), remote
#           and local forwards of TCP ports and Unix sockets with a
#           connection through each, and paramiko trying a wrong
#           password, keyboard-interactive and then its key.
#           mkseeds_split.py splits each recorded connection into its
#           userauth part (user renamed fuzzuser), its connection part
#           (fuzz_fwd when it forwards, else fuzz_session) and the modes
#           of its pty-req (fuzz_ttymodes).
#  synth_*  written by mkseeds.c: what no client above sends or what the
#           fuzzer cannot make itself -- signatures by the fixed keys of
#           fuzz_keys.h over the stand-in transport's fixed session id
#           (accepted keys, certificates, hostbased, AuthenticationMethods
#           chains), keyboard-interactive rounds with the harness's fake
#           PAM, signal, streamlocal forwarding, cancels, answers to the
#           server's own channel opens.
#
# "keys" makes the fixed keys and certificates anew with ssh-keygen and
# writes fuzz_keys.h; run the plain form afterwards, since the signed
# seeds only verify with the keys they were made with.
#
# Everything runs in a temporary directory; the recording sshd listens on
# a free port on 127.0.0.1 and is stopped by its PID.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
fz=$top/tests/fuzz
corpus=$fz/corpus
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T=$(mktemp -d /tmp/moat-mkseeds.XXXXXX)
SSHD_PID=""
FWD_PID=""
cleanup() {
	for p in $FWD_PID $SSHD_PID; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

incs=""
for d in core crypto keys transport conn server client sftp; do
	incs="$incs -I$top/src/$d"
done
cc="${CC:-cc} -std=gnu11 -O1 -g -D_GNU_SOURCE -DHAVE_PAM=1 -Wall -Wextra
    -Werror -Wno-unused-parameter $incs -I$fz"
# The layers' archives, highest first (each needs those below it).
libs=""
for l in server client sftp conn transport keys crypto core; do
	libs="$libs $top/build/libmoat_$l.a"
done
libs="$libs -lcrypto -lz -lcrypt -lpam -lseccomp"

if [ "${1:-}" = readconf ]; then
	"$PY" "$fz/mkseeds_readconf.py" "$top" "$corpus/fuzz_readconf"
	exit 0
fi

if [ "${1:-}" = keys ]; then
	k=$T/keys
	mkdir "$k"
	ssh-keygen -q -t ed25519 -N '' -C user-ed25519 -f "$k/user1"
	ssh-keygen -q -t ecdsa -b 256 -N '' -C user-ecdsa -f "$k/user2"
	ssh-keygen -q -t ed25519 -N '' -C user-revoked -f "$k/user3"
	ssh-keygen -q -t ed25519 -N '' -C user-ca -f "$k/ca"
	ssh-keygen -q -t ed25519 -N '' -C fuzzhost -f "$k/host"
	ssh-keygen -q -t rsa -b 1024 -N '' -C fuzzhost-rsa -f "$k/hostrsa"
	ssh-keygen -q -s "$k/ca" -I fuzz-cert -n fuzzuser,other \
	    -V always:forever -z 7 "$k/user1.pub"
	mv "$k/user1-cert.pub" "$k/cert1.pub"
	ssh-keygen -q -s "$k/ca" -I fuzz-cert-forced -n fuzzuser \
	    -O force-command=/bin/true -O source-address=127.0.0.1/32,::1 \
	    -O no-pty -z 8 "$k/user1.pub"
	mv "$k/user1-cert.pub" "$k/cert2.pub"
	"$PY" - "$k" > "$fz/fuzz_keys.h" <<'EOF'
import os, sys
k = sys.argv[1]

def lines(name, chunk):
    out = []
    for line in open(os.path.join(k, name)).read().splitlines():
        for i in range(0, len(line), chunk):
            tail = "\\n" if i + chunk >= len(line) else ""
            out.append('\t"%s%s"' % (line[i:i + chunk], tail))
    return "\n".join(out)

print("""/*
 * fuzz_keys.h: fixed keys for fuzz_userauth and the seeds mkseeds.c
 * signs with (made by "sh tests/fuzz/mkseeds.sh keys" with ssh-keygen;
 * test data, not secrets). Seeds that carry signatures verify only with
 * these keys, so they change together.
 *
 *   user1    ed25519, listed in authorized_keys, the subject of cert1/2
 *   user2    ECDSA P-256, listed with restrict,pty,command=...,from=...
 *   user3    ed25519, listed but revoked (RevokedKeys)
 *   ca       ed25519, TrustedUserCAKeys and a cert-authority line
 *   host     ed25519, the client host's key for hostbased (known_hosts),
 *            and a host key of the server in fuzz_session / fuzz_fwd
 *   hostrsa  RSA 1024, another host key of the server there (user2 is
 *            the third), for hostkeys-00 and hostkeys-prove-00
 *   cert1    user1 signed by ca: principals fuzzuser,other, serial 7
 *   cert2    user1 signed by ca: principal fuzzuser, serial 8,
 *            force-command=/bin/true, source-address, no pty
 */
#ifndef MOAT_FUZZ_KEYS_H
#define MOAT_FUZZ_KEYS_H
""")
for n in ["user1", "user2", "user3", "ca", "host", "hostrsa"]:
    print("static const char fz_key_%s[] =\n%s;" % (n, lines(n, 70)))
    print("static const char fz_pub_%s[] =\n%s;\n" % (n, lines(n + ".pub", 70)))
for n in ["cert1", "cert2"]:
    print("static const char fz_pub_%s[] =\n%s;\n" % (n, lines(n + ".pub", 70)))
print("#endif")
EOF
	echo "mkseeds: wrote $fz/fuzz_keys.h; now run: sh $0"
	exit 0
fi

if [ ! -f "$top/build/libmoat_core.a" ] || [ ! -x "$top/build/bin/sftp-server" ]
then
	echo "mkseeds: run make build first" >&2
	exit 1
fi
for t in fuzz_userauth fuzz_session fuzz_fwd fuzz_ttymodes; do
	mkdir -p "$corpus/$t"
	rm -f "$corpus/$t"/rec_* "$corpus/$t"/synth_*
done

"$PY" "$fz/mkseeds_readconf.py" "$top" "$corpus/fuzz_readconf"

# ---- synthetic seeds ----
$cc "$fz/mkseeds.c" $libs -o "$T/mkseeds"
"$T/mkseeds" "$corpus/fuzz_userauth" "$corpus/fuzz_session" \
    "$corpus/fuzz_fwd"

# ---- recorded seeds ----
$cc "$top"/src/sshd/*.c "$fz/msgdump.c" $libs \
    -Wl,--wrap=tr_next_message,--wrap=tr_wait_message -o "$T/sshd"
ssh-keygen -q -t ed25519 -N '' -C host -f "$T/host_ed25519"
ssh-keygen -q -t ed25519 -N '' -C user -f "$T/id_ed25519"
cp "$T/id_ed25519.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
. "$top/tests/interop/port.inc"
PORT=$(free_port)
ME=$(id -un)
cat > "$T/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $PORT
HostKey $T/host_ed25519
AuthorizedKeysFile $T/authorized_keys
PidFile none
StrictModes no
AcceptEnv LANG LC_*
Subsystem sftp $top/build/bin/sftp-server
AllowTcpForwarding yes
AllowStreamLocalForwarding yes
PasswordAuthentication yes
KbdInteractiveAuthentication yes
EOF
mkdir "$T/dump" "$T/rec"
MOAT_MSGDUMP=$T/dump/conn "$T/sshd" -D -e -f "$T/sshd_config" \
    2>"$T/sshd.log" &
SSHD_PID=$!
i=0
until grep -q "Server listening" "$T/sshd.log" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 "$SSHD_PID" 2>/dev/null; then
		cat "$T/sshd.log" >&2
		exit 1
	fi
	sleep 0.05
done

ssh_args="-F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no
    -o UserKnownHostsFile=$T/known_hosts -o LogLevel=ERROR
    -o IdentitiesOnly=yes -i $T/id_ed25519 -p $PORT"
ssh_args=$(echo $ssh_args)	# one line: in_tty hands it to sh -c
# Keep what the last connection recorded under a name.
keep() {
	sleep 0.3	# the server's child writes its last records
	for f in "$T"/dump/conn.*; do
		[ -f "$f" ] && mv "$f" "$T/rec/$1"
	done
	return 0
}
# A command under a terminal, so ssh sends the modes of a real one.
in_tty() {
	script -qec "$1" /dev/null < "${2:-/dev/null}" > /dev/null 2>&1 || true
}

LANG=C.UTF-8 in_tty "ssh $ssh_args -tt -o SendEnv=LANG $ME@127.0.0.1 \
    'echo hello; exit 3'"
keep pty_exec
printf 'some data\n' | ssh $ssh_args "$ME@127.0.0.1" 'cat; echo done >&2' \
    > /dev/null 2>&1 || true
keep exec_stdin
printf 'echo hi\nstty size\nexit\n' > "$T/shell.in"
in_tty "ssh $ssh_args -tt $ME@127.0.0.1" "$T/shell.in"
keep shell
printf 'pwd\nls -l /\nmkdir %s/sftpdir\nrmdir %s/sftpdir\n' "$T" "$T" \
    > "$T/sftp.batch"
sftp -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile="$T/known_hosts" -o IdentitiesOnly=yes \
    -i "$T/id_ed25519" -P "$PORT" -b "$T/sftp.batch" "$ME@127.0.0.1" \
    > /dev/null 2>&1 || true
keep sftp
printf 'SSH-2.0-probe\r\n' | ssh $ssh_args -W "127.0.0.1:$PORT" \
    "$ME@127.0.0.1" > /dev/null 2>&1 || true
keep direct_tcpip
# Forwards both ways, TCP and Unix sockets, one connection through each.
ssh $ssh_args -N -o ExitOnForwardFailure=yes -o StreamLocalBindUnlink=yes \
    -R "0:127.0.0.1:$PORT" -R "$T/remote.sock:127.0.0.1:$PORT" \
    -L "$T/local.sock:127.0.0.1:$PORT" "$ME@127.0.0.1" \
    > /dev/null 2> "$T/fwd.err" &
FWD_PID=$!
"$PY" - "$T" <<'EOF'
import os, re, socket, sys, time
t = sys.argv[1]
def probe(family, addr):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(addr)
        s.recv(64)          # our sshd's banner, through the forward
    except OSError:
        pass
    s.close()
for _ in range(100):
    if os.path.exists(t + "/local.sock") and os.path.exists(t + "/remote.sock"):
        break
    time.sleep(0.05)
port = None
for _ in range(100):
    m = re.search(r"Allocated port (\d+)", open(t + "/fwd.err").read())
    if m:
        port = int(m.group(1))
        break
    time.sleep(0.05)
probe(socket.AF_UNIX, t + "/local.sock")
probe(socket.AF_UNIX, t + "/remote.sock")
if port:
    probe(socket.AF_INET, ("127.0.0.1", port))
time.sleep(0.5)
EOF
kill "$FWD_PID" 2>/dev/null || true
wait "$FWD_PID" 2>/dev/null || true
FWD_PID=""
keep forwards
# paramiko: a wrong password, keyboard-interactive, then the key.
"$PY" - "$PORT" "$ME" "$T/id_ed25519" <<'EOF' > /dev/null 2>&1 || true
import socket, sys
import paramiko
port, user, keyfile = int(sys.argv[1]), sys.argv[2], sys.argv[3]
t = paramiko.Transport(socket.create_connection(("127.0.0.1", port)))
t.start_client(timeout=10)
for attempt in (lambda: t.auth_password(user, "wrong password"),
                lambda: t.auth_interactive(user, lambda *a: ["x"] * len(a[2]))):
    try:
        attempt()
    except paramiko.SSHException:
        pass
t.auth_publickey(user, paramiko.Ed25519Key.from_private_key_file(keyfile))
c = t.open_session()
c.exec_command("true")
c.recv_exit_status()
t.close()
EOF
keep paramiko

"$PY" "$fz/mkseeds_split.py" "$T/rec" "$corpus" "$ME"
for t in fuzz_userauth fuzz_session fuzz_fwd fuzz_ttymodes; do
	echo "mkseeds: $t: $(ls "$corpus/$t" | wc -l) seeds"
done
