#!/bin/sh
# Our ssh forwarding through Debian's OpenSSH sshd (root only; skipped
# otherwise) under each AllowTcpForwarding value, then, against our
# sshd: SOCKS5 through -D with curl, -W, and a -L whose port is in use
# with and without ExitOnForwardFailure.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/forward.inc"
MB50=$((50 * 1024 * 1024))
"$PY" "$H" serve echo "$T/echo.port" & SRV_PIDS="$SRV_PIDS $!"
i=0; while [ ! -s "$T/echo.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
EP=$(cat "$T/echo.port")

if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ]; then
	for mode in yes no local remote; do
		start_osshd "AllowTcpForwarding $mode"
		L=$(free_port)
		mssh -L "$L:127.0.0.1:$EP" "$ME@127.0.0.1" 'sleep 60' </dev/null >"$T/c-L.log" 2>&1 &
		SSH_PID=$!
		"$PY" "$H" wait 127.0.0.1 "$L" 10
		case $mode in yes|local)
			check "OpenSSH sshd, $mode: our -L carries 50 MiB both ways" \
			    "$PY" "$H" echo 127.0.0.1 "$L" $MB50 ;;
		*)
			"$PY" "$H" echo 127.0.0.1 "$L" 1000 2>/dev/null
			check "OpenSSH sshd, $mode: our -L refused" [ $? -ne 0 ]
			check "OpenSSH sshd, $mode: session stays up" kill -0 "$SSH_PID" ;;
		esac
		stop_ssh
		R=$(free_port)
		mssh -R "$R:127.0.0.1:$EP" "$ME@127.0.0.1" 'sleep 60' </dev/null >"$T/c-R.log" 2>&1 &
		SSH_PID=$!
		case $mode in yes|remote)
			"$PY" "$H" wait 127.0.0.1 "$R" 10
			check "OpenSSH sshd, $mode: our -R carries 50 MiB both ways" \
			    "$PY" "$H" echo 127.0.0.1 "$R" $MB50 ;;
		*)
			check "OpenSSH sshd, $mode: our -R refused" wait_log "$T/c-R.log" \
			    "remote port forwarding failed for listen port $R"
			check "OpenSSH sshd, $mode: session stays up" kill -0 "$SSH_PID" ;;
		esac
		stop_ssh
		stop_osshd
	done
else
	echo "note: not root; the OpenSSH sshd part is skipped"
fi

write_config </dev/null
start_sshd

# SOCKS5 through -D with curl.
if command -v curl >/dev/null 2>&1; then
	start_http
	D=$(free_port)
	mssh -D "$D" "$ME@127.0.0.1" 'sleep 60' </dev/null >"$T/c-D.log" 2>&1 &
	SSH_PID=$!
	"$PY" "$H" wait 127.0.0.1 "$D" 10
	curl -s --max-time 20 --socks5-hostname "127.0.0.1:$D" \
	    "http://localhost:$HP/blob" -o "$T/got5"
	check "SOCKS5 (hostname) through -D with curl" cmp -s "$T/got5" "$T/www/blob"
	curl -s --max-time 20 --socks4a "127.0.0.1:$D" \
	    "http://localhost:$HP/blob" -o "$T/got4"
	check "SOCKS4a through -D with curl" cmp -s "$T/got4" "$T/www/blob"
	curl -s --max-time 20 --socks5 "127.0.0.1:$D" \
	    "http://127.0.0.1:$HP/blob" -o "$T/got5b"
	check "SOCKS5 (address) through -D with curl" cmp -s "$T/got5b" "$T/www/blob"
	stop_ssh
else
	echo "note: curl not installed; SOCKS part skipped"
fi

# -W: stdin/stdout through one direct-tcpip channel.
head -c 2000000 /dev/urandom > "$T/win"
mssh -W "127.0.0.1:$EP" "$ME@127.0.0.1" <"$T/win" >"$T/wout" 2>"$T/w.log"
check "-W carries data both ways and exits 0" [ $? -eq 0 ]
check "-W data intact" cmp -s "$T/win" "$T/wout"

# A local forward whose port is in use.
BUSY=$(cat "$T/echo.port")
mssh -o ExitOnForwardFailure=yes -L "127.0.0.1:$BUSY:127.0.0.1:$EP" "$ME@127.0.0.1" 'echo ran' \
    </dev/null >"$T/busy.out" 2>"$T/busy.log"
check "port in use with ExitOnForwardFailure exits 255" [ $? -eq 255 ]
check "port in use reported" grep -q "Address already in use" "$T/busy.log"
check "no command ran" [ ! -s "$T/busy.out" ]
mssh -L "127.0.0.1:$BUSY:127.0.0.1:$EP" "$ME@127.0.0.1" 'echo ran' \
    </dev/null >"$T/busy2.out" 2>"$T/busy2.log"
check "port in use without ExitOnForwardFailure: error, session runs" \
    [ "$(cat "$T/busy2.out")" = ran ]
check "port in use reported (no exit)" grep -q "Could not request local forwarding" "$T/busy2.log"

# ClearAllForwardings drops the configured ones.
mssh -o ClearAllForwardings=yes -o ExitOnForwardFailure=yes \
    -L "127.0.0.1:$BUSY:127.0.0.1:$EP" "$ME@127.0.0.1" 'echo ran' </dev/null >"$T/clr.out" 2>/dev/null
check "ClearAllForwardings" [ "$(cat "$T/clr.out")" = ran ]
finish
