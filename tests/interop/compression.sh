#!/bin/sh
# Transport compression between our ssh/sshd and OpenSSH's: Debian's and,
# when scripts/peer_openssh.sh has one, the current release. For each
# pairing the client's -v output names the method negotiated each way
# (zlib@openssh.com with -C against Compression yes/delayed, none without
# -C or against Compression no), and a compressible file and a random
# one cross each way intact (SHA-256), with a RekeyLimit low enough that
# both streams restart several times mid-transfer (with curve25519, the
# cheapest exchange, so the rekeys do not dominate the run time).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "OpenSSH's sshd needs root here"
[ -x /usr/sbin/sshd ] || skip "OpenSSH's sshd not installed"
need ssh
need sha256sum
make_keys
MIB=${MOAT_COMP_MIB:-32}
RL=2M
KEX=curve25519-sha256

# Text that deflates about 4:1, and noise that does not deflate at all.
seq 1 9000000 | head -c $((MIB * 1024 * 1024)) > "$T/text"
head -c $((MIB / 8 * 1024 * 1024)) /dev/urandom > "$T/noise"
for f in text noise; do
	sha256sum < "$T/$f" | cut -d' ' -f1 > "$T/$f.sum"
done

# Clients, configured by the command line only: Debian's, ours, 10.5's.
dssh() {
	ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/kh_d" -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" "$@"
}
mssh() {
	"$BIN/ssh" -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no \
	    -o UserKnownHostsFile="$T/kh_m" -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" "$@"
}
nssh() {
	"$O105/bin/ssh" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile="$T/kh_n" \
	    -o IdentitiesOnly=yes -i "$T/id_ed25519" "$@"
}

# logged METHOD: the client's -v output in $T/neg names METHOD both ways.
logged() {
	# OpenSSH's client ends its lines with \r\n on stderr.
	n=$(grep -c "kex: .* cipher: .* compression: $1[[:space:]]*\$" \
	    "$T/neg")
	if [ "$n" -ge 2 ]; then
		return 0
	fi
	grep "compression" "$T/neg" >&2
	return 1
}

# negotiated WHAT PORT CLIENT [ARGS]: CLIENT -v logs METHOD both ways.
negotiated() {
	want=$1 port=$2
	shift 2
	"$@" -v -p "$port" "$ME@127.0.0.1" true 2>"$T/neg" </dev/null
	logged "$want"
}

# transfer NAME PORT CLIENT [ARGS]: both files up and down, intact; the
# first transfer runs with -v, and logs zlib@openssh.com both ways.
transfer() {
	name=$1 port=$2
	shift 2
	v=-v
	for f in text noise; do
		want=$(cat "$T/$f.sum")
		got=$("$@" $v -o RekeyLimit=$RL -o KexAlgorithms=$KEX \
		    -p "$port" "$ME@127.0.0.1" 'sha256sum' < "$T/$f" \
		    2>"$T/neg" | cut -d' ' -f1)
		[ -n "$v" ] && check "$name: zlib@openssh.com" \
		    logged zlib@openssh.com
		v=""
		check "$name: $f ($(($(wc -c < "$T/$f") >> 20)) MiB) up" \
		    [ "$got" = "$want" ]
		got=$("$@" -o RekeyLimit=$RL -o KexAlgorithms=$KEX -p "$port" \
		    "$ME@127.0.0.1" "cat '$T/$f'" 2>>"$T/err" </dev/null |
		    sha256sum | cut -d' ' -f1)
		check "$name: $f down" [ "$got" = "$want" ]
	done
}

# Our sshd, Compression yes.
write_config <<CFG
Compression yes
CFG
start_sshd
transfer "Debian's ssh -C -> our sshd" "$PORT" dssh -C
n=$(grep -c "kex: client->server cipher: .* compression: zlib@openssh.com" \
    "$T/sshd.log")
# The text is about a quarter of its size on the wire, the noise all of
# it: in all, some 3/4 MIB MiB crosses each way under a 2 MiB limit.
check "... our sshd rekeyed with it (RekeyLimit $RL)" [ "$n" -gt $((MIB / 4)) ]
check "Debian's ssh without -C -> our sshd: none" \
    negotiated none "$PORT" dssh
got=$(mssh -v -C -o RekeyLimit=$RL -o KexAlgorithms=$KEX -p "$PORT" \
    "$ME@127.0.0.1" 'sha256sum' < "$T/text" 2>"$T/neg" | cut -d' ' -f1)
check "our ssh -C -> our sshd: zlib@openssh.com" logged zlib@openssh.com
check "... text up" [ "$got" = "$(cat "$T/text.sum")" ]
check "our ssh -o Compression=yes -> our sshd: zlib@openssh.com" \
    negotiated zlib@openssh.com "$PORT" mssh -o Compression=yes

# Compression delayed is yes to sshd; no offers none only.
restart_sshd "Compression delayed"
check "Debian's ssh -C -> our sshd (delayed): zlib@openssh.com" \
    negotiated zlib@openssh.com "$PORT" dssh -C
check "... sshd -T says yes, as OpenSSH's does" \
    sh -c "'$BIN/sshd' -T -f '$T/sshd_config' | grep -qx 'compression yes'"
restart_sshd "Compression no"
check "Debian's ssh -C -> our sshd (Compression no): none" \
    negotiated none "$PORT" dssh -C
check "our ssh -C -> our sshd (Compression no): none" \
    negotiated none "$PORT" mssh -C

# Debian's sshd (its default is Compression yes).
DPORT=$(free_port)
sed -e "s/^Port .*/Port $DPORT/" -e '/^LogLevel/d' "$T/sshd_config" |
    grep -v '^Compression' > "$T/debian_config"
echo "UsePAM no" >> "$T/debian_config"
start_peer_sshd /usr/sbin/sshd "$T/debian_config" "$T/debian.log"
transfer "our ssh -C -> Debian's sshd" "$DPORT" mssh -C
check "our ssh without -C -> Debian's sshd: none" \
    negotiated none "$DPORT" mssh

# The current OpenSSH, both ways, when there is one.
O105=$(sh "$SRC/scripts/peer_openssh.sh" -q 2>/dev/null) || O105=""
if [ -n "$O105" ] && [ -x "$O105/bin/ssh" ] && [ -x "$O105/sbin/sshd" ]; then
	restart_sshd "Compression yes"
	transfer "10.5's ssh -C -> our sshd" "$PORT" nssh -C
	NPORT=$(free_port)
	sed "s/^Port .*/Port $NPORT/" "$T/debian_config" > "$T/o105_config"
	start_peer_sshd "$O105/sbin/sshd" "$T/o105_config" "$T/o105.log"
	transfer "our ssh -C -> 10.5's sshd" "$NPORT" mssh -C
else
	echo "SKIP (not counted): no OpenSSH 10.5 peer" >&2
fi
if [ "$FAILS" -gt 0 ]; then
	tail -20 "$T/err" >&2
	tail -20 "$T/sshd.log" >&2
fi
finish
