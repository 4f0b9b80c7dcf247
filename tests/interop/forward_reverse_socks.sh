#!/bin/sh
# Reverse dynamic forwarding, -R [bind:]port with no target: the server
# listens and our ssh serves SOCKS 4/4a/5 on each forwarded connection,
# connecting from the client side (as OpenSSH 7.6+). curl goes through
# the server-side port to a loopback http.server, against our sshd and
# (as root) Debian's OpenSSH sshd.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/forward.inc"
command -v curl >/dev/null 2>&1 || skip "curl not installed"
start_http

# through_r NAME: -R with no target, then curl in each SOCKS flavour.
through_r() {
	R=$(free_port)
	mssh -R "$R" "$ME@127.0.0.1" 'sleep 60' </dev/null >"$T/c-R.log" 2>&1 &
	SSH_PID=$!
	"$PY" "$H" wait 127.0.0.1 "$R" 10
	rm -f "$T/got5" "$T/got4a" "$T/got5b" "$T/got4"
	curl -s --max-time 20 --socks5-hostname "127.0.0.1:$R" \
	    "http://localhost:$HP/blob" -o "$T/got5"
	check "$1: SOCKS5 (hostname) through -R $R with curl" cmp -s "$T/got5" "$T/www/blob"
	curl -s --max-time 20 --socks4a "127.0.0.1:$R" \
	    "http://localhost:$HP/blob" -o "$T/got4a"
	check "$1: SOCKS4a through -R" cmp -s "$T/got4a" "$T/www/blob"
	curl -s --max-time 20 --socks5 "127.0.0.1:$R" \
	    "http://127.0.0.1:$HP/blob" -o "$T/got5b"
	check "$1: SOCKS5 (address) through -R" cmp -s "$T/got5b" "$T/www/blob"
	curl -s --max-time 20 --socks4 "127.0.0.1:$R" \
	    "http://127.0.0.1:$HP/blob" -o "$T/got4"
	check "$1: SOCKS4 through -R" cmp -s "$T/got4" "$T/www/blob"
	# Several at once.
	CPIDS=""
	for n in 1 2 3 4; do
		curl -s --max-time 20 --socks5-hostname "127.0.0.1:$R" \
		    "http://localhost:$HP/blob" -o "$T/par$n" &
		CPIDS="$CPIDS $!"
	done
	for p in $CPIDS; do wait $p; done
	ok=0
	for n in 1 2 3 4; do cmp -s "$T/par$n" "$T/www/blob" || ok=1; done
	check "$1: four SOCKS5 fetches at once" [ $ok = 0 ]
	# A refused target gives a SOCKS failure, and the session goes on.
	DEAD=$(free_port)
	curl -s --max-time 10 --socks5 "127.0.0.1:$R" "http://127.0.0.1:$DEAD/" -o /dev/null
	check "$1: refused target fails the SOCKS request" [ $? -ne 0 ]
	check "$1: session still up" kill -0 "$SSH_PID"
	curl -s --max-time 20 --socks5-hostname "127.0.0.1:$R" \
	    "http://localhost:$HP/blob" -o "$T/got5"
	check "$1: works after a refusal" cmp -s "$T/got5" "$T/www/blob"
	stop_ssh
}

write_config </dev/null
start_sshd
through_r "our sshd"

# -R 0 without a target: the allocated port is reported and serves SOCKS.
mssh -R 0 "$ME@127.0.0.1" 'sleep 60' </dev/null >"$T/c-R0.log" 2>&1 &
SSH_PID=$!
i=0; while ! grep -q "Allocated port" "$T/c-R0.log" && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
AP=$(sed -n 's/^Allocated port \([0-9]*\) .*/\1/p' "$T/c-R0.log")
check "-R 0 reports the allocated port" [ -n "$AP" ]
curl -s --max-time 20 --socks5-hostname "127.0.0.1:$AP" \
    "http://localhost:$HP/blob" -o "$T/got0"
check "-R 0: SOCKS5 through the allocated port" cmp -s "$T/got0" "$T/www/blob"
stop_ssh
kill "$SSHD_PID"; wait "$SSHD_PID" 2>/dev/null; SSHD_PID=""

if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	start_osshd
	through_r "OpenSSH sshd"
	stop_osshd
else
	echo "note: not root; the OpenSSH sshd part is skipped"
fi
finish
