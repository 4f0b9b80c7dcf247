#!/bin/sh
# RefuseConnection (OpenSSH 10.0+): a Match block that sets it ends the
# connection when the client names its user, with OpenSSH 10.5's log
# line ("invalid user " for one that does not exist) and, with
# PerSourcePenalties, the refuseconnection penalty; sshd -T and -T -C
# show it. Compared with the OpenSSH 10.5 peer's sshd where it is built.
. "$(dirname "$0")/lib.sh"
need ssh
[ "$(id -u)" = 0 ] || skip "needs root (logs in as root)"
make_keys
ME=root
write_config <<CFG
PermitRootLogin prohibit-password
Match User root Address 127.0.0.1
	RefuseConnection yes
Match User nobody-at-all
	RefuseConnection yes
CFG
"$BIN/sshd" -t -f "$T/sshd_config" >/dev/null 2>&1
check "sshd -t takes RefuseConnection" [ $? = 0 ]
check "sshd -T: refuseconnection no outside the Match" sh -c \
    "'$BIN/sshd' -T -f '$T/sshd_config' | grep -qx 'refuseconnection no'"
check "sshd -T -C user=root: refuseconnection yes" sh -c \
    "'$BIN/sshd' -T -f '$T/sshd_config' \
    -C user=root,addr=127.0.0.1,host=h,laddr=127.0.0.1,lport=22 |
    grep -qx 'refuseconnection yes'"
printf 'RefuseConnection maybe\n' > "$T/bad_config"
"$BIN/sshd" -t -f "$T/bad_config" -h "$T/host_ed25519" 2>/dev/null
check "RefuseConnection maybe refused by sshd -t" [ $? -ne 0 ]

start_sshd
ossh root@127.0.0.1 true 2>/dev/null
st=$?
check "root refused: ssh exits 255" [ "$st" = 255 ]
check "... logged as OpenSSH 10.5 logs it" wait_log "$T/sshd.log" \
    '^administratively prohibited connection for root from 127.0.0.1 port [0-9]*$'
check "... and never authenticated" sh -c \
    "! grep -q 'Accepted publickey' '$T/sshd.log'"
ossh nobody-at-all@127.0.0.1 true 2>/dev/null
check "an unknown user refused" wait_log "$T/sshd.log" \
    '^administratively prohibited connection for invalid user nobody-at-all from 127.0.0.1 port [0-9]*$'

# Another user, not named by the Match blocks, logs in.
make_user moatrefuse
install -d -m 700 -o moatrefuse ~moatrefuse/.ssh
install -m 600 -o moatrefuse "$T/id_ed25519.pub" \
    ~moatrefuse/.ssh/authorized_keys
AKF=.ssh/authorized_keys restart_sshd "Match User root" \
    "	RefuseConnection yes"
out=$(ossh moatrefuse@127.0.0.1 'echo in' 2>/dev/null)
check "a user no Match block refuses logs in" [ "$out" = in ]

# With PerSourcePenalties on, the refusal is its own kind of penalty.
PENALTIES="refuseconnection:30s"
restart_sshd "Match User root" "	RefuseConnection yes"
ossh root@127.0.0.1 true 2>/dev/null
check "the refuseconnection penalty" wait_log "$T/sshd.log" \
    'penalty: connection prohibited by RefuseConnection'
PENALTIES=""

# The same log line from OpenSSH 10.5's sshd.
if O105=$(sh "$SRC/scripts/peer_openssh.sh" -q 2>/dev/null) &&
    [ -x "$O105/sbin/sshd" ]; then
	mkdir -p /run/sshd
	PORT=$(free_port)
	printf '%s\n' "ListenAddress 127.0.0.1" "Port $PORT" \
	    "HostKey $T/host_ed25519" "AuthorizedKeysFile $T/authorized_keys" \
	    "PidFile none" "StrictModes no" "PerSourcePenalties no" \
	    "Match User root" "	RefuseConnection yes" > "$T/peer_config"
	start_peer_sshd "$O105/sbin/sshd" "$T/peer_config" "$T/peer.log"
	ossh root@127.0.0.1 true 2>/dev/null
	check "OpenSSH 10.5 refuses the same way (255)" [ $? = 255 ]
	# (OpenSSH ends its stderr lines with CR LF.)
	check "... with the same line" wait_log "$T/peer.log" \
	    '^administratively prohibited connection for root from 127.0.0.1 port [0-9]*.$'
else
	echo "no OpenSSH 10.5 peer: its log line not compared" >&2
fi
finish
