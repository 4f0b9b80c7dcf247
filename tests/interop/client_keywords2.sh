#!/bin/sh
# ssh_config keywords at run time against our sshd, and their -G lines
# and errors compared with Debian's ssh: RequiredRSASize,
# CASignatureAlgorithms, IPQoS, PermitRemoteOpen.
. "$(dirname "$0")/lib.sh"
need ssh
make_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/hca"
ssh-keygen -q -s "$T/hca" -I host -h -n 127.0.0.1 "$T/host_ed25519.pub"
echo "@cert-authority [127.0.0.1]:* $(cat "$T/hca.pub")" > "$T/kh_ca"
write_config <<EOF
HostCertificate $T/host_ed25519-cert.pub
EOF
start_sshd
# Defaults in a file: the command line's -o come first and win.
printf '%s\n' "BatchMode yes" "IdentitiesOnly yes" \
    "UserKnownHostsFile $T/kh" "StrictHostKeyChecking no" > "$T/cfg"
mssh() {
	"$BIN/ssh" -F "$T/cfg" "$@"
}
# -G KEYWORD CONFIG-LINES...: our line for it as Debian's ssh prints it.
gcheck() {
	kw=$1
	shift
	printf '%s\n' "$@" > "$T/gcfg"
	ours=$("$BIN/ssh" -G -F "$T/gcfg" h 2>&1 | grep "^$kw ")
	theirs=$(ssh -G -F "$T/gcfg" h 2>/dev/null </dev/null | grep "^$kw ")
	check "-G $kw as OpenSSH ($*: $ours)" [ -n "$theirs" ] &&
	    [ "$ours" = "$theirs" ]
}
# bad CONFIG-LINE: refused with Debian's first line and exit status.
bad() {
	printf '%s\n' "$1" > "$T/bcfg"
	"$BIN/ssh" -G -F "$T/bcfg" h >/dev/null 2>"$T/bours"
	so=$?
	ssh -G -F "$T/bcfg" h >/dev/null 2>"$T/btheirs" </dev/null
	st=$?
	o=$(head -1 "$T/bours" | tr -d '\r')
	t=$(head -1 "$T/btheirs" | tr -d '\r' | sed 's/Pseudo-terminal.*//')
	check "bad '$1': as OpenSSH ($so: $o)" [ "$so" = "$st" ] &&
	    [ "$o" = "$t" ]
}

# RequiredRSASize: the server's RSA host key (3072 bits) and our RSA
# user key are refused below the size, taken at the default.
gcheck requiredrsasize
gcheck requiredrsasize "RequiredRSASize 4096"
bad "RequiredRSASize big"
out=$(mssh -i "$T/id_ed25519" -o HostKeyAlgorithms=rsa-sha2-256 \
    -p "$PORT" "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/err")
