#!/bin/sh
# bench/sftp.sh: one file up and down with our sftp (over our ssh) and
# Debian's sftp (over its ssh), against the same servers: our sshd with
# our sftp-server, and (as root) Debian's sshd with its own. Prints
# MB/s (median of REPS runs, default 3, ours and theirs interleaved so a
# busy spell does not fall on one side only) and the ratio ours/theirs
# (higher is better).
#
#   sh bench/sftp.sh [MiB]      (default 1024)
#
# The file lives in memory (tmpfs where there is one) at both ends, so
# the disk is not what is measured.
MIB=${1:-1024}
REPS=${REPS:-3}
. "$(dirname "$0")/lib.sh"
bench_init sftp mem

MOAT_PORT=$(free_port)
bench_config "$MOAT_PORT" "Subsystem sftp $BIN/sftp-server" \
    > "$T/moat_config"
bench_sshd "$BIN/sshd" "$T/moat_config" "$T/moat.log"
SERVERS="moat:$MOAT_PORT"
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/sshd ] &&
    [ -x /usr/lib/openssh/sftp-server ]; then
	mkdir -p /run/sshd
	OSSH_PORT=$(free_port)
	bench_config "$OSSH_PORT" \
	    "Subsystem sftp /usr/lib/openssh/sftp-server" > "$T/openssh_config"
	bench_sshd /usr/sbin/sshd "$T/openssh_config" "$T/openssh.log"
	SERVERS="$SERVERS OpenSSH:$OSSH_PORT"
fi

head -c "$((MIB * 1048576))" /dev/urandom > "$T/file"
mkdir "$T/remote" "$T/local"

now() { date +%s.%N; }
# MB/s of one transfer ("-" when it failed): rate sftp ssh port get|put
rate() {
	rm -f "$T/remote/f" "$T/local/f"
	[ "$4" = get ] && cp "$T/file" "$T/remote/f"
	if [ "$4" = get ]; then
		echo "get $T/remote/f $T/local/f" > "$T/batch"
	else
		echo "put $T/file $T/remote/f" > "$T/batch"
	fi
	t0=$(now)
	"$1" -q -S "$2" -F /dev/null -o BatchMode=yes \
	    -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
	    -o LogLevel=ERROR -i "$T/id" -P "$3" -b "$T/batch" 127.0.0.1 \
	    >/dev/null 2>"$T/err" || { echo -; return; }
	t1=$(now)
	if [ "$4" = get ]; then got="$T/local/f"; else got="$T/remote/f"; fi
	cmp -s "$T/file" "$got" || { echo -; return; }
	awk -v m="$MIB" -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.0f\n", m * 1.048576 / (b - a) }'
}
median() {
	sort -n | awk '/^[0-9]/ { v[n++] = $1 }
	    END { if (n == 0) print "-"; else print v[int((n - 1) / 2)] }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || b == "-" || b == 0) print "-";
		else printf "%.2f\n", a / b }'
}

echo "sftp, $MIB MiB one file (MB/s, higher is better; median of $REPS)"
printf '%-22s %10s %10s %7s\n' "server / direction" "our sftp" "OpenSSH" "ratio"
for s in $SERVERS; do
	name=${s%%:*} port=${s#*:}
	for dir in get put; do
		: > "$T/ours" ; : > "$T/theirs"
		i=0
		while [ $i -lt "$REPS" ]; do
			rate "$BIN/sftp" "$BIN/ssh" "$port" $dir >> "$T/ours"
			rate /usr/bin/sftp /usr/bin/ssh "$port" $dir >> "$T/theirs"
			i=$((i + 1))
		done
		o=$(median < "$T/ours")
		t=$(median < "$T/theirs")
		printf '%-22s %10s %10s %7s\n' "$name sshd, $dir" "$o" "$t" \
		    "$(ratio "$o" "$t")"
	done
done
