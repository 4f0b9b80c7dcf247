#!/bin/sh
# Our ssh against hostile servers (hostile_server.py): a garbage, SSH-1
# or never-ending banner; after a valid banner a packet with a huge
# length, a length that is not a block multiple, or a padding length
# larger than the packet; and, through a proxy in front of our real
# sshd (so KEX is real), one flipped byte in the first encrypted server
# packet (under several cipher/MAC pairs) or in the signature of the
# server's KEX reply (under several host key and KEX algorithms).
# Each time our ssh must exit 255 within the time limit, print a line
# naming the problem, say little else (at most four lines), leave no
# sanitizer report on stderr, and, for the bad signature, end with
# "...: incorrect signature" and not record the host key in known_hosts. The helper must report that it really
# injected its fault.
. "$(dirname "$0")/lib.sh"
HELPER=$(dirname "$0")/hostile_server.py
make_keys
write_config <<EOF
KexAlgorithms +diffie-hellman-group14-sha256,diffie-hellman-group-exchange-sha256
EOF
start_sshd
N=0

# hostile LABEL EXPECT KIND MODE [SSH OPTIONS...]: run the helper in
# KIND/MODE, our ssh against it, and check the outcome; EXPECT is a
# fixed string that must be a line of stderr (or a part of one).
hostile() {
	label=$1; expect=$2; kind=$3; mode=$4; shift 4
	N=$((N + 1))
	pf=$T/port.$N
	if [ "$kind" = proxy ]; then
		"$PY" "$HELPER" "$pf" proxy "$mode" "$PORT" > "$T/helper.$N" 2>&1 &
	else
		"$PY" "$HELPER" "$pf" fake "$mode" > "$T/helper.$N" 2>&1 &
	fi
	hpid=$!
	i=0
	while [ ! -s "$pf" ]; do
		i=$((i + 1))
		if [ $i -gt 100 ]; then
			fail "$label: the helper did not start"
			cat "$T/helper.$N" >&2
			kill "$hpid" 2>/dev/null
			wait "$hpid" 2>/dev/null
			return
		fi
		sleep 0.05
	done
	rm -f "$T/kh.$N"
	timeout 30 "$BIN/ssh" -F /dev/null -o BatchMode=yes \
	    -o UserKnownHostsFile="$T/kh.$N" \
	    -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes \
	    -i "$T/id_ed25519" -p "$(cat "$pf")" ${1+"$@"} \
	    "$ME@127.0.0.1" 'echo should-not-run' </dev/null \
	    > "$T/out.$N" 2> "$T/err.$N"
	st=$?
	# The helper ends when its client has gone; give it a moment to.
	i=0
	while kill -0 "$hpid" 2>/dev/null && [ $i -lt 50 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	kill "$hpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
	grep -v "^Warning: Permanently added" "$T/err.$N" > "$T/msg.$N"
	lines=$(wc -l < "$T/msg.$N")
	why=""
	grep -q "^\(sent\|flipped\) " "$T/helper.$N" ||
	    why="$why; the fault was not injected ($(cat "$T/helper.$N"))"
	[ $st -eq 255 ] || why="$why; exit status $st, not 255"
	grep -qF -- "$expect" "$T/msg.$N" || why="$why; no '$expect' on stderr"
	[ "$lines" -le 4 ] || why="$why; $lines lines on stderr"
	[ -s "$T/out.$N" ] && why="$why; the command ran"
	grep -q "ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer" \
	    "$T/err.$N" && why="$why; sanitizer report"
	if [ -z "$why" ]; then
		pass "$label: exit 255, \"$(grep -F -- "$expect" "$T/msg.$N" | head -1)\""
	else
		fail "$label${why}"
		sed 's/^/  stderr: /' "$T/err.$N" | head -20 >&2
	fi
}

# (a) banners.
hostile "binary garbage instead of a banner" "banner contains a NUL byte" \
    fake garbage-banner
hostile "an SSH-1.5 banner" "Protocol major versions differ" \
    fake ssh1-banner
hostile "pre-banner lines that never end" "invalid protocol identifier" \
    fake endless-banner

# (b) a valid banner, then a malformed cleartext packet.
hostile "packet length 0xfffffff0" "Bad packet length 4294967280." \
    fake bad-length
hostile "packet length not a block multiple" "padding error: need 17 block 8" \
    fake bad-block
hostile "padding length larger than the packet" \
    "Bad padding length 200 in packet of 12" fake bad-padding

# (c) real KEX through a proxy, then a flipped byte in the first
# encrypted server packet: the MAC or AEAD tag must catch it.
hostile "flipped byte under chacha20-poly1305" "Corrupted MAC on input." \
    proxy mac -o Ciphers=chacha20-poly1305@openssh.com
hostile "flipped byte under aes256-gcm" "Corrupted MAC on input." \
    proxy mac -o Ciphers=aes256-gcm@openssh.com
hostile "flipped byte under aes128-ctr + hmac-sha2-256" \
    "Corrupted MAC on input." \
    proxy mac -o Ciphers=aes128-ctr -o MACs=hmac-sha2-256
hostile "flipped byte under aes256-ctr + hmac-sha2-512-etm" \
    "Corrupted MAC on input." \
    proxy mac -o Ciphers=aes256-ctr -o MACs=hmac-sha2-512-etm@openssh.com
hostile "flipped byte under aes128-ctr + umac-64-etm" \
    "Corrupted MAC on input." \
    proxy mac -o Ciphers=aes128-ctr -o MACs=umac-64-etm@openssh.com
hostile "flipped byte under aes192-ctr + umac-128" \
    "Corrupted MAC on input." \
    proxy mac -o Ciphers=aes192-ctr -o MACs=umac-128@openssh.com

# (d) the last byte of the KEX reply's signature flipped: refused, and
# the host key is not recorded.
sig_case() { # sig_case LABEL SSH-OPTIONS...
	l=$1; shift
	hostile "bad KEX signature, $l" \
	    "incorrect signature" proxy sig "$@"
	if tail -1 "$T/msg.$N" | grep -q ": incorrect signature\$"; then
		pass "bad KEX signature, $l: last line ends \"incorrect signature\""
	else
		fail "bad KEX signature, $l: last line is \"$(tail -1 "$T/msg.$N")\""
	fi
	if [ -s "$T/kh.$N" ]; then
		fail "bad KEX signature, $l: host key recorded in known_hosts"
	else
		pass "bad KEX signature, $l: known_hosts left empty"
	fi
}
sig_case "ssh-ed25519 / curve25519" -o HostKeyAlgorithms=ssh-ed25519
sig_case "ecdsa-sha2-nistp256 / ecdh-nistp256" \
    -o HostKeyAlgorithms=ecdsa-sha2-nistp256 -o KexAlgorithms=ecdh-sha2-nistp256
sig_case "rsa-sha2-512 / group14-sha256" \
    -o HostKeyAlgorithms=rsa-sha2-512 \
    -o KexAlgorithms=diffie-hellman-group14-sha256
sig_case "rsa-sha2-256 / group-exchange-sha256" \
    -o HostKeyAlgorithms=rsa-sha2-256 \
    -o KexAlgorithms=diffie-hellman-group-exchange-sha256

# The real server was untouched by all this: a clean login still works.
out=$("$BIN/ssh" -F /dev/null -o BatchMode=yes -o UserKnownHostsFile=/dev/null \
    -o StrictHostKeyChecking=no -o IdentitiesOnly=yes -i "$T/id_ed25519" \
    -p "$PORT" "$ME@127.0.0.1" 'echo still-fine' </dev/null 2>/dev/null)
check "a clean connection to the real server afterwards" [ "$out" = still-fine ]
finish