check "RequiredRSASize: a 3072-bit host key by default" [ "$out" = "in" ]
out=$(mssh -i "$T/id_ed25519" -o HostKeyAlgorithms=rsa-sha2-256 \
    -o RequiredRSASize=4096 -p "$PORT" "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
st=$?
check "... refused below 4096 bits (exit $st)" [ -z "$out" ] && [ $st = 255 ]
check "... with OpenSSH's message" \
    grep -q "Bad server host key: Invalid key length" "$T/err"
out=$(mssh -i "$T/id_rsa" -p "$PORT" "$ME@127.0.0.1" 'echo in' \
    </dev/null 2>"$T/err")
check "... an RSA user key of 3072 bits by default" [ "$out" = "in" ]
out=$(mssh -v -i "$T/id_rsa" -o RequiredRSASize=4096 -p "$PORT" \
    "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/err")
check "... not below the size" [ -z "$out" ]
check "... skipped (debug)" grep -q "Skipping key $T/id_rsa" "$T/err"

# CASignatureAlgorithms: the algorithms a host certificate's CA may have
# signed with (here ssh-ed25519).
gcheck casignaturealgorithms "CASignatureAlgorithms ssh-ed25519,rsa-sha2-512"
gcheck casignaturealgorithms "CASignatureAlgorithms ecdsa*,rsa-sha2-256"
bad "CASignatureAlgorithms foo"
bad "CASignatureAlgorithms"
cmssh() {
	mssh -i "$T/id_ed25519" -o UserKnownHostsFile="$T/kh_ca" \
	    -o StrictHostKeyChecking=yes \
	    -o HostKeyAlgorithms=ssh-ed25519-cert-v01@openssh.com \
	    -p "$PORT" "$@" "$ME@127.0.0.1" 'echo in' </dev/null 2>"$T/err"
}
out=$(cmssh)
check "CASignatureAlgorithms: a host certificate by default" [ "$out" = in ]
out=$(cmssh -o CASignatureAlgorithms=ecdsa-sha2-nistp256,rsa-sha2-512)
check "... refused when its CA's algorithm is not listed" [ -z "$out" ]
check "... with OpenSSH's message" \
    grep -q "Certificate signed with disallowed algorithm" "$T/err"
out=$(cmssh -o CASignatureAlgorithms=-rsa*)
check "... taken when it is (-rsa*)" [ "$out" = in ]

# IPQoS: -G and errors as Debian's; the connection is marked interactive
# with a pty, bulk otherwise (ss shows our socket's tos).
gcheck ipqos
gcheck ipqos "IPQoS af21 cs1"
gcheck ipqos "IPQoS 0x04"
gcheck ipqos "IPQoS none 0x11"
gcheck ipqos "IPQoS CS1 Throughput"
for v in "IPQoS foo" "IPQoS af11 bar" "IPQoS 300" "IPQoS -1" \
    "IPQoS af11 cs1 ef" "IPQoS"; do
	bad "$v"
done
# tos_during ARGS...: the tos of our ssh's socket while "ARGS... sleep 0.5"
# runs, in $tos.
tos_during() {
	: > "$T/sshd.log"
	mssh -i "$T/id_ed25519" -p "$PORT" "$@" "$ME@127.0.0.1" sleep 0.5 \
	    </dev/null >/dev/null 2>&1 &
	cpid=$!
	tos=""
	i=0
	while [ -z "$tos" ] && [ $i -lt 100 ]; do
		grep -q "Starting session" "$T/sshd.log" &&
		    tos=$(ss -tn --tos state established \
		    "( dport = :$PORT )" | grep -o "tos:0x[0-9a-f]*" | head -1)
		i=$((i + 1))
		sleep 0.05
	done
	wait $cpid
}
if command -v ss >/dev/null && ss -h 2>&1 | grep -q -- --tos; then
	tos_during -T -o "IPQoS af11 cs1"
	check "IPQoS af11 cs1: a session without a pty is marked cs1 ($tos)" \
	    [ "$tos" = tos:0x20 ]
	tos_during -tt -o "IPQoS af11 cs1"
	check "... a pty session af11 ($tos)" [ "$tos" = tos:0x28 ]
	tos_during -tt
	check "IPQoS default: a pty session lowdelay ($tos)" \
	    [ "$tos" = tos:0x10 ]
	tos_during -T
	check "... others throughput ($tos)" [ "$tos" = tos:0x8 ]
else
	echo "no ss with --tos: IPQoS marking not checked"
fi

# PermitRemoteOpen: the destinations -R's SOCKS (no target) may reach.
gcheck permitremoteopen
gcheck permitremoteopen "PermitRemoteOpen none"
gcheck permitremoteopen "PermitRemoteOpen a:1 b*:* [::1]:22 :5 x:*"
for v in "any b:1" "a:1 none" "foo" "a:x" "a:0" "a/5" "[a" "[a]" "[a]x:5" \
    "a:5:6" "a:65536" ""; do
	bad "PermitRemoteOpen $v"
done
if command -v curl >/dev/null 2>&1; then
	mkdir "$T/www"
	echo "the page" > "$T/www/page"
	HP=$(free_port)
	python3 -m http.server --bind 127.0.0.1 --directory "$T/www" "$HP" \
	    >/dev/null 2>&1 &
	at_exit "kill $! 2>/dev/null"
	i=0
	until ss -ltn "( sport = :$HP )" | grep -q ":$HP" || [ $i -gt 200 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	# via OPENSPEC URLHOST: fetch http://URLHOST:$HP/page through -R's
	# SOCKS with PermitRemoteOpen OPENSPEC, in $got; ssh's stderr in err.
	via() {
		R=$(free_port)
		mssh -i "$T/id_ed25519" -p "$PORT" -R "$R" \
		    -o "PermitRemoteOpen $1" "$ME@127.0.0.1" 'sleep 8' \
		    </dev/null >/dev/null 2>"$T/err" &
		spid=$!
		i=0
		until ss -ltn "( sport = :$R )" | grep -q ":$R" ||
		    [ $i -gt 100 ]; do
			i=$((i + 1))
			sleep 0.05
		done
		got=$(curl -sS --max-time 10 --socks5-hostname \
		    "127.0.0.1:$R" "http://$2:$HP/page" 2>&1)
		kill $spid 2>/dev/null
		wait $spid 2>/dev/null
	}
	via any localhost
	check "PermitRemoteOpen any: reached" [ "$got" = "the page" ]
	via none localhost
	check "PermitRemoteOpen none: refused" [ "$got" != "the page" ]
	check "... logged as OpenSSH" grep -q "Received request from 127.0.0.1 port $PORT to connect to host localhost port $HP, but the request was denied." "$T/err"
	via "other:1 localhost:$HP" localhost
	check "PermitRemoteOpen host:port listed: reached" \
	    [ "$got" = "the page" ]
	via "*:$HP localhost:*" 127.0.0.1
	check "PermitRemoteOpen *:port: reached" [ "$got" = "the page" ]
	via "127.0.0.1:$HP" localhost
	check "... another name for the address: refused" [ "$got" != "the page" ]
	via "localhost:1" localhost
	check "... another port: refused" [ "$got" != "the page" ]
else
	echo "no curl: PermitRemoteOpen not checked at run time"
fi
finish
