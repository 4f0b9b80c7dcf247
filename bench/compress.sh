#!/bin/sh
# bench/compress.sh: compressible text through ssh -C, up and down, our
# ssh against our sshd and (as root) Debian's ssh against Debian's
# sshd, on 127.0.0.1. The client reaches the server through a small
# relay (its ProxyCommand) that counts the bytes on the wire and, with
# RATE set (KiB/s), holds the link to that rate: a slow link simulated
# without touching the machine's network (tc would slow every other
# loopback user too, so it is not used). Prints MB/s of text moved
# (higher is better), wire MB, and how much smaller the wire was than
# the text; ours over OpenSSH's for the rate.
#
#   sh bench/compress.sh [MiB]        (default 64)
#   RATE=2048 sh bench/compress.sh 16 (a 2 MiB/s link)
MIB=${1:-64}
RATE=${RATE:-0}
. "$(dirname "$0")/lib.sh"
bench_init comp mem
bench_user
PY=/usr/bin/python3

# The relay: stdin/stdout to 127.0.0.1:PORT; at the end "up down"
# (bytes each way) into the file named; RATE KiB/s each way, 0: as fast
# as it goes.
cat > "$T/relay.py" <<'EOF'
import os, select, signal, socket, sys, time
port, out, rate = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) * 1024
s = socket.create_connection(("127.0.0.1", port))
n = {0: 0, 1: 0}
# ssh(1) may end its ProxyCommand with a signal: count all the same.
def done(*_):
    raise EOFError
signal.signal(signal.SIGHUP, done)
signal.signal(signal.SIGTERM, done)
start = time.monotonic()
open_in = True
try:
    while True:
        fds = [s] + ([0] if open_in else [])
        r, _, _ = select.select(fds, [], [])
        for f in r:
            if f == 0:
                d = os.read(0, 65536)
                if not d:
                    open_in = False
                    s.shutdown(socket.SHUT_WR)
                    continue
                s.sendall(d)
                n[0] += len(d)
                k = 0
            else:
                d = s.recv(65536)
                if not d:
                    raise EOFError
                v = memoryview(d)
                while v:
                    w = os.write(1, v)
                    v = v[w:]
                n[1] += len(d)
                k = 1
            if rate:
                ahead = n[k] / rate - (time.monotonic() - start)
                if ahead > 0:
                    time.sleep(ahead)
except (EOFError, OSError):
    pass
with open(out, "w") as fh:
    fh.write("%d %d\n" % (n[0], n[1]))
EOF

# Compressible text: the system's plain-text documentation, over and
# over (each copy far beyond zlib's 32 KiB window from the last).
find /usr/share/common-licenses /usr/share/doc -type f ! -name '*.gz' \
    -size -512k 2>/dev/null | head -400 | xargs cat 2>/dev/null \
    > "$T/base"
[ -s "$T/base" ] || seq 1 200000 > "$T/base"
while [ "$(stat -c %s "$T/text" 2>/dev/null || echo 0)" -lt \
    "$((MIB * 1048576))" ]; do
	cat "$T/base" >> "$T/text"
done
head -c "$((MIB * 1048576))" "$T/text" > "$T/file"
rm -f "$T/text"
SUM=$(sha256sum < "$T/file" | cut -d' ' -f1)

MOAT_PORT=$(free_port)
bench_config "$MOAT_PORT" "Compression yes" > "$T/moat_config"
bench_sshd "$BIN/sshd" "$T/moat_config" "$T/moat.log"
PAIRS="ours:$BIN/ssh:$MOAT_PORT"
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ] && [ -x /usr/bin/ssh ]; then
	mkdir -p /run/sshd
	OSSH_PORT=$(free_port)
	bench_config "$OSSH_PORT" "Compression yes" > "$T/openssh_config"
	bench_sshd /usr/sbin/sshd "$T/openssh_config" "$T/openssh.log"
	PAIRS="$PAIRS OpenSSH:/usr/bin/ssh:$OSSH_PORT"
else
	echo "(not root or no Debian sshd: OpenSSH's rows left out)" >&2
fi

now() { date +%s.%N; }
# move ssh port up|down: "MB/s wireMB" ("- -" when the text came out
# different or the client failed).
move() {
	rm -f "$T/count"
	_t0=$(now)
	if [ "$3" = up ]; then
		_got=$("$1" -C -F /dev/null -o BatchMode=yes \
		    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		    -o LogLevel=ERROR -o IdentitiesOnly=yes -i "$T/id" \
		    -o ProxyCommand="$PY $T/relay.py $2 $T/count $RATE" \
		    -l "$BUSER" 127.0.0.1 sha256sum < "$T/file" 2>>"$T/err" | cut -d' ' -f1)
	else
		_got=$("$1" -C -F /dev/null -o BatchMode=yes \
		    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		    -o LogLevel=ERROR -o IdentitiesOnly=yes -i "$T/id" \
		    -o ProxyCommand="$PY $T/relay.py $2 $T/count $RATE" \
		    -l "$BUSER" 127.0.0.1 cat "$T/file" </dev/null 2>>"$T/err" |
		    sha256sum | cut -d' ' -f1)
	fi
	_t1=$(now)
	i=0
	while [ ! -s "$T/count" ] && [ $i -lt 100 ]; do
		i=$((i + 1)); sleep 0.05
	done
	if [ "$_got" != "$SUM" ] || [ ! -s "$T/count" ]; then
		echo "- -"
		return
	fi
	read -r _up _down < "$T/count"
	[ "$3" = up ] && _w=$_up || _w=$_down
	awk -v m="$MIB" -v a="$_t0" -v b="$_t1" -v w="$_w" \
	    'BEGIN { printf "%.1f %.2f\n", m * 1.048576 / (b - a), w / 1e6 }'
}

if [ "$RATE" -gt 0 ]; then
	link="a $RATE KiB/s link (relay)"
else
	link="loopback through a counting relay"
fi
echo "ssh -C, $MIB MiB of text, $link"
printf '%-16s %10s %10s %8s\n' "client / way" "MB/s" "wire MB" "smaller"
for way in up down; do
	for pair in $PAIRS; do
		name=${pair%%:*} rest=${pair#*:}
		ssh=${rest%:*} port=${rest##*:}
		set -- $(move "$ssh" "$port" "$way")
		eval "R_${name}_$way=\$1"
		smaller=$(awk -v m="$MIB" -v w="$2" 'BEGIN {
			if (w == "-" || w == 0) print "-";
			else printf "%.1fx\n", m * 1.048576 / w }')
		printf '%-16s %10s %10s %8s\n' "$name, $way" "$1" "$2" "$smaller"
	done
done
if [ -n "${OSSH_PORT:-}" ]; then
	for way in up down; do
		eval "a=\$R_ours_$way b=\$R_OpenSSH_$way"
		printf '%-16s %10s\n' "ours/OpenSSH $way" "$(awk -v a="$a" \
		    -v b="$b" 'BEGIN { if (a == "-" || b == "-" || b == 0)
		    print "-"; else printf "%.2f\n", a / b }')"
	done
fi
if [ -s "$T/err" ]; then
	echo "errors:" >&2
	sort -u "$T/err" | head -5 >&2
fi
